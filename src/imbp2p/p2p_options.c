/* IMB-P2P's command line with IMB's meaning (docs/imb-p2p.md, "Options"):
 * -help/-list found anywhere first, then every word in order (options are
 * matched ignoring case; -msglog and -msglen replace the lengths, -msgsz
 * adds one).  Where IMB-P2P silently ignores a word (an unknown option or
 * name, an -iter it cannot read) effbench refuses it: it never runs with a
 * value it had to ignore. */
#include "imbp2p/p2p.h"

#include "core/error.h"
#include "core/text.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const BOOL_WORDS =
    "Expected: 0, 1, false, true, disable, enable, off, on, no, yes";

static void add_size(p2p_options *o, size_t s)
{
    if (o->nsizes == o->cap_sizes) {
        o->cap_sizes = o->cap_sizes ? 2 * o->cap_sizes : 64;
        o->sizes = eb_realloc(o->sizes, (size_t)o->cap_sizes * sizeof *o->sizes);
    }
    o->sizes[o->nsizes++] = s;
    if (o->nsizes == 1 || s < o->min_size)
        o->min_size = s;
    if (o->nsizes == 1 || s > o->max_size)
        o->max_size = s;
}

static void clear_sizes(p2p_options *o) { o->nsizes = 0; o->min_size = o->max_size = 0; }

/* A length: a decimal number of bytes, optionally followed by K, M or G
 * (2^10, 2^20, 2^30; any case, a trailing B allowed).  0, or -1. */
static int parse_length(const char *s, size_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    int shift = 0;
    if (*end) {
        char u = (char)(*end | 0x20);
        shift = u == 'k' ? 10 : u == 'm' ? 20 : u == 'g' ? 30 : -1;
        if (shift < 0 || (end[1] && ((end[1] | 0x20) != 'b' || end[2])))
            return -1;
    }
    if (v > (unsigned long long)INT_MAX >> shift)
        return -2;
    *out = (size_t)(v << shift);
    return 0;
}

static int length_error(int r, const char *what, const char *value, char *err, size_t errlen)
{
    if (r == -2)
        return eb_err(err, errlen, "%s: %s is more bytes than an MPI count holds (%d)", what,
                      value, INT_MAX);
    return eb_err(err, errlen, "Unexpected format after \"%s\": '%s' (a length in bytes, "
                  "optionally with K, M or G)", what, value);
}

static int parse_msglog(p2p_options *o, const char *v, char *err, size_t errlen)
{
    long lo = 0, hi;
    const char *colon = strchr(v, ':');
    char first[32];
    int ok;
    if (colon) {
        size_t n = (size_t)(colon - v);
        ok = n < sizeof first;
        if (ok) {
            memcpy(first, v, n);
            first[n] = '\0';
        }
        ok = ok && !eb_parse_long(first, 0, P2P_MAX_MSG_LOG, &lo) &&
             !eb_parse_long(colon + 1, 0, P2P_MAX_MSG_LOG, &hi) && hi >= lo;
    } else {
        ok = !eb_parse_long(v, 0, P2P_MAX_MSG_LOG, &hi);
    }
    if (!ok)
        return eb_err(err, errlen, "Unexpected -msglog argument value '%s'. Expected: "
                      "<num1>:<num2> where num1 and num2 are positive integer numbers, and "
                      "num2>=num1, and num2<=%d (or one number n: 0, 1, 2, ..., 2^n)", v,
                      P2P_MAX_MSG_LOG);
    if (hi > 30)
        return eb_err(err, errlen, "-msglog %s: 2^%ld bytes is more than an MPI count holds "
                      "(%d)", v, hi, INT_MAX);
    clear_sizes(o);
    if (!colon)
        add_size(o, 0);
    for (long k = lo; k <= hi; k++)
        add_size(o, (size_t)1 << k);
    return 0;
}

