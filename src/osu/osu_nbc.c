/* OSU's method for the non-blocking collectives, for one size:
 *
 *   1. pure communication: start + MPI_Wait, timed, a barrier after each
 *      (osu_ibarrier: none); the rank's average is its "Pure Comm." time;
 *   2. overlapped: start (Coll. Init), compute for the rank's pure
 *      communication time with -t MPI_Test calls spread over it (Compute,
 *      MPI_Test), MPI_Wait (MPI_Wait); the whole, with the clock readings
 *      between the parts, is Overall;
 *   3. every figure averaged over the ranks (min and max of the pure
 *      communication time too), and
 *      overlap = max(0, 100 - (overall - (compute - test)) / pure * 100) %.
 *
 * The checked pass (-c) runs the call again, blocking on its request, with
 * each iteration's data. */
#include "osu/osu_nbc.h"

#include "osu/osu_nbc_compute.h"

#include "core/own_coll.h"

/* The call on the arguments of coll_args_at, started and completed. */
static void start_wait(osu_ctx *c)
{
    coll_start(c);
    coll_wait(c);
}

long osu_nbc_check(osu_ctx *c)
{
    static const coll_loop loop = {coll_args_at, start_wait};
    coll_layout(c);
    return coll_checked(c, &loop);
}

/* Step 1: the rank's pure communication time per call, seconds. */
static double pure_comm(osu_ctx *c)
{
    double timer = 0;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        coll_args_at(c, i);
        double t0 = MPI_Wtime();
        start_wait(c);
        double t = MPI_Wtime() - t0;
        if (coll_prog_of(c)->sync != SYNC_NONE) /* osu_ibarrier: none */
            MPI_Barrier(c->comm);
        if (i >= c->skip)
            timer += t;
    }
    MPI_Barrier(c->comm);
    return timer / (double)c->iterations;
}

/* The overlapped loop's sums over the timed iterations, seconds. */
enum { T_OVERALL, T_COMPUTE, T_TEST, T_WAIT, T_INIT, T_PURE, T_N };

/* Step 2: start, compute for comm_s seconds (with -t tests), wait.  The
 * clock is read as OSU reads it: Overall from its own first to its own last
 * reading, and each part between a pair of readings of its own, so Overall
 * also holds the four readings between the parts (0.12 us here, 8 % of a
 * 1-byte call's pure time: they count against the overlap, as in OSU's
 * figures). */
static void overlapped(osu_ctx *c, double comm_s, double sum[T_N])
{
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        coll_args_at(c, i);
        double t_start = MPI_Wtime();
        double init = MPI_Wtime();
        coll_start(c);
        init = MPI_Wtime() - init;
        double compute = MPI_Wtime();
        double test = osu_nbc_compute(comm_s, c->o->num_probes, coll_test, c);
        compute = MPI_Wtime() - compute; /* the MPI_Test calls included */
        double wait = MPI_Wtime();
        coll_wait(c);
        wait = MPI_Wtime() - wait;
        double t_stop = MPI_Wtime();
        MPI_Barrier(c->comm);
        if (i < c->skip)
            continue;
        sum[T_OVERALL] += t_stop - t_start;
        sum[T_INIT] += init;
        sum[T_COMPUTE] += compute;
        sum[T_TEST] += test;
        sum[T_WAIT] += wait;
        if (c->lat)
            c->lat[i - c->skip] = (t_stop - t_start) * 1e6;
    }
    MPI_Barrier(c->comm);
}

/* Step 3: OSU's averages over the ranks into the row (rank 0). */
static void nbc_row(const osu_ctx *c, const double mine[T_N], osu_row *row)
{
    double sum[T_N], lo[2], hi[2], ends[2] = {mine[T_PURE], mine[T_OVERALL]};
    eb_own_reduce(mine, sum, T_N, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    eb_own_reduce(ends, lo, 2, MPI_DOUBLE, MPI_MIN, 0, c->comm);
    eb_own_reduce(ends, hi, 2, MPI_DOUBLE, MPI_MAX, 0, c->comm);
    if (c->rank != 0)
        return;
    double avg[T_N];
    for (int k = 0; k < T_N; k++)
        avg[k] = sum[k] / c->size;
    row->overall_us = avg[T_OVERALL];
    row->compute_us = avg[T_COMPUTE] - avg[T_TEST]; /* OSU: the tests are overhead */
    row->init_us = avg[T_INIT];
    row->test_us = avg[T_TEST];
    row->wait_us = avg[T_WAIT];
    row->pure_comm_us = avg[T_PURE];
    row->min_comm_us = lo[0];
    row->max_comm_us = hi[0];
    double ov = avg[T_PURE] > 0 ? 100 - (row->overall_us - row->compute_us) / avg[T_PURE] * 100
                                : 0;
    row->overlap_pct = ov > 0 ? ov : 0;
    /* the JSON record's t_avg / t_min / t_max: the overall time over the ranks */
    row->avg_us = avg[T_OVERALL];
    row->min_us = lo[1];
    row->max_us = hi[1];
}

void osu_nbc_measure(osu_ctx *c, osu_row *row)
{
    coll_layout(c);
    double comm_s = pure_comm(c);
    double sum[T_N] = {0};
    overlapped(c, comm_s, sum);
    double mine[T_N];
    for (int k = 0; k < T_N; k++) /* per-call averages in us */
        mine[k] = sum[k] * 1e6 / (double)c->iterations;
    mine[T_PURE] = comm_s * 1e6;
    nbc_row(c, mine, row);
    osu_percentiles(c, 1, row);
}
