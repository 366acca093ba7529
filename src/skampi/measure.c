/* The accuracy-controlled measurement of one point (SKaMPI paper, section
 * 4.1): timed runs of a pattern's operation (skampi/patterns.h) until the
 * standard error is small enough.  Measurement never prints: results go
 * back to the caller. */
#include "skampi/measure.h"

#include "skampi/check.h"

#include "core/accuracy.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/own_coll.h"
#include "core/resolution.h"
#include "core/simulate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SK_MAX_WINDOW_LEAD 0.01 /* seconds */

/* ---------------- one timed run ---------------- */

/* Wait for a window's start; 1 if this process starts late.  With a core
 * of its own a process spins, and a start later than the tolerance (it was
 * preempted) is late too.  Oversubscribed, it must yield the core while it
 * waits so the others can reach the start (eb_wait_until), and only a
 * process that arrives after the start is late: its times then include
 * scheduling delays, as every oversubscribed timing does. */
#define SK_START_TOLERANCE 2e-6
static int wait_for_start(const sk_env *e, double t, double *arrived_late)
{
    double now = MPI_Wtime();
    *arrived_late = 0;
    if (now > t) {
        *arrived_late = now - t;
        return 1;
    }
    if (e->oversubscribed) {
        eb_wait_until(t);
        return 0;
    }
    while ((now = MPI_Wtime()) < t)
        ;
    return now - t > SK_START_TOLERANCE;
}

/* A run's time with the timer's overhead (and a barrier's time) taken off,
 * held to the timer's resolution (src/core/resolution.h). */
static double resolved(sk_call *c, double t)
{
    return eb_resolved_time(t, c->e->wtick, &c->resolution_limited);
}

/* Runs the operation once; returns this rank's time (seconds, overhead
 * subtracted), *root_sample the sample the timing rank keeps, *valid 0 for a
 * window run a process started late (all ranks agree). */
static double one_run(sk_call *c, double t_barrier, double *root_sample, int *valid)
{
    const sk_instance *in = c->sc->in;
    double ov = c->e->overhead, t0, t1, local;
    *valid = 1;
    switch (in->pattern) {
    case SK_PINGPONG:
        t0 = MPI_Wtime();
        sk_pingpong(c);
        t1 = MPI_Wtime();
        local = resolved(c, t1 - t0 - ov);
        break;
    case SK_SIMPLE:
        t0 = MPI_Wtime();
        sk_simple(c, c->simple_calls);
        t1 = MPI_Wtime();
        local = resolved(c, t1 - t0 - ov) / (double)c->simple_calls;
        break;
    case SK_MASTER_WORKER:
        MPI_Barrier(c->comm);
        t0 = MPI_Wtime();
        if (c->rank == 0)
            sk_mw_master(c);
        else
            sk_mw_worker(c);
        t1 = MPI_Wtime();
        local = resolved(c, t1 - t0 - ov);
        break;
    case SK_COLLECTIVE:
    default:
        if (c->sc->s->sync == SK_SYNC_BARRIER) {
            MPI_Barrier(c->comm);
            t0 = MPI_Wtime();
            sk_collective(c);
            MPI_Barrier(c->comm);
            t1 = MPI_Wtime();
            local = resolved(c, t1 - t0 - ov - t_barrier);
        } else {
            /* window: start together at a time agreed in rank 0's clock */
            double start = 0;
            if (c->rank == 0)
                start = MPI_Wtime() + c->slack;
            eb_own_bcast(&start, 1, MPI_DOUBLE, 0, c->comm);
            double mine = eb_clock_to_local(&c->clock, start);
            double arrived_late;
            int late = wait_for_start(c->e, mine, &arrived_late);
            sk_collective(c);
            t1 = MPI_Wtime();
            local = resolved(c, t1 - mine - ov);
            double in3[3] = {local, late, arrived_late}, out3[3];
            eb_own_reduce(in3, out3, 3, MPI_DOUBLE, MPI_MAX, 0, c->comm);
            int ok = 1;
            if (c->rank == 0) {
                ok = out3[1] == 0;
                /* a late start (arrived late, or preempted while waiting)
                 * asks for a longer lead: the previous run's control messages
                 * must have settled everywhere.  Bounded: a window is not a
                 * sleep. */
                if (!ok)
                    c->slack = fmin(fmax(2 * c->slack, 2 * out3[2]), SK_MAX_WINDOW_LEAD);
                *root_sample = out3[0];
            }
            eb_own_bcast(&ok, 1, MPI_INT, 0, c->comm);
            *valid = ok;
            return local;
        }
        break;
    }
    *root_sample = local;
    return local;
}

