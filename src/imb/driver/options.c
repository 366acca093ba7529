#include "imb/driver/options.h"

#include "core/clock.h"
#include "core/error.h"
#include "core/sysinfo.h"
#include "core/text.h"
#include "imb/driver/imb2021_defaults.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/procsets.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void eb_imb_options_init(eb_imb_options *o, const eb_imb_family *f)
{
    memset(o, 0, sizeof *o);
    o->family = f;
    o->multi = -1;
    o->iter = f->iter;
    o->mem_gb = EB_DEFAULT_MEM_GB;
    o->msglog_min = f->minmsglog;
    o->msglog_max = f->maxmsglog;
    o->npmin = f->default_npmin;
    o->thread_level = -1;
    o->repeat = 1;
    o->epsilon = EB_QUICK_EPSILON;
    eb_imb2021_init(&o->imb21);
    if (f->imb2021_defaults)
        o->imb21.sync = o->imb21.warm_up = 1;
    o->family_opts = f->options_new ? f->options_new() : NULL;
    /* run under the GPU program's name (imb/driver/gpu.h): device memory unless
     * -mem_alloc_type says otherwise, as IMB 2021.11 */
    o->gpu = f->gpu && strcmp(f->program, f->gpu->program) == 0 ? f->gpu : NULL;
    o->mem = o->gpu ? EB_MEM_DEVICE : EB_MEM_HOST;
    o->mem_alloc_type = o->gpu ? "device" : NULL;
}

static void free_list(char **a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i]);
    free(a);
}

void eb_imb_options_free(eb_imb_options *o)
{
    free_list(o->names, o->nnames);
    free_list(o->include, o->ninclude);
    free_list(o->exclude, o->nexclude);
    eb_sizes_free(&o->msglen);
    if (o->family && o->family->options_free)
        o->family->options_free(o->family_opts);
    o->family_opts = NULL;
}

void eb_push_names(char ***arr, int *n, const char *arg)
{
    char *copy = eb_strdup(arg), *save = NULL;
    for (char *t = strtok_r(copy, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        *arr = eb_realloc(*arr, (size_t)(*n + 1) * sizeof **arr);
        (*arr)[(*n)++] = eb_strdup(t);
    }
    free(copy);
}


/* "-iter m[,vol[,nonaggr]][,policy]" or "-iter policy" (a trailing comma
 * joins the next word, so "-iter 2000, multiple_np" works as in the guide). */
static int parse_iter(eb_imb_options *o, const char *arg, char *err, size_t errlen)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    char *save = NULL;
    int k = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*t))
            t++;
        long v;
        eb_iter_policy p;
        if (eb_iter_policy_parse(t, &p) == 0) {
            o->iter.policy = p;
            k = 3; /* a policy ends the integer list */
            continue;
        }
        if (k >= 3 || eb_parse_long(t, 1, 2000000000L, &v) != 0)
            return eb_err(err, errlen,
                          "-iter %s: expected msgspersample[,overall_vol_MB[,msgs_nonaggr]]"
                          "[,off|dynamic|multiple_np|auto]", arg);
        if (k == 0)
            o->iter.msgspersample = v;
        else if (k == 1)
            o->iter.overall_vol = v * 1048576L;
        else
            o->iter.msgs_nonaggr = v;
        k++;
    }
    return 0;
}

