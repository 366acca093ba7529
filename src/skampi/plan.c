#include "skampi/plan.h"

#include "core/error.h"
#include "skampi/datatypes.h"
#include "skampi/instances.h"
#include "skampi/suite_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The largest length whose buffers fit @MEMORY: `spread` is the bytes of
 * buffer per data byte of the suite's datatype patterns (both buffers hold
 * either layout: Bcast and the master-worker workers receive into one). */
static long max_length(const sk_env *e, const sk_instance *in, int procs, long quantum,
                       double spread)
{
    double s, r;
    sk_instance_memory(in, 1.0, procs, &s, &r);
    double f = fmax(s, r) * spread;
    long m = (long)floor((double)e->half / f);
    return m / quantum * quantum;
}

int sk_plan_make(const sk_env *e, const sk_config *cfg, const sk_suite *s, sk_plan *p, char *err,
                 size_t errlen)
{
    const sk_instance *in = sk_instance_find(s->type);
    memset(p, 0, sizeof *p);
    int P = e->wsize, ts = 0;
    sk_basetype bt;
    char why[EB_ERRLEN];
    if (sk_basetype_parse(cfg->basetype[s->basetype], &bt, why, sizeof why))
        return sk_suite_err(cfg, s, SK_BASETYPE_NUMBER, err, errlen, "%s", why);
    /* a message is a whole number of elements of both patterns (the
     * configuration checked that Multiple_of is) */
    ts = (int)fmax(sk_dt_unit(&bt, s->send_datatype), sk_dt_unit(&bt, s->recv_datatype));
    double spread = fmax(sk_dt_spread(&bt, s->send_datatype), sk_dt_spread(&bt, s->recv_datatype));
    long quantum = s->multiple_of ? s->multiple_of : ts;
    if (s->sync == SK_SYNC_WINDOW && in->pattern != SK_COLLECTIVE)
        return sk_suite_err(cfg, s, SK_SYNCHRONIZATION, err, errlen,
                            "Window applies to the collective pattern only (type %d is %s)", s->type,
                            sk_pattern_name(in->pattern));
    p->var = s->variation;
    p->procs = in->pattern == SK_PINGPONG ? 2 : in->pattern == SK_SIMPLE ? 1 : P;
    int min_procs = in->pattern == SK_COLLECTIVE ? 1 : in->pattern == SK_SIMPLE ? 1 : 2;
    if (P < min_procs) {
        p->skip = 1;
        snprintf(p->why, sizeof p->why, "the %s pattern needs at least %d processes",
                 sk_pattern_name(in->pattern), min_procs);
    }
    /* instances without a message (Barrier, Comm_split, simple) send 0 bytes */
    p->count = (in->flags & SK_I_NO_BYTES) ? 0 : (s->default_length / quantum) * quantum / bt.size;
    p->chunks = s->default_chunks > 0 ? s->default_chunks : (P > 1 ? P - 1 : 1);
    sk_grid *g = &p->grid;
    g->log_scale = s->scale == SK_FIXED_LOG || s->scale == SK_DYNAMIC_LOG;
    g->dynamic = s->scale == SK_DYNAMIC_LINEAR || s->scale == SK_DYNAMIC_LOG;
    g->step = s->stepwidth;
    g->min_distance = s->min_distance;
    g->max_distance = s->max_distance;
    g->max_steps = s->max_steps;
    g->eps = s->standard_error;
    g->quantum = 1;
    switch (s->variation) {
    case SK_VAR_NONE:
        g->start = g->end = 0;
        g->log_scale = g->dynamic = 0;
        g->step = 1;
        break;
    case SK_VAR_LENGTH: {
        g->quantum = (double)quantum;
        long maxl = max_length(e, in, p->procs, quantum, spread);
        g->start = s->start >= 0 ? s->start : 0;
        if (s->end_is_max)
            g->end = (double)maxl;
        else if (s->end > (double)maxl)
            return sk_suite_err(cfg, s, SK_END_ARGUMENT, err, errlen,
                                "%.0f bytes do not fit the buffers of @MEMORY %ld KB "
                                "(at most %ld bytes for type %d on %d processes)",
                                s->end, cfg->memory_kb, maxl, s->type, p->procs);
        else
            g->end = s->end;
        if (g->start > g->end)
            return sk_suite_err(cfg, s, SK_START_ARGUMENT, err, errlen,
                                "%.0f is above the largest length %.0f", g->start, g->end);
        break;
    }
    case SK_VAR_NODES:
        g->start = s->start >= 0 ? s->start : (P < 2 ? 1 : 2);
        if (g->start < min_procs)
            return sk_suite_err(cfg, s, SK_START_ARGUMENT, err, errlen,
                                "the %s pattern needs at least %d processes",
                                sk_pattern_name(in->pattern), min_procs);
        g->end = s->end_is_max ? P : s->end;
        if (g->end > P)
            return sk_suite_err(cfg, s, SK_END_ARGUMENT, err, errlen,
                                "%.0f processes, but this run has %d", g->end, P);
        if (g->start > g->end && !p->skip)
            return sk_suite_err(cfg, s, SK_START_ARGUMENT, err, errlen,
                                "%.0f processes, but this run has %d", g->start, P);
        if (p->count * bt.size > max_length(e, in, P, ts, spread))
            return sk_suite_err(cfg, s, SK_DEFAULT_MESSAGE_LENGTH, err, errlen,
                                "%ld bytes do not fit the buffers of @MEMORY %ld KB on %d processes",
                                p->count * bt.size, cfg->memory_kb, P);
        break;
    case SK_VAR_CHUNKS:
        g->start = s->start >= 0 ? s->start : 1;
        if (g->start < 1)
            return sk_suite_err(cfg, s, SK_START_ARGUMENT, err, errlen, "at least 1 chunk");
        if (s->end_is_max)
            return sk_suite_err(cfg, s, SK_END_ARGUMENT, err, errlen,
                                "Max_Value is not defined for Chunks: give a number");
        g->end = s->end;
        if (p->count * bt.size > max_length(e, in, P, ts, spread))
            return sk_suite_err(cfg, s, SK_DEFAULT_MESSAGE_LENGTH, err, errlen,
                                "%ld bytes do not fit the buffers of @MEMORY %ld KB",
                                p->count * bt.size, cfg->memory_kb);
        break;
    }
    if (!g->log_scale && g->step < g->quantum && s->variation != SK_VAR_NONE)
        g->step = g->quantum;
    return 0;
}
