#include "skampi/config.h"

#include "core/error.h"
#include "core/text.h"
#include "skampi/datatypes.h"
#include "skampi/instances.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const sk_key_names[SK_NKEYS] = {
    "Type", "Basetype_Number", "Send_Datatype_Number", "Receive_Datatype_Number",
    "Variation", "Scale", "Max_Repetition", "Min_Repetition", "Multiple_of",
    "Time_Measurement", "Time_Suite", "Node_Times", "Cut_Quantile", "Default_Chunks",
    "Default_Message_length", "Start_Argument", "End_Argument", "Stepwidth",
    "Max_Steps", "Min_Distance", "Max_Distance", "Standard_error", "Synchronization",
};

const char *sk_variation_name(enum sk_variation v)
{
    switch (v) {
    case SK_VAR_NONE: return "None";
    case SK_VAR_LENGTH: return "Length";
    case SK_VAR_NODES: return "Nodes";
    case SK_VAR_CHUNKS: return "Chunks";
    }
    return "?";
}

const char *sk_scale_name(enum sk_scale s)
{
    switch (s) {
    case SK_FIXED_LINEAR: return "Fixed_linear";
    case SK_FIXED_LOG: return "Fixed_log";
    case SK_DYNAMIC_LINEAR: return "Dynamic_linear";
    case SK_DYNAMIC_LOG: return "Dynamic_log";
    }
    return "?";
}

int sk_suite_err(const sk_config *c, const sk_suite *s, enum sk_key k, char *err, size_t errlen,
                 const char *fmt, ...)
{
    char what[EB_ERRLEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int line = s->key_line[k] ? s->key_line[k] : s->line;
    return eb_err(err, errlen, "%s:%d: suite '%s': key '%s': %s", c->path, line, s->name,
                  sk_key_names[k], what);
}

static void suite_defaults(sk_suite *s)
{
    memset(s, 0, sizeof *s);
    s->type = -1;
    s->basetype = 1;
    s->variation = SK_VAR_LENGTH;
    s->scale = SK_DYNAMIC_LOG;
    s->max_rep = SK_DEF_MAX_REPETITION;
    s->min_rep = SK_DEF_MIN_REPETITION;
    s->node_times = 1;
    s->cut_quantile = SK_DEF_CUT_QUANTILE;
    s->default_length = SK_DEF_MESSAGE_LENGTH;
    s->start = -1; /* per variation, see sk_suite_start */
    s->end_is_max = 1;
    s->stepwidth = SK_DEF_STEPWIDTH;
    s->max_steps = SK_DEF_MAX_STEPS;
    s->standard_error = SK_DEF_STANDARD_ERROR;
    s->sync = SK_SYNC_BARRIER;
}

/* ---- value forms ---- */

enum vform { V_DEFAULT, V_INVALID, V_MAX, V_NUMBER, V_WORD };

static enum vform classify(const char *v, double *num)
{
    if (!strcasecmp(v, "Default_Value"))
        return V_DEFAULT;
    if (!strcasecmp(v, "Invalid_Value"))
        return V_INVALID;
    if (!strcasecmp(v, "Max_Value"))
        return V_MAX;
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end != v && *end == '\0' && errno == 0 && isfinite(d)) {
        *num = d;
        return V_NUMBER;
    }
    return V_WORD;
}

typedef struct {
    const sk_config *c;
    sk_suite *s;
    enum sk_key k;
    char *err;
    size_t errlen;
} keyctx;

#define KERR(kc, ...) sk_suite_err((kc)->c, (kc)->s, (kc)->k, (kc)->err, (kc)->errlen, __VA_ARGS__)

/* Integer >= lo; Default_Value keeps the default. */
static int get_long(keyctx *kc, const char *v, long lo, long *out)
{
    double d = 0;
    enum vform f = classify(v, &d);
    if (f == V_DEFAULT)
        return 0;
    if (f != V_NUMBER || d != floor(d) || fabs(d) > 1e15)
        return KERR(kc, "'%s' is not an integer", v);
    if (d < (double)lo)
        return KERR(kc, "%s is below the minimum %ld", v, lo);
    *out = (long)d;
    return 0;
}

