/* A suite's keys (SKaMPI paper, Figure 1): their names, defaults and
 * values, and the checks that need the whole suite (skampi/suite_keys.h). */
#include "skampi/suite_keys.h"

#include "core/error.h"
#include "skampi/datatypes.h"
#include "skampi/instances.h"

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

void sk_suite_defaults(sk_suite *s)
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

/* A word of a key's list (any case) sets *out to its value; Default_Value
 * keeps the default. */
typedef struct {
    const char *word;
    int value;
} word_value;

static int get_word(keyctx *kc, const char *v, const word_value *list, int n,
                    const char *expected, int *out)
{
    double d = 0;
    if (classify(v, &d) == V_DEFAULT)
        return 0;
    for (int i = 0; i < n; i++)
        if (!strcasecmp(v, list[i].word)) {
            *out = list[i].value;
            return 0;
        }
    return KERR(kc, "'%s' is not %s", v, expected);
}

static const word_value variations[] = {
    {"Length", SK_VAR_LENGTH}, {"Nodes", SK_VAR_NODES}, {"Chunks", SK_VAR_CHUNKS}, {"None", SK_VAR_NONE}};
static const word_value scales[] = {{"Fixed_linear", SK_FIXED_LINEAR},
                                    {"Fixed_log", SK_FIXED_LOG},
                                    {"Dynamic_linear", SK_DYNAMIC_LINEAR},
                                    {"Dynamic_log", SK_DYNAMIC_LOG}};
static const word_value yes_no[] = {{"yes", 1}, {"no", 0}};
static const word_value syncs[] = {{"Barrier", SK_SYNC_BARRIER}, {"Window", SK_SYNC_WINDOW}};
#define NWORDS(list) ((int)(sizeof list / sizeof list[0]))

/* The keys whose value is a word: Variation, Scale, Node_Times, Synchronization. */
static int set_word_key(keyctx *kc, const char *v)
{
    sk_suite *s = kc->s;
    int x;
    switch (kc->k) {
    case SK_VARIATION:
        x = s->variation;
        if (get_word(kc, v, variations, NWORDS(variations), "Length, Nodes, Chunks or None", &x))
            return -1;
        s->variation = (enum sk_variation)x;
        return 0;
    case SK_SCALE:
        x = s->scale;
        if (get_word(kc, v, scales, NWORDS(scales),
                     "Fixed_linear, Fixed_log, Dynamic_linear or Dynamic_log", &x))
            return -1;
        s->scale = (enum sk_scale)x;
        return 0;
    case SK_NODE_TIMES:
        return get_word(kc, v, yes_no, NWORDS(yes_no), "yes or no", &s->node_times);
    default: /* SK_SYNCHRONIZATION */
        x = s->sync;
        if (get_word(kc, v, syncs, NWORDS(syncs), "Barrier or Window", &x))
            return -1;
        s->sync = (enum sk_sync)x;
        return 0;
    }
}

/* The keys that number something: Type, Basetype_Number and the datatype
 * patterns. */
static int set_number_key(keyctx *kc, const char *v)
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
    default: { /* SK_SEND_DATATYPE_NUMBER, SK_RECEIVE_DATATYPE_NUMBER */
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
    }
}

static int set_key(keyctx *kc, const char *v)
{
    sk_suite *s = kc->s;
    double d = 0;
    enum vform f = classify(v, &d);
    switch (kc->k) {
    case SK_TYPE:
    case SK_BASETYPE_NUMBER:
    case SK_SEND_DATATYPE_NUMBER:
    case SK_RECEIVE_DATATYPE_NUMBER: return set_number_key(kc, v);
    case SK_VARIATION:
    case SK_SCALE:
    case SK_NODE_TIMES:
    case SK_SYNCHRONIZATION: return set_word_key(kc, v);
    case SK_MAX_REPETITION: return get_long(kc, v, 1, &s->max_rep);
    case SK_MIN_REPETITION: return get_long(kc, v, 1, &s->min_rep);
    case SK_MULTIPLE_OF: return get_long(kc, v, 1, &s->multiple_of);
    case SK_TIME_MEASUREMENT: return get_limit(kc, v, &s->time_measurement);
    case SK_TIME_SUITE: return get_limit(kc, v, &s->time_suite);
    case SK_CUT_QUANTILE:
        if (get_double(kc, v, 0, 0.5, 0, &s->cut_quantile))
            return -1;
        if (s->cut_quantile >= 0.5)
            return KERR(kc, "%s must be below 0.5", v);
        return 0;
    case SK_DEFAULT_CHUNKS: return get_long(kc, v, 0, &s->default_chunks);
    case SK_DEFAULT_MESSAGE_LENGTH: return get_long(kc, v, 0, &s->default_length);
    case SK_START_ARGUMENT: return get_double(kc, v, 0, 1e15, 0, &s->start);
    case SK_END_ARGUMENT:
        if (f == V_DEFAULT || f == V_MAX) {
            s->end_is_max = 1;
            return 0;
        }
        if (get_double(kc, v, 0, 1e15, 0, &s->end))
            return -1;
        s->end_is_max = 0;
        return 0;
    case SK_STEPWIDTH: return get_double(kc, v, 0, 1e15, 1, &s->stepwidth);
    case SK_MAX_STEPS:
        if (get_long(kc, v, 1, &s->max_steps))
            return -1;
        if (s->max_steps > SK_MAX_STEPS_LIMIT)
            return KERR(kc, "%s is above the limit of %ld measurements", v, SK_MAX_STEPS_LIMIT);
        return 0;
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
    case SK_STANDARD_ERROR: return get_double(kc, v, 0, 1, 1, &s->standard_error);
    case SK_NKEYS: break;
    }
    return KERR(kc, "internal: unhandled key");
}

int sk_suite_set_key(const sk_config *c, sk_suite *s, enum sk_key k, const char *value, char *err,
                     size_t errlen)
{
    keyctx kc = {c, s, k, err, errlen};
    if (!*value)
        return KERR(&kc, "missing value");
    return set_key(&kc, value);
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

int sk_suite_check(const sk_config *c, sk_suite *s, char *err, size_t errlen)
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
