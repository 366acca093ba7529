/* The Wilcoxon rank-sum / Mann-Whitney U test, the Hodges-Lehmann (Moses)
 * interval of a ratio and Holm's correction, as python/effbench/groupstats.py
 * computes them (docs/statistics.md, docs/guidelines.md):
 *
 * - U of B against A: the pairs (a, b) with b > a, ties counted one half.
 * - One-sided p of "B tends to be larger": exact from the permutation
 *   distribution of U when no value is tied and both samples have at most
 *   EB_RANKTEST_EXACT_MAX values, else the normal approximation (mean m n / 2,
 *   variance m n / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) over the groups
 *   of t tied values, continuity correction 1/2).
 * - The interval of B/A: [D(k), D(mn+1-k)] of the sorted ratios b / a (sorted
 *   as log b - log a), k the largest with P(U <= k - 1) <= (1 - confidence) / 2
 *   (exact up to EB_RANKTEST_EXACT_MAX, else k = floor(m n / 2 - z sqrt(m n
 *   (m + n + 1) / 12))); Hollander, Wolfe and Chicken, 3rd ed., section 4.3.
 * - Holm's step-down adjusted p-values: sorted p(1) <= ... <= p(n), adjusted
 *   p(i) = max over j <= i of min(1, (n - j + 1) p(j)). */
#ifndef EB_RANKTEST_H
#define EB_RANKTEST_H

#define EB_RANKTEST_EXACT_MAX 50

double eb_rank_median(const double *x, int n);
/* U of B against A. */
double eb_rank_u(const double *a, int m, const double *b, int n);
/* One-sided p-value that B is stochastically larger than A; *exact: 1 when
 * the exact distribution was used (may be NULL). */
double eb_rank_p_greater(const double *a, int m, const double *b, int n, int *exact);
/* The interval of the ratio B/A at `confidence`: 0, or -1 when too few values
 * give one (lo and hi then NaN). */
int eb_rank_ratio_interval(const double *a, int m, const double *b, int n, double confidence,
                           double *lo, double *hi);
/* Holm's adjusted p-values of p[0..n-1] into adj (may be the same array). */
void eb_holm(const double *p, int n, double *adj);

#endif