/* --check: one run of the operation with patterned buffers, before the
 * point is measured (src/skampi/check.h).  Returns the bytes that differ
 * from what a correct run leaves, summed over the processes (on the timing
 * process), or -1 when the instance moves no data.  The buffers hold zeros
 * again afterwards, as the measurement expects. */
static long check_point(sk_call *c)
{
    const sk_suite *s = c->sc->s;
    if (!sk_check_applies(s->type))
        return -1;
    long P = c->size;
    long ls = P * c->st.span + SK_CHECK_PAD, lr = P * c->rt.span + SK_CHECK_PAD;
    if (ls > (long)c->e->half)
        ls = (long)c->e->half;
    if (lr > (long)c->e->half)
        lr = (long)c->e->half;
    sk_check_case k = {s->type, c->rank, c->size, c->chunks, &c->sc->base, c->sbl, c->rbl,
                       c->nsb, c->nrb, c->st.span, c->rt.span, c->st.count};
    unsigned char *s0 = eb_malloc((size_t)ls), *r0 = eb_malloc((size_t)lr);
    unsigned char *s1 = eb_malloc((size_t)ls), *r1 = eb_malloc((size_t)lr);
    sk_check_before(&k, s0, ls, r0, lr);
    memcpy(c->e->sbuf, s0, (size_t)ls);
    memcpy(c->e->rbuf, r0, (size_t)lr);
    sk_call_once(c);
    /* type 12's master keeps the result that came last, from any worker
     * that got a chunk: the best match counts */
    int last = sk_check_last_worker(s->type, c->chunks, c->size - 1);
    int k_last = s->type == 12 && c->rank == 0 ? (int)(c->chunks < P - 1 ? c->chunks : P - 1) : 1;
    long bad = -1;
    for (int w = 1; w <= k_last; w++) {
        memcpy(s1, s0, (size_t)ls);
        memcpy(r1, r0, (size_t)lr);
        sk_check_deliver(&k, s->type == 12 ? w : last, s1, ls, r1, lr);
        long d = sk_check_diff(s1, (unsigned char *)c->e->sbuf, ls) +
                 sk_check_diff(r1, (unsigned char *)c->e->rbuf, lr);
        if (bad < 0 || d < bad)
            bad = d;
    }
    memset(c->e->sbuf, 0, (size_t)ls);
    memset(c->e->rbuf, 0, (size_t)lr);
    free(s0);
    free(r0);
    free(s1);
    free(r1);
    long sum = 0;
    eb_own_reduce(&bad, &sum, 1, MPI_LONG, MPI_SUM, 0, c->comm);
    return sum;
}

/* Mean time of MPI_Barrier on comm, to the suite's accuracy. */
static double barrier_time(sk_call *c, const eb_acc_params *ap)
{
    eb_acc a;
    eb_acc_init(&a, ap);
    int done = 0;
    while (!done) {
        MPI_Barrier(c->comm);
        double t0 = MPI_Wtime();
        MPI_Barrier(c->comm);
        double t = MPI_Wtime() - t0 - c->e->overhead;
        eb_acc_add(&a, t);
        done = c->rank == 0 ? eb_acc_done(&a) : 0;
        eb_own_bcast(&done, 1, MPI_INT, 0, c->comm);
    }
    eb_acc_stats st = eb_acc_summary(&a);
    double m = st.mean;
    eb_own_bcast(&m, 1, MPI_DOUBLE, 0, c->comm);
    eb_acc_free(&a);
    return m;
}

/* ---------------- the point ---------------- */

/* ---------------- the point ---------------- */

/* What a point sends from its timing process to every rank: RES_FIXED
 * numbers, then the per-process means. */
