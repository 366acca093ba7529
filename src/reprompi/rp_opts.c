/* mpibenchmark's command line (ReproMPI's option parsers: parse_common_options.c,
 * parse_options.c, parse_timing_options.c, window_sync.c, process_synchronization.c).
 * Unlike ReproMPI, which ignores what it does not know, every word is checked:
 * an unknown option or a bad value is a user error naming it (docs/reprompi.md). */
#include "core/error.h"
#include "core/text.h"
#include "reprompi/rp.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const rp_summary_names[RP_NSUM] = {"mean", "median", "min", "max", "var", "stddev"};

static const struct { const char *name; MPI_Op op; } OPS[] = {
    {"MPI_BOR", MPI_BOR}, {"MPI_BAND", MPI_BAND}, {"MPI_LOR", MPI_LOR}, {"MPI_LAND", MPI_LAND},
    {"MPI_MIN", MPI_MIN}, {"MPI_MAX", MPI_MAX}, {"MPI_SUM", MPI_SUM}, {"MPI_PROD", MPI_PROD},
};
static const struct { const char *name; MPI_Datatype type; } TYPES[] = {
    {"MPI_BYTE", MPI_BYTE}, {"MPI_CHAR", MPI_CHAR}, {"MPI_INT", MPI_INT},
    {"MPI_FLOAT", MPI_FLOAT}, {"MPI_DOUBLE", MPI_DOUBLE},
};
static const char *const PROC_SYNC[] = {
    [RP_SYNC_MPI_BARRIER] = "MPI_Barrier", [RP_SYNC_DISSEM_BARRIER] = "dissem_barrier",
    [RP_SYNC_DOUBLE_BARRIER] = "Double_MPI_Barrier", [RP_SYNC_WINDOW] = "window",
    [RP_SYNC_NONE] = "None",
};

const char *rp_proc_sync_name(rp_proc_sync p) { return PROC_SYNC[p]; }
/* --clock-sync's words: ReproMPI's names where core has that method (HCA3, SKaMPI), core's
 * own otherwise (Linear, HCA3_2level: docs/clock-sync.md) */
static const char *const CLOCK_NAME[EB_CLOCK_NMETHODS] = {
    [EB_CLOCK_LINEAR] = "Linear", [EB_CLOCK_SKAMPI] = "SKaMPI", [EB_CLOCK_HCA3] = "HCA3",
    [EB_CLOCK_HCA3_2LEVEL] = "HCA3_2level", [EB_CLOCK_NONE] = "None",
};

const char *rp_clock_sync_name(const rp_options *o)
{
    return o->clock_sync == RP_CLOCK_NONE ? "None" : CLOCK_NAME[o->clock_method];
}

/* Comma-separated words of val, each through one(word); -1 on the first bad one. */
static int each_word(const char *val, int (*one)(rp_options *, const char *, char *, size_t),
                     rp_options *o, char *err, size_t errlen)
{
    char *copy = eb_strdup(val), *save = NULL;
    int rc = 0, n = 0;
    for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save), n++)
        rc = one(o, w, err, errlen);
    free(copy);
    return rc ? rc : n;
}

static int one_call(rp_options *o, const char *w, char *err, size_t errlen)
{
    int c = rp_call_find(w);
    if (c < 0)
        return eb_err(err, errlen, "--calls-list: unknown MPI call '%s' (List of MPI calls is "
                      "incorrect; see -h for the supported calls)", w);
    o->calls = eb_realloc(o->calls, (size_t)(o->ncalls + 1) * sizeof *o->calls);
    o->calls[o->ncalls++] = c;
    return 0;
}

static int one_msize(rp_options *o, const char *w, char *err, size_t errlen)
{
    long v;
    if (eb_parse_long(w, 1, LONG_MAX, &v))
        return eb_err(err, errlen, "--msizes-list: '%s' is not a positive integer (Invalid list "
                      "of message sizes)", w);
    o->msizes = eb_realloc(o->msizes, (size_t)(o->nmsizes + 1) * sizeof *o->msizes);
    o->msizes[o->nmsizes++] = v;
    return 0;
}

static int one_summary(rp_options *o, const char *w, char *err, size_t errlen)
{
    for (int k = 0; k < RP_NSUM; k++)
        if (!strcmp(w, rp_summary_names[k])) {
            o->summary |= 1 << k;
            return 0;
        }
    return eb_err(err, errlen, "--summary: unknown method '%s' (Invalid list of summary methods: "
                  "mean, median, min, max, var, stddev)", w);
}

static int one_param(rp_options *o, const char *w, char *err, size_t errlen)
{
    (void)o;
    const char *colon = strchr(w, ':');
    if (!colon || colon == w || !colon[1])
        return eb_err(err, errlen, "--params: '%s' is not key:value", w);
    return 0;
}

