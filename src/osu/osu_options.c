/* OSU 7.4's option letters as data: one table row per letter (OSU's long
 * name, whether it takes a value, effbench's help line, the parser of the
 * value and OSU's message for a bad one), and the parsers.  Which letters a
 * program takes is its optstring (osu_optsets.h); the getopt loop, the
 * defaults and the help text are osu_cmdline.c's. */
#define _GNU_SOURCE /* getopt_long's argument kinds */
#include "osu/osu_options.h"

#include "core/error.h"
#include "osu/osu_accel.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *osu_dtype_name(MPI_Datatype t)
{
    return t == MPI_INT ? "MPI_INT" : t == MPI_FLOAT ? "MPI_FLOAT" : "MPI_CHAR";
}

/* A whole number, all of the text: OSU's atoi takes "10k" as 10; effbench
 * never runs with a misspelt value. */
static int whole(const char *s, long long lo, long long hi, long long *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    long long x = strtoll(s, &end, 10);
    if (*end || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

static int bad(char *err, size_t n, const char *msg, int c, const char *arg)
{
    if (arg)
        return eb_err(err, n, "%s [-%c %s]", msg, c, arg);
    return eb_err(err, n, "%s [-%c]", msg, c);
}

/* -m [MIN:]MAX, :MAX, MIN: */
static int message_size(osu_options *o, const char *arg)
{
    const char *colon = strchr(arg, ':');
    long long lo = 0, hi = 0;
    if (!colon)
        return whole(arg, 0, 1LL << 40, &hi) ? -1 : (o->max_size = (size_t)hi, 0);
    if (strchr(colon + 1, ':'))
        return -1;
    char minpart[32];
    size_t len = (size_t)(colon - arg);
    if (len >= sizeof minpart)
        return -1;
    memcpy(minpart, arg, len);
    minpart[len] = '\0';
    if (len && whole(minpart, 1, 1LL << 40, &lo))
        return -1;
    if (colon[1] && whole(colon + 1, 0, 1LL << 40, &hi))
        return -1;
    if (len)
        o->min_size = (size_t)lo;
    if (colon[1])
        o->max_size = (size_t)hi;
    return 0;
}

static int percentiles(osu_options *o, const char *arg)
{
    o->npercentiles = 0;
    if (!arg) {
        o->percentiles[0] = 50, o->percentiles[1] = 90, o->percentiles[2] = 99;
        o->npercentiles = 3;
        return 0;
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long long v;
        if (o->npercentiles == OSU_MAX_PERCENTILES || whole(t, 0, 100, &v))
            return -1;
        o->percentiles[o->npercentiles++] = (int)v;
    }
    return o->npercentiles ? 0 : -1;
}

static int datatype(osu_options *o, const char *arg)
{
    MPI_Datatype all[3] = {MPI_CHAR, MPI_INT, MPI_FLOAT};
    const char *names[3] = {"MPI_CHAR", "MPI_INT", "MPI_FLOAT"};
    if (!strcasecmp(arg, "all")) {
        for (int i = 0; i < 3 && o->ndtypes < OSU_MAX_DTYPES; i++)
            o->dtypes[o->ndtypes++] = all[i];
        return 0;
    }
    for (int i = 0; i < 3; i++)
        if (!strcasecmp(arg, names[i])) {
            if (o->ndtypes == OSU_MAX_DTYPES)
                return -1;
            o->dtypes[o->ndtypes++] = all[i];
            return 0;
        }
    return -1;
}

/* -k rotate | fixed:N */
static int root_rank(osu_options *o, const char *arg)
{
    long long v;
    if (!strcasecmp(arg, "rotate"))
        return o->root = -1, 0;
    if (!strncasecmp(arg, "fixed:", 6) && !whole(arg + 6, 0, 1 << 30, &v))
        return o->root = (int)v, 0;
    return -1;
}

/* -N cart:DIM:RAD | graph[:FILE] */
static int neighbourhood(osu_options *o, const char *arg)
{
    long long d, r;
    if (!strncasecmp(arg, "graph", 5) && (arg[5] == '\0' || arg[5] == ':')) {
        o->nhbr_graph = 1;
        snprintf(o->nhbr_file, sizeof o->nhbr_file, "%s", arg[5] ? arg + 6 : "");
        return 0;
    }
    if (strncasecmp(arg, "cart:", 5))
        return -1;
    const char *dim = arg + 5, *colon = strchr(dim, ':');
    char buf[32];
    if (!colon || (size_t)(colon - dim) >= sizeof buf)
        return -1;
    memcpy(buf, dim, (size_t)(colon - dim));
    buf[colon - dim] = '\0';
    if (whole(buf, 1, 16, &d) || whole(colon + 1, 1, 1 << 20, &r))
        return -1;
    o->nhbr_graph = 0, o->nhbr_dim = (int)d, o->nhbr_rad = (int)r;
    return 0;
}

/* -D cont | vect:STRIDE:BLOCK | indx:FILE */
static int derived(osu_options *o, const char *arg)
{
    long long s, b;
    o->ddt = 1;
    if (!strcasecmp(arg, "cont"))
        return o->ddt_kind = 0, 0;
    if (!strncasecmp(arg, "indx:", 5) && arg[5]) {
        snprintf(o->ddt_file, sizeof o->ddt_file, "%s", arg + 5);
        return o->ddt_kind = 2, 0;
    }
    if (strncasecmp(arg, "vect:", 5))
        return -1;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", arg + 5);
    char *colon = strchr(buf, ':');
    if (!colon)
        return -1;
    *colon = '\0';
    if (whole(buf, 1, 1 << 20, &s) || whole(colon + 1, 1, 1 << 20, &b) || b > s)
        return -1;
    o->ddt_kind = 1, o->ddt_stride = (size_t)s, o->ddt_block = (size_t)b;
    return 0;
}

/* ---- the letters' parsers (osu_letter.take) ------------------------------ */

/* OSU's message for a bad value of the letter: "Invalid Window Size [-W 0]" */
static int refuse(const osu_taking *t)
{
    return bad(t->err, t->n, t->letter->bad, t->letter->c, t->arg);
}

static int *int_field(const osu_taking *t)
{
    return (int *)(void *)((char *)t->o + t->letter->field);
}

static int take_help(const osu_taking *t) { return (void)t, OSU_PARSE_HELP; }
static int take_version(const osu_taking *t) { return (void)t, OSU_PARSE_VERSION; }
static int take_flag(const osu_taking *t) { return *int_field(t) = 1, 0; }

/* A whole number in [lo, hi] into the letter's int field. */
static int take_int(const osu_taking *t)
{
    long long v;
    if (whole(t->arg, t->letter->lo, t->letter->hi, &v))
        return refuse(t);
    *int_field(t) = (int)v;
    return 0;
}

/* -a: checked, not kept (the accelerators' device array size) */
static int take_checked(const osu_taking *t)
{
    long long v;
    return whole(t->arg, t->letter->lo, t->letter->hi, &v) ? refuse(t) : 0;
}

/* -i and -x set the small and the large messages' counts alike */
static int take_iterations(const osu_taking *t)
{
    long long v;
    if (whole(t->arg, t->letter->lo, t->letter->hi, &v))
        return refuse(t);
    t->o->iterations = t->o->iterations_large = (long)v;
    return 0;
}

static int take_warmup(const osu_taking *t)
{
    long long v;
    if (whole(t->arg, t->letter->lo, t->letter->hi, &v))
        return refuse(t);
    t->o->skip = t->o->skip_large = (long)v;
    return 0;
}

static int take_mem_limit(const osu_taking *t)
{
    long long v;
    if (whole(t->arg, t->letter->lo, t->letter->hi, &v))
        return refuse(t);
    t->o->mem_limit = v < (1 << 20) ? (size_t)1 << 20 : (size_t)v; /* OSU's lower bound */
    return 0;
}

static int take_buffers(const osu_taking *t)
{
    if (strcasecmp(t->arg, "single") && strcasecmp(t->arg, "multiple"))
        return refuse(t);
    t->o->buf_multiple = !strcasecmp(t->arg, "multiple");
    return 0;
}

/* -t: MPI_Test calls of the non-blocking collectives; [S:]R processes
 * (osu_latency_mp) or threads (osu_latency_mt) per side elsewhere */
static int take_test_calls(const osu_taking *t)
{
    long long v, s = 0;
    if (t->p->bench == OSU_COLLECTIVE) {
        if (whole(t->arg, t->letter->lo, t->letter->hi, &v))
            return refuse(t);
        t->o->num_probes = (int)v;
        return 0;
    }
    const char *colon = strchr(t->arg, ':');
    char buf[32];
    snprintf(buf, sizeof buf, "%.*s", colon ? (int)(colon - t->arg) : 0, t->arg);
    if ((colon && whole(buf, 1, 127, &s)) || whole(colon ? colon + 1 : t->arg, 1, 127, &v))
        return bad(t->err, t->n, t->p->threads ? "Invalid Number of Threads"
                                               : "Invalid Number of Processes", 't', t->arg);
    t->o->receivers = (int)v;
    t->o->senders = colon ? (int)s : -1;
    return 0;
}

static int take_sizes(const osu_taking *t) { return message_size(t->o, t->arg) ? refuse(t) : 0; }
static int take_tail(const osu_taking *t) { return percentiles(t->o, t->arg) ? refuse(t) : 0; }
static int take_types(const osu_taking *t) { return datatype(t->o, t->arg) ? refuse(t) : 0; }
static int take_root(const osu_taking *t) { return root_rank(t->o, t->arg) ? refuse(t) : 0; }
static int take_nhbr(const osu_taking *t) { return neighbourhood(t->o, t->arg) ? refuse(t) : 0; }

/* -c and -D: OSU refuses the two together (effbench's -check, counted after
 * the options, checks derived types).  "-clog:DIR" logs nothing here: the
 * JSON keeps defects. */
#define DDT_NO_VALIDATION "Derived data type does not support validation"

static int take_validation(const osu_taking *t)
{
    if (t->o->ddt)
        return bad(t->err, t->n, DDT_NO_VALIDATION, 'c', t->arg);
    return t->o->validate = 1, 0;
}

static int take_ddt(const osu_taking *t)
{
    if (t->o->validate)
        return bad(t->err, t->n, DDT_NO_VALIDATION, 'D', t->arg);
    return derived(t->o, t->arg) ? refuse(t) : 0;
}

/* One-sided -w / -s: OSU's names, and only the synchronisations the program allows. */
static int take_window(const osu_taking *t)
{
    static const char *const wins[] = {"create", "allocate", "dynamic"};
    for (int i = 0; i < 3; i++)
        if (!strcasecmp(t->arg, wins[i]))
            return t->o->win = (osu_win)i, 0;
    return refuse(t);
}

static int take_sync(const osu_taking *t)
{
    static const char *const syncs[] = {"lock", "pscw", "fence", "flush", "flush_local",
                                        "lock_all"};
    for (int i = 0; i < 6; i++)
        if (!strcasecmp(t->arg, syncs[i]) && (t->p->syncs & (1u << i)))
            return t->o->sync = (osu_sync)i, 0;
    return refuse(t);
}

/* -d: OSU 7.4's accelerator words (osu_accel.c); -r: the compute target of OSU's CUDA
 * kernels, which effbench does not build. */
static int take_accelerator(const osu_taking *t)
{
    if (t->letter->c == 'd')
        return osu_accel_take(t->p, t->o, t->arg, t->err, t->n);
    return eb_err(t->err, t->n, "-%c %s: the compute target of OSU's CUDA kernels, which "
                  "effbench does not build (its -d cuda buffers need no kernel)", t->letter->c,
                  t->arg ? t->arg : "");
}

static int take_graph(const osu_taking *t)
{
    return eb_err(t->err, t->n, "graphs (-G %s) are not drawn by effbench: write --json FILE "
                  "and use effbench-results report", t->arg ? t->arg : "");
}

static int take_papi(const osu_taking *t)
{
    return eb_err(t->err, t->n, "Invalid option. Please reconfigure with PAPI. [-P] (effbench "
                  "has no PAPI support)");
}

/* ---- the table ----------------------------------------------------------- */

#define FIELD(f) .field = offsetof(osu_options, f)

/* OSU's long names and argument kinds (osu_util_options.h), in OSU's order. */
static const osu_letter LETTERS[] = {
    {'h', "help", no_argument, "print this help", .take = take_help},
    {'v', "version", no_argument, "print version info", .take = take_version},
    {'f', "full", no_argument, "print full format listing (min/max latency and iterations)",
     .take = take_flag, FIELD(show_full)},
    {'m', "message-size", required_argument, "[MIN:]MAX - message sizes from MIN to MAX bytes",
     .take = take_sizes, .bad = "Invalid Message Size"},
    {'W', "window-size", required_argument, "SIZE - messages in flight before a synchronisation",
     .take = take_int, .bad = "Invalid Window Size", .lo = 1, .hi = 1 << 20, FIELD(window_size)},
    {'t', "num-test-calls", required_argument, "CALLS - MPI_Test calls during the compute "
                                               "(non-blocking collectives); [S:]R processes "
                                               "(osu_latency_mp), threads (osu_latency_mt)",
     .take = take_test_calls, .bad = "Invalid Number of Probes", .lo = 0, .hi = 1 << 30},
    {'i', "iterations", required_argument, "ITER - timed iterations (large messages too)",
     .take = take_iterations, .bad = "Invalid Number of Iterations", .lo = 1, .hi = 1LL << 40},
    {'x', "warmup", required_argument, "ITER - warm-up iterations (large messages too)",
     .take = take_warmup, .bad = "Invalid Number of Warmup Iterations", .lo = 0,
     .hi = 1LL << 40},
    {'a', "array-size", required_argument, "SIZE - device array size (accelerators: not built)",
     .take = take_checked, .bad = "Invalid Device Array Size", .lo = 1, .hi = 1 << 30},
    {'s', "sync-option", required_argument, "SYNC - pscw, fence, lock, flush, flush_local, "
                                            "lock_all (as the program allows)",
     .take = take_sync, .bad = "Invalid option or invalid argument"},
    {'w', "win-options", required_argument, "WIN - create, allocate, dynamic",
     .take = take_window, .bad = "Invalid option or invalid argument"},
    {'M', "mem-limit", required_argument, "SIZE - memory limit per process in bytes",
     .take = take_mem_limit, .bad = "Invalid memory limit", .lo = 0, .hi = 1LL << 50},
    {'d', "accelerator", required_argument, "cuda | managed - device buffers (docs/gpu.md): "
                                             "where the buffer types say, collectives all",
     .take = take_accelerator},
    {'r', "cuda-target", required_argument, "TARGET - compute target (accelerators: not built)",
     .take = take_accelerator},
    {'R', "print-rate", required_argument, "[0|1] - print the message rate (default 1)",
     .take = take_int, .bad = "Invalid message rate flag (0 or 1)", .lo = 0, .hi = 1,
     FIELD(print_rate)},
    {'p', "num-pairs", required_argument, "PAIRS - pairs of processes (default np / 2)",
     .take = take_int, .bad = "Invalid Number of Pairs", .lo = 1, .hi = 1 << 30, FIELD(pairs)},
    {'V', "vary-window", required_argument, "vary the window size", .take = take_flag,
     FIELD(window_varied)},
    {'c', "validation", optional_argument, "check the received data (outside the timed loop)",
     .take = take_validation},
    {'b', "buffer-num", required_argument, "single|multiple - send/receive buffers",
     .take = take_buffers, .bad = "Please use 'single' or 'multiple' for buffer type"},
    {'u', "validation-warmup", required_argument, "ITER - warm-up iterations of validation",
     .take = take_int, .bad = "Number of Validation Warmup Iterations must be from 0 to 10",
     .lo = 0, .hi = 10, FIELD(warmup_validation)},
    {'G', "graph", required_argument, "tty,png,pdf - graphs (not drawn by effbench)",
     .take = take_graph},
    {'P', "papi", required_argument, "EVENTS - PAPI counters (not built)", .take = take_papi},
    {'D', "ddt", required_argument, "cont | vect:STRIDE:BLOCK | indx:FILE - derived datatypes",
     .take = take_ddt, .bad = "Invalid ddt type. Valid ddt types[cont,vect:STRIDE:BLOCK,"
                              "indx:FILE]"},
    {'N', "nhbr", required_argument, "cart:DIM:RAD | graph:FILE - neighbourhood topology",
     .take = take_nhbr, .bad = "Invalid topology (cart:DIM:RAD or graph:FILE)"},
    {'T', "type", required_argument, "MPI_CHAR | MPI_INT | MPI_FLOAT | all - data types",
     .take = take_types, .bad = "Invalid data type (MPI_CHAR, MPI_INT, MPI_FLOAT or all)"},
    {'I', "session", no_argument, "initialise through an MPI-4 session", .take = take_flag,
     FIELD(session)},
    {'l', "in-place", no_argument, "MPI_IN_PLACE where the collective allows it",
     .take = take_flag, FIELD(in_place)},
    {'z', "tail-lat", optional_argument, "[P,P,...] - percentiles of the iteration times "
                                         "(default 50,90,99)",
     .take = take_tail, .bad = "Percentile range must be in between 0 and 100"},
    {'k', "root-rank", required_argument, "rotate | fixed:N - the root of rooted collectives",
     .take = take_root, .bad = "Invalid root rank rotate type. Valid types[fixed:N, rotate]"},
};
#define NLETTERS ((int)(sizeof LETTERS / sizeof LETTERS[0]))

int osu_letter_count(void) { return NLETTERS; }
const osu_letter *osu_letter_at(int i) { return i >= 0 && i < NLETTERS ? &LETTERS[i] : NULL; }

const osu_letter *osu_letter_of(int c)
{
    for (int i = 0; i < NLETTERS; i++)
        if (LETTERS[i].c == c)
            return &LETTERS[i];
    return NULL;
}

const char *osu_long_name(int c)
{
    const osu_letter *l = osu_letter_of(c);
    return l ? l->name : NULL;
}

int osu_take(const osu_prog *p, osu_options *o, int c, const char *arg, char *err, size_t n)
{
    const osu_letter *l = osu_letter_of(c);
    if (!l)
        return bad(err, n, "Invalid option", c, NULL);
    return l->take(&(osu_taking){.letter = l, .p = p, .o = o, .arg = arg, .err = err, .n = n});
}