enum {
    RES_MEAN, RES_STD_ERROR, RES_MIN, RES_MAX, RES_N, RES_KEPT, RES_INVALID, RES_PROCS,
    RES_CALLS, RES_STOP, RES_DEFECTS, RES_RESOLUTION, RES_CLOCK_METHOD, RES_CLOCK_SYNC,
    RES_CLOCK_OFFSET, RES_CLOCK_CHECK_ERROR, RES_CLOCK_DRIFT, RES_FIXED
};

/* Before the timed runs: the barrier's time to take off (collective,
 * barrier synchronisation; else 0), the clocks of a window run, and the
 * calls per timed run of a simple instance. */
static double prepare_timing(sk_call *c, const eb_acc_params *ap)
{
    const sk_suite *s = c->sc->s;
    enum sk_pattern pattern = c->sc->in->pattern;
    double t_barrier = 0;
    if (pattern == SK_COLLECTIVE && s->sync == SK_SYNC_BARRIER)
        t_barrier = barrier_time(c, ap);
    if (pattern == SK_COLLECTIVE && s->sync == SK_SYNC_WINDOW) {
        c->clock.method = c->e->clock_method;
        eb_clock_sync(c->comm, 10, &c->clock);
        /* start the windows early enough for every process; a window
         * that was too short doubles, and the suite keeps what it learnt */
        c->slack = fmax(8 * c->clock.error + 1e-5, c->e->window_slack);
    }
    if (pattern == SK_SIMPLE) {
        /* a timed run is k calls: long enough for the clock to resolve */
        double target = fmax(2e-5, 100 * c->e->wtick);
        c->simple_calls = 1;
        for (;;) {
            double t0 = MPI_Wtime();
            sk_simple(c, c->simple_calls);
            /* a simulation gives local calls no time: the cap ends the search */
            if (MPI_Wtime() - t0 >= target || c->simple_calls >= eb_sim_cap_loop(1L << 24))
                break;
            c->simple_calls *= 2;
        }
    }
    return t_barrier;
}

/* The point on the processes of the call: @CACHEWARMUP dummy runs, then
 * timed runs until the timing rank's samples reach the accuracy (or a
 * limit); res[] as RES_* on the call's rank 0. */
static void measure_call(sk_call *c, double *res)
{
    sk_env *e = c->e;
    const sk_suite *s = c->sc->s;
    long defects = e->check ? check_point(c) : -1;
    eb_acc_params ap = {s->standard_error, s->min_rep, s->max_rep, s->cut_quantile,
                        e->wtick / s->standard_error};
    double t_barrier = prepare_timing(c, &ap);
    double dummy;
    int valid;
    for (int w = 0; w < e->cfg->cachewarmup; w++)
        one_run(c, t_barrier, &dummy, &valid);
    eb_acc mine, root;
    eb_acc_init(&mine, &ap);
    eb_acc_init(&root, &ap);
    long invalid = 0;
    double t_begin = MPI_Wtime();
    int done = 0;
    while (!done) {
        double sample;
        double local = one_run(c, t_barrier, &sample, &valid);
        if (valid) {
            eb_acc_add(&mine, local);
            if (c->rank == 0)
                eb_acc_add(&root, sample);
        } else {
            invalid++;
        }
        if (c->rank == 0) {
            /* a point whose windows keep failing still ends: after as
             * many late starts as Max_Repetition */
            done = eb_acc_done(&root) || invalid >= s->max_rep ||
                   (s->time_measurement > 0 && MPI_Wtime() - t_begin > s->time_measurement);
        }
        if (c->size > 1)
            eb_own_bcast(&done, 1, MPI_INT, 0, c->comm);
    }
    eb_acc_stats my = eb_acc_summary(&mine);
    double *nodes = c->rank == 0 ? res + RES_FIXED : NULL;
    MPI_Gather(&my.mean, 1, MPI_DOUBLE, nodes, 1, MPI_DOUBLE, 0, c->comm);
    if (c->rank == 0) {
        eb_acc_stats st = eb_acc_summary(&root);
        res[RES_MEAN] = st.mean;
        res[RES_STD_ERROR] = st.std_error;
        res[RES_MIN] = st.min;
        res[RES_MAX] = st.max;
        res[RES_N] = (double)st.n;
        res[RES_KEPT] = (double)st.kept;
        res[RES_INVALID] = (double)invalid;
        res[RES_PROCS] = c->size;
        res[RES_CALLS] = (double)c->simple_calls;
        res[RES_STOP] = s->time_suite > 0 && MPI_Wtime() - c->sc->t_start > s->time_suite;
        res[RES_DEFECTS] = (double)defects;
        res[RES_RESOLUTION] = c->resolution_limited;
        const double clock[] = {c->clock.method, c->clock.sync_s, c->clock.check_max,
                                c->clock.check_error, c->clock.drift_max};
        memcpy(res + RES_CLOCK_METHOD, clock, sizeof clock);
    }
    if (c->rank == 0 && s->sync == SK_SYNC_WINDOW)
        e->window_slack = c->slack;
    eb_acc_free(&mine);
    eb_acc_free(&root);
}

