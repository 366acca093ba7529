/* OSU's method for the non-blocking collectives, for one size:
 *
 *   1. pure communication: start + MPI_Wait, timed, a barrier after each
 *      (osu_ibarrier: none); the rank's average is its "Pure Comm." time;
 *   2. overlapped: start (Coll. Init), compute for the rank's pure
 *      communication time with -t MPI_Test calls spread over it (Compute,
 *      MPI_Test), MPI_Wait (MPI_Wait); the whole is Overall;
 *   3. every figure averaged over the ranks (min and max of the pure
 *      communication time too), and
 *      overlap = max(0, 100 - (overall - (compute - test)) / pure * 100) %.
 *
 * The checked pass (-c) runs the call again, blocking on its request, with
 * each iteration's data. */
#include "osu/osu_nbc.h"

#include "core/buffers.h"
#include "core/error.h"
#include "osu/osu_nbc_compute.h"

#include <stdlib.h>

int osu_nbc_root(const osu_ctx *c, long i)
{
    return c->o->root >= 0 ? c->o->root : (int)(i % c->size);
}

size_t osu_nbc_bytes(const osu_ctx *c) { return c->count * (size_t)c->dtype_size; }

int osu_nbc_in_place(const osu_ctx *c) { return c->o->in_place; }

osu_nbc_args *osu_nbc_args_new(osu_ctx *c, const osu_nbc_call *call)
{
    osu_nbc_args *a = eb_calloc(1, sizeof *a);
    a->call = call;
    a->comm = c->comm;
    c->priv = a;
    return a;
}

static size_t buffer_bytes(const osu_ctx *c, int blocks, int peers)
{
    return (size_t)(blocks == OSU_NBC_PER_PEER ? peers : blocks) * c->o->max_size;
}

void osu_nbc_alloc(osu_ctx *c, osu_nbc_args *a, int peers)
{
    const osu_nbc_call *k = a->call;
    peers = peers > 0 ? peers : 1;
    a->s_len = buffer_bytes(c, k->send_blocks, peers);
    a->r_len = buffer_bytes(c, k->recv_blocks, peers);
    a->s = a->s_len ? osu_alloc(a->s_len) : NULL;
    a->r = a->r_len ? osu_alloc(a->r_len) : NULL;
    size_t n = (size_t)peers;
    a->scounts = eb_calloc(n, sizeof *a->scounts);
    a->sdispls = eb_calloc(n, sizeof *a->sdispls);
    a->rcounts = eb_calloc(n, sizeof *a->rcounts);
    a->rdispls = eb_calloc(n, sizeof *a->rdispls);
    a->sdispls_a = eb_calloc(n, sizeof *a->sdispls_a);
    a->rdispls_a = eb_calloc(n, sizeof *a->rdispls_a);
    a->stypes = eb_calloc(n, sizeof *a->stypes);
    a->rtypes = eb_calloc(n, sizeof *a->rtypes);
}

int osu_nbc_setup(osu_ctx *c, const osu_nbc_call *call, char *err, size_t errlen)
{
    if (c->o->root >= c->size)
        return eb_err(err, errlen, "%s: Root rank('-k') cannot be more than number of "
                      "processes (-k fixed:%d, %d processes)", c->prog->name, c->o->root,
                      c->size);
    if (c->o->ddt)
        return eb_err(err, errlen, "%s: derived datatypes (-D) are not built for the "
                      "non-blocking collectives yet: run without -D", c->prog->name);
    osu_nbc_alloc(c, osu_nbc_args_new(c, call), c->size);
    return 0;
}

void osu_nbc_teardown(osu_ctx *c)
{
    osu_nbc_args *a = c->priv;
    if (!a)
        return;
    if (a->comm != c->comm)
        MPI_Comm_free(&a->comm);
    void *mem[] = {a->s, a->r, a->scounts, a->sdispls, a->rcounts, a->rdispls, a->sdispls_a,
                   a->rdispls_a, a->stypes, a->rtypes, a->sources, a->destinations};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        free(mem[k]);
    free(a);
    c->priv = NULL;
}

static void run_once(osu_ctx *c, osu_nbc_args *a, long i)
{
    if (a->call->call) {
        a->call->call(c, a, i);
        return;
    }
    MPI_Request req;
    a->call->start(c, a, i, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

long osu_nbc_check(osu_ctx *c)
{
    osu_nbc_args *a = c->priv;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        a->call->fill(c, a, i);
        MPI_Barrier(c->comm);
        run_once(c, a, i);
        defects += a->call->verify(c, a, i);
    }
    return defects;
}

/* Step 1: the rank's pure communication time per call, seconds. */
static double pure_comm(osu_ctx *c, osu_nbc_args *a)
{
    double timer = 0;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        double t0 = MPI_Wtime();
        run_once(c, a, i);
        double t = MPI_Wtime() - t0;
        if (!a->call->unsynced)
            MPI_Barrier(c->comm);
        if (i >= c->skip)
            timer += t;
    }
    MPI_Barrier(c->comm);
    return timer / (double)c->iterations;
}

/* The overlapped loop's sums over the timed iterations, seconds. */
enum { T_OVERALL, T_COMPUTE, T_TEST, T_WAIT, T_INIT, T_PURE, T_N };

/* Step 2: start, compute for comm_s seconds (with -t tests), wait. */
static void overlapped(osu_ctx *c, osu_nbc_args *a, double comm_s, double sum[T_N])
{
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        MPI_Request req;
        double t_start = MPI_Wtime();
        a->call->start(c, a, i, &req);
        double t_started = MPI_Wtime();
        double test = osu_nbc_compute(comm_s, c->o->num_probes, &req);
        double t_computed = MPI_Wtime();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        double t_stop = MPI_Wtime();
        MPI_Barrier(c->comm);
        if (i < c->skip)
            continue;
        sum[T_OVERALL] += t_stop - t_start;
        sum[T_INIT] += t_started - t_start;
        sum[T_COMPUTE] += t_computed - t_started; /* the MPI_Test calls included */
        sum[T_TEST] += test;
        sum[T_WAIT] += t_stop - t_computed;
        if (c->lat)
            c->lat[i - c->skip] = (t_stop - t_start) * 1e6;
    }
    MPI_Barrier(c->comm);
}

/* Step 3: OSU's averages over the ranks into the row (rank 0). */
static void nbc_row(const osu_ctx *c, const double mine[T_N], osu_row *row)
{
    double sum[T_N], lo[2], hi[2], ends[2] = {mine[T_PURE], mine[T_OVERALL]};
    MPI_Reduce(mine, sum, T_N, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    MPI_Reduce(ends, lo, 2, MPI_DOUBLE, MPI_MIN, 0, c->comm);
    MPI_Reduce(ends, hi, 2, MPI_DOUBLE, MPI_MAX, 0, c->comm);
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
    osu_nbc_args *a = c->priv;
    if (a->call->prepare)
        a->call->prepare(c, a);
    double comm_s = pure_comm(c, a);
    double sum[T_N] = {0};
    overlapped(c, a, comm_s, sum);
    double mine[T_N];
    for (int k = 0; k < T_N; k++) /* per-call averages in us */
        mine[k] = sum[k] * 1e6 / (double)c->iterations;
    mine[T_PURE] = comm_s * 1e6;
    nbc_row(c, mine, row);
    osu_percentiles(c, 1, row);
}
