/* Which arguments (message lengths, process counts, chunk counts) a suite
 * measures: the initial grid of its Scale and, for the Dynamic scales, the
 * adaptive refinement of the SKaMPI paper, section 4.2.  Pure: the caller
 * measures a point through a callback. */
#ifndef SK_REFINE_H
#define SK_REFINE_H

typedef struct {
    int log_scale;        /* points m_min * gamma^k (else m_min + k * step) */
    int dynamic;          /* refine after the initial grid */
    double start, end;    /* m_min, m_max */
    double step;          /* gamma (log) or additive step (linear) */
    double quantum;       /* arguments are whole multiples of this (>= 1) */
    double min_distance;  /* never split a segment narrower than this (0: none) */
    double max_distance;  /* always split a segment wider than this first (0: none) */
    long max_steps;       /* measurements in all, initial grid included */
    double eps;           /* stop when the largest error is below eps */
} sk_grid;

typedef struct {
    double x, t;
    int refined;          /* added by refinement */
} sk_point;

/* Measure at x; returns the time.  *stop = 1 ends the suite (time budget). */
typedef double (*sk_measure_fn)(void *ctx, double x, int refined, int *stop);

/* The initial grid (sorted, unique, quantised).  Returns the count; *xs is
 * malloc'ed.  With a log scale and m_min = 0, 0 is measured and the factors
 * start from one quantum. */
int sk_initial_grid(const sk_grid *g, double **xs);

/* The paper's error estimate for the segment pts[i]..pts[i+1] of n sorted
 * points: min(|D1|/t_b, |D2|/t_c, (m_c - m_b)/m_b) over the neighbours that
 * exist; 0 if neither neighbour exists. */
double sk_segment_error(const sk_point *pts, int n, int i);

/* Where a segment is subdivided: sqrt(m_b m_c) (log) or the middle, rounded
 * to a quantum; returns -1 when no new point fits strictly inside. */
double sk_split_point(const sk_grid *g, double b, double c);

/* Measure the initial grid, then refine.  Returns the number of points;
 * *out (sorted by x) is malloc'ed. */
int sk_refine_run(const sk_grid *g, sk_measure_fn f, void *ctx, sk_point **out);

#endif
