/* b_eff, the effective bandwidth benchmark (version 3.2+ with ring
 * patterns): options, the pattern plan, the timed loops and the JSON
 * records.  The rules are ../shared/beff-spec.md; choices in docs/beff.md. */
#include "beff/beff.h"
#include "beff/beff_opts.h"
#include "core/guard.h"
#include "core/nodemap.h"
#include "core/error.h"
#include "core/buffers.h"
#include "core/json.h"
#include "core/registry.h"
#include "core/report/jsonl.h"
#include "core/simulate.h"
#include "core/sysinfo.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const beff_method_short[BEFF_MAX_METHODS] = {"Sndrcv", "Alltoal", "non-blk", "Irc+Snd",
                                                         "Isd+Rcv"};
const char *const beff_method_json[BEFF_MAX_METHODS] = {"sendrecv", "alltoallv", "nonblocking",
                                                        "irecv_send", "isend_recv"};

#define BEFF_FIRST_LOOP 300 /* iterations for the shortest message */
#define BEFF_BUF_FACTOR 6   /* send and receive buffers of 6 * L_max each */

/* This process's part of a pattern. */
typedef struct {
    MPI_Comm comm; /* the pattern's active processes; MPI_COMM_NULL when idle */
    int nsteps, nsend, nrecv;
    int to[BEFF_MAX_STEPS], from[BEFF_MAX_STEPS];
    int *sslot, *rslot; /* per comm rank: index of the send/recv slot, -1 none */
    int *scount, *sdispl, *rcount, *rdispl;
    int active_n;
} rank_plan;

typedef struct {
    char *sbuf, *rbuf;
    size_t cap;        /* bytes in each buffer */
    size_t soff, roff; /* running offsets: messages cycle through the buffers */
} cycle_bufs;

/* ---------------------------------------------------------------- plan */

/* One communicator per active-process count (ranks 0..active-1), built on
 * first use; MPI_COMM_NULL on the idle ranks. */
typedef struct {
    MPI_Comm *comm;
    char *built;
} comm_cache;

static MPI_Comm active_comm(int active, comm_cache *cc)
{
    if (!cc->built[active]) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_split(MPI_COMM_WORLD, rank < active ? 0 : MPI_UNDEFINED, rank, &cc->comm[active]);
        cc->built[active] = 1;
    }
    return cc->comm[active];
}

static void build_rank_plan(rank_plan *rp, const beff_pattern *pt, int me, comm_cache *cc)
{
    memset(rp, 0, sizeof *rp);
    rp->comm = active_comm(pt->active, cc);
    rp->active_n = pt->active;
    rp->nsteps = pt->nsteps;
    for (int s = 0; s < BEFF_MAX_STEPS; s++) {
        rp->to[s] = beff_to(pt, me, s);
        rp->from[s] = beff_from(pt, me, s);
    }
    if (rp->comm == MPI_COMM_NULL)
        return;
    int n = pt->active;
    rp->sslot = eb_malloc((size_t)n * sizeof(int));
    rp->rslot = eb_malloc((size_t)n * sizeof(int));
    rp->scount = eb_calloc((size_t)n, sizeof(int));
    rp->sdispl = eb_calloc((size_t)n, sizeof(int));
    rp->rcount = eb_calloc((size_t)n, sizeof(int));
    rp->rdispl = eb_calloc((size_t)n, sizeof(int));
    for (int i = 0; i < n; i++)
        rp->sslot[i] = rp->rslot[i] = -1;
    for (int s = 0; s < rp->nsteps; s++) {
        if (rp->to[s] >= 0) {
            /* One message per partner and direction in every pattern (rings
             * of 2 drop the pong step), so Alltoallv needs one block each. */
            if (rp->sslot[rp->to[s]] >= 0)
                eb_abort("b_eff: pattern %s sends twice to %d", pt->name, rp->to[s]);
            rp->sslot[rp->to[s]] = rp->nsend++;
        }
        if (rp->from[s] >= 0) {
            if (rp->rslot[rp->from[s]] >= 0)
                eb_abort("b_eff: pattern %s receives twice from %d", pt->name, rp->from[s]);
            rp->rslot[rp->from[s]] = rp->nrecv++;
        }
    }
}

static void free_rank_plan(rank_plan *rp)
{
    free(rp->sslot);
    free(rp->rslot);
    free(rp->scount);
    free(rp->sdispl);
    free(rp->rcount);
    free(rp->rdispl);
}

static void set_alltoallv_counts(rank_plan *rp, long L, size_t L8)
{
    if (rp->comm == MPI_COMM_NULL)
        return;
    for (int i = 0; i < rp->active_n; i++) {
        rp->scount[i] = rp->sslot[i] >= 0 ? (int)L : 0;
        rp->sdispl[i] = rp->sslot[i] >= 0 ? (int)((size_t)rp->sslot[i] * L8) : 0;
        rp->rcount[i] = rp->rslot[i] >= 0 ? (int)L : 0;
        rp->rdispl[i] = rp->rslot[i] >= 0 ? (int)((size_t)rp->rslot[i] * L8) : 0;
    }
}

