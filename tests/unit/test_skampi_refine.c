/* Adaptive refinement (SKaMPI paper, section 4.2) on synthetic functions. */
#include "skampi/refine.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

static int calls, stop_after;
static double (*fn)(double);

static double measure(void *ctx, double x, int refined, int *stop)
{
    (void)ctx;
    (void)refined;
    calls++;
    if (stop_after && calls >= stop_after)
        *stop = 1;
    return fn(x);
}

static double line(double m) { return 5.0 + 0.01 * m; }
/* a protocol switch at 3000 bytes: the time jumps by 9 */
static double step(double m) { return m < 3000 ? 1.0 + 0.001 * m : 10.0 + 0.001 * m; }

static int run(sk_grid *g, double (*f)(double), sk_point **pts)
{
    fn = f;
    calls = 0;
    return sk_refine_run(g, measure, NULL, pts);
}

static int refined_count(const sk_point *p, int n)
{
    int r = 0;
    for (int i = 0; i < n; i++)
        r += p[i].refined;
    return r;
}

int main(void)
{
    double *xs;
    /* initial grids */
    sk_grid g = {1, 1, 4, 1000, 2, 4, 0, 0, 100, 0.05};
    int n = sk_initial_grid(&g, &xs);
    double e1[] = {4, 8, 16, 32, 64, 128, 256, 512, 1000};
    CHECK_EQ_LONG(n, 9);
    for (int i = 0; i < n && i < 9; i++)
        CHECK(xs[i] == e1[i]);
    free(xs);
    g = (sk_grid){1, 0, 0, 64, 1.414213562, 4, 0, 0, 100, 0.05};
    n = sk_initial_grid(&g, &xs); /* 0, then 4*sqrt2^k rounded to multiples of 4 */
    double e2[] = {0, 4, 8, 12, 16, 24, 32, 44, 64};
    CHECK_EQ_LONG(n, 9);
    for (int i = 0; i < n && i < 9; i++)
        CHECK(xs[i] == e2[i]);
    free(xs);
    g = (sk_grid){0, 0, 0, 10, 3, 1, 0, 0, 100, 0.05};
    n = sk_initial_grid(&g, &xs);
    double e3[] = {0, 3, 6, 9, 10};
    CHECK_EQ_LONG(n, 5);
    for (int i = 0; i < n && i < 5; i++)
        CHECK(xs[i] == e3[i]);
    free(xs);
    g = (sk_grid){0, 0, 0, 0, 1, 1, 0, 0, 100, 0.05};
    CHECK_EQ_LONG(sk_initial_grid(&g, &xs), 1);
    CHECK(xs[0] == 0);
    free(xs);

    /* the error estimate by hand: min(|D1|/t_b, |D2|/t_c, (m_c-m_b)/m_b) */
    sk_point p4[] = {{1, 1, 0}, {2, 2, 0}, {3, 5, 0}, {4, 6, 0}};
    CHECK(fabs(sk_segment_error(p4, 4, 1) - 0.4) < 1e-12);
    /* edge segment: the right neighbour predicts t(1) = -1, |1 - -1| / t_c = 1;
     * (m_c - m_b) / m_b = 1 */
    CHECK(fabs(sk_segment_error(p4, 4, 0) - 1.0) < 1e-12);
    CHECK(sk_segment_error(p4, 2, 0) == 0);

    /* split points */
    g = (sk_grid){1, 1, 0, 0, 2, 4, 0, 0, 100, 0.05};
    CHECK(sk_split_point(&g, 4, 16) == 8);
    CHECK(sk_split_point(&g, 4, 8) == -1);
    CHECK(sk_split_point(&g, 0, 16) == 8);
    g.log_scale = 0;
    CHECK(sk_split_point(&g, 4, 20) == 12);

    /* a straight line: nothing beyond the initial grid */
    sk_point *pts;
    g = (sk_grid){1, 1, 1, 65536, 2, 1, 0, 0, 200, 0.01};
    n = run(&g, line, &pts);
    CHECK_EQ_LONG(n, 17);
    CHECK_EQ_LONG(refined_count(pts, n), 0);
    free(pts);
    g.log_scale = 0;
    g.step = 4096;
    n = run(&g, line, &pts);
    CHECK_EQ_LONG(n, 17); /* 1, 4097, ..., 61441, 65536 */
    CHECK_EQ_LONG(refined_count(pts, n), 0);
    free(pts);

    /* a step at a protocol switch: every new point lands in the segment
     * around the step, until it is narrower than eps relative */
    g = (sk_grid){1, 1, 1, 65536, 2, 1, 0, 0, 200, 0.05};
    n = run(&g, step, &pts);
    int r = refined_count(pts, n);
    CHECK(r >= 4);
    CHECK_EQ_LONG(calls, n);
    for (int i = 0; i < n; i++) {
        if (pts[i].refined)
            CHECK(pts[i].x > 2048 && pts[i].x < 4096);
        if (i > 0)
            CHECK(pts[i].x > pts[i - 1].x); /* sorted */
    }
    int below = -1;
    for (int i = 0; i + 1 < n; i++)
        if (pts[i].x < 3000 && pts[i + 1].x >= 3000)
            below = i;
    CHECK(below >= 0);
    if (below >= 0) /* the points bracket the step within eps */
        CHECK((pts[below + 1].x - pts[below].x) / pts[below].x < 0.05);
    free(pts);

    /* the same step under Dynamic_linear: grid 0, 1024, ..., 8192; only the
     * segment holding the step is split, at its middle, until the bracket is
     * narrower than eps relative: 2560, 2816, 2944 (128 / 2944 < 0.05) */
    sk_grid gl = {0, 1, 0, 8192, 1024, 4, 0, 0, 200, 0.05};
    n = run(&gl, step, &pts);
    CHECK_EQ_LONG(n, 9 + 3);
    CHECK_EQ_LONG(calls, n);
    double lin[] = {0, 1024, 2048, 2560, 2816, 2944, 3072, 4096, 5120, 6144, 7168, 8192};
    for (int i = 0; i < n && i < 12; i++) {
        CHECK(pts[i].x == lin[i]);
        CHECK_EQ_LONG(pts[i].refined, i >= 3 && i <= 5);
    }
    free(pts);

    /* Max_Steps bounds the number of measurements */
    g.max_steps = 17 + 2;
    n = run(&g, step, &pts);
    CHECK_EQ_LONG(n, 19);
    CHECK_EQ_LONG(refined_count(pts, n), 2);
    CHECK(pts[12].refined && pts[12].x == 2896 && pts[13].refined && pts[13].x == 3444);
    free(pts);

    /* Min_Distance: segments narrower than it are never split */
    g.max_steps = 200;
    g.min_distance = 600;
    n = run(&g, step, &pts);
    for (int i = 0; i + 1 < n; i++)
        if (pts[i + 1].refined || pts[i].refined)
            CHECK(pts[i + 1].x - pts[i].x >= 300);
    CHECK(refined_count(pts, n) < r);
    free(pts);

    /* Max_Distance: a straight line still gets every segment below it */
    g = (sk_grid){1, 1, 1, 65536, 2, 1, 0, 10000, 200, 0.05};
    n = run(&g, line, &pts);
    CHECK(refined_count(pts, n) > 0);
    for (int i = 0; i + 1 < n; i++)
        CHECK(pts[i + 1].x - pts[i].x <= 10000);
    free(pts);

    /* a time budget ends the suite */
    stop_after = 3;
    g = (sk_grid){1, 1, 1, 65536, 2, 1, 0, 0, 200, 0.05};
    n = run(&g, step, &pts);
    CHECK_EQ_LONG(n, 3);
    CHECK_EQ_LONG(calls, 3);
    free(pts);
    UNIT_DONE();
}
