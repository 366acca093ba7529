/* b_eff's timed loops (docs/beff.md "Loops", "Memory, not cache", "Data"):
 * this process's part of a pattern, one iteration of each method, the
 * timed and the checked loop, and the loop length rule. */
#include "beff/beff_loops.h"

#include "beff/beff_run.h"
#include "core/buffers.h"
#include "core/error.h"
#include "core/simulate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void beff_comm_cache_init(beff_comm_cache *cc, int P)
{
    cc->n = P + 1;
    cc->comm = eb_malloc((size_t)cc->n * sizeof *cc->comm);
    cc->built = eb_calloc((size_t)cc->n, 1);
    for (int i = 0; i < cc->n; i++)
        cc->comm[i] = MPI_COMM_NULL;
}

void beff_comm_cache_free(beff_comm_cache *cc)
{
    for (int i = 0; i < cc->n; i++)
        eb_comm_release(&cc->comm[i]);
    free(cc->comm);
    free(cc->built);
}

static MPI_Comm active_comm(int active, beff_comm_cache *cc)
{
    if (!cc->built[active]) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        int P;
        MPI_Comm_size(MPI_COMM_WORLD, &P);
        eb_sim_split_world(active == P, rank < active ? 0 : MPI_UNDEFINED, rank, &cc->comm[active]);
        cc->built[active] = 1;
    }
    return cc->comm[active];
}

void beff_rank_plan_build(beff_rank_plan *rp, const beff_pattern *pt, int me, beff_comm_cache *cc)
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

void beff_rank_plan_free(beff_rank_plan *rp)
{
    free(rp->sslot);
    free(rp->rslot);
    free(rp->scount);
    free(rp->sdispl);
    free(rp->rcount);
    free(rp->rdispl);
}

void beff_set_alltoallv_counts(beff_rank_plan *rp, long L, size_t L8)
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
/* The next region of `need` bytes, wrapping when it would not fit; regions
 * start at multiples of L8, so message j of a region is at j * L8.  In a
 * simulation always the first: there is no cache to defeat, and SMPI copies
 * each small message it sends, so every new region was new pages to fault in
 * for every rank (4.3 million page faults, 13 % of b_eff's CPU at 512 ranks). */
static size_t next_region(size_t *off, size_t need, size_t cap)
{
    if (eb_sim_active())
        return 0;
    if (*off + need > cap)
        *off = 0;
    size_t base = *off;
    *off += need;
    return base;
}

/* One iteration of the pattern with method m: L bytes per message. */
static void iterate(const beff_rank_plan *rp, int m, long L, size_t L8, char *sb, char *rb)
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
        eb_alltoallv(sb, rp->scount, rp->sdispl, MPI_BYTE, rb, rp->rcount, rp->rdispl, MPI_BYTE,
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
static int slot_source(const beff_rank_plan *rp, int j)
{
    for (int s = 0, k = 0; s < rp->nsteps; s++)
        if (rp->from[s] >= 0 && k++ == j)
            return rp->from[s];
    return -1;
}

/* The cheap check of every message: its first and last byte. */
static long check_ends(const beff_rank_plan *rp, long L, size_t L8, const char *rb)
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
double beff_timed_loop(const beff_rank_plan *rp, int m, long L, size_t L8, long n, int warmup,
                         beff_bufs *cb, long *defects)
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
long beff_checked_pass(const beff_rank_plan *rp, int m, long L, size_t L8, beff_bufs *cb)
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
void beff_fill_send(beff_bufs *cb, int rank, size_t L8)
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
