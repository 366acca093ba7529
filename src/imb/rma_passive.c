/* IMB-RMA's Truly_passive_put: does the MPI library complete a put while the
 * target computes outside MPI (passive-target progress)?  The guide's two
 * cases, t_pure (target in MPI_Barrier) and t_ovrl (target computing
 * first), the verdict per row, and a summary after the table. */
#include "core/component_names.h"
#include "core/registry.h"
#include "core/report/jsonl.h"
#include "imb/driver/bench.h"
#include "imb/driver/cpu_exploit.h"
#include "imb/driver/report/imb_text.h"
#include "imb/rma_passive.h"
#include "imb/rma_state.h"

/* ---- Truly_passive_put --------------------------------------------------- */

/* Origin: n times MPI_Put / MPI_Win_flush / MPI_Barrier; target: n times
 * (optional computation outside MPI) / MPI_Barrier.  Seconds per repetition. */
static double passive_origin(eb_ctx *c, long first, long n)
{
    double t0 = MPI_Wtime();
    for (long i = first; i < first + n; i++) {
        MPI_Put(rma_loc_sec(c, i), (int)c->x, MPI_BYTE, 1, rma_disp(c, i), (int)c->x, MPI_BYTE,
                rma_window(c));
        MPI_Win_flush(1, rma_window(c));
        MPI_Barrier(c->comm);
    }
    return (MPI_Wtime() - t0) / (double)n;
}

static double passive_target(eb_ctx *c, long n, const eb_cpu_work *work)
{
    double cpu = 0;
    for (long i = 0; i < n; i++) {
        if (work)
            cpu += eb_cpu_run(work);
        MPI_Barrier(c->comm);
    }
    return cpu / (double)n;
}

/* The untimed uses (warm-up, repetition probes, -check): the t_pure loop. */
static double passive_put(eb_ctx *c, long first, long n)
{
    if (c->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, rma_window(c));
        passive_origin(c, first, n);
        MPI_Win_unlock(1, rma_window(c));
    } else {
        passive_target(c, n, NULL);
    }
    MPI_Barrier(c->comm);
    return 0;
}

enum { X_PURE, X_OVRL, X_CPU, X_PASSIVE };

/* Per iteration the origin does put / flush / barrier, the target computes
 * (t_cpu) then barriers.  Without passive progress the flush waits for the
 * target to enter MPI: t_ovrl ~ t_cpu + t_pure.  With it the put overlaps the
 * computation and only the barrier remains: t_ovrl - t_cpu ~ t_pure minus the
 * transfer.  The midpoint decides. */
int eb_rma_passive_verdict(double t_pure, double t_ovrl, double t_cpu)
{
    return t_ovrl - t_cpu < 0.5 * t_pure;
}

/* The guide's two cases: (1) target waiting in MPI_Barrier -> t_pure;
 * t_pure is sent to the target, which calibrates a computation of that
 * length; (2) target computing, then MPI_Barrier -> t_ovrl.  The target
 * returns its undisturbed computation time for the verdict. */
static double passive_measure(eb_ctx *c, long n)
{
    double t_pure = 0, t_ovrl = 0, t_cpu = 0;
    if (c->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, rma_window(c));
        t_pure = passive_origin(c, 0, n);
        MPI_Send(&t_pure, 1, MPI_DOUBLE, 1, 1, c->comm);
        MPI_Barrier(c->comm);
        t_ovrl = passive_origin(c, 0, n);
        MPI_Win_unlock(1, rma_window(c));
        MPI_Recv(&t_cpu, 1, MPI_DOUBLE, 1, 2, c->comm, MPI_STATUS_IGNORE);
        c->extra[X_PURE] = t_pure * 1e6;
        c->extra[X_OVRL] = t_ovrl * 1e6;
        c->extra[X_CPU] = t_cpu * 1e6;
        c->extra[X_PASSIVE] = eb_rma_passive_verdict(t_pure, t_ovrl, t_cpu);
    } else {
        passive_target(c, n, NULL);
        MPI_Recv(&t_pure, 1, MPI_DOUBLE, 0, 1, c->comm, MPI_STATUS_IGNORE);
        eb_cpu_work work = eb_cpu_calibrate(t_pure);
        MPI_Barrier(c->comm);
        t_cpu = passive_target(c, n, &work);
        MPI_Send(&t_cpu, 1, MPI_DOUBLE, 0, 2, c->comm);
    }
    MPI_Barrier(c->comm);
    return c->rank == 0 ? t_pure : 0;
}

