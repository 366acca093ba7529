/* The statistics and the output of `effbench guidelines` (gl_report.h). */
#include "core/component_names.h"
#include "core/error.h"
#include "core/json.h"
#include "core/ranktest.h"
#include "core/report/jsonl.h"
#include "guidelines/gl_report.h"

#include <math.h>
#include <stdlib.h>

void gl_table_make(gl_table *t, const gl_options *o)
{
    t->ncells = o->ncolls * o->nsizes;
    t->cells = eb_calloc((size_t)t->ncells, sizeof *t->cells);
    t->rounds = o->rounds;
    for (int c = 0; c < o->ncolls; c++)
        for (int s = 0; s < o->nsizes; s++) {
            gl_cell *cell = &t->cells[c * o->nsizes + s];
            cell->coll = o->colls[c];
            cell->bytes = o->sizes[s];
        }
}

void gl_cell_set_variants(gl_cell *c, const gl_bufs *b, int rounds)
{
    c->nvar = gl_variant_count(b);
    for (int v = 0; v < c->nvar; v++) {
        c->names[v] = gl_variant_name(b, v);
        c->times[v] = eb_calloc((size_t)rounds, sizeof(double));
    }
}

void gl_table_stats(gl_table *t, double alpha)
{
    int n = t->rounds, k = 0;
    t->alpha = alpha;
    t->ncmp = 0;
    for (int i = 0; i < t->ncells; i++)
        t->ncmp += t->cells[i].nvar - 1;
    double *p = eb_calloc((size_t)t->ncmp + 1, sizeof *p);
    for (int i = 0; i < t->ncells; i++) {
        gl_cell *c = &t->cells[i];
        for (int v = 0; v < c->nvar; v++)
            c->median[v] = eb_rank_median(c->times[v], n);
        for (int v = 1; v < c->nvar; v++) {
            /* B = the library's times, A = the mock-up's: is the library slower? */
            c->p[v] = eb_rank_p_greater(c->times[v], n, c->times[0], n, &c->exact[v]);
            c->factor[v] = c->median[0] / c->median[v];
            eb_rank_ratio_interval(c->times[v], n, c->times[0], n, 1 - alpha, &c->lo[v],
                                   &c->hi[v]);
            p[k++] = c->p[v];
        }
    }
    eb_holm(p, t->ncmp, p);
    k = 0;
    t->violated = 0;
    for (int i = 0; i < t->ncells; i++) {
        gl_cell *c = &t->cells[i];
        for (int v = 1; v < c->nvar; v++) {
            c->p_holm[v] = p[k++];
            c->violated[v] = c->p_holm[v] <= alpha;
            t->violated += c->violated[v];
        }
    }
    free(p);
}

long gl_table_defects(const gl_table *t)
{
    long d = 0;
    for (int i = 0; i < t->ncells; i++)
        for (int v = 0; v < t->cells[i].nvar; v++)
            d += t->cells[i].defects[v];
    return d;
}

static void record(const gl_cell *c, int v, const gl_table *t, const gl_options *o, int procs)
{
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_GUIDELINES);
    eb_json_str(&j, "benchmark", gl_coll_name(c->coll));
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", procs);
    eb_json_int(&j, "bytes", c->bytes);
    eb_json_int(&j, "repetitions", o->reps);
    double lo = c->times[0][0], hi = lo, sum = 0; /* the collective's times over the rounds */
    for (int r = 0; r < t->rounds; r++) {
        lo = c->times[0][r] < lo ? c->times[0][r] : lo;
        hi = c->times[0][r] > hi ? c->times[0][r] : hi;
        sum += c->times[0][r];
    }
    eb_json_num(&j, "t_min_us", lo * 1e6);
    eb_json_num(&j, "t_max_us", hi * 1e6);
    eb_json_num(&j, "t_avg_us", sum / t->rounds * 1e6);
    eb_json_str(&j, "methodology", GL_METHODOLOGY);
    eb_json_str(&j, "mockup", c->names[v]);
    eb_json_int(&j, "rounds", t->rounds);
    eb_json_num(&j, "t_median_us", c->median[0] * 1e6);
    eb_json_num(&j, "t_mockup_median_us", c->median[v] * 1e6);
    eb_json_num(&j, "factor", c->factor[v]);
    eb_json_num(&j, "factor_low", c->lo[v]);
    eb_json_num(&j, "factor_high", c->hi[v]);
    eb_json_num(&j, "confidence", 1 - t->alpha);
    eb_json_num(&j, "p", c->p[v]);
    eb_json_str(&j, "p_method", c->exact[v] ? "exact" : "normal");
    eb_json_num(&j, "p_holm", c->p_holm[v]);
    eb_json_num(&j, "alpha", t->alpha);
    eb_json_int(&j, "comparisons", t->ncmp);
    eb_json_bool(&j, "violated", c->violated[v]);
    if (o->check)
        eb_json_int(&j, "defects", c->defects[0] + c->defects[v]);
    else
        eb_json_null(&j, "defects");
    eb_json_null(&j, "mbytes_per_s");
    eb_jsonl_emit(&j);
}

void gl_report(const gl_table *t, const gl_options *o, int procs)
{
    printf("# effbench guidelines: %d processes, %d rounds, %d repetitions per time, seed %lu\n"
           "# one-sided rank-sum test per comparison, Holm over %d comparisons, alpha %g;\n"
           "# factor = median(collective) / median(mock-up), [%g%% interval, Hodges-Lehmann]\n",
           procs, t->rounds, o->reps, o->seed, t->ncmp, t->alpha, 100 * (1 - t->alpha));
    printf("%-26s %9s %-44s %12s %12s %8s %21s %9s %s\n", "collective", "bytes", "mock-up",
           "t_coll[us]", "t_mock[us]", "factor", "interval", "p_holm", "verdict");
    for (int i = 0; i < t->ncells; i++) {
        const gl_cell *c = &t->cells[i];
        for (int v = 1; v < c->nvar; v++) {
            char ci[64];
            if (isnan(c->lo[v]))
                snprintf(ci, sizeof ci, "[too few rounds]");
            else
                snprintf(ci, sizeof ci, "[%.3g, %.3g]", c->lo[v], c->hi[v]);
            printf("%-26s %9ld %-44s %12.2f %12.2f %8.3f %21s %9.3g %s\n", gl_coll_name(c->coll),
                   c->bytes, c->names[v], c->median[0] * 1e6, c->median[v] * 1e6, c->factor[v],
                   ci, c->p_holm[v], c->violated[v] ? "VIOLATED" : "ok");
            if (eb_jsonl_active())
                record(c, v, t, o, procs);
        }
    }
    if (o->check)
        printf("# -check: %ld defects\n", gl_table_defects(t));
    printf("# %d of %d guidelines violated\n", t->violated, t->ncmp);
    fflush(stdout);
}

void gl_table_free(gl_table *t)
{
    for (int i = 0; i < t->ncells; i++)
        for (int v = 0; v < t->cells[i].nvar; v++)
            free(t->cells[i].times[v]);
    free(t->cells);
    t->cells = NULL;
    t->ncells = 0;
}
