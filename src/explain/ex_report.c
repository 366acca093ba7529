/* What `effbench explain` reports of a size (rank 0): each method's value
 * (the median over the rounds of its per-round values) and spread (their
 * minimum and maximum), the reference's value, and the shares of the
 * factors, each the measured difference between consecutive rows of the
 * method's chain; the unexplained remainder is the method's value minus
 * the chain's last row.  Shares plus remainder are the difference by
 * construction.  A value with no valid round is not a number: the shares
 * that need it print as n/a, never as an estimate. */
#include "core/component_names.h"
#include "core/report/jsonl.h"
#include "explain/ex.h"

#include <math.h>
#include <stdlib.h>

double ex_row_value(const ex_table *t, int row, double *lo, double *hi)
{
    double *v = malloc(sizeof *v * (size_t)t->rounds);
    long n = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int r = 0; r < t->rounds; r++) {
        double x = t->vals[row * t->rounds + r];
        if (!isfinite(x))
            continue;
        v[n++] = x;
        *lo = fmin(*lo, x);
        *hi = fmax(*hi, x);
    }
    double m = ex_statistic(EX_STAT_MEDIAN, v, n);
    free(v);
    if (!n)
        *lo = *hi = NAN;
    return m;
}

static double value_of(const ex_table *t, int row)
{
    double lo, hi;
    return ex_row_value(t, row, &lo, &hi);
}

/* the shares of method m's factors (NaN where its chain has none), and the remainder */
static double shares(const ex_table *t, int m, double share[EX_NFACTORS],
                     int present[EX_NFACTORS])
{
    double prev = value_of(t, t->reference);
    for (int f = 0; f < EX_NFACTORS; f++) {
        share[f] = NAN;
        present[f] = 0;
    }
    for (int k = 0; k < t->nchain[m]; k++) {
        double v = value_of(t, t->chain[m][k]);
        share[t->which[m][k]] = v - prev;
        present[t->which[m][k]] = 1;
        prev = v;
    }
    return value_of(t, m) - prev;
}

static void cell(FILE *f, int width, double v, int present)
{
    if (!present)
        fprintf(f, " %*s", width, "-");
    else if (!isfinite(v))
        fprintf(f, " %*s", width, "n/a");
    else
        fprintf(f, " %*.2f", width, v * 1e6);
}

static void text_header(FILE *f, const ex_table *t, const ex_options *o)
{
    fprintf(f, "#----------------------------------------------------------------\n");
    fprintf(f, "# explain %s: %ld bytes, %d processes, %ld calls per row and round, %d rounds, "
               "seed %u\n", ex_op_name(o->op), t->size, t->procs, t->reps, t->rounds, o->seed);
    fprintf(f, "# reference: %s; window %.1f us per call; times in us\n",
            t->methods[t->reference].name, t->window_s * 1e6);
    fprintf(f, "#----------------------------------------------------------------\n");
    fprintf(f, "%-18s %10s %10s %10s %11s %10s %10s", "#method", "value", "min", "max",
            "invalid", "reference", "difference");
    for (int k = 0; k < EX_NFACTORS; k++)
        fprintf(f, " %10s", ex_factor_name((ex_factor)k));
    fprintf(f, " %11s\n", "unexplained");
}

void ex_report_text(FILE *f, const ex_table *t, const ex_options *o)
{
    text_header(f, t, o);
    double ref = value_of(t, t->reference);
    for (int m = 0; m < t->nmethods; m++) {
        double lo, hi, v = ex_row_value(t, m, &lo, &hi), share[EX_NFACTORS];
        int present[EX_NFACTORS];
        double rest = shares(t, m, share, present);
        char inv[32];
        snprintf(inv, sizeof inv, "%ld/%ld", t->invalid[m], t->regions[m]);
        fprintf(f, "%-18s", t->methods[m].name);
        cell(f, 10, v, 1);
        cell(f, 10, lo, 1);
        cell(f, 10, hi, 1);
        fprintf(f, " %11s", inv);
        cell(f, 10, ref, 1);
        cell(f, 10, v - ref, 1);
        for (int k = 0; k < EX_NFACTORS; k++)
            cell(f, 10, share[k], present[k]);
        cell(f, 11, rest, 1);
        fprintf(f, "\n");
    }
    for (int m = 0; m < t->nmethods; m++) {
        if (m == t->reference)
            continue;
        fprintf(f, "# %s (%s):", t->methods[m].name, t->methods[m].title);
        const ex_config *a = &t->methods[t->reference].c, *b = &t->methods[m].c;
        for (int k = 0; k < t->nchain[m]; k++) {
            ex_factor x = t->which[m][k];
            fprintf(f, "%s %s %s->%s", k ? "," : "", ex_factor_name(x),
                    ex_value_name(x, a->v[x]), ex_value_name(x, b->v[x]));
        }
        fprintf(f, "%s\n", t->nchain[m] ? "" : " the reference's factors");
    }
    fflush(f);
}

