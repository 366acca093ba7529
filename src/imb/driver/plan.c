#include "imb/driver/plan.h"

#include "core/error.h"
#include "core/registry.h"
#include "imb/driver/gpu.h"
#include "imb/driver/imb2021_defaults.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/large_rows.h"
#include "imb/driver/msg_layout.h"
#include "imb/driver/procsets.h"
#include "imb/driver/repeat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const eb_bench *eb_find_bench(const char *component, const char *name, int *multi)
{
    *multi = 0;
    if (strncasecmp(name, "Multi-", 6) == 0) {
        *multi = 1;
        name += 6;
    }
    int n = eb_bench_count(component);
    for (int i = 0; i < n; i++) {
        const eb_bench *b = eb_bench_at(component, i);
        if (strcasecmp(b->name, name) == 0)
            return (*multi && (b->flags & EB_F_NO_MULTI)) ? NULL : b;
    }
    return NULL;
}

/* ---- which benchmarks, in which mode ------------------------------------- */

static int in_list(char **names, int n, const char *component, const eb_bench *b)
{
    for (int i = 0; i < n; i++) {
        int m;
        if (eb_find_bench(component, names[i], &m) == b)
            return 1;
    }
    return 0;
}

static void unknown_name(const eb_imb_options *o, const char *name)
{
    char msg[EB_ERRLEN];
    int n = eb_bench_count(o->family->component), len;
    len = snprintf(msg, sizeof msg, "unknown benchmark '%s' for %s; known:", name, o->family->program);
    for (int i = 0; i < n && len < (int)sizeof msg; i++)
        if (eb_imb_gpu_has(o, eb_bench_at(o->family->component, i)))
            len += snprintf(msg + len, sizeof msg - (size_t)len, " %s",
                            eb_bench_at(o->family->component, i)->name);
    eb_exit_all(EB_EXIT_USAGE, msg);
}

static void refuse_unknown(const eb_imb_options *o, char **names, int n)
{
    int m;
    for (int i = 0; i < n; i++) {
        const eb_bench *b = eb_find_bench(o->family->component, names[i], &m);
        if (!b || !eb_imb_gpu_has(o, b)) /* IMB-RMA-GPU knows two fewer */
            unknown_name(o, names[i]);
    }
}

eb_plan eb_make_plan(const eb_imb_options *o)
{
    const char *comp = o->family->component;
    int total = eb_bench_count(comp);
    eb_plan p = {eb_calloc((size_t)total, sizeof *p.list), eb_calloc((size_t)total, sizeof *p.multi), 0};
    int m;
    refuse_unknown(o, o->names, o->nnames);
    refuse_unknown(o, o->include, o->ninclude);
    refuse_unknown(o, o->exclude, o->nexclude);
    /* named benchmarks run in command-line order, as IMB runs them; then
     * the component's list order for the default set and -include.  IMB
     * 2021.11 (src_cpp/imb.cpp) puts the -include'd ones first, in their
     * command-line order: so does --imb-defaults 2021 */
    const eb_bench **candidates =
        eb_calloc((size_t)(o->ninclude + o->nnames + total), sizeof *candidates);
    int nc = 0;
    for (int k = 0; o->imb21.defaults2021 && k < o->ninclude; k++)
        candidates[nc++] = eb_find_bench(comp, o->include[k], &m);
    for (int k = 0; k < o->nnames; k++)
        candidates[nc++] = eb_find_bench(comp, o->names[k], &m);
    for (int i = 0; i < total; i++)
        candidates[nc++] = eb_bench_at(comp, i);
    for (int c = 0; c < nc; c++) {
        const eb_bench *b = candidates[c];
        int named = 0, named_multi = 0, planned = 0;
        for (int k = 0; k < o->nnames; k++)
            if (eb_find_bench(comp, o->names[k], &m) == b) {
                named = 1;
                named_multi |= m;
            }
        for (int i = 0; i < p.n; i++)
            planned |= p.list[i] == b;
        int take = o->nnames > 0 ? named : eb_imb_runs_by_default(o, b);
        take |= in_list(o->include, o->ninclude, comp, b);
        if (in_list(o->exclude, o->nexclude, comp, b) || planned || !eb_imb_gpu_has(o, b))
            take = 0;
        if (!take)
            continue;
        p.list[p.n] = b;
        if (b->flags & EB_F_NO_MULTI)
            p.multi[p.n] = -1;
        else
            p.multi[p.n] = o->multi >= 0 ? o->multi : named_multi ? 0 : -1;
        p.n++;
    }
    free(candidates);
    if (p.n == 0)
        eb_exit_all(EB_EXIT_USAGE, "no benchmark left to run after -include/-exclude");
    return p;
}

void eb_plan_free(eb_plan *p)
{
    free(p->list);
    free(p->multi);
    memset(p, 0, sizeof *p);
}

/* ---- the tables of a benchmark --------------------------------------------- */

int eb_plan_procsets(const eb_imb_options *o, const eb_bench *b, int P, int *qs, int *need)
{
    *need = 0;
    if (b->fixed_procs > 0) {
        if (P < b->fixed_procs) {
            *need = b->fixed_procs;
            return 0;
        }
        qs[0] = b->fixed_procs;
        return 1;
    }
    if (P < b->min_procs) {
        *need = b->min_procs;
        return 0;
    }
    int nq = eb_procs_list(P, o->npmin, qs, EB_MAX_PROCSETS), k = 0;
    for (int i = 0; i < nq; i++) /* -npmin's sets below min_procs; Uniband, Biband: even */
        if (qs[i] >= b->min_procs && !((b->flags & EB_F_EVEN_PROCS) && qs[i] % 2))
            qs[k++] = qs[i];
    return k;
}