/* Where ranks 0 and 1 share a node and another rank is elsewhere (or the
 * other way round), a second ping-pong pair of the other kind, (0, first such
 * rank): the summary then gives intra-node and inter-node figures apart (as
 * the paper's SR 8000 rows compare placements).  Returns the patterns added. */
static int add_other_pingpong(beff_run *r, beff_pattern *pt)
{
    if (r->pingpong < 0)
        return 0;
    const eb_nodemap *m = eb_world_nodes();
    int intra01 = m->node_of[0] == m->node_of[1];
    for (int b = 2; b < r->P; b++)
        if ((m->node_of[b] == m->node_of[0]) != intra01) {
            beff_make_pingpong_pair(pt, r->P, 0, b, intra01 ? "PingPong inter-node"
                                                            : "PingPong intra-node");
            r->pingpong_other = r->pingpong + 1;
            return 1;
        }
    return 0;
}

/* The patterns in the original's order: rings, random, then the analysis
 * patterns. */
static void build_patterns(beff_run *r)
{
    int P = r->P;
    int max = BEFF_NRINGS + r->opt.nrandom + 5 + 2 + 8;
    r->pat = eb_calloc((size_t)max, sizeof *r->pat);
    int n = 0;
    for (int k = 0; k < BEFF_NRINGS; k++)
        beff_make_ring_pattern(&r->pat[n++], k, P);
    r->nring = BEFF_NRINGS;
    beff_rng g;
    beff_rng_seed(&g, r->opt.seed);
    r->random_order = eb_malloc((size_t)r->opt.nrandom * P * sizeof *r->random_order);
    for (int k = 0; k < r->opt.nrandom; k++) {
        int *perm = r->random_order + (size_t)k * P;
        beff_permutation(&g, P, perm);
        beff_make_random_pattern(&r->pat[n++], P, perm);
    }
    r->nrandom = r->opt.nrandom;
    beff_make_worst_cycle(&r->pat[n++], P);
    n += beff_make_bisection(&r->pat[n], P, 0);
    n += beff_make_bisection(&r->pat[n], P, 1);
    r->pingpong = r->pingpong_other = -1;
    if (beff_make_pingpong(&r->pat[n], P))
        r->pingpong = n++;
    n += add_other_pingpong(r, &r->pat[n]);
    r->q2 = beff_cart_procs(P, 2, MPI_Dims_create, r->dims2);
    r->q3 = beff_cart_procs(P, 3, MPI_Dims_create, r->dims3);
    int has2 = r->dims2[0] > 1 || r->dims2[1] > 1;
    int has3 = r->dims3[0] > 1 || r->dims3[1] > 1 || r->dims3[2] > 1;
    if (has2)
        beff_make_cart(&r->pat[n++], P, 2, r->dims2, -1, 0);
    if (has3)
        beff_make_cart(&r->pat[n++], P, 3, r->dims3, -1, 0);
    for (int nd = 2; nd <= 3; nd++) {
        const int *dims = nd == 2 ? r->dims2 : r->dims3;
        if (!(nd == 2 ? has2 : has3))
            continue;
        for (int d = 0; d < nd; d++)
            if (dims[d] > 1)
                beff_make_cart(&r->pat[n++], P, nd, dims, d, 1);
        beff_make_cart(&r->pat[n++], P, nd, dims, -1, 1);
    }
    r->npat = n;
    r->messages = eb_malloc((size_t)n * sizeof *r->messages);
    for (int i = 0; i < n; i++)
        r->messages[i] = beff_messages(&r->pat[i]);
}

/* ---------------------------------------------------------- the loops */

/* The next region of `need` bytes, wrapping when it would not fit; regions
 * start at multiples of L8, so message j of a region is at j * L8. */
static size_t next_region(size_t *off, size_t need, size_t cap)
{
    if (*off + need > cap)
        *off = 0;
    size_t base = *off;
    *off += need;
    return base;
}

