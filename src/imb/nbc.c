/* IMB-NBC: nonblocking collectives.  Each operation has two flavours:
 * - overlap (default): t_pure of the operation alone, then the operation
 *   started, IMB's CPU-exploit kernel run for about t_pure, MPI_Wait;
 *   the row shows t_ovrl t_pure t_CPU overlap[%] of the rank with the
 *   largest t_ovrl;
 * - _pure (by name or -include): start + wait, t_min/t_max/t_avg.
 * The operations (arguments, root rotation, checks) are IMB-MPI1's, from
 * coll.c, started with their MPI-3 nonblocking calls.  The overlap method
 * (eb_nbc_overlap, nbc.h) serves IMB-MPI4's persistent requests too. */
#include "imb/nbc.h"

#include "core/component_names.h"
#include "core/mpi_features.h"
#include "core/registry.h"
#include "imb/coll.h"
#include "imb/driver/driver.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/overlap.h"

#include <stdio.h>

/* IMB-NBC's start: repetition i's MPI_I* call into the state's request. */
static MPI_Request *nbc_start(eb_ctx *c, long i)
{
    eb_coll_state *st = c->priv;
    eb_coll_call(c, i, &st->req);
    return &st->req;
}

void eb_nbc_loop(eb_ctx *c, long first, long n, eb_nbc_start start)
{
    const eb_coll_state *st = c->priv;
    for (long i = first; i < first + n; i++) {
        MPI_Request *req = start(c, i);
        if (st->cpu.passes > 0)
            eb_cpu_run(&st->cpu);
        MPI_Wait(req, MPI_STATUS_IGNORE);
    }
}

/* Start + wait: the _pure kernel, and the overlap flavour's warm-up,
 * repetition probe and t_pure.  Once the overlap flavour has calibrated its
 * CPU work (the checked pass after the timing), the work runs between start
 * and wait, so -check verifies the data of overlapped operations. */
static void nbc_kernel(eb_ctx *c, long first, long n) { eb_nbc_loop(c, first, n, nbc_start); }

enum { X_OVRL, X_PURE, X_CPU, X_OVERLAP };

double eb_nbc_overlap(eb_ctx *c, long n, eb_nbc_start start)
{
    eb_coll_state *st = c->priv;
    /* IMB 2021's -sync 0|1: every repetition timed on its own (and a
     * barrier after each with -sync 1) in both loops */
    int per_rep = eb_imb2021_per_rep(c->opt, c->bench);
    st->cpu.passes = 0;
    double t_pure;
    if (per_rep) {
        t_pure = eb_imb2021_rep_loop(c, n);
    } else {
        double t0 = MPI_Wtime();
        c->bench->kernel(c, 0, n);
        t_pure = (MPI_Wtime() - t0) / (double)n;
    }

    /* initialize mode: the work that takes t_pure undisturbed; from now on
     * every repetition does exactly that work */
    st->cpu = eb_cpu_calibrate(t_pure);

    eb_imb_barriers(c->opt, c->comm, EB_N_BARR);
    double t_cpu = 0, t_ovrl = 0, t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        if (per_rep)
            t0 = MPI_Wtime();
        MPI_Request *req = start(c, i);
        t_cpu += eb_cpu_run(&st->cpu);
        MPI_Wait(req, MPI_STATUS_IGNORE);
        if (per_rep) {
            t_ovrl += MPI_Wtime() - t0;
            eb_imb2021_after_rep(c);
        }
    }
    t_ovrl = (per_rep ? t_ovrl : MPI_Wtime() - t0) / (double)n;
    t_cpu /= (double)n;

    c->extra[X_OVRL] = t_ovrl * 1e6;
    c->extra[X_PURE] = t_pure * 1e6;
    c->extra[X_CPU] = t_cpu * 1e6;
    c->extra[X_OVERLAP] = eb_overlap_percent(t_pure, t_cpu, t_ovrl);
    /* the primary time: the driver takes the extras from the rank where it
     * is largest, as the guide asks (the process with the biggest t_ovrl) */
    return t_ovrl;
}

/* The overlap measurement of one row (after the driver's barriers). */
static double overlap_measure(eb_ctx *c, long n) { return eb_nbc_overlap(c, n, nbc_start); }

