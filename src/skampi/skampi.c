/* `effbench skampi FILE`: the measurement suites of a .skampi configuration
 * file (SKaMPI paper, sections 3 and 4), with crash-surviving reruns and
 * `--postprocess` for the medians of several runs.  See docs/skampi.md. */
#include "core/error.h"
#include "core/nodemap.h"
#include "core/text.h"
#include "core/json.h"
#include "core/registry.h"
#include "core/report/jsonl.h"
#include "core/sysinfo.h"
#include "skampi/config.h"
#include "skampi/measure.h"
#include "skampi/output.h"
#include "skampi/plan.h"
#include "skampi/refine.h"
#include "skampi/suite_keys.h"

#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CRASH_ENV "EFFBENCH_SKAMPI_CRASH_SUITE"

/* ---------------- reporting (rank 0) ---------------- */

static FILE *log_file;

static void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logmsg(const char *fmt, ...)
{
    if (!log_file)
        return;
    char ts[32];
    time_t now = time(NULL);
    struct tm g;
    gmtime_r(&now, &g);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &g);
    fprintf(log_file, "%s ", ts);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(log_file, fmt, ap);
    va_end(ap);
    fputc('\n', log_file);
    fflush(log_file);
}

typedef struct {
    sk_env *e;
    sk_suite_ctx *sc;
    const sk_plan *p;
    FILE *sko;
    long measured;   /* points measured so far */
    long crash_at;   /* tests: abort before this point (-1: never) */
} suite_run;

/* Tests only (docs/skampi.md): EFFBENCH_SKAMPI_CRASH_SUITE=NAME aborts
 * before the first measurement of suite NAME, NAME:N after its first N
 * measurements, so the crashed block has N rows.  -1 if not this suite. */
static long crash_point(const char *suite)
{
    const char *v = getenv(CRASH_ENV);
    if (!v)
        return -1;
    if (!strcmp(v, suite))
        return 0;
    const char *colon = strrchr(v, ':');
    size_t len = strlen(suite);
    if (!colon || (size_t)(colon - v) != len || strncmp(v, suite, len) || !colon[1] ||
        strspn(colon + 1, "0123456789") != strlen(colon + 1))
        return -1;
    return atol(colon + 1);
}

static const char *var_word(enum sk_variation v)
{
    return v == SK_VAR_NODES || v == SK_VAR_NONE ? "procs" : v == SK_VAR_CHUNKS ? "chunks" : "count";
}