/* One iteration of the pattern with method m: L bytes per message. */
static void iterate(const rank_plan *rp, int m, long L, size_t L8, char *sb, char *rb)
{
    MPI_Request req[2 * BEFF_MAX_STEPS];
    int nreq = 0, js = 0, jr = 0;
    int cnt = (int)L;
    switch (m) {
    case BEFF_SENDRECV:
        for (int s = 0; s < rp->nsteps; s++) {
            int to = rp->to[s], from = rp->from[s];
            char *sp = sb + (size_t)js * L8, *rpp = rb + (size_t)jr * L8;
            if (to >= 0 && from >= 0)
                MPI_Sendrecv(sp, cnt, MPI_BYTE, to, 0, rpp, cnt, MPI_BYTE, from, 0, rp->comm,
                             MPI_STATUS_IGNORE);
            else if (to >= 0)
                MPI_Send(sp, cnt, MPI_BYTE, to, 0, rp->comm);
            else if (from >= 0)
                MPI_Recv(rpp, cnt, MPI_BYTE, from, 0, rp->comm, MPI_STATUS_IGNORE);
            js += to >= 0;
            jr += from >= 0;
        }
        break;
    case BEFF_ALLTOALLV:
        MPI_Alltoallv(sb, rp->scount, rp->sdispl, MPI_BYTE, rb, rp->rcount, rp->rdispl, MPI_BYTE,
                      rp->comm);
        break;
    case BEFF_NONBLOCKING:
    case BEFF_IRECV_SEND:
    case BEFF_ISEND_RECV:
        if (m != BEFF_ISEND_RECV)
            for (int s = 0; s < rp->nsteps; s++)
                if (rp->from[s] >= 0) {
                    MPI_Irecv(rb + (size_t)jr * L8, cnt, MPI_BYTE, rp->from[s], 0, rp->comm,
                              &req[nreq++]);
                    jr++;
                }
        for (int s = 0; s < rp->nsteps; s++)
            if (rp->to[s] >= 0) {
                if (m == BEFF_IRECV_SEND)
                    MPI_Send(sb + (size_t)js * L8, cnt, MPI_BYTE, rp->to[s], 0, rp->comm);
                else
                    MPI_Isend(sb + (size_t)js * L8, cnt, MPI_BYTE, rp->to[s], 0, rp->comm,
                              &req[nreq++]);
                js++;
            }
        if (m == BEFF_ISEND_RECV)
            for (int s = 0; s < rp->nsteps; s++)
                if (rp->from[s] >= 0) {
                    MPI_Recv(rb + (size_t)jr * L8, cnt, MPI_BYTE, rp->from[s], 0, rp->comm,
                             MPI_STATUS_IGNORE);
                    jr++;
                }
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        break;
    }
}

/* Receive slot j of an iteration holds the message from this source. */
static int slot_source(const rank_plan *rp, int j)
{
    for (int s = 0, k = 0; s < rp->nsteps; s++)
        if (rp->from[s] >= 0 && k++ == j)
            return rp->from[s];
    return -1;
}

/* The cheap check of every message: its first and last byte. */
static long check_ends(const rank_plan *rp, long L, size_t L8, const char *rb)
{
    long bad = 0;
    if (eb_sim_active())
        return 0; /* shared buffers in a simulation carry no data */
    for (int j = 0; j < rp->nrecv; j++) {
        int src = slot_source(rp, j);
        const unsigned char *p = (const unsigned char *)rb + (size_t)j * L8;
        bad += p[0] != eb_pattern_byte(src, 0);
        bad += p[L - 1] != eb_pattern_byte(src, (size_t)L - 1);
    }
    return bad;
}

/* Runs n iterations after a barrier; returns this process's loop time. */
static double timed_loop(const rank_plan *rp, int m, long L, size_t L8, long n, int warmup,
                         cycle_bufs *cb, long *defects)
{
    int idle = rp->comm == MPI_COMM_NULL;
    size_t sneed = (size_t)rp->nsend * L8, rneed = (size_t)rp->nrecv * L8;
    if (!idle && warmup)
        iterate(rp, m, L, L8, cb->sbuf + next_region(&cb->soff, sneed, cb->cap),
                cb->rbuf + next_region(&cb->roff, rneed, cb->cap));
    MPI_Barrier(MPI_COMM_WORLD);
    if (idle)
        return 0;
    long bad = 0;
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        char *sb = cb->sbuf + next_region(&cb->soff, sneed, cb->cap);
        char *rb = cb->rbuf + next_region(&cb->roff, rneed, cb->cap);
        iterate(rp, m, L, L8, sb, rb);
        bad += check_ends(rp, L, L8, rb);
    }
    double t = MPI_Wtime() - t0;
    *defects += bad;
    return t;
}

/* -check: two iterations into poisoned receive areas, every byte verified. */
static long checked_pass(const rank_plan *rp, int m, long L, size_t L8, cycle_bufs *cb)
{
    long bad = 0;
    int idle = rp->comm == MPI_COMM_NULL;
    for (int i = 0; i < 2; i++) {
        size_t sb = next_region(&cb->soff, (size_t)rp->nsend * L8, cb->cap);
        size_t rb = next_region(&cb->roff, (size_t)rp->nrecv * L8, cb->cap);
        if (!idle)
            eb_poison(cb->rbuf + rb, (size_t)rp->nrecv * L8);
        MPI_Barrier(MPI_COMM_WORLD);
        if (idle)
            continue;
        iterate(rp, m, L, L8, cb->sbuf + sb, cb->rbuf + rb);
        for (int j = 0; j < rp->nrecv; j++)
            bad += eb_check_pattern(cb->rbuf + rb + (size_t)j * L8, (size_t)L,
                                    slot_source(rp, j), 0);
    }
    return bad;
}

/* Every process sends its pattern at the message offset: byte k of every
 * message from rank x is eb_pattern_byte(x, k). */
static void fill_send(cycle_bufs *cb, int rank, size_t L8)
{
    if (eb_sim_active())
        return; /* shared buffers: no payload */
    size_t first = cb->cap < L8 ? cb->cap : L8;
    eb_fill_pattern(cb->sbuf, first, rank, 0);
    for (size_t o = first; o < cb->cap; o += L8) /* copies: cheaper than recomputing */
        memcpy(cb->sbuf + o, cb->sbuf, cb->cap - o < L8 ? cb->cap - o : L8);
}