const eb_column eb_nbc_overlap_columns[] = {
    {EB_COL_BYTES, "#bytes"},
    {EB_COL_REPS, "#repetitions"},
    {EB_COL_EXTRA + X_OVRL, "t_ovrl[usec]"},
    {EB_COL_EXTRA + X_PURE, "t_pure[usec]"},
    {EB_COL_EXTRA + X_CPU, "t_CPU[usec]"},
    {EB_COL_EXTRA + X_OVERLAP, "overlap[%]"},
    {0, NULL},
};

/* Ibarrier moves no data: no #bytes column. */
const eb_column eb_nbc_overlap_columns_nobytes[] = {
    {EB_COL_REPS, "#repetitions"},
    {EB_COL_EXTRA + X_OVRL, "t_ovrl[usec]"},
    {EB_COL_EXTRA + X_PURE, "t_pure[usec]"},
    {EB_COL_EXTRA + X_CPU, "t_CPU[usec]"},
    {EB_COL_EXTRA + X_OVERLAP, "overlap[%]"},
    {0, NULL},
};

#define NBC_COMMON(nm, ord)                                                  \
    .component = EB_COMPONENT_NBC, .name = nm, .order = ord, .kernel = nbc_kernel,      \
    .large_counts = EB_MPI_LARGE_COUNT_NBC

#define OVERLAP(nm, ord, k)                                                             \
    {.b = {NBC_COMMON(nm, ord), .columns = eb_nbc_overlap_columns,                      \
           .extra_json = EB_NBC_OVERLAP_JSON, .measure = overlap_measure},              \
     .kind = k}

#define PURE(nm, ord, k) {.b = {NBC_COMMON(nm, ord), .flags = EB_F_EXPLICIT_ONLY}, .kind = k}

#define BOTH(nm, ord, k) OVERLAP(nm, ord, k), PURE(nm "_pure", ord + 200, k)

/* The guide's IMB-NBC table order; the _pure flavours after all overlap ones. */
static eb_coll_bench nbc_benches[] = {
    BOTH("Ibcast", 100, EB_COLL_BCAST),
    BOTH("Iallgather", 110, EB_COLL_ALLGATHER),
    BOTH("Iallgatherv", 120, EB_COLL_ALLGATHERV),
    BOTH("Igather", 130, EB_COLL_GATHER),
    BOTH("Igatherv", 140, EB_COLL_GATHERV),
    BOTH("Iscatter", 150, EB_COLL_SCATTER),
    BOTH("Iscatterv", 160, EB_COLL_SCATTERV),
    BOTH("Ialltoall", 170, EB_COLL_ALLTOALL),
    BOTH("Ialltoallv", 180, EB_COLL_ALLTOALLV),
    BOTH("Ireduce", 190, EB_COLL_REDUCE),
    BOTH("Ireduce_scatter", 200, EB_COLL_REDUCE_SCATTER),
    BOTH("Iallreduce", 210, EB_COLL_ALLREDUCE),
    BOTH("Ibarrier", 220, EB_COLL_BARRIER),
};

void eb_nbc_print_settings(const eb_imb_options *o)
{
    (void)o;
    eb_cpu_work w = eb_cpu_calibrate(EB_NBC_TARGET_CPU_SECS);
    double t = eb_cpu_run(&w);
    double mflops = t > 0 ? eb_cpu_flops_per_pass() * (double)w.passes / t / 1e6
                          : eb_cpu_mflops();
    printf("\n# For nonblocking benchmarks:\n\n");
    printf("# Function CPU_Exploit obtains an undisturbed\n");
    printf("# performance of %7.2f MFlops\n", mflops);
}

/* IMB_settings.h: IMB-NBC uses the MPI-1 standard-mode values. */
static const eb_imb_family nbc_family = {
    .component = EB_COMPONENT_NBC,
    .program = "IMB-NBC",
    .part = "MPI-NBC part",
    .text2021 = {.min_zero_size = 1},
    .iter = {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100,
             .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .minmsglog = 0,
    .maxmsglog = 22,
    .print_settings = eb_nbc_print_settings,
    .summary = "IMB-NBC: nonblocking collectives, overlap and pure communication time",
    .order = 40,
};

EB_CONSTRUCTOR(register_nbc)
{
    eb_register_imb_family(&nbc_family);
    for (size_t i = 0; i < sizeof nbc_benches / sizeof nbc_benches[0]; i++) {
        eb_coll_bench *cb = &nbc_benches[i];
        eb_coll_describe(cb);
        if (cb->b.measure && (cb->b.flags & EB_F_NO_BYTES))
            cb->b.columns = eb_nbc_overlap_columns_nobytes; /* Ibarrier */
        eb_register_bench(&cb->b);
    }
}