/* A -msglen file: one length a line (K, M, G allowed), '#' comment lines. */
static int parse_msglen(p2p_options *o, const char *path, p2p_read_fn read, char *err,
                        size_t errlen)
{
    char why[EB_ERRLEN];
    char *text = read(path, why, sizeof why);
    if (!text)
        return eb_err(err, errlen, "Unable to open msglen file: %s (%s)", path, why);
    clear_sizes(o);
    const char *p = text;
    char line[256];
    int lineno = 0, r;
    while ((r = eb_text_line(&p, &lineno, line, sizeof line)) != 0) {
        size_t s;
        if (r > 0 && line[0] == '#')
            continue;
        int e = r < 0 ? -1 : parse_length(line, &s);
        if (e) {
            free(text);
            return eb_err(err, errlen, "Unexpected format of the msglen file: %s:%d: '%s'%s",
                          path, lineno, r < 0 ? "(too long)" : line,
                          e == -2 ? " is more bytes than an MPI count holds" : "");
        }
        add_size(o, s);
    }
    free(text);
    return 0;
}

static int parse_iter(p2p_options *o, const char *v, char *err, size_t errlen)
{
    const char *comma = strchr(v, ',');
    char first[32];
    long max, num = 0;
    size_t n = comma ? (size_t)(comma - v) : strlen(v);
    int ok = n < sizeof first;
    if (ok) {
        memcpy(first, v, n);
        first[n] = '\0';
        ok = !eb_parse_long(first, 1, INT_MAX, &max) &&
             (!comma || !eb_parse_long(comma + 1, 1, INT_MAX, &num));
    }
    if (!ok)
        return eb_err(err, errlen, "-iter '%s': expected max or max,numerator, positive "
                      "integers (IMB-P2P ignores it; effbench refuses it)", v);
    o->iter_max = max;
    if (comma)
        o->numerator = num * 1024L * 1024L;
    return 0;
}

static int bool_word(const char *s)
{
    static const char *const yes[] = {"1", "on", "enable", "yes", "true"};
    static const char *const no[] = {"0", "off", "disable", "no", "false"};
    for (int k = 0; k < 5; k++) {
        if (!strcasecmp(s, yes[k]))
            return 1;
        if (!strcasecmp(s, no[k]))
            return 0;
    }
    return -1;
}

/* One option with its value argv[*i + 1]: 1 taken, 0 not an option of
 * IMB-P2P's, -1 error. */
static int take_option(p2p_options *o, int argc, char **argv, int *i, p2p_read_fn read,
                       char *err, size_t errlen)
{
    static const char *const with_value[] = {"-msgwr", "-msgrd", "-pause", "-msgsz", "-msglog",
                                             "-msglen", "-iter"};
    const char *opt = argv[*i];
    int known = 0;
    for (int k = 0; k < 7; k++)
        known |= !strcasecmp(opt, with_value[k]);
    if (!known)
        return 0;
    if (*i + 1 >= argc)
        return eb_err(err, errlen, "Missing argument after \"%s\"", opt);
    const char *v = argv[++*i];
    if (!strcasecmp(opt, "-msgwr") || !strcasecmp(opt, "-msgrd")) {
        int b = bool_word(v);
        if (b < 0)
            return eb_err(err, errlen, "Unexpected %s argument value '%s'. %s", opt, v,
                          BOOL_WORDS);
        *(!strcasecmp(opt, "-msgwr") ? &o->touch_send : &o->touch_recv) = b;
    } else if (!strcasecmp(opt, "-pause")) {
        long us;
        if (eb_parse_long(v, INT_MIN, INT_MAX, &us))
            return eb_err(err, errlen, "Unexpected format after \"-pause\": '%s' (microseconds, "
                          "an integer)", v);
        o->pause_us = (int)us;
    } else if (!strcasecmp(opt, "-msgsz")) {
        size_t s;
        int r = parse_length(v, &s);
        if (r)
            return length_error(r, "-msgsz", v, err, errlen);
        add_size(o, s);
    } else if (!strcasecmp(opt, "-msglog")) {
        return parse_msglog(o, v, err, errlen) ? -1 : 1;
    } else if (!strcasecmp(opt, "-msglen")) {
        return parse_msglen(o, v, read, err, errlen) ? -1 : 1;
    } else {
        return parse_iter(o, v, err, errlen) ? -1 : 1;
    }
    return 1;
}