static int parse_off_cache(eb_imb_options *o, const char *arg, char *err, size_t errlen)
{
    if (strcmp(arg, "-1") == 0) {
        o->cache.cache_mb = EB_DEFAULT_CACHE_MB;
        o->cache.line = EB_DEFAULT_CACHE_LINE;
        return 0;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%s", arg);
    char *comma = strchr(buf, ',');
    long line = EB_DEFAULT_CACHE_LINE;
    if (comma) {
        *comma = '\0';
        if (eb_parse_long(comma + 1, 1, 1 << 20, &line) != 0)
            return eb_err(err, errlen, "-off_cache %s: cache line size must be a positive integer", arg);
    }
    if (eb_parse_positive(buf, &o->cache.cache_mb) != 0)
        return eb_err(err, errlen,
                      "-off_cache %s: expected cache_size_MB[,cache_line_size] or -1", arg);
    o->cache.line = (size_t)line;
    return 0;
}

static int is_option(const char *s) { return s[0] == '-' && s[1] != '\0' && !isdigit((unsigned char)s[1]); }

#define NEED_VALUE() \
    if (!val) return eb_err(err, errlen, "option %s needs a value", a)

/* The options of how each row is measured: loops, cache, time and memory
 * limits, effbench's -repeat / quick mode / -check.  1 if argv[*i] was one
 * (*i moved past its values), 0 if not, -1 on error. */
static int parse_measure_option(eb_imb_options *o, int argc, char **argv, int *i, char *err,
                                size_t errlen)
{
    const char *a = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "-multi")) {
        NEED_VALUE();
        if (strcmp(val, "0") && strcmp(val, "1"))
            return eb_err(err, errlen, "-multi %s: expected 0 or 1", val);
        o->multi = val[0] - '0';
    } else if (!strcmp(a, "-off_cache")) {
        NEED_VALUE();
        if (parse_off_cache(o, val, err, errlen))
            return -1;
    } else if (!strcmp(a, "-iter")) {
        NEED_VALUE();
        char joined[256];
        snprintf(joined, sizeof joined, "%s", val);
        (*i)++;
        while (joined[0] && joined[strlen(joined) - 1] == ',' && *i + 1 < argc) {
            size_t n = strlen(joined);
            snprintf(joined + n, sizeof joined - n, "%s", argv[++*i]);
        }
        return parse_iter(o, joined, err, errlen) ? -1 : 1;
    } else if (!strcmp(a, "-iter_policy")) {
        NEED_VALUE();
        if (eb_iter_policy_parse(val, &o->iter.policy))
            return eb_err(err, errlen,
                          "-iter_policy %s: expected off, dynamic, multiple_np or auto", val);
    } else if (!strcmp(a, "-time")) {
        NEED_VALUE();
        if (eb_parse_positive(val, &o->iter.secs))
            return eb_err(err, errlen, "-time %s: expected a positive number of seconds", val);
        o->time_given = 1;
    } else if (!strcmp(a, "-mem")) {
        NEED_VALUE();
        if (eb_parse_positive(val, &o->mem_gb))
            return eb_err(err, errlen, "-mem %s: expected a positive number of GB", val);
    } else if (!strcmp(a, "-repeat")) {
        long v;
        NEED_VALUE();
        if (eb_parse_long(val, 1, 1000000, &v))
            return eb_err(err, errlen, "-repeat %s: expected a positive number of timed loops", val);
        o->repeat = (int)v;
    } else if (!strcmp(a, "-epsilon")) {
        NEED_VALUE();
        if (eb_parse_positive(val, &o->epsilon) || o->epsilon >= 1)
            return eb_err(err, errlen, "-epsilon %s: expected a relative error between 0 and 1, "
                          "e.g. 0.02", val);
        o->epsilon_given = 1;
    } else if (!strcmp(a, "-clock_sync")) {
        NEED_VALUE();
        if ((o->clock_sync = eb_clock_method_parse(val)) < 0)
            return eb_err(err, errlen, "-clock_sync %s: expected %s", val, EB_CLOCK_METHODS);
        o->clock_sync_given = 1;
    } else if (!strcmp(a, "-quick") || !strcmp(a, "-check")) {
        *(a[1] == 'q' ? &o->quick : &o->check) = 1;
        /* -check 1|0 (IMB-MT's bool form, also in scripts): an on/off word after
         * -check is its value, never a benchmark name */
        int on;
        if (a[1] == 'c' && val && eb_imb_parse_bool(val, &on) == 0) {
            o->check = on;
            (*i)++;
        }
        return 1;
    } else {
        return 0;
    }
    (*i)++; /* the option's value */
    return 1;
}

/* The options of what runs where and where results go: process counts and
 * placement, lengths, thread level, benchmark lists, --json / --resume.
 * Same returns as parse_measure_option; *msglog_given set by -msglog. */