static int get_double(keyctx *kc, const char *v, double lo, double hi, int lo_open, double *out)
{
    double d = 0;
    enum vform f = classify(v, &d);
    if (f == V_DEFAULT)
        return 0;
    if (f != V_NUMBER)
        return KERR(kc, "'%s' is not a number", v);
    if (lo_open ? d <= lo : d < lo)
        return KERR(kc, "%s must be %s %g", v, lo_open ? "greater than" : "at least", lo);
    if (d > hi)
        return KERR(kc, "%s must be at most %g", v, hi);
    *out = d;
    return 0;
}

/* A time limit in seconds: Invalid_Value means none. */
static int get_limit(keyctx *kc, const char *v, double *out)
{
    double d = 0;
    enum vform f = classify(v, &d);
    if (f == V_DEFAULT || f == V_INVALID) {
        *out = 0;
        return 0;
    }
    if (f != V_NUMBER || d <= 0)
        return KERR(kc, "'%s' is not a positive number of seconds or Invalid_Value", v);
    *out = d;
    return 0;
}

static int set_key(keyctx *kc, const char *v)
{
    sk_suite *s = kc->s;
    double d = 0;
    enum vform f = classify(v, &d);
    long l;
    switch (kc->k) {
    case SK_TYPE:
        if (f != V_NUMBER || d != floor(d) || fabs(d) > 1e6) /* (int)d must be defined */
            return KERR(kc, "'%s' is not a type number", v);
        if (!sk_instance_find((int)d))
            return KERR(kc, "unknown type %s (see the type table in docs/skampi.md)", v);
        s->type = (int)d;
        return 0;
    case SK_BASETYPE_NUMBER:
        l = s->basetype;
        if (get_long(kc, v, 1, &l))
            return -1;
        if (l > SK_MAX_BASETYPES)
            return KERR(kc, "%ld is above the largest @BASETYPE number %d", l, SK_MAX_BASETYPES);
        s->basetype = (int)l;
        return 0;
    case SK_SEND_DATATYPE_NUMBER:
    case SK_RECEIVE_DATATYPE_NUMBER: {
        l = 0;
        if (get_long(kc, v, 0, &l))
            return -1;
        char why[EB_ERRLEN];
        if (sk_dt_check((int)l, why, sizeof why))
            return KERR(kc, "%s", why);
        if (kc->k == SK_SEND_DATATYPE_NUMBER)
            s->send_datatype = (int)l;
        else
            s->recv_datatype = (int)l;
        return 0;
    }
    case SK_VARIATION:
        if (f == V_DEFAULT)
            return 0;
        if (!strcasecmp(v, "Length"))
            s->variation = SK_VAR_LENGTH;
        else if (!strcasecmp(v, "Nodes"))
            s->variation = SK_VAR_NODES;
        else if (!strcasecmp(v, "Chunks"))
            s->variation = SK_VAR_CHUNKS;
        else if (!strcasecmp(v, "None"))
            s->variation = SK_VAR_NONE;
        else
            return KERR(kc, "'%s' is not Length, Nodes, Chunks or None", v);
        return 0;
    case SK_SCALE:
        if (f == V_DEFAULT)
            return 0;
        if (!strcasecmp(v, "Fixed_linear"))
            s->scale = SK_FIXED_LINEAR;
        else if (!strcasecmp(v, "Fixed_log"))
            s->scale = SK_FIXED_LOG;
        else if (!strcasecmp(v, "Dynamic_linear"))
            s->scale = SK_DYNAMIC_LINEAR;
        else if (!strcasecmp(v, "Dynamic_log"))
            s->scale = SK_DYNAMIC_LOG;
        else
            return KERR(kc, "'%s' is not Fixed_linear, Fixed_log, Dynamic_linear or Dynamic_log", v);
        return 0;
    case SK_MAX_REPETITION:
        return get_long(kc, v, 1, &s->max_rep);
    case SK_MIN_REPETITION:
        return get_long(kc, v, 1, &s->min_rep);
    case SK_MULTIPLE_OF:
        return get_long(kc, v, 1, &s->multiple_of);
    case SK_TIME_MEASUREMENT:
        return get_limit(kc, v, &s->time_measurement);
    case SK_TIME_SUITE:
        return get_limit(kc, v, &s->time_suite);
    case SK_NODE_TIMES:
        if (f == V_DEFAULT)
            return 0;
        if (!strcasecmp(v, "yes"))
            s->node_times = 1;
        else if (!strcasecmp(v, "no"))
            s->node_times = 0;
        else
            return KERR(kc, "'%s' is not yes or no", v);
        return 0;
    case SK_CUT_QUANTILE:
        if (get_double(kc, v, 0, 0.5, 0, &s->cut_quantile))
            return -1;
        if (s->cut_quantile >= 0.5)
            return KERR(kc, "%s must be below 0.5", v);
        return 0;
    case SK_DEFAULT_CHUNKS:
        return get_long(kc, v, 0, &s->default_chunks);
    case SK_DEFAULT_MESSAGE_LENGTH:
        return get_long(kc, v, 0, &s->default_length);
    case SK_START_ARGUMENT:
        return get_double(kc, v, 0, 1e15, 0, &s->start);
    case SK_END_ARGUMENT:
        if (f == V_DEFAULT || f == V_MAX) {
            s->end_is_max = 1;
            return 0;
        }
        if (get_double(kc, v, 0, 1e15, 0, &s->end))
            return -1;
        s->end_is_max = 0;
        return 0;
    case SK_STEPWIDTH:
        return get_double(kc, v, 0, 1e15, 1, &s->stepwidth);
    case SK_MAX_STEPS:
        return get_long(kc, v, 1, &s->max_steps);
    case SK_MIN_DISTANCE:
        if (f == V_INVALID) {
            s->min_distance = 0;
            return 0;
        }
        return get_double(kc, v, 0, 1e15, 0, &s->min_distance);
    case SK_MAX_DISTANCE:
        if (f == V_INVALID || f == V_MAX) {
            s->max_distance = 0;
            return 0;
        }
        return get_double(kc, v, 0, 1e15, 1, &s->max_distance);
    case SK_STANDARD_ERROR:
        return get_double(kc, v, 0, 1, 1, &s->standard_error);
    case SK_SYNCHRONIZATION:
        if (f == V_DEFAULT)
            return 0;
        if (!strcasecmp(v, "Barrier"))
            s->sync = SK_SYNC_BARRIER;
        else if (!strcasecmp(v, "Window"))
            s->sync = SK_SYNC_WINDOW;
        else
            return KERR(kc, "'%s' is not Barrier or Window", v);
        return 0;
    case SK_NKEYS:
        break;
    }
    return KERR(kc, "internal: unhandled key");
}

