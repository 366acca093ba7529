/* The one measurement kernel of `effbench explain`: a row of one round is
 * the warm-up, then `reps` calls in timed regions (one call each, the whole
 * loop, or b_eff's three loops), each region after the row's process
 * synchronisation (none, a barrier, two barriers, or a window on the global
 * clock of core/clock.h), on reused or cache-cold buffers (IMB's -off_cache
 * slots) or b_eff's running offset, with a fixed or rotating root, by the
 * operation's own MPI calls or b_eff's three methods (one per loop).
 * Every process's region times go to rank 0, which forms the row's value
 * (ex_form_value, pure, below).  A window that a process
 * reached after its start, or whose call ended after its end, marks its
 * region invalid, as ReproMPI does: it is counted, never timed. */
#include "core/buffers.h"
#include "core/clock.h"
#include "core/error.h"
#include "explain/ex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ex_kernel {
    ex_op op;
    long size, reps;
    double window_s;
    MPI_Comm comm; /* the processes of the operation (PingPong: ranks 0 and 1) */
    int rank, nproc;
    eb_buf sbuf, rbuf, scold, rcold;
    eb_clock_model clock;
    long call; /* calls made in the row: the rotating root's index */
    /* b_eff: L_max, its buffers of 6 * L_max and their running offsets, the bytes of an
     * iteration's messages each way, the ring's neighbours, Alltoallv's counts, the method */
    long lmax;
    eb_buf sbeff, rbeff;
    size_t soff, roff, need;
    int left, right, bm;
    int *a2a; /* send counts, send displacements, receive counts, receive displacements */
};

static size_t round8(long n) { return ((size_t)n + 7) / 8 * 8; }

static void extents(ex_op op, long size, int p, size_t *s, size_t *r)
{
    *s = *r = (size_t)size;
    if (op == EX_OP_ALLGATHER)
        *r = (size_t)size * (size_t)p;
    if (op == EX_OP_EXCHANGE) /* to and from both neighbours (b_eff: 8-byte aligned) */
        *s = *r = 2 * round8(size);
    if (op == EX_OP_ALLTOALL)
        *s = *r = (size_t)size * (size_t)p;
    if (*s == 0)
        *s = 1;
    if (*r == 0)
        *r = 1;
}

/* b_eff's buffers where its method applies: 6 * L_max each way, an iteration's messages
 * (L rounded up to 8 bytes each) at a running offset; Alltoallv's counts to and from the
 * ring's neighbours (one partner in a ring of 2) */
static void beff_setup(ex_kernel *k)
{
    if (ex_method_find(k->op, k->nproc, "b_eff") < 0)
        return;
    eb_cache off = {0, EB_DEFAULT_CACHE_LINE};
    size_t cap = 6 * (size_t)k->lmax;
    eb_buf_setup(&k->sbeff, cap, 1, &off);
    eb_buf_setup(&k->rbeff, cap, 1, &off);
    memset(k->sbeff.base, 1, k->sbeff.alloc);
    memset(k->rbeff.base, 0, k->rbeff.alloc);
    size_t np = (size_t)k->nproc, l8 = round8(k->size);
    k->a2a = eb_calloc(4 * np, sizeof *k->a2a);
    int *sc = k->a2a, *sd = sc + np, *rc = sd + np, *rd = rc + np, n = (int)k->size;
    sc[k->right] = rc[k->left] = n;
    if (k->left != k->right) { /* the pong step: to the left, from the right */
        sc[k->left] = rc[k->right] = n;
        sd[k->left] = rd[k->right] = (int)l8;
    }
    k->need = (k->left != k->right ? 2 : 1) * l8;
}

static size_t next_region(size_t *off, size_t need, size_t cap)
{
    if (*off + need > cap)
        *off = 0;
    size_t base = *off;
    *off += need;
    return base;
}

