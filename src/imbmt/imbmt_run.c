/* The IMB-MT component (`IMB-MT`, `effbench mt`) on the run skeleton
 * (core/component_run.h): options, the JSON file, then for each benchmark
 * and count one row measured by every thread of every process, reduced as
 * IMB-MT does (MT_benchmark.h's run). */
#include "core/component_names.h"
#include "imbmt/imbmt.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/listing.h"
#include "core/registry.h"
#include "core/sysinfo.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    mt_options o;
    int nthreads;
    MPI_Comm *comms;
    double last_row_s;
} mt_state;

static void refuse_thread_level(const mt_options *o, int provided)
{
    char msg[EB_ERRLEN];
    if (o->multiple && eb_thread_refusal("IMB-MT -thread_level multiple", provided, msg,
                                         sizeof msg))
        eb_exit_all(EB_EXIT_USAGE, msg);
    if (o->thread_level <= provided)
        return;
    snprintf(msg, sizeof msg, "IMB-MT -thread_level %s needs %s, but the MPI library granted "
             "%s (IMB-MT: can't setup a required MPI threading mode)",
             o->thread_level == MPI_THREAD_MULTIPLE ? "multiple"
             : o->thread_level == MPI_THREAD_SERIALIZED ? "serialized" : "funneled",
             eb_thread_level_name(o->thread_level), eb_thread_level_name(provided));
    eb_exit_all(EB_EXIT_USAGE, msg);
}