/* The send and receive datatype patterns against the instance and the
 * lengths (docs/skampi-datatypes.md).  Both sides share the base type and
 * every pattern holds SK_PATTERN_ELEMS base elements, so their type
 * signatures match exactly for lengths that are whole elements of both:
 * Multiple_of must be. */
static int check_datatypes(const sk_config *c, const sk_suite *s, const sk_instance *in,
                           char *err, size_t errlen)
{
    enum sk_key ks = SK_SEND_DATATYPE_NUMBER, kr = SK_RECEIVE_DATATYPE_NUMBER;
    if ((in->flags & SK_I_NO_BYTES) && (s->send_datatype || s->recv_datatype))
        return sk_suite_err(c, s, s->send_datatype ? ks : kr, err, errlen,
                            "type %d (%s) sends no data: datatype patterns do not apply (0 only)",
                            s->type, in->name);
    if ((in->flags & SK_I_REDUCE) && (s->send_datatype || s->recv_datatype))
        return sk_suite_err(c, s, s->send_datatype ? ks : kr, err, errlen,
                            "type %d (%s) reduces with MPI_SUM, which MPI defines on built-in "
                            "datatypes only: datatype pattern 0",
                            s->type, in->name);
    if ((in->flags & SK_I_ONE_TYPE) && s->send_datatype != s->recv_datatype)
        return sk_suite_err(c, s, kr, err, errlen,
                            "type %d (%s) has one datatype for both directions: %d differs from "
                            "Send_Datatype_Number %d",
                            s->type, in->name, s->recv_datatype, s->send_datatype);
    sk_basetype b;
    char why[EB_ERRLEN];
    if (sk_basetype_parse(c->basetype[s->basetype], &b, why, sizeof why))
        return sk_suite_err(c, s, SK_BASETYPE_NUMBER, err, errlen, "%s", why);
    long us = sk_dt_unit(&b, s->send_datatype), ur = sk_dt_unit(&b, s->recv_datatype);
    long q = us > ur ? us : ur; /* one unit is the base size, the other 12 times it */
    if (s->multiple_of && s->multiple_of % q)
        return sk_suite_err(c, s, SK_MULTIPLE_OF, err, errlen,
                            "%ld is not a multiple of %ld bytes, one element of datatype pattern "
                            "%d over @BASETYPE%d: send and receive types would not match",
                            s->multiple_of, q, us >= ur ? s->send_datatype : s->recv_datatype,
                            s->basetype);
    return 0;
}