ex_kernel *ex_kernel_new(ex_op op, long size, long reps, long lmax, double window_s)
{
    ex_kernel *k = eb_calloc(1, sizeof *k);
    k->op = op;
    k->lmax = lmax;
    k->size = size;
    k->reps = reps;
    k->window_s = window_s;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_split(MPI_COMM_WORLD, EX_PAIR_OP(op) && wrank > 1 ? MPI_UNDEFINED : 0, wrank,
                   &k->comm);
    if (k->comm == MPI_COMM_NULL)
        return k;
    MPI_Comm_rank(k->comm, &k->rank);
    MPI_Comm_size(k->comm, &k->nproc);
    size_t s, r;
    extents(op, size, k->nproc, &s, &r);
    eb_cache off = {0, EB_DEFAULT_CACHE_LINE}, cold = {EB_DEFAULT_CACHE_MB, EB_DEFAULT_CACHE_LINE};
    eb_buf_setup(&k->sbuf, s, 1, &off);
    eb_buf_setup(&k->rbuf, r, 1, &off);
    eb_buf_setup(&k->scold, s, reps, &cold);
    eb_buf_setup(&k->rcold, r, reps, &cold);
    /* every page touched before the rounds: no row pays for the first touch (b_eff, too,
     * clears its receive buffers before measuring) */
    memset(k->sbuf.base, 1, k->sbuf.alloc);
    memset(k->scold.base, 1, k->scold.alloc);
    memset(k->rbuf.base, 0, k->rbuf.alloc);
    memset(k->rcold.base, 0, k->rcold.alloc);
    k->right = (k->rank + 1) % k->nproc;
    k->left = (k->rank + k->nproc - 1) % k->nproc;
    beff_setup(k);
    return k;
}

void ex_kernel_free(ex_kernel *k)
{
    if (k->comm != MPI_COMM_NULL) {
        eb_buf_free(&k->sbuf);
        eb_buf_free(&k->rbuf);
        eb_buf_free(&k->scold);
        eb_buf_free(&k->rcold);
        if (k->a2a) {
            eb_buf_free(&k->sbeff);
            eb_buf_free(&k->rbeff);
            free(k->a2a);
        }
        MPI_Comm_free(&k->comm);
    }
    free(k);
}

void ex_kernel_clock(ex_kernel *k, int exchanges)
{
    if (k->comm != MPI_COMM_NULL)
        eb_clock_sync(k->comm, exchanges, &k->clock);
}

void ex_kernel_window(ex_kernel *k, double window_s) { k->window_s = window_s; }

