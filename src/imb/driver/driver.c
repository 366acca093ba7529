/* The IMB driver: the tables of the plan (plan.c: which benchmarks, process
 * sets, modes and lengths), the groups of each process set, and the whole
 * run of an IMB component.  How a row is measured is the runner's
 * (runner.c), how it is assembled the row code's (row.c), where it goes the
 * reporters' (report/reporter.h). */
#include "imb/driver/driver.h"

#include "core/error.h"
#include "core/guard.h"
#include "core/mpi_features.h"
#include "core/registry.h"
#include "core/report/jsonl_resume.h"
#include "core/simulate.h"
#include "core/sysinfo.h"
#include "imb/driver/gpu.h"
#include "imb/driver/imb2021_defaults.h"
#include "imb/driver/imb_yaml.h"
#include "imb/driver/plan.h"
#include "imb/driver/procsets.h"
#include "imb/driver/report/reporters.h"
#include "imb/driver/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --resume: a row of the earlier file, not measured again */
static int already_measured(const eb_report_run *run, const char *name, const char *mode, int q,
                            size_t x, int last_group)
{
    char key[256];
    eb_row_key(key, sizeof key, name, mode, q, x, last_group);
    for (int i = 0; i < run->n_resume_keys; i++)
        if (strcmp(run->resume_keys[i], key) == 0)
            return 1;
    return 0;
}

/* ---- the tables -------------------------------------------------------- */

/* The table's lengths: its rows, or the lengths of the resumed file, or
 * the end of the lengths that fit -mem. */
static void measure_lengths(eb_runner *R, const eb_sizes *sizes)
{
    const eb_report_run *run = R->table.run;
    const eb_report_table *t = &R->table.info;
    const eb_imb_options *o = run->o;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    long resumed = 0;
    double t0 = MPI_Wtime();
    for (int i = 0; i < sizes->n; i++) {
        /* rows are written group by group, so the last group's row means
         * the whole length was measured */
        if (already_measured(run, t->name, t->mode, t->procs, sizes->v[i],
                             t->multi == 1 ? R->ctx.ngroups - 1 : -1)) {
            resumed++;
            continue;
        }
        double need = eb_plan_buffer_bytes(o, t->bench, t->procs, R->aggregate, sizes->v[i]);
        if (need > o->mem_gb * 1073741824.0) { /* as eb_plan_lengths_that_fit */
            if (wrank == 0)
                eb_report_note(run, "#bytes = %zu and longer skipped: buffers need %.3f GB per "
                               "process, -mem allows %g GB (raise -mem to run them)",
                               sizes->v[i], need / 1073741824.0, o->mem_gb);
            break;
        }
        if (eb_imb2021_timed_out(o, t0, R->table.active)) {
            if (wrank == 0)
                eb_report_stopped(run, sizes->v[i], EB_IMB2021_TIME_OUT);
            break;
        }
        eb_runner_measure(R, sizes->v[i]);
    }
    if (resumed && wrank == 0)
        eb_report_note(run, "%ld length%s already in %s: not measured again (--resume)", resumed,
                       resumed == 1 ? "" : "s", o->json_path);
}

/* Collective over every rank: the benchmark's open_set on the active ranks;
 * a set-up error (an unwritable file ...) on any ends the run everywhere. */