/* Checks that need the whole suite. */
static int check_suite(const sk_config *c, sk_suite *s, char *err, size_t errlen)
{
    if (s->type < 0)
        return eb_err(err, errlen, "%s:%d: suite '%s': missing key 'Type'", c->path, s->line, s->name);
    const sk_instance *in = sk_instance_find(s->type);
    if (in->pattern == SK_SIMPLE) {
        if (s->key_line[SK_VARIATION] && s->variation != SK_VAR_NONE)
            return sk_suite_err(c, s, SK_VARIATION, err, errlen,
                                "type %d (%s) is a simple-pattern instance: no variation is possible",
                                s->type, in->name);
        s->variation = SK_VAR_NONE;
    } else {
        enum sk_variation v = s->variation;
        int ok = v == SK_VAR_LENGTH || (v == SK_VAR_NODES && in->pattern != SK_PINGPONG) ||
                 (v == SK_VAR_CHUNKS && in->pattern == SK_MASTER_WORKER);
        if (!ok)
            return sk_suite_err(c, s, SK_VARIATION, err, errlen,
                                "%s is not a variation of the %s pattern (type %d)",
                                sk_variation_name(v), sk_pattern_name(in->pattern), s->type);
        if (v == SK_VAR_LENGTH && (in->flags & SK_I_NO_BYTES))
            return sk_suite_err(c, s, SK_VARIATION, err, errlen,
                                "type %d (%s) sends no message: vary Nodes instead", s->type, in->name);
    }
    if (s->min_rep > s->max_rep && !s->key_line[SK_MIN_REPETITION])
        s->min_rep = s->max_rep; /* only Max_Repetition given: it wins over the default */
    if (s->min_rep > s->max_rep)
        return sk_suite_err(c, s, SK_MIN_REPETITION, err, errlen,
                            "%ld is above Max_Repetition %ld", s->min_rep, s->max_rep);
    if ((s->scale == SK_FIXED_LOG || s->scale == SK_DYNAMIC_LOG) && s->stepwidth <= 1)
        return sk_suite_err(c, s, SK_STEPWIDTH, err, errlen,
                            "%g: a logarithmic scale needs a factor above 1", s->stepwidth);
    if (!s->end_is_max && s->start >= 0 && s->end < s->start)
        return sk_suite_err(c, s, SK_END_ARGUMENT, err, errlen, "%g is below Start_Argument %g",
                            s->end, s->start);
    if (s->max_distance > 0 && s->min_distance > s->max_distance)
        return sk_suite_err(c, s, SK_MIN_DISTANCE, err, errlen, "%g is above Max_Distance %g",
                            s->min_distance, s->max_distance);
    if (!c->basetype[s->basetype][0])
        return sk_suite_err(c, s, SK_BASETYPE_NUMBER, err, errlen,
                            "@BASETYPE%d is not defined in the preamble", s->basetype);
    if (in->flags & SK_I_REDUCE) {
        char why[EB_ERRLEN];
        if (!sk_basetype_reducible(c->basetype[s->basetype], why, sizeof why))
            return sk_suite_err(c, s, SK_BASETYPE_NUMBER, err, errlen,
                                "type %d (%s) reduces with MPI_SUM: %s", s->type, in->name, why);
    }
    return check_datatypes(c, s, in, err, errlen);
}

/* ---- lines ---- */

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src); }