static void ping_pong(ex_kernel *k, char *s, char *r, int n)
{
    if (k->rank == 0) {
        MPI_Send(s, n, MPI_BYTE, 1, 1, k->comm);
        MPI_Recv(r, n, MPI_BYTE, 1, 1, k->comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(r, n, MPI_BYTE, 0, 1, k->comm, MPI_STATUS_IGNORE);
        MPI_Send(s, n, MPI_BYTE, 0, 1, k->comm);
    }
}

/* osu_bw's step: a window of nonblocking sends from rank 0 (one buffer, as
 * OSU), the receiver's matching receives, then its 4-byte acknowledgement */
static void bw_window(ex_kernel *k, char *s, char *r, int n)
{
    MPI_Request req[EX_BW_WINDOW];
    int ack = 0;
    for (int w = 0; w < EX_BW_WINDOW; w++) {
        if (k->rank == 0)
            MPI_Isend(s, n, MPI_BYTE, 1, 2, k->comm, &req[w]);
        else
            MPI_Irecv(r, n, MPI_BYTE, 0, 2, k->comm, &req[w]);
    }
    MPI_Waitall(EX_BW_WINDOW, req, MPI_STATUSES_IGNORE);
    if (k->rank == 0)
        MPI_Recv(&ack, 1, MPI_INT, 1, 3, k->comm, MPI_STATUS_IGNORE);
    else
        MPI_Send(&ack, 1, MPI_INT, 0, 3, k->comm);
}

/* IMB's PingPing, Sendrecv (a ring: to the right, from the left) and Exchange
 * (to and from both neighbours) */
static void p2p_ring(ex_kernel *k, char *s, char *r, int n)
{
    int right = (k->rank + 1) % k->nproc, left = (k->rank + k->nproc - 1) % k->nproc;
    MPI_Request req[4];
    switch (k->op) {
    case EX_OP_PINGPING:
        MPI_Isend(s, n, MPI_BYTE, right, 4, k->comm, &req[0]);
        MPI_Recv(r, n, MPI_BYTE, left, 4, k->comm, MPI_STATUS_IGNORE);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        break;
    case EX_OP_SENDRECV:
        MPI_Sendrecv(s, n, MPI_BYTE, right, 5, r, n, MPI_BYTE, left, 5, k->comm,
                     MPI_STATUS_IGNORE);
        break;
    default:
        MPI_Isend(s, n, MPI_BYTE, left, 6, k->comm, &req[0]);
        MPI_Isend(s, n, MPI_BYTE, right, 6, k->comm, &req[1]);
        MPI_Recv(r, n, MPI_BYTE, left, 6, k->comm, MPI_STATUS_IGNORE);
        MPI_Recv(r + n, n, MPI_BYTE, right, 6, k->comm, MPI_STATUS_IGNORE);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        break;
    }
}

/* b_eff's iteration of a ring (a ring of 2 without the pong step) by its method k->bm:
 * Sendrecv per step; nonblocking: MPI_Irecv for every receive, MPI_Isend for every send,
 * one MPI_Waitall; one MPI_Alltoallv.  Message j of an iteration at j * L rounded up to 8. */
static void beff_ring(ex_kernel *k, char *s, char *r, int n)
{
    int two = k->left != k->right, l8 = (int)round8(n);
    MPI_Request req[4];
    if (k->bm == 0) {
        MPI_Sendrecv(s, n, MPI_BYTE, k->right, 7, r, n, MPI_BYTE, k->left, 7, k->comm,
                     MPI_STATUS_IGNORE);
        if (two)
            MPI_Sendrecv(s + l8, n, MPI_BYTE, k->left, 7, r + l8, n, MPI_BYTE, k->right, 7,
                         k->comm, MPI_STATUS_IGNORE);
    } else if (k->bm == 1) {
        MPI_Irecv(r, n, MPI_BYTE, k->left, 8, k->comm, &req[0]);
        if (two)
            MPI_Irecv(r + l8, n, MPI_BYTE, k->right, 8, k->comm, &req[1]);
        MPI_Isend(s, n, MPI_BYTE, k->right, 8, k->comm, &req[1 + two]);
        if (two)
            MPI_Isend(s + l8, n, MPI_BYTE, k->left, 8, k->comm, &req[3]);
        MPI_Waitall(2 + 2 * two, req, MPI_STATUSES_IGNORE);
    } else {
        size_t np = (size_t)k->nproc;
        MPI_Alltoallv(s, k->a2a, k->a2a + np, MPI_BYTE, r, k->a2a + 2 * np, k->a2a + 3 * np,
                      MPI_BYTE, k->comm);
    }
}

/* one call of the operation on slot i's buffers */
static void call_op(ex_kernel *k, const ex_config *c, long i)
{
    int bufs = c->v[EX_F_BUFFERS];
    char *s = bufs == EX_BUF_COLD ? eb_buf_slot(&k->scold, i) : k->sbuf.base;
    char *r = bufs == EX_BUF_COLD ? eb_buf_slot(&k->rcold, i) : k->rbuf.base;
    if (bufs == EX_BUF_BEFF) {
        s = k->sbeff.base + next_region(&k->soff, k->need, k->sbeff.len);
        r = k->rbeff.base + next_region(&k->roff, k->need, k->rbeff.len);
    }
    int n = (int)k->size, nf = (int)(k->size / (long)sizeof(float));
    int root = c->v[EX_F_ROOT] ? (int)(k->call % k->nproc) : 0;
    k->call++;
    switch (k->op) {
    case EX_OP_PINGPONG:
        ping_pong(k, s, r, n);
        break;
    case EX_OP_BCAST:
        MPI_Bcast(k->rank == root ? s : r, n, MPI_BYTE, root, k->comm);
        break;
    case EX_OP_ALLREDUCE:
        MPI_Allreduce(s, r, nf, MPI_FLOAT, MPI_SUM, k->comm);
        break;
    case EX_OP_REDUCE:
        MPI_Reduce(s, r, nf, MPI_FLOAT, MPI_SUM, root, k->comm);
        break;
    case EX_OP_BW:
        if (c->v[EX_F_INFLIGHT])
            bw_window(k, s, r, n);
        else
            ping_pong(k, s, r, n);
        break;
    case EX_OP_PINGPING:
    case EX_OP_SENDRECV:
    case EX_OP_EXCHANGE:
        if (c->v[EX_F_CALLS])
            beff_ring(k, s, r, n);
        else
            p2p_ring(k, s, r, n);
        break;
    case EX_OP_BARRIER:
        MPI_Barrier(k->comm);
        break;
    case EX_OP_ALLGATHER:
        MPI_Allgather(s, n, MPI_BYTE, r, n, MPI_BYTE, k->comm);
        break;
    default:
        MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, k->comm);
        break;
    }
}