/* IMB-P2P looks for -h/-help and -l/-list before anything else, in order:
 * the first one found decides (-help takes the next word as its topic). */
static int help_or_list(int argc, char **argv, p2p_options *o)
{
    for (int i = 1; i < argc; i++) {
        if (!strcasecmp(argv[i], "-h") || !strcasecmp(argv[i], "-help")) {
            o->action = P2P_HELP;
            o->help_topic = i + 1 < argc ? argv[i + 1] : NULL;
            return 1;
        }
        if (!strcasecmp(argv[i], "-l") || !strcasecmp(argv[i], "-list")) {
            o->action = P2P_LIST;
            return 1;
        }
    }
    return 0;
}

static void defaults(p2p_options *o)
{
    memset(o, 0, sizeof *o);
    o->iter_max = P2P_DEFAULT_ITER_MAX;
    o->numerator = P2P_DEFAULT_NUMERATOR;
    o->pause_us = P2P_DEFAULT_PAUSE_US;
    o->touch_send = o->touch_recv = 1;
}

static void add_benchmark(p2p_options *o, int b)
{
    o->benchmarks = eb_realloc(o->benchmarks, (size_t)(o->nbenchmarks + 1) * sizeof(int));
    o->benchmarks[o->nbenchmarks++] = b;
}

int p2p_parse(int argc, char **argv, p2p_options *o, p2p_read_fn read, char *err,
              size_t errlen)
{
    defaults(o);
    if (help_or_list(argc, argv, o))
        return 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int b = p2p_bench_find(a), r;
        if (b >= 0) {
            add_benchmark(o, b);
        } else if (!strcmp(a, "-check") || !strcmp(a, "-c")) {
            o->check = 1;
        } else if (!strcmp(a, "--json") || !strcmp(a, "--resume")) {
            if (i + 1 >= argc)
                return eb_err(err, errlen, "Missing argument after \"%s\" (a file name)", a);
            o->json_path = argv[++i];
            o->resume = !strcmp(a, "--resume");
        } else if ((r = take_option(o, argc, argv, &i, read, err, errlen)) != 0) {
            if (r < 0)
                return -1;
        } else {
            return eb_err(err, errlen, "'%s' is neither an option nor a benchmark of IMB-P2P "
                          "(IMB-P2P ignores it; effbench refuses it; -help lists the options, "
                          "-list the benchmarks)", a);
        }
    }
    if (o->nsizes == 0) { /* IMB's default (also after a -msglen file of no length) */
        add_size(o, 0);
        for (int k = 0; k <= P2P_DEFAULT_MAX_LOG; k++)
            add_size(o, (size_t)1 << k);
    }
    if (o->nbenchmarks == 0)
        for (int b = 0; b < p2p_bench_default_count(); b++)
            add_benchmark(o, b);
    return 0;
}

void p2p_options_free(p2p_options *o)
{
    free(o->sizes);
    free(o->benchmarks);
    o->sizes = NULL;
    o->benchmarks = NULL;
}

void p2p_iterations(const p2p_options *o, size_t bytes, long *n, long *warm_up)
{
    long k = o->iter_max;
    if (bytes > 0) {
        double q = round((double)o->numerator / (double)bytes);
        k = q > (double)o->iter_max ? o->iter_max : q < 1 ? 1 : (long)q;
    }
    *n = k;
    *warm_up = k / 10 == 0 && k > 1 ? 1 : k / 10;
}