static void report_point(const suite_run *sr, const sk_point_result *r, long arg, int refined)
{
    const sk_suite *s = sr->sc->s;
    const sk_instance *in = sr->sc->in;
    if (sr->sko) {
        sk_row *row = eb_malloc(sizeof *row);
        snprintf(row->var, sizeof row->var, "%s", var_word(s->variation));
        row->arg = arg;
        row->bytes = r->bytes;
        row->v[0] = r->mean * 1e6;
        row->v[1] = r->std_error * 1e6;
        row->v[2] = (double)r->n;
        row->nv = 3;
        if (s->node_times)
            for (int i = 0; i < r->nnode && row->nv < SK_ROW_MAXVAL; i++)
                row->v[row->nv++] = r->node[i] * 1e6;
        char line[32768];
        sk_format_row(line, sizeof line, row);
        fprintf(sr->sko, "%s\n", line);
        fflush(sr->sko);
        free(row);
    }
    if (!eb_jsonl_active())
        return;
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", "skampi");
    eb_json_str(&j, "benchmark", s->name);
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", r->procs);
    eb_json_int(&j, "bytes", r->bytes);
    eb_json_int(&j, "repetitions", r->n);
    eb_json_num(&j, "t_min_us", r->min * 1e6);
    eb_json_num(&j, "t_max_us", r->max * 1e6);
    eb_json_num(&j, "t_avg_us", r->mean * 1e6);
    eb_json_null(&j, "mbytes_per_s");
    if (r->defects >= 0)
        eb_json_int(&j, "defects", r->defects);
    else
        eb_json_null(&j, "defects");
    eb_json_num(&j, "std_error_us", r->std_error * 1e6);
    if (r->resolution_limited)
        eb_json_bool(&j, "resolution_limited", 1);
    eb_json_int(&j, "kept", r->kept);
    eb_json_int(&j, "type_number", s->type);
    eb_json_int(&j, "send_datatype", s->send_datatype);
    eb_json_int(&j, "recv_datatype", s->recv_datatype);
    eb_json_str(&j, "basetype", sr->e->cfg->basetype[s->basetype]);
    eb_json_str(&j, "instance", in->name);
    eb_json_str(&j, "pattern", sk_pattern_name(in->pattern));
    eb_json_str(&j, "variation", sk_variation_name(s->variation));
    eb_json_str(&j, "scale", sk_scale_name(s->scale));
    eb_json_int(&j, "count", r->count);
    eb_json_int(&j, "nodes", r->procs);
    if (in->pattern == SK_MASTER_WORKER)
        eb_json_int(&j, "chunks", r->chunks);
    else
        eb_json_null(&j, "chunks");
    eb_json_bool(&j, "refined", refined);
    if (in->pattern == SK_COLLECTIVE)
        eb_json_str(&j, "sync", s->sync == SK_SYNC_WINDOW ? "window" : "barrier");
    else if (in->pattern == SK_MASTER_WORKER)
        eb_json_str(&j, "sync", "barrier");
    else
        eb_json_null(&j, "sync");
    if (s->sync == SK_SYNC_WINDOW)
        eb_json_int(&j, "invalid", r->invalid);
    if (in->pattern == SK_PINGPONG) {
        eb_json_array(&j, "pair");
        eb_json_int(&j, NULL, sr->e->pair[0]);
        eb_json_int(&j, NULL, sr->e->pair[1]);
        eb_json_close(&j);
        eb_json_str(&j, "link", eb_link_label(sr->e->pair[0], sr->e->pair[1]));
    }
    if (in->pattern == SK_SIMPLE)
        eb_json_num(&j, "calls_per_run", r->calls);
    eb_json_array(&j, "node_times_us");
    for (int i = 0; i < r->nnode; i++)
        eb_json_num(&j, NULL, r->node[i] * 1e6);
    eb_json_close(&j);
    eb_jsonl_emit(&j);
}

static double measure_cb(void *ctx, double x, int refined, int *stop)
{
    suite_run *sr = ctx;
    const sk_suite *s = sr->sc->s;
    if (sr->measured++ == sr->crash_at)
        abort(); /* tests: a crash in the middle of a run (docs/skampi.md) */
    int procs = sr->p->procs;
    long count = sr->p->count, chunks = sr->p->chunks, arg = (long)llround(x);
    switch (s->variation) {
    case SK_VAR_LENGTH: count = arg / sr->sc->base.size; break;
    case SK_VAR_NODES: procs = (int)arg; break;
    case SK_VAR_CHUNKS: chunks = arg; break;
    case SK_VAR_NONE: arg = 1; break;
    }
    if (sr->sc->in->pattern == SK_MASTER_WORKER && s->variation == SK_VAR_NODES &&
        s->default_chunks == 0)
        chunks = procs - 1; /* one chunk per worker */
    sk_point_result r;
    sk_measure_point(sr->e, sr->sc, procs, count, chunks, &r);
    long shown = s->variation == SK_VAR_LENGTH ? count : arg;
    if (sr->e->wrank == 0)
        report_point(sr, &r, shown, refined);
    if (r.defects > 0)
        logmsg("check: %s: %ld wrong bytes at %s= %ld (%ld bytes)", s->name, r.defects,
               var_word(s->variation), shown, r.bytes);
    *stop = r.stop;
    return r.mean;
}