static int preamble_line(sk_config *c, char *line, int ln, char *err, size_t errlen)
{
    char *p = line + 1, *key = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    char save = *p;
    *p = '\0';
    char keybuf[64];
    copy(keybuf, sizeof keybuf, key);
    *p = save;
    char *val = eb_trim(p);
    const char *k = keybuf;
#define NEED_VALUE()                                                                          \
    if (!*val)                                                                                \
    return eb_err(err, errlen, "%s:%d: @%s: missing value", c->path, ln, k)
    if (!strcasecmp(k, "MACHINE")) { copy(c->machine, sizeof c->machine, val); return 0; }
    if (!strcasecmp(k, "NODE")) { copy(c->node, sizeof c->node, val); return 0; }
    if (!strcasecmp(k, "NETWORK")) { copy(c->network, sizeof c->network, val); return 0; }
    if (!strcasecmp(k, "MPIVERSION")) { copy(c->mpiversion, sizeof c->mpiversion, val); return 0; }
    if (!strcasecmp(k, "USER")) { copy(c->user, sizeof c->user, val); return 0; }
    if (!strcasecmp(k, "OUTFILE")) { NEED_VALUE(); copy(c->outfile, sizeof c->outfile, val); return 0; }
    if (!strcasecmp(k, "LOGFILE")) { NEED_VALUE(); copy(c->logfile, sizeof c->logfile, val); return 0; }
    if (!strcasecmp(k, "MEMORY") || !strcasecmp(k, "CACHEWARMUP")) {
        NEED_VALUE();
        char *end;
        errno = 0;
        long v = strtol(val, &end, 10);
        int memory = !strcasecmp(k, "MEMORY");
        if (*end || errno || v < (memory ? 1 : 0))
            return eb_err(err, errlen, "%s:%d: @%s: '%s' is not %s", c->path, ln, k, val,
                          memory ? "a positive number of KB" : "a non-negative count");
        if (memory)
            c->memory_kb = v;
        else
            c->cachewarmup = (int)v;
        return 0;
    }
    if (!strcasecmp(k, "POSTPROC")) {
        if (!strcasecmp(val, "yes"))
            c->postproc = 1;
        else if (!strcasecmp(val, "no"))
            c->postproc = 0;
        else
            return eb_err(err, errlen, "%s:%d: @POSTPROC: '%s' is not yes or no", c->path, ln, val);
        return 0;
    }
    if (!strncasecmp(k, "BASETYPE", 8)) {
        char *end;
        long n = strtol(k + 8, &end, 10);
        if (end == k + 8 || *end || n < 1 || n > SK_MAX_BASETYPES)
            return eb_err(err, errlen, "%s:%d: @%s: base type numbers are 1..%d", c->path, ln, k,
                          SK_MAX_BASETYPES);
        NEED_VALUE();
        char why[EB_ERRLEN];
        sk_basetype b;
        if (sk_basetype_parse(val, &b, why, sizeof why))
            return eb_err(err, errlen, "%s:%d: @%s: %s", c->path, ln, k, why);
        copy(c->basetype[n], sizeof c->basetype[n], val);
        c->basetype_line[n] = ln;
        return 0;
    }
    return eb_err(err, errlen, "%s:%d: unknown preamble key '@%s'", c->path, ln, k);
#undef NEED_VALUE
}

