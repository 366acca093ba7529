/* `effbench skampi FILE`: the measurement suites of a .skampi configuration
 * file (SKaMPI paper, sections 3 and 4), with crash-surviving reruns and
 * `--postprocess` for the medians of several runs.  See docs/skampi.md.
 * This file is the command line and the steps of the run skeleton
 * (core/component_run.h) around the suites: the order and the output file
 * of a rerun are skampi/rerun.c's, one suite is skampi/suite_run.c's. */
#include "core/clock_model.h"
#include "core/component_names.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/json.h"
#include "core/own_coll.h"
#include "core/registry.h"
#include "core/text.h"
#include "skampi/config.h"
#include "skampi/env.h"
#include "skampi/logfile.h"
#include "skampi/output.h"
#include "skampi/plan.h"
#include "skampi/rerun.h"
#include "skampi/suite_run.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


/* ---------------- command line ---------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mpirun -np P effbench skampi [--check] [--json FILE] [--clock-sync METHOD]\n"
            "       CONFIG.skampi\n"
            "       effbench skampi --postprocess OUT1 OUT2 ... [-o FILE]\n\n"
            "Runs the measurement suites of a SKaMPI configuration file (suites/default.skampi\n"
            "is the default set).  Results go to the file named by @OUTFILE (SKaMPI text) and\n"
            "with --json to JSON Lines, appended per measurement.  Running the same command\n"
            "again after a crash resumes the run: finished suites are skipped, the suite that\n"
            "crashed is retried last (the @LOGFILE says so).  --check runs each point once\n"
            "with patterned data before measuring it and reports the bytes that arrive wrong\n"
            "(JSON `defects`).  --clock-sync " EB_CLOCK_METHODS " chooses the clock\n"
            "synchronisation of Synchronization = Window suites (linear; docs/clock-sync.md).\n"
            "--postprocess merges complete output files into one file of\n"
            "the medians.  See docs/skampi.md.\n");
}

/* --postprocess: rank 0 merges; exits 2 on every rank if it cannot. */
static void postprocess_main(int argc, char **argv, int first)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *outpath = NULL;
    char **files = eb_calloc((size_t)argc, sizeof *files);
    int n = 0;
    char err[EB_ERRLEN];
    const char *msg = NULL;
    for (int i = first; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc) {
                msg = "--postprocess: -o needs a file name";
                break;
            }
            outpath = argv[++i];
        } else {
            files[n++] = argv[i];
        }
    }
    if (!msg && n == 0)
        msg = "--postprocess: give the output files to merge";
    if (!msg && rank == 0) {
        FILE *out = outpath ? fopen(outpath, "w") : stdout;
        if (!out) {
            snprintf(err, sizeof err, "-o %s: cannot write", outpath);
            msg = err;
        } else {
            if (sk_postprocess(files, n, out, err, sizeof err))
                msg = err;
            if (outpath)
                fclose(out);
        }
    }
    char all[EB_ERRLEN];
    free(files);
    if (eb_any_error(msg, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
}

/* The command line. */
typedef struct {
    enum { SK_RUN, SK_HELP, SK_POSTPROCESS } action;
    int postprocess_args; /* SK_POSTPROCESS: index of the first argument after it */
    const char *cfgpath;  /* the .skampi file */
    const char *json;     /* --json FILE, or NULL */
    int check;            /* --check */
    int clock_sync;       /* --clock-sync: eb_clock_method of Synchronization = Window */
} sk_options;

/* The options in their order: -h and --postprocess end the list.  0, or
 * -1 and why (messages users and tests know). */
static int parse_options(int argc, char **argv, sk_options *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            o->action = SK_HELP;
            return 0;
        }
        if (!strcmp(argv[i], "--postprocess")) {
            o->action = SK_POSTPROCESS;
            o->postprocess_args = i + 1;
            return 0;
        }
        if (!strcmp(argv[i], "--json")) {
            if (i + 1 >= argc)
                return eb_err(err, errlen, "--json needs a file name");
            o->json = argv[++i];
        } else if (!strcmp(argv[i], "--check")) {
            o->check = 1;
        } else if (!strcmp(argv[i], "--clock-sync")) {
            if (i + 1 >= argc || (o->clock_sync = eb_clock_method_parse(argv[i + 1])) < 0)
                return eb_err(err, errlen, "--clock-sync %s: expected %s", i + 1 < argc ? argv[i + 1] : "",
                              EB_CLOCK_METHODS);
            i++;
        } else if (argv[i][0] == '-') {
            return eb_err(err, errlen, "unknown option '%s' (effbench skampi -h lists them)", argv[i]);
        } else if (o->cfgpath) {
            return eb_err(err, errlen, "one configuration file only ('%s' and '%s')", o->cfgpath,
                          argv[i]);
        } else {
            o->cfgpath = argv[i];
        }
    }
    if (!o->cfgpath)
        return eb_err(err, errlen, "no configuration file (effbench skampi FILE; "
                                   "suites/default.skampi is the default set)");
    return 0;
}