static void run_suite(sk_env *e, const sk_config *cfg, const sk_suite *s, const sk_plan *p,
                      FILE *sko)
{
    const sk_instance *in = sk_instance_find(s->type);
    sk_suite_ctx sc = {s, in, {0}, 0};
    char err[EB_ERRLEN];
    if (sk_basetype_parse(cfg->basetype[s->basetype], &sc.base, err, sizeof err))
        eb_abort("skampi: %s", err); /* the configuration checked it */
    if (in->pattern == SK_PINGPONG) {
        int had = e->pair[0] >= 0;
        sk_find_pair(e);
        if (!had)
            logmsg("ping-pong pair: ranks %d and %d (largest round trip %.2f us)", e->pair[0],
                   e->pair[1], e->pair_latency * 1e6);
    }
    e->window_slack = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    sc.t_start = MPI_Wtime();
    if (sko) {
        fprintf(sko, "# suite \"%s\": type %d %s (%s), variation %s, scale %s%s\n", s->name, s->type,
                in->name, sk_pattern_name(in->pattern), sk_variation_name(s->variation),
                sk_scale_name(s->scale),
                in->pattern == SK_COLLECTIVE
                    ? (s->sync == SK_SYNC_WINDOW ? ", sync window" : ", sync barrier")
                    : "");
        if (s->send_datatype || s->recv_datatype)
            fprintf(sko, "# datatypes: send pattern %d (%s), receive pattern %d (%s) over @BASETYPE%d %s\n",
                    s->send_datatype, sk_dt_name(s->send_datatype), s->recv_datatype,
                    sk_dt_name(s->recv_datatype), s->basetype, cfg->basetype[s->basetype]);
        fprintf(sko, "# begin result \"%s\"\n", s->name);
        fflush(sko);
    }
    suite_run sr = {e, &sc, p, sko, 0, crash_point(s->name)};
    sk_point *pts;
    int n = sk_refine_run(&p->grid, measure_cb, &sr, &pts);
    int refined = 0;
    for (int i = 0; i < n; i++)
        refined += pts[i].refined;
    free(pts);
    double dur = MPI_Wtime() - sc.t_start;
    if (sko) {
        fprintf(sko, "# end result \"%s\"\n# duration = %.2f sec\n\n", s->name, dur);
        fflush(sko);
    }
    if (s->time_suite > 0 && dur > s->time_suite)
        logmsg("note: %s: Time_Suite %g s reached", s->name, s->time_suite);
    logmsg("suite end %s", s->name);
    logmsg("note: %s: %d measurements (%d by refinement), %.2f s", s->name, n, refined, dur);
}