static int parse_setup_option(eb_imb_options *o, int argc, char **argv, int *i,
                              int *msglog_given, char *err, size_t errlen)
{
    const char *a = argv[*i];
    const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (!strcmp(a, "-npmin")) {
        long v;
        NEED_VALUE();
        if (eb_parse_long(val, 1, 1 << 30, &v))
            return eb_err(err, errlen, "-npmin %s: expected a positive integer", val);
        o->npmin = (int)v;
    } else if (!strcmp(a, "-input") || !strcmp(a, "-msglen")) {
        NEED_VALUE();
        *(a[1] == 'i' ? &o->input_file : &o->msglen_file) = val;
    } else if (!strcmp(a, "-map")) {
        NEED_VALUE();
        if (eb_parse_map(val, &o->map_p, &o->map_q, err, (int)errlen))
            return -1;
    } else if (!strcmp(a, "-msglog")) {
        NEED_VALUE();
        int mn = o->family->minmsglog, mx, given;
        if (eb_parse_msglog(val, &mn, &mx, &given, err, errlen))
            return -1;
        if (!given && mx < mn)
            mn = 0; /* "-msglog max" below the default min starts at 1 byte */
        o->msglog_min = mn;
        o->msglog_max = mx;
        *msglog_given = 1;
    } else if (!strcmp(a, "-thread_level")) {
        NEED_VALUE();
        /* IMB 2021's nompiinit: IMB leaves MPI uninitialised, its benchmarks then
         * stop with the library's error, and IMB calls MPI_Init on that error path;
         * effbench measures nothing without MPI, so it is MPI_Init's level */
        o->thread_level = !strcmp(val, "nompiinit") ? MPI_THREAD_SINGLE : eb_thread_level_parse(val);
        if (o->thread_level < 0)
            return eb_err(err, errlen, "-thread_level %s: expected single, funneled, serialized, "
                          "multiple or nompiinit", val);
    } else if (!strcmp(a, "-include") || !strcmp(a, "-exclude")) {
        int inc = a[1] == 'i';
        char ***names = inc ? &o->include : &o->exclude;
        int *n = inc ? &o->ninclude : &o->nexclude, n0 = *n;
        while (*i + 1 < argc && !is_option(argv[*i + 1]))
            eb_push_names(names, n, argv[++*i]);
        if (*n == n0)
            return eb_err(err, errlen, "option %s needs benchmark names", a);
        return 1;
    } else if (!strcmp(a, "--json") || !strcmp(a, "--resume")) {
        NEED_VALUE();
        if (o->json_path)
            return eb_err(err, errlen, "--json and --resume name one file, once");
        o->json_path = val;
        o->resume = a[2] == 'r';
    } else {
        return 0;
    }
    (*i)++; /* the option's value */
    return 1;
}
#undef NEED_VALUE

/* The checks between options once the whole command line is read. */
static int check_combinations(eb_imb_options *o, int msglog_given, char *err, size_t errlen)
{
    if (o->quick && (o->repeat > 1 || o->sync_window))
        return eb_err(err, errlen, "quick mode chooses its own loops: no -repeat or -sync window");
    if (o->epsilon_given && !o->quick)
        return eb_err(err, errlen, "-epsilon is quick mode's accuracy target: run `effbench quick "
                      "%s ... -epsilon E`, or leave it out", o->family->component);
    if (o->quick && !o->time_given)
        o->iter.secs = EB_QUICK_BUDGET;
    if (o->clock_sync_given && !o->sync_window)
        return eb_err(err, errlen, "-clock_sync chooses the clocks of -sync window: give both");
    if (o->sync_window && o->repeat > 1)
        return eb_err(err, errlen, "-sync window and -repeat exclude each other");
    if (msglog_given && o->msglen_file)
        return eb_err(err, errlen, "-msglog and -msglen exclude each other");
    if (msglog_given && o->imb21.msgsize_given)
        return eb_err(err, errlen, "-msglog and -msgsize exclude each other");
    if (eb_imb2021_finish(o, err, errlen))
        return -1;
    return eb_imb_defaults_finish(o, err, errlen);
}

int eb_imb_parse(eb_imb_options *o, int argc, char **argv, char *err, size_t errlen)
{
    int msglog_given = 0;
    eb_imb_defaults_prescan(o, argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            o->help = 1;
            continue;
        }
        int r = parse_measure_option(o, argc, argv, &i, err, errlen);
        if (r == 0)
            r = parse_setup_option(o, argc, argv, &i, &msglog_given, err, errlen);
        if (r == 0 && is_option(a)) {
            /* IMB 2021's options, then the family's own. */
            r = eb_imb_defaults_parse(o, argc, argv, &i, err, errlen);
            if (r == 0)
                r = eb_imb2021_parse(o, argc, argv, &i, err, errlen);
            if (r == 0 && o->family->parse_option)
                r = o->family->parse_option(o, argc, argv, &i, err, errlen);
            if (r == 0)
                return eb_err(err, errlen, "unknown option '%s' (see %s -h)", a, o->family->program);
        } else if (r == 0) {
            eb_push_names(&o->names, &o->nnames, a);
        }
        if (r < 0)
            return -1;
    }
    return check_combinations(o, msglog_given, err, errlen);
}

int eb_imb_apply_input(eb_imb_options *o, const char *text, const char *fname,
                       char *err, size_t errlen)
{
    int line = 0, got;
    const char *p = text;
    char s[256];
    while ((got = eb_text_line(&p, &line, s, sizeof s)) != 0) {
        if (got < 0)
            return eb_err(err, errlen, "%s:%d: line too long", fname, line);
        if (*s == '\0' || *s == '#')
            continue;
        if (strpbrk(s, " \t"))
            return eb_err(err, errlen,
                          "%s:%d: '%s': a line holds exactly one benchmark name or a # comment",
                          fname, line, s);
        eb_push_names(&o->names, &o->nnames, s);
    }
    return 0;
}

