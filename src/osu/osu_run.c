/* The OSU personality's component: argv[0] (osu_latency, ...) or `effbench
 * osu PROGRAM ...` picks the program; the run skeleton (core/component_run.h)
 * does options, the JSON file, --resume and the end record; this file runs
 * OSU's loop: for each -T datatype, for each size from min to max doubling,
 * the program's measure, an optional checked pass, one row to the text and
 * the JSON reporters. */
#include "core/component_names.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/listing.h"
#include "core/mpi_features.h"
#include "core/registry.h"
#include "core/simulate.h"
#include "osu/osu.h"
#include "osu/osu_accel.h"
#include "osu/osu_json.h"
#include "osu/osu_options.h"
#include "osu/osu_text.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const osu_prog *p;
    osu_options o;
    osu_ctx c;
    double last_row_s; /* the previous row's time, for the guard's deadline */
    char **done_keys;  /* --resume: rows the file holds */
    int ndone;
    /* The counts in force, as OSU 7.4's options.iterations and options.skip: a size above
     * 8192 bytes switches them to the large counts for the rest of the run (the later -T
     * datatypes' small sizes too), and what a program's measure sets stays (osu_acc_latency) */
    long iterations, skip;
#ifdef EB_HAVE_MPI_SESSION_INIT
    MPI_Session session;
#endif
} osu_state;

