/* The run skeleton of b_eff, b_eff_io and SKaMPI (see component_run.h and
 * docs/architecture.md). */
#include "core/component_run.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

eb_resume *eb_run_resume_file(eb_run *run)
{
    if (!run->rs_read) {
        eb_jsonl_resume_read(&run->rs, run->json_path, run->steps->component);
        run->rs.superseded = run->superseded;
        run->rs_read = 1;
    }
    return &run->rs;
}

static void add_deciding(eb_run *run, const char *member)
{
    if (run->ndeciding >= EB_RUN_MAX_DECIDING)
        eb_abort("%s: more than %d run record members decide the values",
                 run->steps->component, EB_RUN_MAX_DECIDING);
    snprintf(run->deciding[run->ndeciding++], sizeof run->deciding[0], "%s", member);
}

static void add_option(eb_run *run, const char *name, int decides)
{
    if (decides) {
        char member[64];
        snprintf(member, sizeof member, "options.%s", name);
        add_deciding(run, member);
    }
}

void eb_run_opt_int(eb_run *run, const char *name, long long v, int decides)
{
    eb_json_int(&run->record, name, v);
    add_option(run, name, decides);
}

void eb_run_opt_num(eb_run *run, const char *name, double v, int decides)
{
    eb_json_num(&run->record, name, v);
    add_option(run, name, decides);
}

void eb_run_opt_bool(eb_run *run, const char *name, int v, int decides)
{
    eb_json_bool(&run->record, name, v);
    add_option(run, name, decides);
}

void eb_run_opt_str(eb_run *run, const char *name, const char *v, int decides)
{
    eb_json_str(&run->record, name, v);
    add_option(run, name, decides);
}

void eb_run_opt_null(eb_run *run, const char *name, int decides)
{
    eb_json_null(&run->record, name);
    add_option(run, name, decides);
}

eb_json *eb_run_opt_array(eb_run *run, const char *name, int decides)
{
    eb_json_array(&run->record, name);
    add_option(run, name, decides);
    return &run->record;
}

/* The run record: common fields, then the component's options. */
static void build_record(eb_run *run, void *state)
{
    run->ndeciding = 0;
    add_deciding(run, "procs");
    add_deciding(run, "check");
    eb_jsonl_run_begin(&run->record, run->steps->component, &run->si, run->check);
    if (run->steps->methodology)
        eb_json_str(&run->record, "methodology", run->steps->methodology);
    eb_json_object(&run->record, "options");
    run->steps->record(state, run);
    eb_json_close(&run->record);
}

/* New run: the file and its run record.  --resume: the file must be of a run
 * whose deciding members are this run's. */
static void start_file(eb_run *run)
{
    if (!run->resume) {
        eb_jsonl_open(run->json_path);
        if (run->rank == 0)
            eb_jsonl_emit(&run->record);
        else
            eb_json_free(&run->record);
        return;
    }
    const char *fields[EB_RUN_MAX_DECIDING + 1];
    int n = run->steps->resume_unchecked ? 0 : run->ndeciding;
    for (int i = 0; i < n; i++)
        fields[i] = run->deciding[i];
    fields[n] = NULL;
    eb_resume *rs = eb_run_resume_file(run);
    eb_jsonl_resume_match(rs, run->json_path, eb_json_finish(&run->record), fields);
    eb_json_free(&run->record);
}

/* The run whose on_exit step the exit hook calls (NULL: none); one
 * component runs per process. */
static eb_run *hooked;

static void exit_hook(int status, const char *msg)
{
    eb_run *run = hooked;
    if (run)
        run->steps->on_exit(run->state, status, msg);
}

int eb_component_run(const eb_component_steps *steps, void *state, int argc, char **argv)
{
    eb_run run;
    memset(&run, 0, sizeof run);
    run.steps = steps;
    run.state = state;
    run.t_start = MPI_Wtime();
    MPI_Comm_rank(MPI_COMM_WORLD, &run.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run.procs);
    MPI_Query_thread(&run.thread_provided);

    if (steps->options(state, &run, argc, argv))
        return EB_EXIT_OK; /* --help */
    if (steps->prepare)
        steps->prepare(state, &run);
    eb_sysinfo_collect(&run.si, run.thread_provided);
    eb_warn_oversubscription();
    if (steps->plan)
        steps->plan(state, &run);
    build_record(&run, state);
    start_file(&run);
    if (steps->ready)
        steps->ready(state, &run);
    if (run.resume) { /* the file changes only once nothing can refuse the run */
        eb_jsonl_resume_append(&run.rs, run.json_path);
        eb_jsonl_resume_free(&run.rs);
    }
    if (steps->on_exit) {
        hooked = &run;
        eb_add_exit_hook(exit_hook);
    }

    char msg[EB_ERRLEN] = "";
    int status = steps->measure(state, &run, msg, sizeof msg);
    hooked = NULL; /* measure cleaned up itself */
    eb_jsonl_end(status == EB_EXIT_OK ? "ok" : "error", status == EB_EXIT_OK ? NULL : msg);
    if (steps->release)
        steps->release(state);
    return status;
}