/* Every process must run as many threads (a communicator each). */
static int agreed_threads(const mt_options *o)
{
    char err[EB_ERRLEN] = "", all[EB_ERRLEN];
    int n = o->multiple ? eb_omp_num_threads(err, sizeof err) : 1;
    if (eb_any_error(n < 0 ? err : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    int lo, hi;
    MPI_Allreduce(&n, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&n, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi) {
        snprintf(all, sizeof all, "OMP_NUM_THREADS differs between the processes (%d to %d "
                 "threads): IMB-MT needs the same number on every process", lo, hi);
        eb_exit_all(EB_EXIT_USAGE, all);
    }
    return n;
}

static int mt_options_step(void *state, eb_run *run, int argc, char **argv)
{
    mt_state *st = state;
    char err[EB_ERRLEN], msg[EB_ERRLEN + 64];
    int r = mt_parse(&st->o, argc, argv, run->rank == 0 ? stdout : NULL, err, sizeof err);
    if (r < 0) {
        snprintf(msg, sizeof msg, "IMB-MT: %s (IMB-MT -help lists the options)", err);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (r > 0) {
        fflush(stdout);
        return 1;
    }
    refuse_thread_level(&st->o, run->thread_provided);
    st->nthreads = agreed_threads(&st->o);
    run->json_path = st->o.json_path;
    run->check = st->o.check;
    return 0;
}

static int counts_of(const mt_options *o, const mt_bench *b, const int **counts)
{
    static const int zero[1] = {0};
    *counts = b->flags & MT_SEND_0 ? zero : o->counts;
    return b->flags & MT_SEND_0 ? 1 : o->ncounts;
}

static void mt_plan(void *state, eb_run *run)
{
    mt_state *st = state;
    long rows = 0;
    const int *c;
    (void)run;
    for (int i = 0; i < st->o.nbenches; i++)
        rows += counts_of(&st->o, mt_bench_at(st->o.benches[i]), &c);
    eb_guard_plan_rows(rows);
}

static void mt_record(void *state, eb_run *run)
{
    mt_state *st = state;
    const mt_options *o = &st->o;
    eb_run_opt_str(run, "methodology", MT_METHODOLOGY, EB_DECIDES);
    eb_run_opt_str(run, "thread_level", eb_thread_level_name(o->thread_level), EB_DECIDES);
    eb_run_opt_int(run, "threads", st->nthreads, EB_DECIDES);
    eb_run_opt_int(run, "stride", o->stride, EB_DECIDES);
    eb_run_opt_int(run, "warmup", o->warmup, EB_DECIDES);
    eb_run_opt_int(run, "repeat", o->repeat, EB_DECIDES);
    eb_run_opt_int(run, "window_size", o->window_size, EB_DECIDES);
    eb_run_opt_str(run, "barrier", o->barrier_name, EB_DECIDES);
    eb_json *a = eb_run_opt_array(run, "count", EB_DECIDES);
    for (int i = 0; i < o->ncounts; i++)
        eb_json_int(a, NULL, o->counts[i]);
    eb_json_close(a);
    eb_run_opt_int(run, "malloc_align", o->malloc_align, EB_DECIDES);
    eb_run_opt_str(run, "malloc_algo", o->malloc_name, EB_DECIDES);
    eb_run_opt_str(run, "datatype", o->datatype_name, EB_DECIDES);
    a = eb_run_opt_array(run, "benchmarks", EB_INFO);
    for (int i = 0; i < o->nbenches; i++)
        eb_json_str(a, NULL, mt_bench_at(o->benches[i])->name);
    eb_json_close(a);
}

/* The threads' figures into rank 0's row: IMB-MT's sums, minima and maxima
 * over threads and processes, divided by the repetitions and the divider. */
static void reduce_row(mt_run *r, mt_row *row)
{
    double tmin = 1e6, tmax = 0, tsum = 0, div = r->o->repeat;
    int n = 0;
    long fails = 0;
    unsigned f = r->b->flags;
    div *= (f & MT_DIV_2 ? 2.0 : 1.0) * (f & MT_DIV_WINDOW ? r->o->window_size : 1.0);
    double mine_t[EB_MAX_THREADS];
    int mine_res[EB_MAX_THREADS];
    for (int k = 0; k < r->nthreads; k++) {
        const mt_thread *th = &r->th[k];
        tmin = th->t < tmin ? th->t : tmin;
        tmax = th->t > tmax ? th->t : tmax;
        tsum += th->t;
        n += th->result;
        fails += th->failures;
        mine_t[k] = th->t / div;
        mine_res[k] = th->result;
    }
    MPI_Allreduce(&tsum, &row->t_avg, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&tmin, &row->t_min, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&tmax, &row->t_max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&n, &row->nresults, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&fails, &row->failures, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Gather(mine_t, r->nthreads, MPI_DOUBLE, row->thread_t, r->nthreads, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
    MPI_Gather(mine_res, r->nthreads, MPI_INT, row->thread_result, r->nthreads, MPI_INT, 0,
               MPI_COMM_WORLD);
    if (row->nresults)
        row->t_avg /= row->nresults;
    row->t_avg /= div;
    row->t_min /= div;
    row->t_max /= div;
    double bw = (f & MT_BW_X2 ? 2.0 : 1.0) * (f & MT_BW_X4 ? 4.0 : 1.0);
    int pairs = row->nresults / 2;
    row->bytes = (unsigned long)row->count * (unsigned long)r->dtsize * (unsigned long)r->nthreads;
    row->mbytes_per_s = (double)row->bytes * bw / row->t_max / 1e6;
    row->mbytes_per_s_cum = (double)row->bytes / r->nthreads * bw * pairs / row->t_max / 1e6;
    row->msg_per_s = (int)((double)pairs / row->t_avg);
}

static void one_row(mt_state *st, mt_run *r, int count, int *shown)
{
    mt_row row = {.count = count};
    size_t all = (size_t)r->world_size * (size_t)r->nthreads;
    row.thread_t = eb_calloc(all, sizeof *row.thread_t);
    row.thread_result = eb_calloc(all, sizeof *row.thread_result);
    for (int k = 0; k < r->nthreads; k++) {
        r->th[k] = (mt_thread){.run = r, .tid = k, .comm = r->comms[k], .count = count,
                               .in = r->th[k].in, .out = r->th[k].out,
                               .base_in = r->th[k].base_in, .base_out = r->th[k].base_out,
                               .requests = r->th[k].requests};
        MPI_Comm_rank(r->comms[k], &r->th[k].rank);
        MPI_Comm_size(r->comms[k], &r->th[k].size);
    }
    char what[128];
    snprintf(what, sizeof what, "IMB-MT %s, count %d", r->b->name, count);
    eb_guard_row(what, 2 * st->last_row_s, MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    eb_team_run(&r->team, mt_thread_main, r);
    reduce_row(r, &row);
    if (r->world_rank == 0 && row.nresults) {
        if (!(*shown)++)
            mt_text_table(r, row.nresults / r->nthreads);
        mt_text_row(r, &row);
        mt_json_row(r, &row);
    } else if (r->world_rank == 0 && !(*shown)++) {
        mt_text_no_success(r);
    }
    fflush(stdout);
    eb_guard_row_end();
    st->last_row_s = MPI_Wtime() - t0;
    free(row.thread_t);
    free(row.thread_result);
}

static void run_bench(mt_state *st, const mt_bench *b)
{
    mt_run r = {.o = &st->o, .b = b, .nthreads = st->nthreads, .comms = st->comms};
    MPI_Comm_rank(MPI_COMM_WORLD, &r.world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.world_size);
    MPI_Type_size(st->o.datatype, &r.dtsize);
    const int *counts;
    int n = counts_of(&st->o, b, &counts), max = 0;
    for (int i = 0; i < n; i++)
        max = counts[i] > max ? counts[i] : max;
    r.size_a = (size_t)max * (size_t)r.dtsize;
    r.size_b = r.size_a * (b->flags & MT_RECV_FROM_2 ? 2 : 1);
    r.th = eb_calloc((size_t)r.nthreads, sizeof *r.th);
    for (int k = 0; k < r.nthreads; k++)
        r.th[k] = (mt_thread){.run = &r, .tid = k};
    eb_team_init(&r.team, r.nthreads);
    mt_alloc_buffers(&r);
    int shown = 0;
    for (int i = 0; i < n; i++)
        one_row(st, &r, counts[i], &shown);
    mt_free_buffers(&r);
    eb_team_destroy(&r.team);
    free(r.th);
}

static int mt_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    mt_state *st = state;
    (void)msg, (void)msglen;
    st->comms = eb_calloc((size_t)st->nthreads, sizeof *st->comms);
    for (int k = 0; k < st->nthreads; k++) /* IMB-MT: one communicator per thread */
        st->comms[k] = st->o.multiple ? eb_thread_comm(MPI_COMM_WORLD, k) : MPI_COMM_WORLD;
    if (run->rank == 0 && !st->o.noheader)
        mt_text_banner();
    for (int i = 0; i < st->o.nbenches; i++)
        run_bench(st, mt_bench_at(st->o.benches[i]));
    if (run->rank == 0)
        putchar('\n');
    fflush(stdout);
    for (int k = 0; k < st->nthreads; k++)
        if (st->o.multiple)
            MPI_Comm_free(&st->comms[k]);
    free(st->comms);
    return EB_EXIT_OK; /* defects are in the rows (and CHECK FAILURES lines), as IMB-MT */
}

static const eb_component_steps mt_steps = {
    .component = EB_COMPONENT_MT,
    .options = mt_options_step,
    .plan = mt_plan,
    .record = mt_record,
    .measure = mt_measure,
};

static int mt_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    mt_state st = {0};
    return eb_component_run(&mt_steps, &st, argc, argv);
}

/* `effbench --list-json`: IMB-MT's benchmarks in its order, then those of
 * mt_register_bench (by name only: not default). */
static void mt_list_json(const eb_component *self, eb_json *benchmarks)
{
    (void)self;
    for (int i = 0; i < mt_bench_count(); i++) {
        const mt_bench *b = mt_bench_at(i);
        int coll = (b->flags & MT_COLLECTIVE) != 0;
        eb_listing_entry e = {.component = EB_COMPONENT_MT, .name = b->name, .program = "IMB-MT",
                              .cls = coll ? "collective" : "pt2pt",
                              .is_default = i < mt_bench_default_count(),
                              .checked = !(b->flags & MT_SEND_0),
                              .reduction = strstr(b->name, "Reduce") != NULL,
                              .root = !strcmp(b->name, "BcastMT") || !strcmp(b->name, "ReduceMT"),
                              .min_procs = 1};
        int nf = 0;
        if (b->flags & MT_WINDOW)
            e.flags[nf++] = "window";
        if (b->flags & MT_SEND_0)
            e.flags[nf++] = "no_bytes";
        eb_listing_add(benchmarks, &e);
    }
}

static const eb_component mt_component = {
    .name = EB_COMPONENT_MT,
    .aliases = {"IMB-MT"},
    .summary = "IMB-MT of IMB 2021.11: the benchmarks on every thread at once",
    .order = 35,
    .main = mt_main,
    .list_json = mt_list_json,
};

EB_CONSTRUCTOR(register_imbmt) { eb_register_component(&mt_component); }