/* The loop length: 300 for the first loop, then scaled from the previous
 * loop's time so that a loop takes loop_ms .. 2 * loop_ms, never below 1. */
long beff_next_looplength(long n, double t_loop, double loop_ms)
{
    double lo = loop_ms * 1e-3, hi = 2 * lo;
    if (t_loop >= lo && t_loop <= hi)
        return n;
    double want = t_loop > 0 ? n * 1.5 * lo / t_loop : n * 10.0;
    if (want > 1e8)
        want = 1e8;
    long next = (long)floor(want + 0.5);
    return next < 1 ? 1 : next;
}

static void emit_result(const beff_run *r, int p, int l, int m, int rep)
{
    size_t i = beff_idx(r, p, l, m, rep);
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", "beff");
    eb_json_str(&j, "benchmark", r->pat[p].name);
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", r->P);
    eb_json_int(&j, "bytes", r->len[l]);
    eb_json_int(&j, "repetitions", r->loop[i]);
    eb_json_num(&j, "t_min_us", r->tmin[i] * 1e6);
    eb_json_num(&j, "t_max_us", r->tmax[i] * 1e6);
    eb_json_num(&j, "t_avg_us", r->tavg[i] * 1e6);
    eb_json_null(&j, "mbytes_per_s");
    if (r->opt.check)
        eb_json_int(&j, "defects", r->defects[i]);
    else
        eb_json_null(&j, "defects");
    eb_json_int(&j, "pattern", p);
    eb_json_str(&j, "pattern_kind", r->pat[p].kind == BEFF_RING     ? "ring"
                                    : r->pat[p].kind == BEFF_RANDOM ? "random"
                                                                     : "analysis");
    eb_json_str(&j, "method", beff_method_json[m]);
    eb_json_int(&j, "rep", rep);
    eb_json_int(&j, "length_index", l);
    eb_json_int(&j, "messages", r->messages[p]);
    eb_json_int(&j, "active_procs", r->pat[p].active);
    eb_json_num(&j, "b_mb_per_s", r->b[i]);
    eb_jsonl_emit(&j);
}

static void alloc_values(beff_run *r)
{
    size_t nval = (size_t)r->npat * BEFF_NLEN * (size_t)r->nmeth * BEFF_REPS;
    r->b = eb_malloc(nval * sizeof(double));
    r->tmin = eb_malloc(nval * sizeof(double));
    r->tmax = eb_malloc(nval * sizeof(double));
    r->tavg = eb_malloc(nval * sizeof(double));
    r->loop = eb_calloc(nval, sizeof(long));
    r->defects = eb_calloc(nval, sizeof(long));
    r->resumed = eb_calloc(nval, 1);
    for (size_t i = 0; i < nval; i++)
        r->b[i] = r->tmin[i] = r->tmax[i] = r->tavg[i] = NAN;
}

/* --resume: the measurements of the interrupted run, b(pat, L, mthd, rep)
 * one by one, each checked against this run's plan (same on every rank, so
 * every rank skips the same loops).  The loop length rule then continues
 * from their loop lengths and times as if the run had not stopped. */
static void load_resumed(beff_run *r, const eb_resume *rs, const char *path)
{
    char msg[EB_ERRLEN] = "";
    for (int k = 0; k < rs->nrows && !msg[0]; k++) {
        const char *row = rs->rows[k];
        char name[128] = "", meth[32] = "";
        eb_jsonl_str(row, "benchmark", name, sizeof name);
        eb_jsonl_str(row, "method", meth, sizeof meth);
        long long p = eb_jsonl_int(row, "pattern", -1), l = eb_jsonl_int(row, "length_index", -1);
        long long rep = eb_jsonl_int(row, "rep", -1), bytes = eb_jsonl_int(row, "bytes", -1);
        long long loop = eb_jsonl_int(row, "repetitions", 0);
        double b = eb_jsonl_num(row, "b_mb_per_s"), tmax = eb_jsonl_num(row, "t_max_us");
        int m = -1;
        for (int i = 0; i < r->nmeth; i++)
            if (strcmp(meth, beff_method_json[i]) == 0)
                m = i;
        long line = rs->line[k];
        if (p < 0 || p >= r->npat || strcmp(name, r->pat[p].name) != 0)
            snprintf(msg, sizeof msg, "--resume %s:%ld: pattern %lld '%s' is not a pattern of this "
                     "run", path, line, p, name);
        else if (l < 0 || l >= BEFF_NLEN || bytes != r->len[l])
            snprintf(msg, sizeof msg, "--resume %s:%ld: length %lld of %lld bytes is not a length "
                     "of this run", path, line, l, bytes);
        else if (m < 0 || (r->pat[p].sendrecv_only && m != BEFF_SENDRECV))
            snprintf(msg, sizeof msg, "--resume %s:%ld: method '%s' is not measured for %s in this "
                     "run", path, line, meth, name);
        else if (rep < 0 || rep >= BEFF_REPS)
            snprintf(msg, sizeof msg, "--resume %s:%ld: repetition %lld is not 0..%d", path, line,
                     rep, BEFF_REPS - 1);
        else if (loop < 1 || !(b > 0) || !(tmax > 0))
            snprintf(msg, sizeof msg, "--resume %s:%ld: no valid repetitions, t_max_us and "
                     "b_mb_per_s", path, line);
        if (msg[0])
            break;
        size_t i = beff_idx(r, (int)p, (int)l, m, (int)rep);
        if (r->resumed[i]) {
            snprintf(msg, sizeof msg, "--resume %s:%ld: %s %s length %lld repetition %lld is in "
                     "the file twice", path, line, name, meth, l, rep);
            break;
        }
        r->resumed[i] = 1;
        r->nresumed++;
        r->b[i] = b;
        r->loop[i] = (long)loop;
        r->tmax[i] = tmax * 1e-6;
        r->tmin[i] = eb_jsonl_num(row, "t_min_us") * 1e-6;
        r->tavg[i] = eb_jsonl_num(row, "t_avg_us") * 1e-6;
        r->defects[i] = (long)eb_jsonl_int(row, "defects", 0);
    }
    if (msg[0])
        eb_exit_all(EB_EXIT_USAGE, msg);
}