/* --msize-interval=min=A,max=B,step=C: the sizes 2^A, 2^(A+C), ... 2^B. */
static int msize_interval(rp_options *o, const char *val, char *err, size_t errlen)
{
    long v[3] = {0, 0, 1};
    static const char *const keys[3] = {"min", "max", "step"};
    char *copy = eb_strdup(val), *save = NULL;
    int rc = 0;
    for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(w, '=');
        int k = 0;
        if (eq)
            *eq = '\0';
        while (k < 3 && strcmp(w, keys[k]))
            k++;
        if (!eq || k == 3)
            rc = eb_err(err, errlen, "--msize-interval: unknown part '%s' (min=<min>,max=<max>,"
                        "step=<step>)", w);
        else if (eb_parse_long(eq + 1, 1, LONG_MAX, &v[k]) || v[k] > 62)
            rc = eb_err(err, errlen, "--msize-interval: %s='%s' is not an exponent from 1 to 62",
                        keys[k], eq + 1);
    }
    free(copy);
    if (rc)
        return rc;
    if (v[1] < v[0])
        return eb_err(err, errlen, "--msize-interval: min is larger than max (Invalid message "
                      "sizes interval)");
    o->nmsizes = 0;
    for (long e = v[0]; e <= v[1]; e += v[2]) {
        o->msizes = eb_realloc(o->msizes, (size_t)(o->nmsizes + 1) * sizeof *o->msizes);
        o->msizes[o->nmsizes++] = 1L << e;
    }
    return 0;
}

static int pingpong_ranks(rp_options *o, const char *val, int procs, char *err, size_t errlen)
{
    long a, b;
    char extra;
    if (sscanf(val, "%ld,%ld%c", &a, &b, &extra) != 2 || a < 0 || b < 0 || a >= procs ||
        b >= procs || a == b)
        return eb_err(err, errlen, "--pingpong-ranks: '%s' is not two different ranks below %d "
                      "(Invalid ping-pong ranks)", val, procs);
    o->pingpong[0] = (int)a;
    o->pingpong[1] = (int)b;
    return 0;
}

static int by_name(const char *opt, const char *val, const char *const *names, int n, int *out,
                   char *err, size_t errlen)
{
    for (int k = 0; k < n; k++)
        if (names[k] && !strcmp(val, names[k])) {
            *out = k;
            return 0;
        }
    return eb_err(err, errlen, "--%s: unknown method '%s' (see -h)", opt, val);
}

static int clock_sync(rp_options *o, const char *val, char *err, size_t errlen)
{
    for (int m = 0; m < EB_CLOCK_NMETHODS; m++)
        if (!strcmp(val, CLOCK_NAME[m])) {
            o->clock_sync = m == EB_CLOCK_NONE ? RP_CLOCK_NONE : RP_CLOCK_SYNCED;
            o->clock_method = m == EB_CLOCK_NONE ? EB_CLOCK_LINEAR : m;
            return 0;
        }
    static const char *const theirs[] = {"HCA", "HCA2", "HCA3O", "JK", "Topo1", "Topo2"};
    for (size_t k = 0; k < sizeof theirs / sizeof *theirs; k++)
        if (!strcmp(val, theirs[k]))
            return eb_err(err, errlen, "--clock-sync=%s: not one of effbench's clock "
                          "synchronisations (Linear, SKaMPI, HCA3, HCA3_2level, None; "
                          "docs/reprompi.md)", val);
    return eb_err(err, errlen, "--clock-sync: unknown method '%s' (Linear, SKaMPI, HCA3, "
                  "HCA3_2level, None)", val);
}

static int microseconds(const char *opt, const char *val, double *out, char *err, size_t errlen)
{
    char *end;
    double v = strtod(val, &end);
    if (end == val || *end || !(v > 0) || v > 1e9)
        return eb_err(err, errlen, "--%s: '%s' is not a positive number of microseconds", opt, val);
    *out = v * 1e-6;
    return 0;
}

static int name_of(const char *opt, const char *val, int isop, rp_options *o, char *err,
                   size_t errlen)
{
    size_t n = isop ? sizeof OPS / sizeof *OPS : sizeof TYPES / sizeof *TYPES;
    for (size_t k = 0; k < n; k++) {
        if (isop && !strcmp(val, OPS[k].name)) {
            o->op = OPS[k].op;
            o->op_name = OPS[k].name;
            return 0;
        }
        if (!isop && !strcmp(val, TYPES[k].name)) {
            o->type = TYPES[k].type;
            o->type_name = TYPES[k].name;
            return 0;
        }
    }
    return eb_err(err, errlen, "--%s: unknown %s '%s' (see -h)", opt,
                  isop ? "MPI operation" : "MPI datatype", val);
}