/* ---------------- command line ---------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: mpirun -np P effbench skampi [--check] [--json FILE] CONFIG.skampi\n"
            "       effbench skampi --postprocess OUT1 OUT2 ... [-o FILE]\n\n"
            "Runs the measurement suites of a SKaMPI configuration file (suites/default.skampi\n"
            "is the default set).  Results go to the file named by @OUTFILE (SKaMPI text) and\n"
            "with --json to JSON Lines, appended per measurement.  Running the same command\n"
            "again after a crash resumes the run: finished suites are skipped, the suite that\n"
            "crashed is retried last (the @LOGFILE says so).  --check runs each point once\n"
            "with patterned data before measuring it and reports the bytes that arrive wrong\n"
            "(JSON `defects`).  --postprocess merges complete output files into one file of\n"
            "the medians.  See docs/skampi.md.\n");
}

static int postprocess_main(int argc, char **argv, int first)
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
    return EB_EXIT_OK;
}

static void series_name(char *buf, size_t n, const char *base, int k)
{
    if (k == 0)
        snprintf(buf, n, "%.480s", base);
    else
        snprintf(buf, n, "%.480s.%d", base, k);
}

static int skampi_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *cfgpath = NULL, *json = NULL;
    int check = 0;
    char msg[EB_ERRLEN];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            if (rank == 0)
                usage(stdout);
            return EB_EXIT_OK;
        }
        if (!strcmp(argv[i], "--postprocess"))
            return postprocess_main(argc, argv, i + 1);
        if (!strcmp(argv[i], "--json")) {
            if (i + 1 >= argc)
                eb_exit_all(EB_EXIT_USAGE, "--json needs a file name");
            json = argv[++i];
        } else if (!strcmp(argv[i], "--check")) {
            check = 1;
        } else if (argv[i][0] == '-') {
            snprintf(msg, sizeof msg, "unknown option '%s' (effbench skampi -h lists them)", argv[i]);
            eb_exit_all(EB_EXIT_USAGE, msg);
        } else if (cfgpath) {
            snprintf(msg, sizeof msg, "one configuration file only ('%s' and '%s')", cfgpath, argv[i]);
            eb_exit_all(EB_EXIT_USAGE, msg);
        } else {
            cfgpath = argv[i];
        }
    }
    if (!cfgpath)
        eb_exit_all(EB_EXIT_USAGE, "no configuration file (effbench skampi FILE; suites/default.skampi is the default set)");

    /* every rank parses rank 0's copy of the file, so all agree on errors */
    char *text = eb_read_file_bcast(cfgpath, "configuration file", MPI_COMM_WORLD, msg, sizeof msg);
    if (!text) { /* keep the message users and tests know */
        eb_err(msg, sizeof msg, "%s: cannot read the configuration file", cfgpath);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    sk_config cfg;
    if (sk_config_parse(text, cfgpath, &cfg, msg, sizeof msg))
        eb_exit_all(EB_EXIT_USAGE, msg);
    free(text);
    sk_env env;
    sk_env_init(&env, &cfg);
    env.check = check;
    sk_plan *plans = eb_calloc((size_t)cfg.nsuites, sizeof *plans);
    for (int i = 0; i < cfg.nsuites; i++)
        if (sk_plan_make(&env, &cfg, &cfg.suites[i], &plans[i], msg, sizeof msg))
            eb_exit_all(EB_EXIT_USAGE, msg);

    /* resume after a crash: the log tells which suites finished */
    int *order = eb_malloc((size_t)cfg.nsuites * sizeof *order);
    int *retried = eb_calloc((size_t)cfg.nsuites, sizeof *retried);
    int norder = 0, resume = 0;
    char outfile[512];
    const char *local = NULL;
    if (rank == 0) {
        sk_logstate st;
        sk_read_log(cfg.logfile, &st);
        resume = st.resume;
        if (resume) {
            snprintf(outfile, sizeof outfile, "%s", st.outfile);
        } else {
            for (int k = 0;; k++) { /* a new run gets the next free name */
                series_name(outfile, sizeof outfile, cfg.outfile, k);
                if (access(outfile, F_OK))
                    break;
            }
        }
        for (int i = 0; i < cfg.nsuites; i++) {
            const char *nm = cfg.suites[i].name;
            if (!sk_logstate_has(st.done, st.ndone, nm) && !sk_logstate_has(st.crashed, st.ncrashed, nm))
                order[norder++] = i;
        }
        for (int c = 0; c < st.ncrashed; c++)
            for (int i = 0; i < cfg.nsuites; i++)
                if (!strcmp(cfg.suites[i].name, st.crashed[c])) {
                    retried[norder] = 1;
                    order[norder++] = i;
                }
        log_file = fopen(cfg.logfile, resume ? "a" : "w");
        if (!log_file) {
            snprintf(msg, sizeof msg, "@LOGFILE %.400s: cannot write", cfg.logfile);
            local = msg;
        }
        sk_logstate_free(&st);
    }
    char all[EB_ERRLEN];
    if (eb_any_error(local, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    MPI_Bcast(&resume, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&norder, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(order, cfg.nsuites, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(retried, cfg.nsuites, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(outfile, sizeof outfile, MPI_CHAR, 0, MPI_COMM_WORLD);

    eb_sysinfo si;
    eb_sysinfo_collect(&si, MPI_THREAD_SINGLE);
    FILE *sko = NULL;
    local = NULL;
    if (rank == 0) {
        int fresh = 1;
        if (resume) {
            char crashed[256] = "";
            int rows = sk_truncate_open_block(outfile, crashed, sizeof crashed);
            if (rows > 0 || crashed[0])
                logmsg("note: removed the unfinished result \"%s\" (%d rows) from %s", crashed,
                       rows > 0 ? rows : 0, outfile);
            fresh = access(outfile, F_OK) != 0;
        }
        sko = fopen(outfile, fresh ? "w" : "a");
        if (!sko) {
            snprintf(msg, sizeof msg, "@OUTFILE %.400s: cannot write", outfile);
            local = msg;
        } else if (fresh) {
            sk_write_header(sko, si.date);
            fprintf(sko, "# configuration %s: @MACHINE %s, @NODE %s, @NETWORK %s, @MPIVERSION %s, "
                         "@USER %s, @MEMORY %ld KB, @CACHEWARMUP %d\n# MPI library: %s\n\n",
                    cfgpath, cfg.machine, cfg.node, cfg.network, cfg.mpiversion, cfg.user,
                    cfg.memory_kb, cfg.cachewarmup, si.mpi_library);
            fflush(sko);
        }
    }
    if (eb_any_error(local, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    /* JSON Lines: a resumed run continues its file (a `resume` record, one
     * `run` record per file); otherwise a new file with a `run` record */
    int json_exists = 0;
    if (json && rank == 0)
        json_exists = access(json, F_OK) == 0;
    MPI_Bcast(&json_exists, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (resume && json_exists) {
        char **keys;
        int nkeys;
        /* the suites retried because they were running at the crash: their
         * rows before the record are incomplete, the complete suite follows
         * it (docs/skampi.md) */
        const char **superseded = eb_calloc((size_t)norder + 1, sizeof *superseded);
        for (int k = 0, n = 0; k < norder; k++)
            if (retried[k])
                superseded[n++] = cfg.suites[order[k]].name;
        eb_jsonl_resume(json, "skampi", NULL, NULL, superseded, &keys, &nkeys);
        free(superseded);
        for (int i = 0; i < nkeys; i++)
            free(keys[i]);
        free(keys);
    } else {
        eb_jsonl_open(json);
        eb_json run;
        eb_jsonl_run_begin(&run, "skampi", &si, check);
        eb_json_object(&run, "options");
        eb_json_str(&run, "config", cfgpath);
        eb_json_str(&run, "outfile", outfile);
        eb_json_str(&run, "logfile", cfg.logfile);
        eb_json_bool(&run, "resumed", resume);
        eb_json_int(&run, "memory_kb", cfg.memory_kb);
        eb_json_int(&run, "cachewarmup", cfg.cachewarmup);
        eb_json_bool(&run, "postproc", cfg.postproc);
        eb_json_str(&run, "machine", cfg.machine);
        eb_json_str(&run, "node", cfg.node);
        eb_json_str(&run, "network", cfg.network);
        eb_json_str(&run, "mpiversion", cfg.mpiversion);
        eb_json_str(&run, "user", cfg.user);
        eb_json_num(&run, "overhead_us", env.overhead * 1e6);
        eb_json_num(&run, "wtick_us", env.wtick * 1e6);
        eb_json_array(&run, "suites");
        for (int k = 0; k < norder; k++)
            eb_json_str(&run, NULL, cfg.suites[order[k]].name);
        eb_json_close(&run);
        eb_json_close(&run);
        if (rank == 0)
            eb_jsonl_emit(&run);
        else
            eb_json_free(&run);
    }

    if (!resume)
        logmsg("run begin outfile=%s", outfile);
    else
        logmsg("note: resuming the unfinished run of %s: %d suites left", outfile, norder);
    double t0 = MPI_Wtime();
    for (int k = 0; k < norder; k++) {
        const sk_suite *s = &cfg.suites[order[k]];
        const sk_plan *p = &plans[order[k]];
        if (retried[k])
            logmsg("note: retrying suite %s last: it was running when an earlier run crashed", s->name);
        if (p->skip) {
            logmsg("suite skipped %s: %s", s->name, p->why);
            continue;
        }
        logmsg("suite begin %s", s->name);
        run_suite(&env, &cfg, s, p, rank == 0 ? sko : NULL);
    }
    if (rank == 0) {
        char date[64];
        time_t now = time(NULL);
        struct tm lt;
        localtime_r(&now, &lt);
        strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &lt);
        sk_write_footer(sko, date, MPI_Wtime() - t0);
        fclose(sko);
        logmsg("run end");
    }
    if (cfg.postproc && rank == 0) {
        /* medians over the complete output files of the series */
        char *files[256], name[512];
        int n = 0;
        for (int k = 0; k < 256; k++) {
            series_name(name, sizeof name, cfg.outfile, k);
            if (access(name, F_OK))
                break;
            files[n++] = eb_strdup(name);
        }
        char post[600];
        snprintf(post, sizeof post, "%s.median", cfg.outfile);
        FILE *f = fopen(post, "w");
        char err[EB_ERRLEN];
        if (!f || sk_postprocess(files, n, f, err, sizeof err))
            eb_warn("@POSTPROC: %s", f ? err : "cannot write the median file");
        else
            logmsg("note: @POSTPROC: medians of %d output files in %s", n, post);
        if (f)
            fclose(f);
        for (int i = 0; i < n; i++)
            free(files[i]);
    }
    if (log_file)
        fclose(log_file);
    log_file = NULL;
    eb_jsonl_end("ok", NULL);
    free(order);
    free(retried);
    free(plans);
    sk_env_free(&env);
    sk_config_free(&cfg);
    return EB_EXIT_OK;
}

static const eb_component skampi_component = {
    .name = "skampi",
    .aliases = {NULL, NULL, NULL},
    .summary = "SKaMPI: measurement suites from a .skampi configuration file, to a requested accuracy",
    .order = 40,
    .main = skampi_main,
};

EB_CONSTRUCTOR(register_skampi) { eb_register_component(&skampi_component); }