/* ---------------- one run: the steps of the run skeleton ---------------- */

/* A run of the configuration's suites, on every rank. */
typedef struct {
    sk_options opt;
    sk_config cfg;
    sk_env env;
    sk_plan *plans;          /* one per suite of cfg */
    sk_rerun rr;             /* the suites to run, the output file */
    const char **superseded; /* resumed JSON file: the suites retried, NULL-terminated */
    FILE *sko;               /* the output file (rank 0) */
} sk_run;

/* The configuration (every rank parses rank 0's copy of the file, so all
 * agree on errors), the environment and every suite's plan. */
static void load_config(sk_run *r)
{
    char msg[EB_ERRLEN];
    const char *path = r->opt.cfgpath;
    char *text = eb_read_file_bcast(path, "configuration file", MPI_COMM_WORLD, msg, sizeof msg);
    if (!text) { /* keep the message users and tests know */
        eb_err(msg, sizeof msg, "%s: cannot read the configuration file", path);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (sk_config_parse(text, path, &r->cfg, msg, sizeof msg))
        eb_exit_all(EB_EXIT_USAGE, msg);
    free(text);
    sk_env_init(&r->env, &r->cfg);
    r->env.check = r->opt.check;
    r->env.clock_method = r->opt.clock_sync;
    r->plans = eb_calloc((size_t)r->cfg.nsuites, sizeof *r->plans);
    for (int i = 0; i < r->cfg.nsuites; i++)
        if (sk_plan_make(&r->env, &r->cfg, &r->cfg.suites[i], &r->plans[i], msg, sizeof msg))
            eb_exit_all(EB_EXIT_USAGE, msg);
}

/* The command line and the configuration, all checked before any file
 * changes.  -h and --postprocess are not runs: 1, nothing else runs. */
static int sk_options_step(void *state, eb_run *run, int argc, char **argv)
{
    sk_run *r = state;
    char msg[EB_ERRLEN];
    if (parse_options(argc, argv, &r->opt, msg, sizeof msg))
        eb_exit_all(EB_EXIT_USAGE, msg);
    if (r->opt.action == SK_HELP) {
        if (run->rank == 0)
            usage(stdout);
        return 1;
    }
    if (r->opt.action == SK_POSTPROCESS) {
        postprocess_main(argc, argv, r->opt.postprocess_args);
        return 1;
    }
    run->json_path = r->opt.json;
    run->check = r->opt.check;
    load_config(r);
    return 0;
}

/* The @LOGFILE decides whether this run resumes an unfinished one.  Its
 * JSON Lines file, if there is one, is continued with a `resume` record:
 * the suites retried because they were running at the crash are
 * `superseded` (their rows before the record are incomplete, the complete
 * suite follows it; docs/skampi.md).  Without the file the run gets a new
 * one, with a `run` record. */
static void sk_prepare(void *state, eb_run *run)
{
    sk_run *r = state;
    sk_rerun_plan(&r->rr, &r->cfg);
    int json_exists = 0;
    if (r->opt.json && run->rank == 0)
        json_exists = access(r->opt.json, F_OK) == 0;
    eb_own_bcast(&json_exists, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!r->rr.resume || !json_exists)
        return;
    run->resume = 1;
    r->superseded = eb_calloc((size_t)r->rr.norder + 1, sizeof *r->superseded);
    for (int k = 0, n = 0; k < r->rr.norder; k++)
        if (r->rr.retried[k])
            r->superseded[n++] = r->cfg.suites[r->rr.order[k]].name;
    run->superseded = r->superseded;
}

/* The log and the output file (rank 0). */
static void sk_plan_step(void *state, eb_run *run)
{
    sk_run *r = state;
    sk_rerun_open_log(&r->rr, &r->cfg);
    r->sko = sk_outfile_open(&r->rr, &r->cfg, r->opt.cfgpath, &run->si);
}

/* The run record's `options` (docs/json-lines.md); the log, not the run
 * record, decides a resume, so none decides. */
static void sk_record(void *state, eb_run *run)
{
    const sk_run *r = state;
    const sk_config *cfg = &r->cfg;
    eb_run_opt_str(run, "config", r->opt.cfgpath, EB_INFO);
    eb_run_opt_str(run, "outfile", r->rr.outfile, EB_INFO);
    eb_run_opt_str(run, "logfile", cfg->logfile, EB_INFO);
    eb_run_opt_bool(run, "resumed", r->rr.resume, EB_INFO);
    eb_run_opt_int(run, "memory_kb", cfg->memory_kb, EB_INFO);
    eb_run_opt_int(run, "cachewarmup", cfg->cachewarmup, EB_INFO);
    eb_run_opt_bool(run, "postproc", cfg->postproc, EB_INFO);
    eb_run_opt_str(run, "machine", cfg->machine, EB_INFO);
    eb_run_opt_str(run, "node", cfg->node, EB_INFO);
    eb_run_opt_str(run, "network", cfg->network, EB_INFO);
    eb_run_opt_str(run, "mpiversion", cfg->mpiversion, EB_INFO);
    eb_run_opt_str(run, "user", cfg->user, EB_INFO);
    eb_run_opt_num(run, "overhead_us", r->env.overhead * 1e6, EB_INFO);
    eb_run_opt_num(run, "wtick_us", r->env.wtick * 1e6, EB_INFO);
    eb_json *suites = eb_run_opt_array(run, "suites", EB_INFO);
    for (int k = 0; k < r->rr.norder; k++)
        eb_json_str(suites, NULL, cfg->suites[r->rr.order[k]].name);
    eb_json_close(suites);
}

/* The suites in their order, then the output file's footer (rank 0). */
static void run_suites(sk_run *r)
{
    if (!r->rr.resume)
        sk_log("run begin outfile=%s", r->rr.outfile);
    else
        sk_log("note: resuming the unfinished run of %s: %d suites left", r->rr.outfile,
               r->rr.norder);
    double t0 = MPI_Wtime();
    for (int k = 0; k < r->rr.norder; k++) {
        const sk_suite *s = &r->cfg.suites[r->rr.order[k]];
        const sk_plan *p = &r->plans[r->rr.order[k]];
        if (r->rr.retried[k])
            sk_log("note: retrying suite %s last: it was running when an earlier run crashed", s->name);
        if (p->skip) {
            sk_log("suite skipped %s: %s", s->name, p->why);
            continue;
        }
        sk_log("suite begin %s", s->name);
        sk_run_suite(&r->env, &r->cfg, s, p, r->env.wrank == 0 ? r->sko : NULL);
    }
    if (r->env.wrank == 0) {
        char date[64];
        time_t now = time(NULL);
        struct tm lt;
        localtime_r(&now, &lt);
        strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &lt);
        sk_write_footer(r->sko, date, MPI_Wtime() - t0);
        fclose(r->sko);
        sk_log("run end");
    }
}

