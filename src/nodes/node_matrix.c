#include "nodes/node_matrix.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int nm_rounds(int n)
{
    if (n < 2)
        return 0;
    return n % 2 ? n : n - 1;
}

int nm_partner(int n, int r, int i)
{
    int m = n + n % 2; /* an odd count gets a phantom node: its partner sits out */
    if (i < 0 || i >= n || r < 0 || r >= m - 1)
        return -1;
    int p;
    if (i == m - 1)
        p = r;
    else if (i == r)
        p = m - 1;
    else
        p = ((2 * r - i) % (m - 1) + (m - 1)) % (m - 1);
    return p < n ? p : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double nm_median(double *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[k++] = v[i];
    if (k == 0)
        return NAN;
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

double nm_node_score(int n, const double *m, int i)
{
    double *v = eb_malloc((size_t)n * sizeof *v);
    int k = 0;
    for (int j = 0; j < n; j++)
        if (j != i)
            v[k++] = m[(size_t)i * n + j];
    double s = nm_median(v, k);
    free(v);
    return s;
}

/* Outliers of v[0..k-1] by the rule; out[i] set for each.  Returns the count. */
static int outliers(const double *v, int k, int higher_worse, nm_rule rule, int *out)
{
    double *w = eb_malloc((size_t)(k ? k : 1) * sizeof *w);
    memcpy(w, v, (size_t)k * sizeof *w);
    double med = nm_median(w, k);
    for (int i = 0; i < k; i++)
        w[i] = fabs(v[i] - med);
    double mad = nm_median(w, k);
    free(w);
    int found = 0;
    for (int i = 0; i < k; i++) {
        out[i] = 0;
        if (!isfinite(v[i]) || !isfinite(med))
            continue;
        double spread = rule.z * 1.4826 * mad;
        double worse = higher_worse ? v[i] - med : med - v[i];
        double least = higher_worse ? (rule.ratio - 1) * med : (1 - 1 / rule.ratio) * med;
        if (worse > (spread > least ? spread : least)) {
            out[i] = 1;
            found++;
        }
    }
    return found;
}

int nm_flag(int n, const double *m, int higher_worse, nm_rule rule, int *node_flag,
            int *link_flag)
{
    memset(node_flag, 0, (size_t)n * sizeof *node_flag);
    memset(link_flag, 0, (size_t)n * n * sizeof *link_flag);
    if (n < 3)
        return 0;
    double *score = eb_malloc((size_t)n * sizeof *score);
    for (int i = 0; i < n; i++)
        score[i] = nm_node_score(n, m, i);
    int found = outliers(score, n, higher_worse, rule, node_flag);
    free(score);
    /* links between nodes that are not flagged themselves */
    size_t cap = (size_t)n * (n - 1) / 2;
    double *v = eb_malloc(cap * sizeof *v);
    int *a = eb_malloc(cap * sizeof *a), *b = eb_malloc(cap * sizeof *b);
    int *out = eb_malloc(cap * sizeof *out);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (!node_flag[i] && !node_flag[j]) {
                v[k] = m[(size_t)i * n + j];
                a[k] = i;
                b[k++] = j;
            }
    if (k >= 3) {
        found += outliers(v, k, higher_worse, rule, out);
        for (int x = 0; x < k; x++)
            if (out[x])
                link_flag[(size_t)a[x] * n + b[x]] = link_flag[(size_t)b[x] * n + a[x]] = 1;
    }
    free(v);
    free(a);
    free(b);
    free(out);
    return found;
}
