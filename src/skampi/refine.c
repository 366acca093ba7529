#include "skampi/refine.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double quantise(const sk_grid *g, double x)
{
    double q = g->quantum >= 1 ? g->quantum : 1;
    return floor(x / q + 0.5) * q;
}

int sk_initial_grid(const sk_grid *g, double **xs)
{
    int cap = 64, n = 0;
    double *v = eb_malloc((size_t)cap * sizeof *v);
    double q = g->quantum >= 1 ? g->quantum : 1;
    double lo = quantise(g, g->start), hi = quantise(g, g->end);
    if (lo < g->start - 1e-9) /* round start up to a whole quantum */
        lo += q;
    if (hi > g->end + 1e-9)
        hi -= q;
    if (hi < lo)
        hi = lo;
#define PUSH(val)                                                                    \
    do {                                                                             \
        double val_ = (val);                                                         \
        if (n == 0 || val_ > v[n - 1]) {                                             \
            if (n == cap) {                                                          \
                cap *= 2;                                                            \
                v = eb_realloc(v, (size_t)cap * sizeof *v);                          \
            }                                                                        \
            v[n++] = val_;                                                           \
        }                                                                            \
    } while (0)
    if (g->log_scale) {
        double m = lo;
        if (m <= 0) {
            PUSH(0.0);
            m = q;
        }
        for (double x = m; x < hi * (1 - 1e-12); x *= g->step) {
            double r = quantise(g, x);
            if (r < hi)
                PUSH(r);
        }
        PUSH(hi);
    } else {
        for (long k = 0;; k++) {
            double x = lo + (double)k * g->step;
            if (x >= hi * (1 - 1e-12) && !(hi == 0 && x < hi))
                break;
            double r = quantise(g, x);
            if (r < hi)
                PUSH(r);
        }
        PUSH(hi);
    }
#undef PUSH
    *xs = v;
    return n;
}

static double rel(double delta, double t)
{
    delta = fabs(delta);
    if (t > 0)
        return delta / t;
    return delta > 0 ? INFINITY : 0;
}

double sk_segment_error(const sk_point *p, int n, int i)
{
    double mb = p[i].x, tb = p[i].t, mc = p[i + 1].x, tc = p[i + 1].t;
    double e = INFINITY;
    int have = 0;
    if (i >= 1) { /* left neighbour (a, b) extrapolated to m_c */
        double ma = p[i - 1].x, ta = p[i - 1].t;
        double pred = tb + (tb - ta) / (mb - ma) * (mc - mb);
        e = fmin(e, rel(tc - pred, tb));
        have = 1;
    }
    if (i + 2 < n) { /* right neighbour (c, d) extrapolated to m_b */
        double md = p[i + 2].x, td = p[i + 2].t;
        double pred = tc - (td - tc) / (md - mc) * (mc - mb);
        e = fmin(e, rel(tb - pred, tc));
        have = 1;
    }
    if (!have)
        return 0;
    if (mb > 0)
        e = fmin(e, (mc - mb) / mb);
    return e;
}

double sk_split_point(const sk_grid *g, double b, double c)
{
    double x = g->log_scale && b > 0 ? sqrt(b * c) : 0.5 * (b + c);
    double r = quantise(g, x);
    double q = g->quantum >= 1 ? g->quantum : 1;
    if (r <= b)
        r = b + q;
    if (r >= c)
        return -1;
    return r;
}

/* A max-heap of segments keyed by error; an entry is stale when its two
 * ends are no longer neighbours or its error changed (a fresh entry was
 * pushed whenever a neighbour changed). */
typedef struct {
    double err, b, c;
} seg;

typedef struct {
    seg *a;
    int n, cap;
} heap;

static void heap_push(heap *h, seg s)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        seg *na = eb_malloc((size_t)h->cap * sizeof *na);
        if (h->n)
            memcpy(na, h->a, (size_t)h->n * sizeof *na);
        free(h->a);
        h->a = na;
    }
    int i = h->n++;
    h->a[i] = s;
    while (i > 0 && h->a[(i - 1) / 2].err < h->a[i].err) {
        seg t = h->a[i];
        h->a[i] = h->a[(i - 1) / 2];
        h->a[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static seg heap_pop(heap *h)
{
    seg top = h->a[0];
    h->a[0] = h->a[--h->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && h->a[l].err > h->a[m].err)
            m = l;
        if (r < h->n && h->a[r].err > h->a[m].err)
            m = r;
        if (m == i)
            break;
        seg t = h->a[i];
        h->a[i] = h->a[m];
        h->a[m] = t;
        i = m;
    }
    return top;
}

/* Error used for scheduling: the paper's estimate, with the distance
 * bounds; -1 when the segment cannot or must not be split. */
static double priority(const sk_grid *g, const sk_point *p, int n, int i)
{
    double w = p[i + 1].x - p[i].x;
    if (sk_split_point(g, p[i].x, p[i + 1].x) < 0)
        return -1;
    if (g->min_distance > 0 && w < g->min_distance)
        return -1;
    if (g->max_distance > 0 && w > g->max_distance)
        return INFINITY;
    return sk_segment_error(p, n, i);
}

static int find_x(const sk_point *p, int n, double x)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (p[mid].x == x)
            return mid;
        if (p[mid].x < x)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int sk_refine_run(const sk_grid *g, sk_measure_fn f, void *ctx, sk_point **out)
{
    double *xs;
    int n0 = sk_initial_grid(g, &xs);
    int cap = n0 + (g->dynamic && g->max_steps > n0 ? (int)(g->max_steps - n0) : 0) + 1;
    sk_point *p = eb_malloc((size_t)cap * sizeof *p);
    int n = 0, stop = 0;
    for (int i = 0; i < n0 && !stop; i++) {
        p[n].x = xs[i];
        p[n].refined = 0;
        p[n].t = f(ctx, xs[i], 0, &stop);
        n++;
    }
    free(xs);
    if (g->dynamic && !stop && n == n0) {
        heap h = {0};
        for (int i = 0; i + 1 < n; i++) {
            double e = priority(g, p, n, i);
            if (e >= 0)
                heap_push(&h, (seg){e, p[i].x, p[i + 1].x});
        }
        while (h.n > 0 && n < g->max_steps && !stop) {
            seg s = heap_pop(&h);
            int i = find_x(p, n, s.b);
            if (i < 0 || i + 1 >= n || p[i + 1].x != s.c)
                continue; /* no longer a segment */
            double e = priority(g, p, n, i);
            if (e != s.err)
                continue; /* stale: the current value was pushed when it changed */
            if (e < g->eps)
                break; /* the largest error is below epsilon */
            double x = sk_split_point(g, s.b, s.c);
            memmove(&p[i + 2], &p[i + 1], (size_t)(n - i - 1) * sizeof *p);
            p[i + 1].x = x;
            p[i + 1].refined = 1;
            n++;
            p[i + 1].t = f(ctx, x, 1, &stop);
            /* the new point changes segments i-1 .. i+2 */
            for (int k = i - 1; k <= i + 2; k++)
                if (k >= 0 && k + 1 < n) {
                    double ek = priority(g, p, n, k);
                    if (ek >= 0)
                        heap_push(&h, (seg){ek, p[k].x, p[k + 1].x});
                }
        }
        free(h.a);
    }
    *out = p;
    return n;
}