/* The suites, then @POSTPROC's medians; the log ends with the run. */
static int sk_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    sk_run *r = state;
    run_suites(r);
    if (r->cfg.postproc && run->rank == 0)
        sk_postprocess_series(&r->cfg);
    sk_log_close();
    return EB_EXIT_OK;
}

static void sk_release(void *state)
{
    sk_run *r = state;
    sk_rerun_free(&r->rr);
    free(r->superseded);
    free(r->plans);
    sk_env_free(&r->env);
    sk_config_free(&r->cfg);
}

static const eb_component_steps skampi_steps = {
    .component = EB_COMPONENT_SKAMPI,
    .resume_unchecked = 1,
    .options = sk_options_step,
    .prepare = sk_prepare,
    .plan = sk_plan_step,
    .record = sk_record,
    .measure = sk_measure,
    .release = sk_release,
};

static int skampi_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    sk_run r;
    memset(&r, 0, sizeof r);
    return eb_component_run(&skampi_steps, &r, argc, argv);
}

static const eb_component skampi_component = {
    .name = EB_COMPONENT_SKAMPI,
    .aliases = {NULL, NULL, NULL},
    .summary = "SKaMPI: measurement suites from a .skampi configuration file, to a requested accuracy",
    .order = 40,
    .main = skampi_main,
};

EB_CONSTRUCTOR(register_skampi) { eb_register_component(&skampi_component); }