/* After the table: the verdict over the longer half of the lengths, where
 * the transfer rather than the barrier dominates t_pure. */
static void passive_note(const eb_row *rows, int nrows)
{
    int from = nrows / 2, yes = 0, m = nrows - from;
    for (int k = from; k < nrows; k++)
        yes += rows[k].extra[X_PASSIVE] > 0.5;
    int passive = 2 * yes > m;
    eb_imb_print_note("Truly_passive_put: t_ovrl - t_cpu < t_pure / 2 (the put overlapped the "
                      "target's computation) in %d of the %d longest lengths:", yes, m);
    eb_imb_print_note("the MPI library %s passive-target progress (the origin completes while "
                      "the target computes outside MPI)", passive ? "HAS" : "does NOT have");
    if (eb_jsonl_active()) {
        eb_json j;
        eb_jsonl_begin(&j, "summary");
        eb_json_str(&j, "component", EB_COMPONENT_RMA);
        eb_json_str(&j, "benchmark", "Truly_passive_put");
        eb_json_int(&j, "procs", rows[0].procs);
        eb_json_bool(&j, "passive_progress", passive);
        eb_json_int(&j, "rows_passive", yes);
        eb_json_int(&j, "rows_judged", m);
        eb_jsonl_emit(&j);
    }
}

static void passive_kernel(eb_ctx *c, long first, long n)
{
    if (c->checking) {
        eb_rma_host_begin(&rma_st(c)->w); /* host copies under IMB-RMA-GPU */
        eb_rma_preset_put(c, first, 0);
        eb_rma_host_end(&rma_st(c)->w, 1);
        MPI_Barrier(c->comm);
    }
    passive_put(c, first, n);
}

static long passive_check(eb_ctx *c, long i)
{
    eb_rma_host_begin(&rma_st(c)->w);
    long bad = eb_rma_check_put(c, i, 0);
    eb_rma_host_end(&rma_st(c)->w, 0);
    return bad;
}

static const eb_column passive_columns[] = {
    {EB_COL_BYTES, "#bytes"}, {EB_COL_REPS, "#repetitions"},
    {EB_COL_EXTRA + X_PURE, "t_pure[usec]"}, {EB_COL_EXTRA + X_OVRL, "t_ovrl[usec]"},
    {0, NULL}};

static const eb_bench passive_bench =
    {.component = EB_COMPONENT_RMA, .name = "Truly_passive_put", .order = 260, .cls = EB_SINGLE_TRANSFER,
     .fixed_procs = 2,
     .list_comment = "The benchmark measures execution time of MPI_Put for 2 cases:\n"
                     "1) The target is waiting in MPI_Barrier call (t_pure value)\n"
                     "2) The target performs computation and then enters MPI_Barrier routine "
                     "(t_ovrl value)",
     .extents = eb_rma_no_extents, .prepare = eb_rma_prepare_single, .kernel = passive_kernel,
     .check = passive_check, .release = eb_rma_release, .columns = passive_columns,
     .extra_json = {"t_pure_us", "t_ovrl_us", "t_cpu_us", "passive_progress"},
     .measure = passive_measure, .after_table = passive_note};

EB_CONSTRUCTOR(register_rma_passive) { eb_register_bench(&passive_bench); }