/* All loops, in the order rep -> length -> pattern -> method.  Times are
 * reduced once per (rep, length) so no collective sits between loops other
 * than the barrier that starts each one.  Values read back by --resume are
 * not measured again. */
static long measure(beff_run *r)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    comm_cache cc;
    cc.comm = eb_malloc(((size_t)r->P + 1) * sizeof *cc.comm);
    cc.built = eb_calloc((size_t)r->P + 1, 1);
    for (int i = 0; i <= r->P; i++)
        cc.comm[i] = MPI_COMM_NULL;
    rank_plan *rp = eb_malloc((size_t)r->npat * sizeof *rp);
    for (int p = 0; p < r->npat; p++)
        build_rank_plan(&rp[p], &r->pat[p], rank, &cc);

    cycle_bufs cb = {0};
    cb.cap = (size_t)BEFF_BUF_FACTOR * (size_t)r->lmax;
    cb.sbuf = eb_msgbuf_alloc(cb.cap);
    cb.rbuf = eb_msgbuf_alloc(cb.cap);
    if (!eb_sim_active())
        memset(cb.rbuf, 0, cb.cap);

    int nm = r->nmeth, batch = r->npat * nm;
    double *loc = eb_malloc((size_t)batch * 5 * sizeof(double));
    double *mx = eb_malloc((size_t)batch * 2 * sizeof(double));
    double *sm = eb_malloc((size_t)batch * 3 * sizeof(double));
    long cheap_bad_total = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = MPI_Wtime();
    for (int rep = 0; rep < BEFF_REPS; rep++)
        for (int l = 0; l < BEFF_NLEN; l++) {
            int todo = 0;
            for (int p = 0; p < r->npat; p++)
                for (int m = 0; m < nm; m++)
                    todo += !(r->pat[p].sendrecv_only && m != BEFF_SENDRECV) &&
                            !r->resumed[beff_idx(r, p, l, m, rep)];
            if (!todo)
                continue; /* all of this (rep, length) is in the --resume file */
            long L = r->len[l];
            size_t L8 = ((size_t)L + 7) & ~(size_t)7;
            char what[96];
            snprintf(what, sizeof what, "b_eff repetition %d, %ld bytes, every pattern", rep, L);
            /* each measurement's loop aims at loop_ms; the first ones and -check take longer */
            eb_guard_row(what, (double)todo * r->opt.loop_ms * 1e-3 * 10, MPI_COMM_WORLD);
            fill_send(&cb, rank, L8);
            cb.soff = cb.roff = 0; /* regions start at multiples of L8 */
            for (int p = 0; p < r->npat; p++)
                set_alltoallv_counts(&rp[p], L, L8);
            for (int p = 0; p < r->npat; p++)
                for (int m = 0; m < nm; m++) {
                    double *v = loc + (size_t)(p * nm + m) * 5;
                    v[0] = -1; /* not measured */
                    if ((r->pat[p].sendrecv_only && m != BEFF_SENDRECV) ||
                        r->resumed[beff_idx(r, p, l, m, rep)])
                        continue;
                    long n;
                    if (rep > 0) {
                        size_t prev = beff_idx(r, p, l, m, rep - 1);
                        n = beff_next_looplength(r->loop[prev], r->tmax[prev] * r->loop[prev],
                                                 r->opt.loop_ms);
                    } else if (l > 0) {
                        size_t prev = beff_idx(r, p, l - 1, m, 0);
                        n = beff_next_looplength(r->loop[prev], r->tmax[prev] * r->loop[prev],
                                                 r->opt.loop_ms);
                    } else {
                        n = BEFF_FIRST_LOOP;
                    }
                    n = eb_sim_cap_loop(n);
                    r->loop[beff_idx(r, p, l, m, rep)] = n;
                    long full_bad = 0, cheap_bad = 0;
                    if (r->opt.check && rep == 0)
                        full_bad = checked_pass(&rp[p], m, L, L8, &cb);
                    int active = rp[p].comm != MPI_COMM_NULL;
                    double t = timed_loop(&rp[p], m, L, L8, n, l < BEFF_NLEN - 3, &cb, &cheap_bad);
                    cheap_bad_total += cheap_bad;
                    v[0] = active ? t : -1;
                    v[1] = active ? -t : -INFINITY;
                    v[2] = active ? t : 0;
                    v[3] = active;
                    v[4] = (double)(full_bad + cheap_bad);
                }
            for (int k = 0; k < batch; k++) {
                mx[2 * k] = loc[5 * k];
                mx[2 * k + 1] = loc[5 * k + 1];
                sm[3 * k] = loc[5 * k + 2];
                sm[3 * k + 1] = loc[5 * k + 3];
                sm[3 * k + 2] = loc[5 * k + 4];
            }
            MPI_Allreduce(MPI_IN_PLACE, mx, 2 * batch, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, sm, 3 * batch, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            for (int p = 0; p < r->npat; p++)
                for (int m = 0; m < nm; m++) {
                    int k = p * nm + m;
                    size_t i = beff_idx(r, p, l, m, rep);
                    if ((r->pat[p].sendrecv_only && m != BEFF_SENDRECV) || r->resumed[i])
                        continue;
                    long n = r->loop[i];
                    double tmax = mx[2 * k] > 0 ? mx[2 * k] : 1e-9; /* clock granularity */
                    r->tmax[i] = tmax / n;
                    r->tmin[i] = -mx[2 * k + 1] / n;
                    r->tavg[i] = sm[3 * k] / sm[3 * k + 1] / n;
                    r->defects[i] = (long)sm[3 * k + 2];
                    r->b[i] = (double)L * r->messages[p] * n / tmax / 1e6;
                    r->sum_loop_s += tmax;
                    if (rank == 0)
                        emit_result(r, p, l, m, rep);
                }
            eb_guard_row_end();
        }
    r->elapsed_s = MPI_Wtime() - t_start;
    /* the fastest repetition of every (pattern, length, method), of the
     * loops of this run, as elapsed_s and sum_loop_s */
    for (int p = 0; p < r->npat; p++)
        for (int l = 0; l < BEFF_NLEN; l++)
            for (int m = 0; m < nm; m++) {
                double best = INFINITY;
                for (int rep = 0; rep < BEFF_REPS; rep++) {
                    size_t i = beff_idx(r, p, l, m, rep);
                    if (!r->resumed[i] && !isnan(r->tmax[i]) && r->tmax[i] * r->loop[i] < best)
                        best = r->tmax[i] * r->loop[i];
                }
                if (best < INFINITY)
                    r->sum_fastest_s += best;
            }
    MPI_Allreduce(MPI_IN_PLACE, &cheap_bad_total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

    free(loc);
    free(mx);
    free(sm);
    eb_msgbuf_free(cb.sbuf);
    eb_msgbuf_free(cb.rbuf);
    for (int p = 0; p < r->npat; p++)
        free_rank_plan(&rp[p]);
    free(rp);
    for (int i = 0; i <= r->P; i++)
        if (cc.comm[i] != MPI_COMM_NULL)
            MPI_Comm_free(&cc.comm[i]);
    free(cc.comm);
    free(cc.built);
    return cheap_bad_total;
}

/* ------------------------------------------------------------ the run */

/* The result records a whole run writes, one per b(pat, L, mthd, rep): the
 * launcher's progress bar (python/effbench/launcher.py) counts towards it. */
static long long planned_rows(const beff_run *r)
{
    long long per_length = 0;
    for (int p = 0; p < r->npat; p++)
        per_length += r->pat[p].sendrecv_only ? 1 : r->nmeth;
    return per_length * BEFF_NLEN * BEFF_REPS;
}

/* The run record (collective: the host list); the caller emits it. */
static void run_json(eb_json *jp, const beff_run *r)
{
    eb_json j;
    eb_jsonl_run_begin(&j, "beff", &r->si, r->opt.check);
    eb_json_object(&j, "options");
    eb_guard_plan_rows(planned_rows(r));
    eb_json_int(&j, "planned_rows", planned_rows(r));
    eb_json_int(&j, "mem_per_proc_mb", r->opt.mem_mib);
    eb_json_bool(&j, "mem_detected", r->opt.mem_detected);
    eb_json_int(&j, "l_max_bytes", r->lmax);
    eb_json_array(&j, "lengths");
    for (int l = 0; l < BEFF_NLEN; l++)
        eb_json_int(&j, NULL, r->len[l]);
    eb_json_close(&j);
    eb_json_int(&j, "random_patterns", r->opt.nrandom);
    eb_json_int(&j, "seed", (long long)r->opt.seed);
    eb_json_bool(&j, "split_nonblocking", r->opt.split_nonblocking);
    eb_json_array(&j, "methods");
    for (int m = 0; m < r->nmeth; m++)
        eb_json_str(&j, NULL, beff_method_json[m]);
    eb_json_close(&j);
    if (r->opt.rmax_gflops > 0)
        eb_json_num(&j, "rmax_gflops", r->opt.rmax_gflops);
    else
        eb_json_null(&j, "rmax_gflops");
    eb_json_num(&j, "loop_ms", r->opt.loop_ms);
    eb_json_str(&j, "protocol", r->opt.protocol_path);
    eb_json_array(&j, "patterns");
    for (int p = 0; p < r->npat; p++)
        eb_json_str(&j, NULL, r->pat[p].name);
    eb_json_close(&j);
    eb_json_close(&j);
    *jp = j;
}

static void summary_json(const beff_run *r, const beff_summary *s)
{
    eb_json j;
    eb_jsonl_begin(&j, "summary");
    eb_json_str(&j, "component", "beff");
    eb_json_num(&j, "b_eff_mb_per_s", s->b_eff);
    eb_json_num(&j, "b_eff_per_proc_mb_per_s", s->b_eff / r->P);
    eb_json_num(&j, "b_eff_rings_mb_per_s", s->b_rings);
    eb_json_num(&j, "b_eff_random_mb_per_s", s->b_random);
    eb_json_num(&j, "b_eff_lmax_mb_per_s", s->lmax_all);
    eb_json_num(&j, "b_eff_lmax_per_proc_mb_per_s", s->lmax_all / r->P);
    eb_json_num(&j, "b_eff_lmax_rings_mb_per_s", s->lmax_rings);
    eb_json_num(&j, "b_eff_lmax_rings_per_proc_mb_per_s", s->lmax_rings / r->P);
    eb_json_num(&j, "latency_us", s->latency_us);
    eb_json_num(&j, "latency_rings_us", s->latency_rings_us);
    eb_json_num(&j, "pingpong_latency_us", s->pingpong_latency_us);
    eb_json_num(&j, "pingpong_bw_mb_per_s", s->pingpong_bw);
    if (r->pingpong >= 0) {
        /* the same figures by where the pair ran (null where no pair of that kind) */
        eb_json_str(&j, "pingpong_link", eb_link_label(0, 1));
        for (int k = 0; k < 2; k++) {
            static const char *const lat[] = {"pingpong_intra_latency_us",
                                              "pingpong_inter_latency_us"};
            static const char *const bw[] = {"pingpong_intra_bw_mb_per_s",
                                             "pingpong_inter_bw_mb_per_s"};
            eb_json_num(&j, lat[k], s->link_latency_us[k]);
            eb_json_num(&j, bw[k], s->link_bw[k]);
        }
    }
    eb_json_int(&j, "procs", r->P);
    eb_json_int(&j, "mem_per_proc_mb", r->opt.mem_mib);
    eb_json_int(&j, "l_max_bytes", r->lmax);
    if (r->opt.rmax_gflops > 0)
        eb_json_num(&j, "balance_bytes_per_flop", s->b_eff / (r->opt.rmax_gflops * 1e3));
    else
        eb_json_null(&j, "balance_bytes_per_flop");
    eb_json_num(&j, "elapsed_s", r->elapsed_s);
    eb_json_num(&j, "timed_loops_s", r->sum_loop_s);
    char line[2048];
    beff_result_line(line, sizeof line, r, s);
    eb_json_str(&j, "line", line);
    eb_jsonl_emit(&j);
}

/* Memory per process: the node's memory over the processes on it, the
 * smallest over all nodes so every process uses the same lengths. */
static long detect_mem_mib(void)
{
    int local = eb_hosts(NULL);
    double bytes = eb_node_memory_bytes();
    long mib = bytes > 0 ? (long)(bytes / 1048576.0 / local) : 0;
    MPI_Allreduce(MPI_IN_PLACE, &mib, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    return mib;
}

static int beff_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    int rank, P, provided;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Query_thread(&provided);

    beff_run r;
    memset(&r, 0, sizeof r);
    char err[EB_ERRLEN];
    if (beff_parse_options(&r.opt, argc, argv, err, sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    if (r.opt.help) {
        if (rank == 0)
            beff_print_help(stdout);
        return EB_EXIT_OK;
    }
    if (r.opt.mem_mib == 0) {
        r.opt.mem_mib = detect_mem_mib();
        r.opt.mem_detected = 1;
        if (r.opt.mem_mib < 1)
            eb_exit_all(EB_EXIT_USAGE, "--mem-per-proc: cannot detect the memory per process; "
                                       "give it in MB");
    }
    eb_resume rs = {0};
    if (r.opt.resume) {
        eb_jsonl_resume_read(&rs, r.opt.json_path, "beff");
        /* the random patterns of the interrupted run: its seed, unless
         * --seed is given (and then must be the same) */
        size_t len;
        const char *o = eb_jsonl_value(rs.run, "options", &len);
        const char *s = o ? eb_jsonl_value(o, "seed", &len) : NULL;
        if (!r.opt.seed_given && s && *s >= '0' && *s <= '9') {
            r.opt.seed = strtoull(s, NULL, 10);
            r.opt.seed_given = 1;
        }
    }
    if (!r.opt.seed_given) {
        /* the original seeds from the clock; effbench prints the seed */
        unsigned long long s = (unsigned long long)time(NULL) * 1000003ULL ^
                               ((unsigned long long)getpid() << 20);
        s &= 0x7FFFFFFFFFFFFFFFULL; /* 63 bits: an exact JSON integer */
        MPI_Bcast(&s, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        r.opt.seed = s;
    }
    r.P = P;
    r.lmax = beff_lmax(r.opt.mem_mib);
    beff_lengths(r.lmax, r.len, &r.a);
    r.nmeth = r.opt.split_nonblocking ? 5 : 3;
    eb_sysinfo_collect(&r.si, provided);
    eb_warn_oversubscription();

    /* Buffers of 6 * L_max for sending and receiving must fit. */
    double need = 2.0 * BEFF_BUF_FACTOR * (double)r.lmax;
    char *probe = malloc((size_t)need);
    char local_err[EB_ERRLEN];
    const char *lerr = NULL;
    if (!probe) {
        snprintf(local_err, sizeof local_err,
                 "--mem-per-proc: %ld MB per process needs %.0f MB of buffers, which rank %d "
                 "cannot allocate", r.opt.mem_mib, need / 1048576.0, rank);
        lerr = local_err;
    }
    free(probe);
    if (eb_any_error(lerr, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);

    build_patterns(&r);
    alloc_values(&r);
    eb_json rj;
    run_json(&rj, &r);
    if (r.opt.resume) {
        /* what decides the values must be as in the interrupted run */
        static const char *const same[] = {
            "procs", "check", "options.mem_per_proc_mb", "options.l_max_bytes",
            "options.lengths", "options.random_patterns", "options.seed",
            "options.split_nonblocking", "options.methods", "options.loop_ms",
            "options.patterns", NULL};
        eb_jsonl_resume_match(&rs, r.opt.json_path, eb_json_finish(&rj), same);
        load_resumed(&r, &rs, r.opt.json_path);
        eb_json_free(&rj);
    } else {
        eb_jsonl_open(r.opt.json_path);
        if (rank == 0)
            eb_jsonl_emit(&rj);
        else
            eb_json_free(&rj);
    }

    /* The protocol file must be writable before minutes of measuring. */
    FILE *prot = NULL;
    lerr = NULL;
    if (rank == 0 && r.opt.protocol_path) {
        prot = fopen(r.opt.protocol_path, "w");
        if (!prot) {
            snprintf(local_err, sizeof local_err, "--protocol: cannot write '%s'",
                     r.opt.protocol_path);
            lerr = local_err;
        }
    }
    if (eb_any_error(lerr, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    if (r.opt.resume) { /* the file changes only once nothing can refuse the run */
        eb_jsonl_resume_append(&rs, r.opt.json_path);
        eb_jsonl_resume_free(&rs);
    }

    long bad = measure(&r);
    char prot_err[EB_ERRLEN] = "";

    beff_summary s;
    beff_summarize(&r, &s);
    if (rank == 0) {
        beff_write_protocol(stdout, &r, &s);
        fflush(stdout);
        if (prot) {
            beff_write_protocol(prot, &r, &s);
            /* a full disk: the summary still reaches stdout and the JSON file */
            if ((ferror(prot) | fclose(prot)) != 0)
                snprintf(prot_err, sizeof prot_err, "--protocol %s: cannot write: %s",
                         r.opt.protocol_path, strerror(errno ? errno : EIO));
        }
        summary_json(&r, &s);
    }
    MPI_Bcast(prot_err, sizeof prot_err, MPI_CHAR, 0, MPI_COMM_WORLD);
    int status = EB_EXIT_OK;
    if (prot_err[0]) {
        if (rank == 0)
            eb_stderr_line("error", prot_err);
        eb_jsonl_end("error", prot_err);
        status = EB_EXIT_FAILURE;
    } else if (bad > 0) {
        if (rank == 0)
            fprintf(stderr, "effbench: b_eff: %ld received messages had a wrong first or last "
                            "byte\n", bad);
        eb_jsonl_end("error", "received data failed the first/last byte check");
        status = EB_EXIT_FAILURE;
    } else {
        eb_jsonl_end("ok", NULL);
    }
    for (int p = 0; p < r.npat; p++)
        beff_pattern_free(&r.pat[p]);
    free(r.pat);
    free(r.messages);
    free(r.random_order);
    free(r.b);
    free(r.tmin);
    free(r.tmax);
    free(r.tavg);
    free(r.loop);
    free(r.defects);
    free(r.resumed);
    return status;
}

static const eb_component beff_component = {
    .name = "beff",
    .aliases = {"b_eff"},
    .summary = "b_eff: the effective bandwidth benchmark (rings, random and analysis patterns)",
    .order = 60,
    .main = beff_main,
};

EB_CONSTRUCTOR(register_beff) { eb_register_component(&beff_component); }