int eb_plan_modes(const eb_imb_options *o, const eb_bench *b, const char *modes[2])
{
    modes[0] = modes[1] = NULL;
    if (b->flags & EB_F_MODES) {
        int nonaggr_first = (b->flags & EB_F_NONAGGR_FIRST) != 0;
        modes[nonaggr_first] = "aggregate";
        modes[!nonaggr_first] = "non-aggregate";
        int n = eb_imb2021_nmodes(o);
        if (n == 1)
            modes[0] = eb_imb2021_only_mode(o); /* -aggregate_mode */
        return n;
    }
    if (b->flags & EB_F_AGGR_ONLY)
        modes[0] = "aggregate";
    else if (b->flags & EB_F_NONAGGR_ONLY)
        modes[0] = (b->flags & EB_F_AGGR_IN_2021) && o->imb21.defaults2021 ? "aggregate"
                                                                            : "non-aggregate";
    return 1;
}

int eb_plan_aggregate(const eb_bench *b, const char *mode)
{
    return mode ? strcmp(mode, "aggregate") == 0 : !(b->flags & EB_F_NONAGGR_COUNTS);
}

eb_sizes eb_plan_sizes(const eb_imb_options *o, const eb_bench *b)
{
    eb_sizes s = {0};
    size_t unit = eb_imb_unit(o, b);
    if (b->flags & EB_F_NO_BYTES || b->fixed_bytes > 0) {
        s.v = eb_malloc(sizeof *s.v);
        s.v[0] = b->fixed_bytes;
        s.n = 1;
    } else if (o->msglen.n > 0) {
        s.v = eb_malloc((size_t)o->msglen.n * sizeof *s.v);
        for (int i = 0; i < o->msglen.n; i++) {
            size_t x = o->msglen.v[i] - o->msglen.v[i] % unit;
            int dup = 0;
            for (int k = 0; k < s.n; k++)
                dup |= s.v[k] == x;
            if (!dup)
                s.v[s.n++] = x;
        }
    } else {
        eb_sizes_msglog(o->msglog_min, o->msglog_max, unit, &s);
        eb_imb2021_trim_sizes(o, &s);
    }
    return s;
}

double eb_plan_buffer_bytes(const eb_imb_options *o, const eb_bench *b, int procs,
                            int aggregate, size_t x)
{
    size_t s_len, r_len, st;
    long sl;
    eb_layout_extents(o, b, x, procs, &s_len, &r_len);
    long base = eb_n_sample_base(&o->iter, x, aggregate);
    double total = 0;
    eb_buf_geometry(s_len, base, &o->cache, &st, &sl);
    total += (double)st * (double)(sl - 1) + (double)s_len;
    eb_buf_geometry(r_len, base, &o->cache, &st, &sl);
    total += (double)st * (double)(sl - 1) + (double)r_len;
    return total;
}

int eb_plan_lengths_that_fit(const eb_imb_options *o, const eb_bench *b, int procs,
                             int aggregate, const eb_sizes *s)
{
    int n = 0;
    while (n < s->n &&
           eb_plan_buffer_bytes(o, b, procs, aggregate, s->v[n]) <= o->mem_gb * 1073741824.0)
        n++;
    return n;
}

/* Calls visit for every benchmark, process set and mode of the plan with the
 * lengths that run there (the first `fit` of s), and sums what it returns. */
typedef long (*plan_visit)(const eb_imb_options *o, const eb_bench *b, int procs, int groups,
                           const eb_sizes *s, int fit);

static long plan_walk(const eb_imb_options *o, const eb_plan *p, int P, plan_visit visit)
{
    long sum = 0;
    for (int i = 0; i < p->n; i++) {
        const eb_bench *b = p->list[i];
        int qs[EB_MAX_PROCSETS], need;
        int nq = eb_plan_procsets(o, b, P, qs, &need);
        const char *modes[2];
        int nmodes = eb_plan_modes(o, b, modes);
        eb_sizes s = eb_plan_sizes(o, b);
        for (int k = 0; k < nq; k++) {
            int groups = p->multi[i] == 1 ? P / qs[k] : 1; /* -multi 1: a row per group */
            for (int m = 0; m < nmodes; m++)
                sum += visit(o, b, qs[k], groups, &s,
                             eb_plan_lengths_that_fit(o, b, qs[k],
                                                      eb_plan_aggregate(b, modes[m]), &s));
        }
        eb_sizes_free(&s);
    }
    return sum;
}

static long count_rows(const eb_imb_options *o, const eb_bench *b, int procs, int groups,
                       const eb_sizes *s, int fit)
{
    (void)o, (void)b, (void)procs, (void)s;
    return (long)groups * fit;
}

long eb_planned_rows(const eb_imb_options *o, const eb_plan *p, int P)
{
    return plan_walk(o, p, P, count_rows);
}

static long refuse_large(const eb_imb_options *o, const eb_bench *b, int procs, int groups,
                         const eb_sizes *s, int fit)
{
    char msg[EB_ERRLEN];
    (void)groups;
    for (int j = 0; j < fit; j++)
        if (eb_large_count_refusal(o, b, s->v[j], procs, msg, sizeof msg) != 0)
            eb_exit_all(EB_EXIT_USAGE, msg);
    return 0;
}

void eb_plan_refuse_large_counts(const eb_imb_options *o, const eb_plan *p, int P)
{
    plan_walk(o, p, P, refuse_large);
}
