#include "core/accuracy.h"

#include "core/error.h"
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void eb_acc_init(eb_acc *a, const eb_acc_params *p)
{
    memset(a, 0, sizeof *a);
    a->p = *p;
    if (a->p.min_reps < 1)
        a->p.min_reps = 1;
    if (a->p.max_reps < a->p.min_reps)
        a->p.max_reps = a->p.min_reps;
}

void eb_acc_free(eb_acc *a)
{
    free(a->x);
    a->x = NULL;
    a->n = a->cap = 0;
}

void eb_acc_add(eb_acc *a, double sample)
{
    if (a->n == a->cap) {
        long cap = a->cap ? 2 * a->cap : 64;
        double *x = eb_malloc((size_t)cap * sizeof *x);
        if (a->n)
            memcpy(x, a->x, (size_t)a->n * sizeof *x);
        free(a->x);
        a->x = x;
        a->cap = cap;
    }
    a->x[a->n++] = sample;
    a->total += sample;
}

long eb_acc_cut_count(long n, double q)
{
    if (n <= 0 || q <= 0)
        return 0;
    long c = (long)floor(q * (double)n);
    while (c > 0 && n - 2 * c < 1)
        c--;
    return c;
}

eb_acc_stats eb_acc_summary(const eb_acc *a)
{
    eb_acc_stats s = {a->n, 0, NAN, NAN, NAN, NAN};
    if (a->n == 0)
        return s;
    double *v = eb_malloc((size_t)a->n * sizeof *v);
    memcpy(v, a->x, (size_t)a->n * sizeof *v);
    eb_sort_doubles(v, (int)a->n);
    s.min = v[0];
    s.max = v[a->n - 1];
    long cut = eb_acc_cut_count(a->n, a->p.cut_quantile);
    s.kept = a->n - 2 * cut;
    s.mean = eb_mean(v + cut, (int)s.kept);
    /* eb_std_error uses the sample deviation (divisor k-1); the paper's
     * sigma divides by k. */
    if (s.kept >= 2)
        s.std_error = eb_std_error(v + cut, (int)s.kept) * sqrt((double)(s.kept - 1) / (double)s.kept);
    free(v);
    return s;
}

int eb_acc_done(const eb_acc *a)
{
    return a->n >= a->p.max_reps || eb_acc_converged(a);
}

int eb_acc_converged(const eb_acc *a)
{
    if (a->n < a->p.min_reps || a->total < a->p.min_total)
        return 0;
    eb_acc_stats s = eb_acc_summary(a);
    if (!isfinite(s.std_error))
        return 0;
    return s.std_error < a->p.rel_error * fabs(s.mean);
}