/* OSU's own refusals of the process count. */
static void check_procs(const osu_prog *p, int np)
{
    char msg[160];
    static const char *const words[] = {"zero", "one", "two", "three", "four"};
    int n = p->exact_procs ? p->exact_procs : p->min_procs;
    const char *num = n >= 0 && n <= 4 ? words[n] : NULL;
    char nbuf[16];
    snprintf(nbuf, sizeof nbuf, "%d", n);
    if (p->exact_procs && np != p->exact_procs) {
        snprintf(msg, sizeof msg, "%s: This test requires exactly %s processes (it runs on %d)",
                 p->name, num ? num : nbuf, np);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (p->min_procs && np < p->min_procs) {
        snprintf(msg, sizeof msg, "%s: This test requires at least %s processes (it runs on %d)",
                 p->name, num ? num : nbuf, np);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (p->even_procs && np % 2) {
        snprintf(msg, sizeof msg, "%s: This test requires an even number of processes (it "
                 "runs on %d)", p->name, np);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
}

/* OSU's -M rule for collectives: a warning and a smaller maximum. */
static void apply_mem_limit(const osu_prog *p, osu_options *o, int np, int rank)
{
    size_t need = p->mem_limit == 2 ? o->max_size * (size_t)np : o->max_size;
    if (!p->mem_limit || need <= o->mem_limit)
        return;
    o->max_size = p->mem_limit == 2 ? o->mem_limit / (size_t)np : o->mem_limit;
    if (rank == 0)
        fprintf(stderr, "Warning! Limiting max message size to: %zu. Increase -M, --mem-limit "
                        "for higher message sizes.\n", o->max_size);
}

/* Counts past INT_MAX: OSU 7.4 computes them in int and would overflow; effbench's OSU
 * programs make the same int-count calls and refuse such a -m before anything runs
 * (for the gathering and all-to-all programs, -M's np * size counts too). */
static void refuse_large_counts(const osu_prog *p, const osu_options *o, int np)
{
    if (p->no_size || p->one_row)
        return;
    for (int d = 0; d < o->ndtypes; d++) {
        int ts;
        MPI_Type_size(o->dtypes[d], &ts);
        size_t elems = o->max_size / (size_t)(ts > 0 ? ts : 1);
        size_t span = p->mem_limit == 2 ? elems * (size_t)np : elems;
        if (span <= (size_t)INT_MAX)
            continue;
        char name[MPI_MAX_OBJECT_NAME] = "", lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
        char msg[EB_ERRLEN + 2 * MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_get_name(o->dtypes[d], name, &len);
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n,")] = '\0';
        snprintf(msg, sizeof msg,
                 "%s on %d processes at -m %zu: its MPI calls need a count of %zu elements "
                 "(%s%s), past MPI's int limit of %d (2^31-1) elements; effbench's OSU "
                 "programs make int-count calls, as OSU 7.4's do (MPI library: %s): use a "
                 "smaller -m",
                 p->name, np, o->max_size, span, name,
                 p->mem_limit == 2 ? ", every process's block" : "", INT_MAX, lib);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
}

/* What a program needs of the MPI library: its features, less those core emulates in this
 * build (persistent collectives in SMPI builds). */
static unsigned library_needs(const osu_prog *p) { return p->needs & ~eb_mpi_emulated(); }

static int osu_options_step(void *state, eb_run *run, int argc, char **argv)
{
    osu_state *st = state;
    const osu_prog *p = st->p;
    char err[EB_ERRLEN], msg[EB_ERRLEN + 64];
    int status = osu_parse(p, &st->o, argc, argv, err, sizeof err);
    if (status == OSU_PARSE_ERROR && p->lenient) {
        eb_warn("%s: %s: ignored, as OSU's %s does", p->name, err, p->name);
        status = OSU_PARSE_RUN;
    }
    if (status == OSU_PARSE_ERROR) {
        snprintf(msg, sizeof msg, "%s: %s (%s -h lists the options)", p->name, err, p->name);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (status == OSU_PARSE_HELP || status == OSU_PARSE_VERSION) {
        if (run->rank == 0) {
            if (status == OSU_PARSE_HELP)
                osu_print_help(p, stdout);
            else
                osu_text_title_as(p, osu_accel_title(&st->o, OSU_TITLE_VERSION), stdout);
            fflush(stdout);
        }
        return 1;
    }
    if (st->o.validate) /* -c or -check: a simulation's shared buffers hold no data */
        eb_sim_refuse_check("-c");
    check_procs(p, run->procs);
    if (st->o.m_deprecated && run->rank == 0)
        fprintf(stderr, "The M flag for destination buffer is deprecated. Please use MD or MH "
                "to set the effective location of CUDA Unified Memory buffers to be device or "
                "host respectively. Currently M flag is considered as MH\n");
    if (!st->o.accel && st->o.buffers_asked[0] && strcmp(st->o.buffers_asked, "H H"))
        eb_warn("%s: buffer types '%s' without -d: host buffers, as OSU 7.4 built without "
                "accelerators runs them (the run record says buffers: \"H H\")", p->name,
                st->o.buffers_asked);
    unsigned need = library_needs(p) | (st->o.session ? EB_MPI_SESSIONS : 0);
    char what[96];
    snprintf(what, sizeof what, "%s%s", p->name,
             eb_mpi_missing(need) == EB_MPI_SESSIONS ? " -I" : "");
    if (eb_mpi_refusal(need, what, msg, sizeof msg))
        eb_exit_all(EB_EXIT_USAGE, msg);
    if (p->announce)
        p->announce(p);
    apply_mem_limit(p, &st->o, run->procs, run->rank);
    refuse_large_counts(p, &st->o, run->procs);
    run->json_path = st->o.json_path;
    run->resume = st->o.resume;
    run->check = st->o.validate;
    return 0;
}

/* The sizes OSU measures: min, doubling (from 0 to 1), up to max. */
static size_t next_size(size_t s) { return s ? 2 * s : 1; }

static long planned_rows(const osu_prog *p, const osu_options *o)
{
    if (p->no_size)
        return 1;
    if (p->one_row)
        return o->ndtypes;
    long rows = 0;
    for (int d = 0; d < o->ndtypes; d++) {
        int ts;
        MPI_Type_size(o->dtypes[d], &ts);
        for (size_t s = o->min_size; s <= o->max_size; s = next_size(s))
            rows += s / (size_t)ts > 0; /* OSU skips sizes of no whole element, 0 too */
    }
    /* osu_mbw_mr -V: a record per window size (osu_json.c) */
    return p->bench == OSU_MBW_MR && o->window_varied ? rows * OSU_MAX_WINDOWS : rows;
}

/* -d: the devices, and the MPI library's device pointers, before anything is allocated. */
static void osu_prepare(void *state, eb_run *run)
{
    osu_state *st = state;
    (void)run;
    osu_accel_prepare(st->p, &st->o);
}

static void osu_plan(void *state, eb_run *run)
{
    osu_state *st = state;
    (void)run;
    eb_guard_plan_rows(st->p->bench == OSU_STARTUP ? 1 : planned_rows(st->p, &st->o));
}

static void osu_record(void *state, eb_run *run)
{
    osu_state *st = state;
    osu_json_options(st->p, &st->o, run);
}

static void osu_ready(void *state, eb_run *run)
{
    osu_state *st = state;
    if (!run->resume)
        return;
    st->done_keys = eb_calloc((size_t)run->rs.nrows + 1, sizeof *st->done_keys);
    for (int i = 0; i < run->rs.nrows; i++) {
        const char *r = run->rs.rows[i];
        char bench[64] = "", dt[32] = "", key[160];
        eb_jsonl_str(r, "benchmark", bench, sizeof bench);
        eb_jsonl_str(r, "datatype", dt, sizeof dt);
        osu_row_key(key, sizeof key, bench, dt, (int)eb_jsonl_int(r, "procs", 0),
                    (size_t)eb_jsonl_int(r, "bytes", 0));
        st->done_keys[st->ndone++] = eb_strdup(key);
    }
}

static int already_done(const osu_state *st, size_t bytes)
{
    char key[160];
    osu_row_key(key, sizeof key, st->p->name, osu_dtype_name(st->c.dtype), st->c.size, bytes);
    for (int i = 0; i < st->ndone; i++)
        if (!strcmp(st->done_keys[i], key))
            return 1;
    return 0;
}

/* -I: the program's communicator from an MPI-4 session (OSU's pset
 * "mpi://WORLD"); else MPI_COMM_WORLD. */
static MPI_Comm open_comm(osu_state *st)
{
#ifdef EB_HAVE_MPI_SESSION_INIT
    if (st->o.session) {
        MPI_Group g;
        MPI_Comm comm;
        MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &st->session);
        MPI_Group_from_session_pset(st->session, "mpi://WORLD", &g);
        MPI_Comm_create_from_group(g, "effbench.osu", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
        MPI_Group_free(&g);
        return comm;
    }
#endif
    (void)st;
    return MPI_COMM_WORLD;
}

static void close_comm(osu_state *st)
{
#ifdef EB_HAVE_MPI_SESSION_INIT
    if (st->o.session) {
        MPI_Comm_free(&st->c.comm);
        MPI_Session_finalize(&st->session);
    }
#endif
    (void)st;
}

static osu_row empty_row(size_t bytes, long iterations)
{
    osu_row r = {.bytes = bytes, .iterations = iterations, .defects = -1};
    double *nan_fields[] = {&r.avg_us, &r.min_us, &r.max_us, &r.mb_per_s, &r.messages_per_s,
                            &r.overall_us, &r.compute_us, &r.init_us, &r.test_us, &r.wait_us,
                            &r.pure_comm_us, &r.min_comm_us, &r.max_comm_us, &r.overlap_pct};
    for (size_t k = 0; k < sizeof nan_fields / sizeof *nan_fields; k++)
        *nan_fields[k] = NAN;
    return r;
}

/* One size: the timed iterations, the checked pass, the row.  Returns the
 * defects (every rank), so a failed check ends the table as in OSU. */
static long one_size(osu_state *st, size_t bytes)
{
    osu_ctx *c = &st->c;
    const osu_options *o = &st->o;
    c->bytes = bytes;
    c->count = bytes / (size_t)c->dtype_size;
    /* a simulation caps every loop (EFFBENCH_SIM_REPS): it repeats itself exactly */
    c->iterations = eb_sim_cap_loop(st->iterations);
    c->skip = eb_sim_cap_loop(st->skip);
    c->lat = o->npercentiles ? eb_calloc((size_t)c->iterations, sizeof *c->lat) : NULL;
    char what[160];
    snprintf(what, sizeof what, "%s, %d processes, %zu bytes", st->p->name, c->size, bytes);
    /* the size doubles: about twice the last row (the first row: the guard's
     * minimum deadline); the checked pass runs the iterations again */
    eb_guard_row(what, 2 * st->last_row_s * (o->validate ? 2 : 1), c->comm);
    double t0 = MPI_Wtime();
    osu_row row = empty_row(bytes, c->iterations);
    st->p->measure(c, &row);
    st->skip = c->skip;
    if (o->validate && st->p->check)
        row.defects = osu_sum_defects(c, st->p->check(c));
    if (c->rank == 0) {
        if (st->p->row_text)
            st->p->row_text(c, &row, stdout);
        else
            osu_text_row(c, &row, stdout);
        fflush(stdout);
        osu_json_row(c, &row);
    }
    eb_guard_row_end();
    st->last_row_s = MPI_Wtime() - t0;
    free(c->lat);
    c->lat = NULL;
    return row.defects > 0 ? row.defects : 0;
}

/* OSU's switch to the large counts, made at every size it measures (--resume's rows too). */
static void switch_counts(osu_state *st, size_t bytes)
{
    if (bytes > OSU_LARGE_MESSAGE_SIZE) {
        st->iterations = st->o.iterations_large;
        st->skip = st->o.skip_large;
    }
}

static void table_start(osu_state *st)
{
    if (st->c.rank != 0)
        return;
    if (st->p->datatype_lines)
        osu_text_datatype(&st->c, stdout);
    if (st->p->header)
        st->p->header(&st->c, stdout);
    else
        osu_text_header(&st->c, stdout);
    fflush(stdout);
}

static int osu_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    osu_state *st = state;
    osu_ctx *c = &st->c;
    (void)run;
    c->prog = st->p;
    c->o = &st->o;
    c->side = -1;
    c->comm = open_comm(st);
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    char err[EB_ERRLEN], all[EB_ERRLEN];
    int failed = st->p->setup && st->p->setup(c, err, sizeof err);
    if (eb_any_error(failed ? err : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    if (c->rank == 0) {
        if (st->p->preamble)
            st->p->preamble(c, stdout);
        else
            osu_text_preamble(c, stdout);
    }
    long defects = 0;
    size_t failed_size = 0;
    st->iterations = st->o.iterations;
    st->skip = st->o.skip;
    if (st->p->bench == OSU_STARTUP) { /* osu_init, osu_hello: one row, no sizes */
        c->dtype = MPI_CHAR;
        c->dtype_size = 1;
        defects = one_size(st, 0);
    }
    for (int d = 0; d < st->o.ndtypes && !defects && st->p->bench != OSU_STARTUP; d++) {
        c->dtype = st->o.dtypes[d];
        MPI_Type_size(c->dtype, &c->dtype_size);
        table_start(st);
        /* the barriers: one row, no size (0); one_row: the datatype's size
         * only, whatever -m says */
        size_t lo = st->p->no_size ? 0 : st->p->one_row ? (size_t)c->dtype_size : st->o.min_size;
        size_t hi = st->p->no_size ? 0 : st->p->one_row ? (size_t)c->dtype_size : st->o.max_size;
        for (size_t s = lo; s <= hi && !defects; s = next_size(s)) {
            /* OSU skips sizes of no whole element, 0 too */
            if (!st->p->no_size && s / (size_t)c->dtype_size == 0)
                continue;
            switch_counts(st, s);
            if (already_done(st, s))
                continue;
            defects = one_size(st, s);
            failed_size = s;
        }
    }
    if (st->p->teardown)
        st->p->teardown(c);
    close_comm(st);
    if (defects) {
        if (c->rank == 0)
            printf("DATA VALIDATION ERROR: %s exited with status 1 on message size %zu.\n",
                   st->p->name, failed_size);
        snprintf(msg, msglen, "%s: %ld defects in the data received at %zu bytes", st->p->name,
                 defects, failed_size);
        return EB_EXIT_FAILURE;
    }
    return EB_EXIT_OK;
}

static void osu_release(void *state)
{
    osu_state *st = state;
    for (int i = 0; i < st->ndone; i++)
        free(st->done_keys[i]);
    free(st->done_keys);
    osu_accel_release();
}

static const eb_component_steps osu_steps = {
    .component = EB_COMPONENT_OSU,
    .options = osu_options_step,
    .prepare = osu_prepare,
    .plan = osu_plan,
    .record = osu_record,
    .ready = osu_ready,
    .measure = osu_measure,
    .release = osu_release,
};

static int osu_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    const char *prog = strrchr(argv[0], '/');
    prog = prog ? prog + 1 : argv[0];
    if (!strcmp(prog, EB_COMPONENT_OSU)) { /* effbench osu PROGRAM ... */
        if (argc < 2 || !osu_find(argv[1])) {
            char msg[256];
            snprintf(msg, sizeof msg, "osu: %s%s (effbench --list-json lists the programs)",
                     argc < 2 ? "name a program, e.g. effbench osu osu_latency" : "no program ",
                     argc < 2 ? "" : argv[1]);
            eb_exit_all(EB_EXIT_USAGE, msg);
        }
        argc--, argv++;
        prog = argv[0];
    }
    osu_state st = {.p = osu_find(prog)};
    return eb_component_run(&osu_steps, &st, argc, argv);
}

static int osu_claims(const char *prog) { return osu_find(prog) != NULL; }

/* Before MPI_Init: a threaded program (osu_latency_mt) asks MPI_THREAD_MULTIPLE. */
static int osu_thread_level(int argc, char **argv)
{
    const char *prog = strrchr(argv[0], '/');
    prog = prog ? prog + 1 : argv[0];
    const osu_prog *p = osu_find(!strcmp(prog, EB_COMPONENT_OSU) && argc > 1 ? argv[1] : prog);
    return p && p->threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
}

/* `effbench --list-json`: every program, with OSU's type, its process rule,
 * the MPI calls it needs (missing ones: "refused" and the reason). */
static void osu_list_json(const eb_component *self, eb_json *benchmarks)
{
    static const char *const bench_names[] = {"pt2pt", "collective", "one_sided", "mbw_mr",
                                              "startup"};
    (void)self;
    for (int i = 0; i < osu_prog_count(); i++) {
        const osu_prog *p = osu_prog_at(i);
        eb_listing_entry e = {.component = EB_COMPONENT_OSU, .name = p->name, .program = p->name,
                              .cls = bench_names[p->bench], .is_default = 1,
                              .checked = p->check != NULL, .reduction = p->reduction,
                              .min_procs = p->min_procs, .fixed_procs = p->exact_procs};
        eb_listing_open_entry(benchmarks, &e);
        eb_json_str(benchmarks, "title", p->title);
        eb_json_str(benchmarks, "optstring", p->optstring);
        eb_json_bool(benchmarks, "even_procs", p->even_procs);
        eb_json_array(benchmarks, "needs");
        for (unsigned f = 1; f <= EB_MPI_FEATURE_LAST; f <<= 1)
            if (p->needs & f)
                eb_json_str(benchmarks, NULL, eb_mpi_feature_call((eb_mpi_feature)f));
        eb_json_close(benchmarks);
        unsigned missing = eb_mpi_missing(library_needs(p));
        eb_json_bool(benchmarks, "runs_here", !missing);
        if (missing)
            eb_json_str(benchmarks, "refused_because",
                        eb_mpi_feature_call((eb_mpi_feature)(missing & -missing)));
        eb_json_close(benchmarks);
    }
}

static const eb_component osu_component = {
    .name = EB_COMPONENT_OSU,
    .summary = "the OSU Micro-Benchmarks 7.4 programs (osu_latency, osu_bw, osu_allreduce, ...)",
    .order = 70,
    .main = osu_main,
    .claims = osu_claims,
    .thread_level = osu_thread_level,
    .list_json = osu_list_json,
};

EB_CONSTRUCTOR(register_osu)
{
    eb_register_component(&osu_component);
}