static int open_set(const eb_bench *b, eb_ctx *ctx, int active)
{
    if (!b->open_set)
        return 0;
    char err[EB_ERRLEN] = "", msg[EB_ERRLEN];
    int failed = active && b->open_set(ctx, err, sizeof err) != 0;
    int set_open = active && !failed;
    if (eb_any_error(failed ? err : NULL, msg, sizeof msg)) {
        if (set_open && b->close_set)
            b->close_set(ctx);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    return set_open;
}

static int is_identity(const int *order, int n)
{
    for (int i = 0; i < n; i++)
        if (order[i] != i)
            return 0;
    return 1;
}

/* One table: benchmark b on q processes per group in one mode. */
static void run_procset(const eb_report_run *run, const eb_bench *b, int multi, int q,
                        const int *order, const char *mode)
{
    const eb_imb_options *o = run->o;
    int P, wrank;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int ngroups = multi >= 0 ? P / q : 1;
    int pos = 0;
    while (order[pos] != wrank)
        pos++;
    int active = pos < ngroups * q;
    /* a set of every rank in rank order: one group, the world's (no new communicators
     * in a simulation) */
    int whole = q == P && is_identity(order, P);
    MPI_Comm group_comm, active_comm;
    eb_sim_split_world(whole, active ? pos / q : MPI_UNDEFINED, pos, &group_comm);
    /* One group: the active ranks are the group, so one communicator, as IMB has.  A
     * second one costs memory: past 8 communicators MPICH 4.0 allocates (and touches)
     * a block of 1024 (0.9 MB resident per rank). */
    if (ngroups == 1)
        active_comm = group_comm;
    else
        eb_sim_split_world(whole, active ? 0 : MPI_UNDEFINED, pos, &active_comm);

    char name[128];
    snprintf(name, sizeof name, "%s%s", multi >= 0 ? "Multi-" : "", b->name);
    eb_table T = {.run = run, .active = active_comm, .comm = group_comm, .group = pos / q,
                  .groups = ngroups,
                  .info = {.bench = b, .name = name, .mode = mode, .multi = multi, .procs = q,
                           .ngroups = multi >= 0 ? ngroups : 0, .ranks = order,
                           .waiting = P - ngroups * q}};
    if (wrank == 0)
        eb_report_table_start(run, &T.info);
    int aggregate = eb_plan_aggregate(b, mode);
    eb_sizes sizes = eb_plan_sizes(o, b);
    size_t max_size = 0;
    for (int i = 0; i < sizes.n; i++)
        if (sizes.v[i] > max_size)
            max_size = sizes.v[i];
    eb_runner R = {0};
    if (active)
        eb_runner_init(&R, o, &T, aggregate, ngroups, max_size);
    int set_open = open_set(b, &R.ctx, active);
    if (active) {
        measure_lengths(&R, &sizes);
        if (set_open && b->close_set)
            b->close_set(&R.ctx);
        /* effbench's verdicts after a table (Truly_passive_put's): IMB 2021 prints none */
        if (b->after_table && R.table.nrows > 0 && !o->imb21.defaults2021)
            b->after_table(R.table.rows, R.table.nrows);
        eb_runner_free(&R);
        if (active_comm != group_comm)
            eb_comm_release(&active_comm);
        eb_comm_release(&group_comm);
    }
    eb_sizes_free(&sizes);
    if (wrank == 0)
        eb_report_table_end(run, &T.info);
    MPI_Barrier(MPI_COMM_WORLD); /* the waiting processes */
}

/* A benchmark the run has too few processes for.  Its block shows the run's
 * P processes, in -map's rank order when one is given (ORDER, as every block). */
static void skip(const eb_report_run *run, const eb_bench *b, int need, int P, const int *order)
{
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (wrank != 0)
        return;
    eb_report_table t = {.bench = b, .name = b->name, .multi = -1, .procs = P, .need_procs = need,
                         .ranks = order};
    eb_report_table_start(run, &t);
    eb_report_table_end(run, &t);
}

static void run_bench(const eb_report_run *run, const eb_bench *b, int multi, const int *order)
{
    int P, need, qs[EB_MAX_PROCSETS];
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    int nq = eb_plan_procsets(run->o, b, P, qs, &need);
    if (need > 0)
        skip(run, b, need, P, order);
    const char *modes[2];
    int nmodes = eb_plan_modes(run->o, b, modes);
    for (int k = 0; k < nq; k++)
        for (int m = 0; m < nmodes; m++)
            run_procset(run, b, multi, qs[k], order, modes[m]);
}

/* ---- the run ------------------------------------------------------------ */

/* IMB 2021's -list: the program, then its benchmarks in alphabetical order,
 * "(non-default)" after those that run only by name. */
static void print_list(const eb_imb_options *o)
{
    const eb_imb_family *f = o->family;
    int n = eb_bench_count(f->component);
    const eb_bench **v = eb_malloc((size_t)n * sizeof *v);
    int kept = 0;
    for (int i = 0; i < n; i++) /* a GPU program's own: IMB-RMA-GPU has two fewer */
        if (eb_imb_gpu_has(o, eb_bench_at(f->component, i)))
            v[kept++] = eb_bench_at(f->component, i);
    n = kept;
    for (int i = 1; i < n; i++) /* insertion sort by name, as IMB's std::set */
        for (int k = i; k > 0 && strcmp(v[k - 1]->name, v[k]->name) > 0; k--) {
            const eb_bench *tmp = v[k];
            v[k] = v[k - 1];
            v[k - 1] = tmp;
        }
    if (o->imb21.defaults2021) /* IMB names itself first: effbench says whose method */
        printf("effbench %s (Intel(R) MPI Benchmarks %s methodology)\n", EFFBENCH_VERSION,
               EB_IMB2021_VERSION);
    else
        printf("%s\n", f->program);
    printf("List of benchmarks:\n%s:\n", f->program);
    for (int i = 0; i < n; i++) {
        printf("    %s%s\n", v[i]->name, eb_imb_runs_by_default(o, v[i]) ? "" : " (non-default)");
        for (const char *c = v[i]->list_comment; o->imb21.defaults2021 && c && *c;) {
            const char *nl = strchr(c, '\n'); /* IMB 2021 prints the comments too */
            int len = nl ? (int)(nl - c) : (int)strlen(c);
            printf("        %.*s\n", len, c);
            c += len + (nl != NULL);
        }
    }
    free(v);
}

/* `effbench quick -h`: what quick mode does and its own options, then the
 * component's, which it takes unchanged. */
static void print_quick_help(void)
{
    printf("Usage: mpirun -np P effbench quick [mpi1|nbc|ext|rma|io] [benchmark ...] [options]\n\n"
           "Runs the IMB component (default mpi1) with its benchmarks, options and table, but\n"
           "each row's timed loop repeats until the row is accurate enough, instead of the\n"
           "single loop of IMB's method.  A loop takes about 1/50 of the row's budget; after\n"
           "each one the %g %% fastest and slowest loops are set aside and the row stops when\n"
           "the standard error of the mean of the rest is below -epsilon times that mean\n"
           "(after at least %d loops), or when the budget -time is spent.  The row reports the\n"
           "median loop, the loops' minimum, maximum and spread, the loops run and the\n"
           "relative standard error reached (rel_err[%%]; JSON: converged true or false).\n\n"
           "Quick mode's options:\n"
           "  -epsilon E                relative standard error to reach (default %g)\n"
           "  -time SECONDS             budget per row (default %g in quick mode)\n"
           "  (-repeat and -sync window are refused: quick mode chooses its own loops)\n\n"
           "Where it pays, and where IMB's default run is as good and faster: docs/imb.md,\n"
           "\"effbench quick\".  The component's options follow.\n\n",
           100 * EB_QUICK_CUT, EB_QUICK_MIN_LOOPS, EB_QUICK_EPSILON, EB_QUICK_BUDGET);
}

static void print_help(const eb_imb_family *family, const eb_imb_options *o)
{
    if (o->quick)
        print_quick_help();
    eb_imb_print_help(family);
    eb_imb_gpu_print_help(o);
    printf("\nBenchmarks of %s (* = only by name or -include):\n", family->program);
    for (int i = 0; i < eb_bench_count(family->component); i++) {
        const eb_bench *b = eb_bench_at(family->component, i);
        if (!eb_imb_gpu_has(o, b))
            continue;
        printf("  %s%s\n", b->name, (b->flags & EB_F_EXPLICIT_ONLY) ? " *" : "");
    }
}

int eb_imb_run(const eb_imb_family *family, int argc, char **argv)
{
    int wrank, P, provided;
    eb_imb_family gpu_family; /* IMB-MPI1-GPU ...: the family under its GPU program's name */
    family = eb_imb_gpu_variant(family, argv[0], &gpu_family);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Query_thread(&provided);
    eb_imb_options o;
    eb_imb_options_init(&o, family);
    eb_imb_defaults_from_env(&o);
    char err[EB_ERRLEN];
    int nargc;
    char **args = eb_imb_yaml_load_argv(argc, argv, &nargc);
    if (eb_imb_parse(&o, nargc, args, err, sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    eb_imb_yaml_dump_file(&o);
    if (o.imb21.list) {
        if (wrank == 0)
            print_list(&o);
        eb_imb_options_free(&o);
        return EB_EXIT_OK;
    }
    if (o.help) {
        if (wrank == 0)
            print_help(family, &o);
        eb_imb_options_free(&o);
        return EB_EXIT_OK;
    }
    eb_imb_load_files(&o);
    int *order = eb_malloc((size_t)P * sizeof *order);
    if (eb_map_order(P, o.map_p, o.map_q, order, err, (int)sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    eb_plan plan = eb_make_plan(&o);
    /* the command line is sound; a library without the family's MPI calls is
     * refused as OSU's programs are */
    if (eb_mpi_refusal(family->needs, family->program, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    eb_plan_refuse_large_counts(&o, &plan, P);
    eb_imb_gpu_open(&o); /* a GPU program: the devices, and the library asked */

    eb_sysinfo si;
    eb_sysinfo_collect(&si, provided);
    eb_report_run run = {.o = &o, .si = &si, .list = plan.list, .multi = plan.multi, .n = plan.n,
                         .planned_rows = eb_planned_rows(&o, &plan, P)};
    eb_guard_plan_rows(run.planned_rows);
    eb_report_begin(&run);
    eb_warn_oversubscription();
    if (wrank == 0)
        eb_report_header(&run);
    for (int i = 0; i < plan.n; i++)
        run_bench(&run, plan.list[i], plan.multi[i], order);
    if (wrank == 0)
        eb_report_footer(&run);
    eb_plan_free(&plan);
    free(order);
    for (int i = 0; i < run.n_resume_keys; i++)
        free(run.resume_keys[i]);
    free(run.resume_keys);
    eb_imb_options_free(&o);
    return EB_EXIT_OK;
}

/* ---- the families as components ------------------------------------------ */

/* A family's component: the component first, so main's `self` leads to the family. */
typedef struct {
    eb_component c;
    const eb_imb_family *f;
} family_component;

static int family_main(const eb_component *self, int argc, char **argv)
{
    return eb_imb_run(((const family_component *)self)->f, argc, argv);
}

void eb_register_imb_family(const eb_imb_family *f)
{
    family_component *fc = calloc(1, sizeof *fc);
    if (!fc) { /* from a constructor: no MPI to end the job through */
        fputs("effbench: error: out of memory registering the IMB families\n", stderr);
        abort();
    }
    fc->f = f;
    /* the GPU build's program (IMB-MPI1-GPU) is a second name of the component */
    fc->c = (eb_component){.name = f->component,
                           .aliases = {f->program, f->gpu ? f->gpu->program : NULL},
                           .summary = f->summary,
                           .order = f->order, .main = family_main,
                           .list_json = eb_bench_list_json};
    eb_register_component(&fc->c);
}