/* the synchronisation before a region; returns 1 if a window had started */
static int sync_before(ex_kernel *k, int sync, double wstart)
{
    if (sync == EX_SYNC_BARRIER || sync == EX_SYNC_DOUBLE)
        MPI_Barrier(k->comm);
    if (sync == EX_SYNC_DOUBLE)
        MPI_Barrier(k->comm);
    if (sync == EX_SYNC_WINDOW)
        return eb_wait_until(eb_clock_to_local(&k->clock, wstart));
    return 0;
}

/* the timed regions; t0/t1 local times, flags per region (this process's) */
static void regions(ex_kernel *k, const ex_config *c, long nreg, long calls, double *t0,
                    double *t1, double *ws, int *flags)
{
    int sync = c->v[EX_F_SYNC];
    double wlen = k->window_s * (double)calls, wstart = NAN;
    if (sync == EX_SYNC_WINDOW) {
        if (k->rank == 0)
            wstart = eb_clock_to_global(&k->clock, MPI_Wtime()) + wlen + 1e-3;
        MPI_Bcast(&wstart, 1, MPI_DOUBLE, 0, k->comm);
    } else if (c->v[EX_F_REGION] == EX_REGION_LOOP || sync == EX_SYNC_NONE) {
        MPI_Barrier(k->comm); /* once before the loop (IMB, OSU); none: only to begin together */
        sync = EX_SYNC_NONE;
    }
    long warm = c->v[EX_F_WARMUP] == EX_WARM_BEFF
                    ? ex_warmup_calls(EX_WARM_BEFF, k->size, k->reps, k->lmax) : 0;
    for (long r = 0; r < nreg; r++) {
        /* b_eff: its methods in turn within a repetition, a warm-up call before each loop */
        k->bm = c->v[EX_F_CALLS] ? (int)(r % EX_BEFF_NMETHODS) : 0;
        long called = k->call;
        for (long w = 0; w < warm; w++)
            call_op(k, c, 0);
        k->call = called;
        flags[r] = sync_before(k, sync, wstart) ? 1 : 0;
        t0[r] = MPI_Wtime();
        for (long i = 0; i < calls; i++)
            call_op(k, c, r * calls + i);
        t1[r] = MPI_Wtime();
        ws[r] = wstart;
        if (sync == EX_SYNC_WINDOW) {
            if (eb_clock_to_global(&k->clock, t1[r]) > wstart + wlen)
                flags[r] |= 2;
            wstart += wlen;
        }
    }
}