void eb_imb_load_files(eb_imb_options *o)
{
    char err[EB_ERRLEN];
    if (o->input_file) {
        char *text = eb_read_file_bcast(o->input_file, "-input", MPI_COMM_WORLD, err, sizeof err);
        if (!text)
            eb_exit_all(EB_EXIT_USAGE, err);
        int bad = eb_imb_apply_input(o, text, o->input_file, err, sizeof err);
        free(text);
        if (bad)
            eb_exit_all(EB_EXIT_USAGE, err);
    }
    if (o->msglen_file) {
        char *text = eb_read_file_bcast(o->msglen_file, "-msglen", MPI_COMM_WORLD, err, sizeof err);
        if (!text)
            eb_exit_all(EB_EXIT_USAGE, err);
        int bad = eb_sizes_parse_msglen(text, o->msglen_file, 1, &o->msglen, err, sizeof err);
        free(text);
        if (bad)
            eb_exit_all(EB_EXIT_USAGE, err);
    }
}

void eb_imb_print_help(const eb_imb_family *f)
{
    printf("Usage: mpirun -np P %s [options] [benchmark ...]\n"
           "       (also: effbench %s [options] [benchmark ...])\n\n"
           "Benchmark names are case-insensitive; Multi-NAME runs NAME in multiple mode.\n"
           "Without names, every benchmark of the component that runs by default.\n\n"
           "Options (as the Intel MPI Benchmarks user guide):\n"
           "  -h, -help                 this help\n"
           "  -npmin N                  smallest process count: N, 2N, 4N, ..., P\n"
           "  -multi 0|1                multiple mode: 0 max over groups, 1 every group\n"
           "  -off_cache MB[,line]|-1   cycle buffers to defeat a cache of MB megabytes\n"
           "  -iter N[,VOL_MB[,NONAGGR]][,POLICY]\n"
           "                            MSGSPERSAMPLE (default %ld), OVERALL_VOL in MiB\n"
           "                            (default %ld), MSGS_NONAGGR (default %ld)\n"
           "  -iter_policy off|dynamic|multiple_np|auto   (default %s)\n"
           "  -time SECONDS             run-time limit per message length (default %g)\n"
           "  -mem GB                   message-buffer memory limit per process (default %g)\n"
           "  -input FILE               benchmark names, one per line, # comments\n"
           "  -msglen FILE              message lengths, one per line\n"
           "  -msglog [MIN:]MAX         lengths 0, 2^MIN, ..., 2^MAX (default %d:%d)\n"
           "  -map PxQ                  number ranks along the rows of a PxQ matrix\n"
           "  -include NAME...          add benchmarks that do not run by default\n"
           "  -exclude NAME...          leave benchmarks out\n"
           "  -thread_level single|funneled|serialized|multiple|nompiinit\n"
           "effbench additions:\n"
           "  -check [on|off]           verify every received byte (outside timed loops);\n"
           "                            adds a defects column; timings not for publication\n"
           "  -repeat N                 time each row N times; report medians, the loops'\n"
           "                            min, max and spread (default 1: IMB's table)\n"
           "  -sync_method barrier|window  window: start every repetition at an agreed\n"
           "                            global time (offset-corrected clocks), per-repetition\n"
           "                            maxima (also -sync barrier|window)\n"
           "  -clock_sync linear|skampi|hca3|hca3_2level|none  -sync window's\n"
           "                            clock synchronisation (linear; docs/clock-sync.md)\n"
           "  --json FILE               also write JSON Lines records (docs/json-lines.md)\n"
           "  --resume FILE             continue a crashed --json FILE: measure only the\n"
           "                            rows missing from it and append them\n"
           "  --imb-defaults 2021|4.0   2021: IMB 2021.11's defaults, units and text (also\n"
           "                            EFFBENCH_IMB_DEFAULTS=2021); 4.0: the guide's (default)\n",
           f->program, f->component, f->iter.msgspersample, f->iter.overall_vol / 1048576,
           f->iter.msgs_nonaggr, eb_iter_policy_name(f->iter.policy), f->iter.secs,
           EB_DEFAULT_MEM_GB, f->minmsglog, f->maxmsglog);
    eb_imb2021_print_help(f);
    if (f->help_extra)
        fputs(f->help_extra, stdout);
}