/* The processes of the point: the ping-pong pair, rank 0 alone (simple), or
 * world ranks 0..procs-1; *procs becomes their number and *timer the world
 * rank of the timing process.  MPI_COMM_NULL on the others. */
static MPI_Comm point_comm(const sk_env *e, enum sk_pattern pattern, int *procs, int *timer)
{
    int color = MPI_UNDEFINED, key = e->wrank;
    *timer = 0;
    switch (pattern) {
    case SK_PINGPONG:
        *timer = e->pair[0];
        *procs = 2;
        if (e->wrank == e->pair[0] || e->wrank == e->pair[1]) {
            color = 0;
            key = e->wrank == e->pair[0] ? 0 : 1;
        }
        break;
    case SK_SIMPLE:
        *procs = 1;
        if (e->wrank == 0)
            color = 0;
        break;
    default:
        if (e->wrank < *procs)
            color = 0;
        break;
    }
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, color, key, &comm);
    return comm;
}

/* r from the timing process's res[] (every rank). */
static void point_result(sk_env *e, const double *res, long count, long bytes, long chunks,
                         sk_point_result *r)
{
    r->mean = res[RES_MEAN];
    r->std_error = res[RES_STD_ERROR];
    r->min = res[RES_MIN];
    r->max = res[RES_MAX];
    r->n = (long)res[RES_N];
    r->kept = (long)res[RES_KEPT];
    r->invalid = (long)res[RES_INVALID];
    r->procs = (int)res[RES_PROCS];
    r->nnode = r->procs;
    r->calls = res[RES_CALLS];
    r->stop = res[RES_STOP] != 0;
    r->defects = (long)res[RES_DEFECTS];
    r->resolution_limited = res[RES_RESOLUTION] != 0;
    r->clock_method = (int)res[RES_CLOCK_METHOD];
    r->clock_sync_s = res[RES_CLOCK_SYNC];
    r->clock_offset_max = res[RES_CLOCK_OFFSET];
    r->clock_check_error = res[RES_CLOCK_CHECK_ERROR];
    r->clock_drift = res[RES_CLOCK_DRIFT];
    r->count = count;
    r->bytes = bytes;
    r->chunks = chunks;
    memcpy(e->node_buf, res + RES_FIXED, (size_t)r->nnode * sizeof *res);
    r->node = e->node_buf;
}

void sk_measure_point(sk_env *e, const sk_suite_ctx *sc, int procs, long count, long chunks,
                      sk_point_result *r)
{
    const sk_suite *s = sc->s;
    char what[160];
    snprintf(what, sizeof what, "%s, %d processes, count %ld", s->name, procs, count);
    /* a point's time is the suite's accuracy loop: no estimate, the guard's least deadline */
    eb_guard_row(what, s->time_measurement > 0 ? s->time_measurement : 0, MPI_COMM_WORLD);
    int timer;
    MPI_Comm comm = point_comm(e, sc->in->pattern, &procs, &timer);
    double *res = eb_calloc((size_t)RES_FIXED + (size_t)e->wsize, sizeof *res);
    if (comm != MPI_COMM_NULL) {
        sk_call c;
        sk_call_open(&c, e, sc, comm, count, chunks);
        measure_call(&c, res);
        sk_call_close(&c);
    }
    eb_own_bcast(res, RES_FIXED + e->wsize, MPI_DOUBLE, timer, MPI_COMM_WORLD);
    eb_guard_row_end();
    point_result(e, res, count, count * sc->base.size, chunks, r);
    free(res);
}
