/* `mpibenchmark` (or `effbench reprompi`): ReproMPI's benchmark of MPI
 * collectives (ReproMPI's benchmarkCollective.c).  For each job (call, size,
 * repetitions): the clocks are synchronised, then every repetition is the
 * process synchronisation, the local start time, the call, the local end
 * time and the window's check; then the run-times of the repetitions are
 * formed over the processes and printed, one line each or as a summary.
 * The run skeleton (core/component_run.h) gives --json its run and end
 * records; each job is one `result` record (docs/json-lines.md). */
#include "core/component_names.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/mockups_node.h"
#include "core/registry.h"
#include "core/sysinfo.h"
#include "reprompi/rp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    rp_options o;
    rp_jobs jobs;
    rp_sync sync;
    FILE *out; /* rank 0: where the repetitions' lines go (NULL: nowhere) */
    FILE *settings; /* rank 0: where the settings go (stdout or the output file) */
    time_t started;
} rp_state;

static int rp_options_step(void *state, eb_run *run, int argc, char **argv)
{
    rp_state *r = state;
    char err[EB_ERRLEN];
    if (rp_parse(&r->o, argc, argv, run->procs, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    if (r->o.help) {
        if (run->rank == 0)
            rp_usage(stdout);
        return 1;
    }
    run->json_path = r->o.json;
    run->check = r->o.check;
    return 0;
}

/* The jobs, and rank 0's files (the command line first, as ReproMPI's main). */
static void rp_plan(void *state, eb_run *run)
{
    rp_state *r = state;
    r->started = time(NULL);
    rp_make_jobs(&r->o, &r->jobs);
    int bad = 0;
    if (run->rank == 0) {
        int n;
        char **cmd = eb_command_line(&n);
        printf("#Command-Line Arguments:");
        for (int k = 0; k < n; k++)
            printf(" %s", cmd[k]);
        printf("\n");
        r->settings = stdout;
        if (r->o.output_file) {
            r->settings = r->out = fopen(r->o.output_file, "w");
            bad = !r->out;
        } else if (!r->o.summary)
            r->out = stdout;
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad)
        eb_exit_all(EB_EXIT_USAGE, "--output-file: cannot open the file for writing");
    eb_guard_plan_rows(r->jobs.njobs);
    rp_sync_init(&r->sync, &r->o);
    /* the node-aware mock-ups' communicators, made before any timing */
    int any = 0, lane = 0;
    for (int c = 0; c < rp_call_count(); c++)
        if (r->o.module[c]) {
            any = 1;
            if (r->o.module[c]->regular_nodes)
                lane = 1;
        }
    if (any && !eb_mockup_nodes_regular(MPI_COMM_WORLD) && lane)
        eb_exit_all(EB_EXIT_USAGE, "--module: the Lane mock-ups need the same number of "
                    "processes on every node");
}

static void rp_record(void *state, eb_run *run)
{
    const rp_options *o = &((rp_state *)state)->o;
    eb_json *calls = eb_run_opt_array(run, "calls", EB_DECIDES);
    for (int k = 0; k < o->ncalls; k++)
        eb_json_str(calls, NULL, rp_call_name(o->calls[k]));
    eb_json_close(calls);
    eb_json *sizes = eb_run_opt_array(run, "msizes", EB_DECIDES);
    for (int k = 0; k < o->nmsizes; k++)
        eb_json_int(sizes, NULL, o->msizes[k]);
    eb_json_close(sizes);
    eb_run_opt_int(run, "nrep", o->nrep, EB_DECIDES);
    eb_run_opt_str(run, "input_file", o->input_file, EB_DECIDES);
    eb_run_opt_str(run, "operation", o->op_name, EB_DECIDES);
    eb_run_opt_str(run, "datatype", o->type_name, EB_DECIDES);
    eb_run_opt_int(run, "root_proc", o->root, EB_DECIDES);
    eb_run_opt_str(run, "proc_sync", rp_proc_sync_name(o->proc_sync), EB_DECIDES);
    eb_run_opt_str(run, "clock_sync", rp_clock_sync_name(o), EB_DECIDES);
    eb_run_opt_int(run, "clock_exchanges", o->clock_rounds, EB_DECIDES);
    eb_run_opt_str(run, "runtime_type", o->runtime == RP_RUNTIME_GLOBAL ? "global" : "local",
                   EB_DECIDES);
    eb_run_opt_num(run, "window_us", o->window_s * 1e6, EB_DECIDES);
    eb_run_opt_num(run, "wait_time_us", o->wait_s * 1e6, EB_DECIDES);
    eb_run_opt_bool(run, "shuffle_jobs", o->shuffle, EB_INFO);
    eb_json *mods = eb_run_opt_array(run, "modules", EB_DECIDES);
    for (int c = 0; c < rp_call_count(); c++)
        if (o->module[c])
            eb_json_str(mods, NULL, o->module[c]->name);
    eb_json_close(mods);
    eb_run_opt_int(run, "planned_rows", ((rp_state *)state)->jobs.njobs, EB_INFO);
}

/* The job's `result` record: the summary of its valid repetitions. */
static void result_record(const rp_state *r, const rp_job *jb, long valid, const double v[RP_NSUM],
                          const int *codes, long defects)
{
    if (!eb_jsonl_active())
        return;
    const rp_options *o = &r->o;
    long code[4] = {0, 0, 0, 0};
    for (long i = 0; i < jb->nrep; i++)
        code[codes[i] & 3]++;
    int procs;
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_REPROMPI);
    eb_json_str(&j, "benchmark", rp_call_name(jb->call));
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", procs);
    eb_json_int(&j, "bytes", jb->msize);
    eb_json_int(&j, "repetitions", jb->nrep);
    double us = 1e6, none = valid ? 1 : NAN;
    eb_json_num(&j, "t_min_us", v[2] * us * none);
    eb_json_num(&j, "t_max_us", v[3] * us * none);
    eb_json_num(&j, "t_avg_us", v[0] * us * none);
    eb_json_num(&j, "t_median_us", v[1] * us * none);
    eb_json_num(&j, "t_stddev_us", v[5] * us * none);
    eb_json_null(&j, "mbytes_per_s");
    if (o->check)
        eb_json_int(&j, "defects", defects);
    else
        eb_json_null(&j, "defects");
    eb_json_str(&j, "methodology", RP_METHODOLOGY);
    eb_json_int(&j, "count", jb->count);
    eb_json_int(&j, "valid_repetitions", valid);
    eb_json_int(&j, "missed_windows", jb->nrep - code[0]);
    eb_json_object(&j, "error_codes");
    eb_json_int(&j, "1", code[1]);
    eb_json_int(&j, "2", code[2]);
    eb_json_int(&j, "3", code[3]);
    eb_json_close(&j);
    eb_json_str(&j, "proc_sync", rp_proc_sync_name(o->proc_sync));
    eb_json_str(&j, "clock_sync", rp_clock_sync_name(o));
    eb_json_str(&j, "runtime_type", o->runtime == RP_RUNTIME_GLOBAL ? "global" : "local");
    eb_json_str(&j, "datatype", o->type_name);
    eb_json_str(&j, "operation", o->op_name);
    eb_json_int(&j, "root", o->root);
    eb_json_str(&j, "mockup", o->module[jb->call] ? o->module[jb->call]->name : NULL);
    eb_json_num(&j, "clock_sync_s", r->sync.synced ? r->sync.sync_s : NAN);
    eb_json_num(&j, "clock_error_us", r->sync.synced ? r->sync.clock.error * 1e6 : NAN);
    /* the synchronisation achieved, measured after it (core/clock.h's check round) */
    eb_json_num(&j, "clock_offset_max_us", r->sync.synced ? r->sync.clock.check_max * 1e6 : NAN);
    eb_json_num(&j, "clock_check_error_us",
                r->sync.synced ? r->sync.clock.check_error * 1e6 : NAN);
    eb_json_num(&j, "clock_drift_ppm", r->sync.synced ? r->sync.clock.drift_max * 1e6 : NAN);
    eb_jsonl_emit(&j);
}

/* The repetitions of one job; t0/t1 get the local start and end times. */
static void measure_job(rp_state *r, const rp_job *jb, rp_bufs *b, double *t0, double *t1)
{
    rp_sync_begin(&r->sync, jb->nrep);
    for (long i = 0; i < jb->nrep; i++) {
        rp_sync_start(&r->sync, i);
        t0[i] = MPI_Wtime();
        rp_call_run(b);
        t1[i] = MPI_Wtime();
        rp_sync_stop(&r->sync, i);
    }
}

static void run_job(rp_state *r, const rp_job *jb, int rank)
{
    const rp_options *o = &r->o;
    char what[160];
    snprintf(what, sizeof what, "%s, %ld bytes, %ld repetitions", rp_call_name(jb->call),
             jb->msize, jb->nrep);
    /* the guard's estimate (its default deadline is 20 times it, at least 120 s; --row-timeout
     * sets one): a generous bound, the window per repetition or 10 us plus P blocks at 100 MB/s */
    int procs;
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    double per_rep = (o->proc_sync == RP_SYNC_WINDOW ? o->window_s : 1e-5) +
                     (double)jb->msize * procs / 1e8;
    eb_guard_row(what, o->wait_s + per_rep * (double)jb->nrep, MPI_COMM_WORLD);
    size_t n = (size_t)jb->nrep + 1;
    double *t0 = eb_calloc(n, sizeof *t0), *t1 = eb_calloc(n, sizeof *t1);
    double *rt = eb_calloc(n, sizeof *rt);
    int *codes = eb_calloc(n, sizeof *codes);
    rp_bufs *b = rp_bufs_make(jb->call, jb->count, o, MPI_COMM_WORLD);
    long defects = 0;
    measure_job(r, jb, b, t0, t1);
    if (o->check) {
        long mine = rp_call_check(b);
        MPI_Reduce(&mine, &defects, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    /* -v prints the times, not the run-times, where the repetitions go (every rank) */
    if (o->verbose && (o->output_file || !o->summary))
        rp_print_verbose(r->out, o, &r->sync, jb, t0, t1);
    rp_runtimes(o, &r->sync, t0, t1, jb->nrep, rt, codes);
    if (rank == 0) {
        if (r->out && !o->verbose)
            rp_print_reps(r->out, o, jb, rt, codes);
        double v[RP_NSUM];
        long valid = rp_valid(rt, codes, jb->nrep, o->proc_sync == RP_SYNC_WINDOW);
        rp_summary_values(rt, valid, v);
        if (o->summary)
            rp_print_summary(stdout, o, jb, valid, v);
        if (o->check)
            printf("# -check: %s, %ld bytes: %ld defects\n", rp_call_name(jb->call), jb->msize,
                   defects);
        fflush(stdout);
        result_record(r, jb, valid, v, codes, defects);
    }
    rp_bufs_free(b);
    free(t0);
    free(t1);
    free(rt);
    free(codes);
    eb_guard_row_end();
    eb_guard_count_row();
}

static int rp_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    rp_state *r = state;
    int procs = run->procs;
    if (run->rank == 0) {
        rp_print_settings(r->settings, &r->o, procs);
        rp_print_header(&r->o, r->out);
    }
    for (int k = 0; k < r->jobs.njobs; k++)
        run_job(r, &r->jobs.jobs[r->jobs.order[k]], run->rank);
    if (run->rank == 0) {
        time_t end = time(NULL);
        FILE *f = r->settings;
        fprintf(f, "# Benchmark started at %s", asctime(localtime(&r->started)));
        fprintf(f, "# Execution time: %lds\n", (long)(end - r->started));
        fflush(f);
        if (f != stdout)
            fclose(f);
        r->out = r->settings = NULL;
    }
    return EB_EXIT_OK;
}

static void rp_release(void *state)
{
    rp_state *r = state;
    rp_sync_free(&r->sync);
    eb_mockup_release();
    rp_jobs_free(&r->jobs);
    rp_options_free(&r->o);
}

static const eb_component_steps rp_steps = {
    .component = EB_COMPONENT_REPROMPI,
    .methodology = RP_METHODOLOGY,
    .options = rp_options_step,
    .plan = rp_plan,
    .record = rp_record,
    .measure = rp_measure,
    .release = rp_release,
};

static int rp_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    rp_state r;
    memset(&r, 0, sizeof r);
    return eb_component_run(&rp_steps, &r, argc, argv);
}

static const eb_component rp_component = {
    .name = EB_COMPONENT_REPROMPI,
    .aliases = {RP_PROGRAM, NULL, NULL},
    .summary = "ReproMPI's mpibenchmark: MPI collectives timed per repetition, barrier or window "
               "synchronised",
    .order = 45,
    .main = rp_main,
};

EB_CONSTRUCTOR(register_reprompi) { eb_register_component(&rp_component); }