/* --module=COLL=alg:NAME: PGMPI's way to measure COLL (allreduce, bcast, ...,
 * reduce_scatter_block) as one of its mock-ups; alg:default undoes it. */
static int module(rp_options *o, const char *val, char *err, size_t errlen)
{
    const char *eq = strstr(val, "=alg:");
    char call[64] = "MPI_";
    if (!eq || eq == val || (size_t)(eq - val) > sizeof call - 5)
        return eb_err(err, errlen, "--module: '%s' is not COLL=alg:NAME (e.g. "
                      "allreduce=alg:allreduce_as_reduce_bcast)", val);
    memcpy(call + 4, val, (size_t)(eq - val));
    call[4 + (eq - val)] = '\0';
    int c = -1;
    for (int k = 0; k < rp_call_count(); k++)
        if (!strcasecmp(call, rp_call_name(k)))
            c = k;
    const char *alg = eq + 5;
    if (c < 0)
        return eb_err(err, errlen, "--module: unknown collective '%.*s'", (int)(eq - val), val);
    if (!strcmp(alg, "default")) {
        o->module[c] = NULL;
        return 0;
    }
    const eb_mockup *m = eb_mockup_find(alg);
    if (!m || strcmp(m->coll, rp_call_name(c)))
        return eb_err(err, errlen, "--module: '%s' is not a mock-up of %s (docs/reprompi.md "
                      "lists them)", alg, rp_call_name(c));
    o->module[c] = m;
    return 0;
}

/* One long option NAME with value VAL (NULL: none given). */
static int long_option(rp_options *o, const char *name, const char *val, int procs, char *err,
                       size_t errlen)
{
    static const char *const no_value[] = {"shuffle-jobs", "verbose", "check", "help", "summary",
                                           "params"};
    int takes_none = 0;
    for (size_t k = 0; k < sizeof no_value / sizeof *no_value; k++)
        takes_none |= !strcmp(name, no_value[k]);
    if (!val && !takes_none)
        return eb_err(err, errlen, "--%s needs a value (--%s=<value>)", name, name);
    long v;
    int k;
    if (!strcmp(name, "calls-list")) {
        o->ncalls = 0;
        int n = each_word(val, one_call, o, err, errlen);
        return n < 0 ? n : n == 0 ? eb_err(err, errlen, "--calls-list: the list is empty") : 0;
    }
    if (!strcmp(name, "msizes-list")) {
        o->nmsizes = 0;
        int n = each_word(val, one_msize, o, err, errlen);
        return n < 0 ? n : n == 0 ? eb_err(err, errlen, "--msizes-list: the list is empty") : 0;
    }
    if (!strcmp(name, "msize-interval"))
        return msize_interval(o, val, err, errlen);
    if (!strcmp(name, "nrep")) {
        if (eb_parse_long(val, 1, LONG_MAX, &v))
            return eb_err(err, errlen, "--nrep: '%s' is not a positive integer", val);
        o->nrep = v;
        return 0;
    }
    if (!strcmp(name, "summary")) {
        o->summary = 0;
        int n = val ? each_word(val, one_summary, o, err, errlen) : 0;
        if (n < 0)
            return n;
        if (!o->summary)
            o->summary = (1 << RP_NSUM) - 1; /* none named: every method */
        return 0;
    }
    if (!strcmp(name, "root-proc")) {
        char *end;
        long r = strtol(val, &end, 10);
        if (end == val || *end || r < 0 || r >= procs)
            return eb_err(err, errlen, "--root-proc: '%s' is not a rank from 0 to %d (Invalid "
                          "root process)", val, procs - 1);
        o->root = (int)r;
        return 0;
    }
    if (!strcmp(name, "operation"))
        return name_of(name, val, 1, o, err, errlen);
    if (!strcmp(name, "datatype"))
        return name_of(name, val, 0, o, err, errlen);
    if (!strcmp(name, "shuffle-jobs") || !strcmp(name, "verbose") || !strcmp(name, "check") ||
        !strcmp(name, "help")) {
        if (val)
            return eb_err(err, errlen, "--%s takes no value", name);
        *(name[0] == 's' ? &o->shuffle : name[0] == 'v' ? &o->verbose
          : name[0] == 'c' ? &o->check : &o->help) = 1;
        return 0;
    }
    if (!strcmp(name, "params"))
        return val ? (each_word(val, one_param, o, err, errlen) < 0 ? -1 : 0) : 0;
    if (!strcmp(name, "input-file") || !strcmp(name, "output-file") || !strcmp(name, "json")) {
        *(name[0] == 'i' ? &o->input_file : name[0] == 'o' ? &o->output_file : &o->json) = val;
        return 0;
    }
    if (!strcmp(name, "pingpong-ranks"))
        return pingpong_ranks(o, val, procs, err, errlen);
    if (!strcmp(name, "window-size"))
        return microseconds(name, val, &o->window_s, err, errlen);
    if (!strcmp(name, "wait-time"))
        return microseconds(name, val, &o->wait_s, err, errlen);
    if (!strcmp(name, "exchanges")) {
        if (eb_parse_long(val, 1, LONG_MAX, &v) || v > 100000)
            return eb_err(err, errlen, "--exchanges: '%s' is not a count from 1 to 100000", val);
        o->clock_rounds = (int)v;
        return 0;
    }
    if (!strcmp(name, "runtime-type")) {
        static const char *const rt[] = {"local", "global"};
        if (by_name(name, val, rt, 2, &k, err, errlen))
            return -1;
        o->runtime = (rp_runtime)k;
        return 0;
    }
    if (!strcmp(name, "proc-sync")) {
        if (by_name(name, val, PROC_SYNC, RP_SYNC_NONE + 1, &k, err, errlen))
            return eb_err(err, errlen, "--proc-sync: unknown method '%s' (MPI_Barrier, "
                          "dissem_barrier, Double_MPI_Barrier, window, None)", val);
        o->proc_sync = (rp_proc_sync)k;
        return 0;
    }
    if (!strcmp(name, "clock-sync"))
        return clock_sync(o, val, err, errlen);
    if (!strcmp(name, "module"))
        return module(o, val, err, errlen);
    return eb_err(err, errlen, "unknown option '--%s' (see -h)", name);
}

