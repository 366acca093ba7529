/* Rank tests (core/ranktest.h), the C twin of python/effbench/groupstats.py. */
#include "core/ranktest.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

double eb_rank_median(const double *x, int n)
{
    if (n <= 0)
        return NAN;
    double *s = eb_malloc((size_t)n * sizeof *s);
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

double eb_rank_u(const double *a, int m, const double *b, int n)
{
    double u = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            u += b[j] > a[i] ? 1.0 : b[j] == a[i] ? 0.5 : 0.0;
    return u;
}

/* How many of the C(m+n, m) arrangements give U = 0..m n: the coefficients of
 * the Gaussian binomial [m+n choose m]_q (in doubles: exact to 2^53, relative
 * error 1e-16 beyond).  The caller frees. */
static double *u_counts(int m, int n)
{
    int size = m * n + 1;
    double *c = eb_calloc((size_t)size, sizeof *c);
    c[0] = 1;
    for (int i = 1; i <= m; i++) {
        int step = n + i;
        for (int k = size - 1; k >= step; k--)
            c[k] -= c[k - step];
        for (int k = i; k < size; k++)
            c[k] += c[k - i];
    }
    return c;
}

static int has_ties(const double *a, int m, const double *b, int n)
{
    int total = m + n, tied = 0;
    double *v = eb_malloc((size_t)total * sizeof *v);
    memcpy(v, a, (size_t)m * sizeof *v);
    memcpy(v + m, b, (size_t)n * sizeof *v);
    qsort(v, (size_t)total, sizeof *v, cmp_double);
    for (int i = 1; i < total && !tied; i++)
        tied = v[i] == v[i - 1];
    free(v);
    return tied;
}

/* sum(t^3 - t) over the groups of t tied values of a and b together. */
static double tie_sum(const double *a, int m, const double *b, int n)
{
    int total = m + n;
    double *v = eb_malloc((size_t)total * sizeof *v), s = 0;
    memcpy(v, a, (size_t)m * sizeof *v);
    memcpy(v + m, b, (size_t)n * sizeof *v);
    qsort(v, (size_t)total, sizeof *v, cmp_double);
    for (int i = 0; i < total;) {
        int j = i;
        while (j < total && v[j] == v[i])
            j++;
        double t = j - i;
        s += t * t * t - t;
        i = j;
    }
    free(v);
    return s;
}

double eb_rank_p_greater(const double *a, int m, const double *b, int n, int *exact)
{
    double u = eb_rank_u(a, m, b, n);
    int ex = !has_ties(a, m, b, n) && (m > n ? m : n) <= EB_RANKTEST_EXACT_MAX;
    if (exact)
        *exact = ex;
    if (ex) {
        double *c = u_counts(m, n), total = 0, upper = 0;
        for (int k = 0; k <= m * n; k++) {
            total += c[k];
            if (k >= (int)u)
                upper += c[k];
        }
        free(c);
        return upper / total; /* P(U >= u) */
    }
    double big = m + n;
    double var = (double)m * n / 12 * ((big + 1) - tie_sum(a, m, b, n) / (big * (big - 1)));
    if (var <= 0)
        return 1.0;
    double z = (u - (double)m * n / 2 - 0.5) / sqrt(var);
    double p = 0.5 * erfc(z / sqrt(2.0));
    return p > 1 ? 1 : p;
}

/* The largest k >= 1 with P(U <= k - 1) <= (1 - confidence) / 2, or 0. */
static int u_critical(int m, int n, double confidence)
{
    double half = (1 - confidence) / 2;
    if ((m > n ? m : n) > EB_RANKTEST_EXACT_MAX) {
        /* z of 1 - half by bisection on erfc */
        double lo = 0, hi = 40;
        for (int i = 0; i < 200; i++) {
            double mid = (lo + hi) / 2;
            (0.5 * erfc(mid / sqrt(2.0)) > half ? &lo : &hi)[0] = mid;
        }
        int k = (int)floor((double)m * n / 2 - lo * sqrt((double)m * n * (m + n + 1) / 12));
        return k >= 1 ? k : 0;
    }
    double *c = u_counts(m, n), total = 0, below = 0;
    for (int k = 0; k <= m * n; k++)
        total += c[k];
    int k = 0;
    while (k <= m * n && (below + c[k]) / total <= half * (1 + 1e-12)) {
        below += c[k];
        k++;
    }
    free(c);
    return k;
}

typedef struct { double log, ratio; } lr;

static int cmp_lr(const void *x, const void *y)
{
    double a = ((const lr *)x)->log, b = ((const lr *)y)->log;
    return a < b ? -1 : a > b;
}

int eb_rank_ratio_interval(const double *a, int m, const double *b, int n, double confidence,
                           double *lo, double *hi)
{
    *lo = *hi = NAN;
    int k = u_critical(m, n, confidence);
    if (k == 0)
        return -1;
    lr *d = eb_malloc((size_t)m * (size_t)n * sizeof *d);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            d[i * n + j] = (lr){log(b[j]) - log(a[i]), b[j] / a[i]};
    qsort(d, (size_t)m * (size_t)n, sizeof *d, cmp_lr);
    *lo = d[k - 1].ratio;
    *hi = d[m * n - k].ratio;
    free(d);
    return 0;
}

void eb_holm(const double *p, int n, double *adj)
{
    int *idx = eb_malloc((size_t)(n + 1) * sizeof *idx);
    double *q = eb_malloc((size_t)(n + 1) * sizeof *q);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    for (int i = 1; i < n; i++) /* insertion sort by p, stable */
        for (int j = i; j > 0 && p[idx[j]] < p[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    double run = 0;
    for (int i = 0; i < n; i++) {
        double v = (n - i) * p[idx[i]];
        v = v > 1 ? 1 : v;
        run = v > run ? v : run;
        q[idx[i]] = run;
    }
    memcpy(adj, q, (size_t)n * sizeof *adj);
    free(idx);
    free(q);
}
