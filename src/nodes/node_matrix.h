/* The node-pair matrix's arithmetic, free of MPI: the rounds that pair every
 * node with every other (N-1 rounds for even N, N for odd), medians, and the
 * robust rule that flags slow nodes and slow links (docs/cluster.md). */
#ifndef EB_NODE_MATRIX_H
#define EB_NODE_MATRIX_H

/* Rounds needed so that every pair of n nodes meets once. */
int nm_rounds(int n);
/* The partner of node i in round r (circle method), or -1 when i sits out. */
int nm_partner(int n, int r, int i);

/* Median of the finite values of v[0..n-1] (NaN when none); v is reordered. */
double nm_median(double *v, int n);

/* The flagging rule.  A value x is an outlier of a set with median m and
 * median absolute deviation d when it is worse than m by more than
 * max(z * 1.4826 * d, (ratio - 1) * m) (latency: higher is worse), or
 * for bandwidth (higher is better) when m - x exceeds
 * max(z * 1.4826 * d, (1 - 1/ratio) * m). */
typedef struct {
    double z;      /* robust z-score, NM_DEFAULT_Z */
    double ratio;  /* least factor from the median, NM_DEFAULT_RATIO */
} nm_rule;
#define NM_DEFAULT_Z 4.0
#define NM_DEFAULT_RATIO 1.5

/* Flag slow nodes and links of an n x n matrix m (row-major, symmetric, NaN
 * where unmeasured; higher_worse: 1 for latency, 0 for bandwidth).
 * A node's score is the median over its links; nodes are flagged by the rule
 * over the scores (needs n >= 3: with two nodes nothing says which is slow).
 * Links between unflagged nodes are flagged by the rule over those links.
 * node_flag[n] and link_flag[n*n] are set (0/1); returns the flags set. */
int nm_flag(int n, const double *m, int higher_worse, nm_rule rule, int *node_flag,
            int *link_flag);

/* The median of node i's links (its score) and the median of the scores. */
double nm_node_score(int n, const double *m, int i);

#endif