int sk_config_parse(const char *text, const char *path, sk_config *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    copy(c->path, sizeof c->path, path);
    c->memory_kb = SK_DEF_MEMORY_KB;
    copy(c->outfile, sizeof c->outfile, "skampi.out");
    copy(c->logfile, sizeof c->logfile, "skampi.log");
    c->cachewarmup = SK_DEF_CACHEWARMUP;
    copy(c->basetype[1], sizeof c->basetype[1], "MPI_INT"); /* when the preamble names none */
    int cap = 0, ln = 0, in_meas = 0, explicit_bt1 = 0;
    sk_suite *cur = NULL; /* inside { } */
    sk_suite pending;     /* name seen, waiting for { */
    int have_pending = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *buf = eb_malloc(n + 1);
        memcpy(buf, p, n);
        buf[n] = '\0';
        p = e ? e + 1 : p + n;
        ln++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *line = eb_trim(buf);
        int rc = 0;
        if (!*line) {
            free(buf);
            continue;
        }
        if (!in_meas) {
            if (line[0] != '@')
                rc = eb_err(err, errlen, "%s:%d: expected an @KEY line in the preamble, got '%s'",
                            path, ln, line);
            else if (!strcasecmp(line, "@MEASUREMENTS") || !strcasecmp(line, "@MEASUREMENT"))
                in_meas = 1;
            else {
                if (!strncasecmp(line, "@BASETYPE1", 10) && isspace((unsigned char)line[10]) &&
                    !explicit_bt1) {
                    explicit_bt1 = 1;
                    c->basetype[1][0] = '\0';
                }
                rc = preamble_line(c, line, ln, err, errlen);
            }
        } else if (cur) {
            if (!strcmp(line, "}")) {
                rc = check_suite(c, cur, err, errlen);
                cur = NULL;
            } else {
                char *eq = strchr(line, '=');
                if (!eq) {
                    rc = eb_err(err, errlen, "%s:%d: suite '%s': expected 'Key = value;', got '%s'",
                                path, ln, cur->name, line);
                } else {
                    *eq = '\0';
                    char *key = eb_trim(line), *val = eb_trim(eq + 1);
                    size_t vl = strlen(val);
                    int k;
                    for (k = 0; k < SK_NKEYS; k++)
                        if (!strcasecmp(key, sk_key_names[k]))
                            break;
                    keyctx kc = {c, cur, (enum sk_key)k, err, errlen};
                    if (k == SK_NKEYS)
                        rc = eb_err(err, errlen, "%s:%d: suite '%s': unknown key '%s'", path, ln,
                                    cur->name, key);
                    else if (cur->key_line[k])
                        rc = eb_err(err, errlen, "%s:%d: suite '%s': key '%s': given twice (first on line %d)",
                                    path, ln, cur->name, sk_key_names[k], cur->key_line[k]);
                    else if (vl == 0 || val[vl - 1] != ';')
                        rc = eb_err(err, errlen, "%s:%d: suite '%s': key '%s': missing ';' after the value",
                                    path, ln, cur->name, sk_key_names[k]);
                    else {
                        val[vl - 1] = '\0';
                        val = eb_trim(val);
                        cur->key_line[k] = ln;
                        if (!*val)
                            rc = KERR(&kc, "missing value");
                        else
                            rc = set_key(&kc, val);
                    }
                }
            }
        } else if (!strcmp(line, "{")) {
            if (!have_pending)
                rc = eb_err(err, errlen, "%s:%d: '{' without a suite name before it", path, ln);
            else {
                if (c->nsuites == cap) {
                    cap = cap ? 2 * cap : 16;
                    c->suites = eb_realloc(c->suites, (size_t)cap * sizeof *c->suites);
                }
                cur = &c->suites[c->nsuites++];
                *cur = pending;
                have_pending = 0;
            }
        } else if (line[0] == '@' || line[0] == '}' || strchr(line, '=') || strchr(line, '{') ||
                   strchr(line, ' ') || strchr(line, '\t') || strchr(line, '"')) {
            rc = eb_err(err, errlen, "%s:%d: expected a suite name or '{', got '%s'", path, ln, line);
        } else if (have_pending) {
            rc = eb_err(err, errlen, "%s:%d: suite '%s' has no '{' block", path, pending.line,
                        pending.name);
        } else {
            if (strlen(line) >= sizeof pending.name)
                rc = eb_err(err, errlen, "%s:%d: suite name longer than %zu characters", path, ln,
                            sizeof pending.name - 1);
            for (int i = 0; !rc && i < c->nsuites; i++)
                if (!strcmp(c->suites[i].name, line))
                    rc = eb_err(err, errlen, "%s:%d: suite '%s' is defined twice (first on line %d)",
                                path, ln, line, c->suites[i].line);
            if (!rc) {
                suite_defaults(&pending);
                copy(pending.name, sizeof pending.name, line);
                pending.line = ln;
                have_pending = 1;
            }
        }
        free(buf);
        if (rc) {
            sk_config_free(c);
            return -1;
        }
    }
    int rc = 0;
    if (cur)
        rc = eb_err(err, errlen, "%s:%d: suite '%s': missing '}' at the end of the file", path,
                    cur->line, cur->name);
    else if (have_pending)
        rc = eb_err(err, errlen, "%s:%d: suite '%s' has no '{' block", path, pending.line, pending.name);
    else if (!in_meas)
        rc = eb_err(err, errlen, "%s:%d: no @MEASUREMENTS section", path, ln);
    else if (c->nsuites == 0)
        rc = eb_err(err, errlen, "%s:%d: @MEASUREMENTS lists no suites", path, ln);
    if (rc)
        sk_config_free(c);
    return rc;
}

void sk_config_free(sk_config *c)
{
    free(c->suites);
    c->suites = NULL;
    c->nsuites = 0;
}