/* the factor rows of method m: one object each in the open array */
static void json_chain(eb_json *j, const ex_table *t, int m)
{
    const ex_config *a = &t->methods[t->reference].c, *b = &t->methods[m].c;
    double prev = value_of(t, t->reference);
    for (int k = 0; k < t->nchain[m]; k++) {
        int row = t->chain[m][k];
        ex_factor x = t->which[m][k];
        double v = value_of(t, row);
        eb_json_object(j, NULL);
        eb_json_str(j, "factor", ex_factor_name(x));
        eb_json_str(j, "from", ex_value_name(x, a->v[x]));
        eb_json_str(j, "to", ex_value_name(x, b->v[x]));
        eb_json_num(j, "value_us", v * 1e6);
        eb_json_num(j, "share_us", (v - prev) * 1e6);
        eb_json_int(j, "invalid", t->invalid[row]);
        eb_json_int(j, "regions", t->regions[row]);
        eb_json_close(j);
        prev = v;
    }
}

static void json_method(const ex_table *t, const ex_options *o, int m)
{
    double lo, hi, v = ex_row_value(t, m, &lo, &hi), ref = value_of(t, t->reference);
    double share[EX_NFACTORS];
    int present[EX_NFACTORS];
    double rest = shares(t, m, share, present);
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_EXPLAIN);
    eb_json_str(&j, "benchmark", ex_op_name(o->op));
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", t->procs);
    eb_json_int(&j, "bytes", t->size);
    eb_json_int(&j, "repetitions", t->reps);
    eb_json_num(&j, "t_min_us", lo * 1e6);
    eb_json_num(&j, "t_max_us", hi * 1e6);
    eb_json_null(&j, "t_avg_us");
    eb_json_null(&j, "mbytes_per_s");
    eb_json_null(&j, "defects");
    eb_json_str(&j, "methodology", EX_METHODOLOGY);
    eb_json_str(&j, "method", t->methods[m].name);
    eb_json_str(&j, "title", t->methods[m].title);
    eb_json_str(&j, "reference", t->methods[t->reference].name);
    eb_json_int(&j, "rounds", t->rounds);
    eb_json_num(&j, "window_us", t->window_s * 1e6);
    eb_json_num(&j, "value_us", v * 1e6);
    eb_json_array(&j, "round_values_us");
    for (int r = 0; r < t->rounds; r++)
        eb_json_num(&j, NULL, t->vals[m * t->rounds + r] * 1e6);
    eb_json_close(&j);
    eb_json_num(&j, "reference_us", ref * 1e6);
    eb_json_num(&j, "difference_us", (v - ref) * 1e6);
    eb_json_int(&j, "invalid", t->invalid[m]);
    eb_json_int(&j, "regions", t->regions[m]);
    eb_json_object(&j, "config");
    for (int k = 0; k < EX_NFACTORS; k++)
        eb_json_str(&j, ex_factor_name((ex_factor)k),
                    ex_value_name((ex_factor)k, t->methods[m].c.v[k]));
    eb_json_close(&j);
    eb_json_array(&j, "factors");
    json_chain(&j, t, m);
    eb_json_close(&j);
    eb_json_num(&j, "unexplained_us", rest * 1e6);
    eb_jsonl_emit(&j);
}

void ex_report_json(const ex_table *t, const ex_options *o)
{
    if (!eb_jsonl_active())
        return;
    for (int m = 0; m < t->nmethods; m++)
        json_method(t, o, m);
}