static void defaults(rp_options *o)
{
    memset(o, 0, sizeof *o);
    o->op = MPI_BOR;
    o->op_name = "MPI_BOR";
    o->type = MPI_BYTE;
    o->type_name = "MPI_BYTE";
    o->pingpong[0] = o->pingpong[1] = -1;
    o->proc_sync = RP_SYNC_MPI_BARRIER;
    o->clock_sync = RP_CLOCK_SYNCED;
    o->clock_method = EB_CLOCK_LINEAR;
    o->runtime = RP_RUNTIME_LOCAL;
    o->window_s = 1e-3;
    o->wait_s = 1e-3;
    o->clock_rounds = 10;
}

/* What the options together must hold. */
static int consistent(const rp_options *o, char *err, size_t errlen)
{
    if (o->help)
        return 0;
    if (!o->input_file) {
        if (o->nmsizes == 0)
            return eb_err(err, errlen, "List of message sizes is empty (--msizes-list=<list of "
                          "comma-separated positive integers>)");
        if (o->ncalls == 0)
            return eb_err(err, errlen, "List of MPI calls is empty (--calls-list=<list of "
                          "comma-separated MPI calls>)");
        if (o->nrep <= 0)
            return eb_err(err, errlen, "The number of repetitions is not defined (specify the "
                          "\"--nrep\" command-line argument or provide an input file)");
    }
    for (int k = 0; k < o->ncalls; k++)
        if (rp_call_is_pingpong(o->calls[k]) && o->pingpong[0] < 0)
            return eb_err(err, errlen, "%s needs --pingpong-ranks=<rank1,rank2> (Invalid "
                          "ping-pong ranks)", rp_call_name(o->calls[k]));
    return 0;
}

int rp_parse(rp_options *o, int argc, char **argv, int procs, char *err, size_t errlen)
{
    defaults(o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h"))
            o->help = 1;
        else if (!strcmp(a, "-v"))
            o->verbose = 1;
        else if (!strcmp(a, "-check"))
            o->check = 1;
        else if (!strcmp(a, "-f") || !strcmp(a, "--json")) {
            if (i + 1 >= argc)
                return eb_err(err, errlen, "%s needs a file name", a);
            *(a[1] == 'f' ? &o->input_file : &o->json) = argv[++i];
        } else if (!strncmp(a, "--", 2) && a[2]) {
            char name[64];
            const char *eq = strchr(a, '=');
            size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (n >= sizeof name)
                return eb_err(err, errlen, "unknown option '%s' (see -h)", a);
            memcpy(name, a + 2, n);
            name[n] = '\0';
            if (long_option(o, name, eq ? eq + 1 : NULL, procs, err, errlen))
                return -1;
        } else
            return eb_err(err, errlen, "unknown option or argument '%s' (see -h)", a);
    }
    return consistent(o, err, errlen);
}

void rp_options_free(rp_options *o)
{
    free(o->calls);
    free(o->msizes);
}
