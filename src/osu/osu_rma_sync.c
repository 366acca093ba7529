/* OSU 7.4's timed loops of the one-sided programs, one per -s, around the
 * program's call (osu_rma.h).  What is timed follows OSU: rank 0's time from
 * the first timed iteration to the end of the last, t_start taken after
 * MPI_Win_start in pscw's latency and bandwidth loops, the passive loops'
 * lock (flush, flush_local) taken before and released after the timing. */
#include "osu/osu_rma_sync.h"

static int peer(const osu_ctx *c) { return 1 - c->rank; }

static void calls(const osu_ctx *c, osu_rma *r, int ops)
{
    for (int k = 0; k < ops; k++)
        r->kind->call(c, r, peer(c), (size_t)k);
}

static int passive(osu_sync s)
{
    return s == OSU_SYNC_LOCK || s == OSU_SYNC_LOCK_ALL || s == OSU_SYNC_FLUSH ||
           s == OSU_SYNC_FLUSH_LOCAL;
}

static int flush_sync(osu_sync s) { return s == OSU_SYNC_FLUSH || s == OSU_SYNC_FLUSH_LOCAL; }

int osu_rma_is_origin(const osu_ctx *c)
{
    const osu_rma *r = c->priv;
    return c->rank == 0 || (!passive(c->o->sync) && r->kind->shape != RMA_UNI);
}

int osu_rma_is_target(const osu_ctx *c)
{
    const osu_rma *r = c->priv;
    return c->rank == 1 || (!passive(c->o->sync) && r->kind->shape != RMA_UNI);
}

double osu_rma_latency_factor(const osu_ctx *c) { return passive(c->o->sync) ? 1.0 : 0.5; }

/* The passive syncs' one iteration on rank 0 (the flush syncs' lock is held). */
static void passive_iteration(osu_ctx *c, osu_rma *r, int ops)
{
    switch (c->o->sync) {
    case OSU_SYNC_LOCK:
        MPI_Win_lock(r->kind->lock_exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 1, 0, r->win);
        calls(c, r, ops);
        MPI_Win_unlock(1, r->win);
        break;
    case OSU_SYNC_LOCK_ALL:
        MPI_Win_lock_all(0, r->win);
        calls(c, r, ops);
        MPI_Win_unlock_all(r->win);
        break;
    case OSU_SYNC_FLUSH:
        calls(c, r, ops);
        MPI_Win_flush(1, r->win);
        break;
    default: /* flush_local */
        calls(c, r, ops);
        MPI_Win_flush_local(1, r->win);
        break;
    }
}

static void flush_lock(osu_rma *r)
{
    MPI_Win_lock(r->kind->flush_exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, 1, 0, r->win);
}

static double passive_loop(osu_ctx *c, osu_rma *r, int ops, double *t)
{
    double t0 = 0, t1 = 0;
    if (r->kind->passive_barrier)
        MPI_Barrier(c->comm);
    if (c->rank == 0) {
        if (flush_sync(c->o->sync))
            flush_lock(r);
        for (long i = 0; i < c->skip + c->iterations; i++) {
            if (i == c->skip)
                t0 = MPI_Wtime();
            double ti = MPI_Wtime();
            passive_iteration(c, r, ops);
            if (i >= c->skip && t)
                t[i - c->skip] = MPI_Wtime() - ti;
        }
        t1 = MPI_Wtime();
        if (flush_sync(c->o->sync))
            MPI_Win_unlock(1, r->win);
    }
    MPI_Barrier(c->comm);
    return t1 - t0;
}

/* Fence, one iteration.  Latency: rank 0 calls in the first epoch, rank 1
 * answers in the second; uni: rank 0 calls, rank 1 fences; bi: both call. */
static void fence_iteration(osu_ctx *c, osu_rma *r, int ops)
{
    rma_shape shape = r->kind->shape;
    MPI_Win_fence(0, r->win);
    if (c->rank == 0 || shape == RMA_BI)
        calls(c, r, ops);
    MPI_Win_fence(0, r->win);
    if (shape == RMA_LATENCY) {
        if (c->rank == 1)
            calls(c, r, ops);
        MPI_Win_fence(0, r->win);
    }
}

/* Post/start/complete/wait, one iteration; `started` is called on rank 0
 * once its access epoch has begun (where OSU reads the clock). */
static void pscw_iteration(osu_ctx *c, osu_rma *r, int ops, double *started)
{
    rma_shape shape = r->kind->shape;
    if (shape == RMA_BI) {
        *started = MPI_Wtime();
        MPI_Win_post(r->peer, 0, r->win);
        MPI_Win_start(r->peer, 0, r->win);
        calls(c, r, ops);
        MPI_Win_complete(r->win);
        MPI_Win_wait(r->win);
    } else if (c->rank == 0) {
        MPI_Win_start(r->peer, 0, r->win);
        *started = MPI_Wtime();
        calls(c, r, ops);
        MPI_Win_complete(r->win);
        if (shape == RMA_LATENCY) {
            MPI_Win_post(r->peer, 0, r->win);
            MPI_Win_wait(r->win);
        }
    } else {
        MPI_Win_post(r->peer, 0, r->win);
        MPI_Win_wait(r->win);
        if (shape == RMA_LATENCY) {
            MPI_Win_start(r->peer, 0, r->win);
            calls(c, r, ops);
            MPI_Win_complete(r->win);
        }
    }
}

static double active_loop(osu_ctx *c, osu_rma *r, int ops, double *t)
{
    double t0 = 0, t1;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        double ti = MPI_Wtime();
        if (c->o->sync == OSU_SYNC_FENCE)
            fence_iteration(c, r, ops);
        else
            pscw_iteration(c, r, ops, &ti);
        if (i == c->skip)
            t0 = ti;
        if (i >= c->skip && t)
            t[i - c->skip] = MPI_Wtime() - ti;
    }
    t1 = MPI_Wtime();
    MPI_Barrier(c->comm);
    return t1 - t0;
}

double osu_rma_loop(osu_ctx *c, int ops, double *t)
{
    osu_rma *r = c->priv;
    return passive(c->o->sync) ? passive_loop(c, r, ops, t) : active_loop(c, r, ops, t);
}

void osu_rma_epoch(osu_ctx *c, int ops)
{
    osu_rma *r = c->priv;
    double ignored;
    if (!passive(c->o->sync)) {
        if (c->o->sync == OSU_SYNC_FENCE)
            fence_iteration(c, r, ops);
        else
            pscw_iteration(c, r, ops, &ignored);
        return;
    }
    if (c->rank != 0)
        return;
    if (flush_sync(c->o->sync))
        flush_lock(r);
    passive_iteration(c, r, ops);
    if (flush_sync(c->o->sync))
        MPI_Win_unlock(1, r->win);
}

void osu_rma_latency_row(osu_ctx *c, double t, osu_row *row)
{
    double f = osu_rma_latency_factor(c);
    if (c->lat)
        for (long i = 0; i < c->iterations; i++)
            c->lat[i] *= 1e6 * f;
    if (c->rank == 0)
        row->avg_us = t * 1e6 * f / (double)c->iterations;
    osu_percentiles(c, 0, row);
}