void ex_kernel_row(ex_kernel *k, const ex_config *c, double *value, long *invalid)
{
    *value = NAN;
    *invalid = 0;
    if (k->comm == MPI_COMM_NULL)
        return;
    long nreg, calls;
    ex_regions_of(c, k->reps, &nreg, &calls);
    k->call = 0;
    long warm = c->v[EX_F_WARMUP] == EX_WARM_BEFF
                    ? 0 : ex_warmup_calls(c->v[EX_F_WARMUP], k->size, k->reps, k->lmax);
    for (long i = 0; i < warm; i++)
        call_op(k, c, i);
    k->call = 0;
    size_t n = (size_t)nreg;
    double *t = eb_calloc(4 * n, sizeof *t), *ws = eb_calloc(n, sizeof *ws);
    int *flags = eb_calloc(n, sizeof *flags), *fall = eb_calloc(n, sizeof *fall);
    regions(k, c, nreg, calls, t, t + n, ws, flags);
    for (size_t r = 0; r < n; r++) { /* this process's: durations, global start and end */
        double a = t[r], b = t[n + r];
        t[r] = b - a;
        t[n + r] = eb_clock_to_global(&k->clock, a);
        t[2 * n + r] = eb_clock_to_global(&k->clock, b);
    }
    double *all = k->rank == 0 ? eb_calloc(3 * n * (size_t)k->nproc, sizeof *all) : NULL;
    MPI_Gather(t, (int)(3 * n), MPI_DOUBLE, all, (int)(3 * n), MPI_DOUBLE, 0, k->comm);
    MPI_Reduce(flags, fall, (int)n, MPI_INT, MPI_BOR, 0, k->comm);
    if (k->rank == 0) {
        /* rank-major per array, as ex_form_value takes them */
        double *d = eb_calloc(3 * n * (size_t)k->nproc, sizeof *d);
        size_t np = (size_t)k->nproc;
        for (size_t p = 0; p < np; p++)
            for (size_t a = 0; a < 3; a++)
                memcpy(d + a * np * n + p * n, all + p * 3 * n + a * n, n * sizeof *d);
        /* per message: half a round trip, or a window's share (the ack not counted) */
        double msgs = c->v[EX_F_INFLIGHT] ? EX_BW_WINDOW : 2;
        double scale = 1.0 / (double)calls / (c->v[EX_F_UNIT] ? msgs : 1.0);
        *value = ex_form_value(c, k->nproc, nreg, scale, d, d + np * n, d + 2 * np * n, ws,
                               fall, invalid);
        free(d);
    }
    free(all);
    free(t);
    free(ws);
    free(flags);
    free(fall);
}

double ex_statistic(int stat, double *v, long n)
{
    if (n <= 0)
        return NAN;
    if (stat == EX_STAT_MEAN) {
        double s = 0;
        for (long i = 0; i < n; i++)
            s += v[i];
        return s / (double)n;
    }
    for (long i = 1; i < n; i++) /* insertion sort: few values */
        for (long j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    if (stat == EX_STAT_MIN)
        return v[0];
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* form over processes of per-process values x[p] */
static double form_of(int form, const double *x, int nproc)
{
    double s = 0, m = x[0];
    for (int p = 0; p < nproc; p++) {
        s += x[p];
        if (x[p] > m)
            m = x[p];
    }
    return form == EX_FORM_MEAN ? s / nproc : form == EX_FORM_MAX ? m : x[0];
}

double ex_form_value(const ex_config *c, int nproc, long nreg, double scale, const double *dur,
                     const double *gstart, const double *gend, const double *wstart,
                     const int *flags, long *invalid)
{
    int form = c->v[EX_F_FORM];
    double *v = eb_calloc((size_t)nreg + 1, sizeof *v), *x = eb_calloc((size_t)nproc, sizeof *x);
    long nv = 0;
    *invalid = 0;
    int global = form == EX_FORM_GLOBAL || form == EX_FORM_FROM_START;
    if (c->v[EX_F_ORDER] == EX_ORDER_PROCESS && !global) {
        for (int p = 0; p < nproc; p++) {
            nv = 0;
            for (long r = 0; r < nreg; r++)
                if (!flags[r])
                    v[nv++] = dur[p * nreg + r];
            x[p] = ex_statistic(c->v[EX_F_STAT], v, nv);
        }
        for (long r = 0; r < nreg; r++)
            *invalid += flags[r] != 0;
        double out = nv ? form_of(form, x, nproc) * scale : NAN;
        free(v);
        free(x);
        return out;
    }
    for (long r = 0; r < nreg; r++) {
        if (flags[r]) {
            (*invalid)++;
            continue;
        }
        double lo = gstart[r], hi = gend[r];
        for (int p = 0; p < nproc; p++) {
            x[p] = dur[p * nreg + r];
            lo = fmin(lo, gstart[p * nreg + r]);
            hi = fmax(hi, gend[p * nreg + r]);
        }
        if (form == EX_FORM_FROM_START && isfinite(wstart[r]))
            lo = wstart[r];
        v[nv++] = global ? hi - lo : form_of(form, x, nproc);
    }
    double out = ex_statistic(c->v[EX_F_STAT], v, nv) * scale;
    free(v);
    free(x);
    return out;
}
