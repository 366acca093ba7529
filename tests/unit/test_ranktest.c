/* The rank tests of src/core/ranktest.c against textbook values and against
 * python/effbench/groupstats.py (the same method, the numbers it prints). */
#include "core/ranktest.h"
#include "unit.h"

#include <math.h>

static int close_to(double a, double b, double rel) { return fabs(a - b) <= rel * (fabs(b) + 1e-300); }

int main(void)
{
    int exact = -1;
    /* Three against three, B all above A: U = 9, P(U >= 9) = 1 / C(6, 3) = 0.05 */
    double a3[] = {1, 2, 3}, b3[] = {4, 5, 6};
    CHECK(eb_rank_u(a3, 3, b3, 3) == 9);
    CHECK(close_to(eb_rank_p_greater(a3, 3, b3, 3, &exact), 0.05, 1e-12));
    CHECK_EQ_LONG(exact, 1);
    /* ... and the other way round: P(U >= 0) = 1 */
    CHECK(close_to(eb_rank_p_greater(b3, 3, a3, 3, NULL), 1.0, 1e-12));
    /* Four against four, one swap (U = 15): 2 of the 70 arrangements have U >= 15 */
    double a4[] = {1, 2, 3, 5}, b4[] = {4, 6, 7, 8};
    CHECK(eb_rank_u(a4, 4, b4, 4) == 15);
    CHECK(close_to(eb_rank_p_greater(a4, 4, b4, 4, NULL), 2.0 / 70, 1e-12));
    /* Eight against eight (groupstats: two-sided exact p 0.004662004662..., U = 58) */
    double a8[] = {10, 11, 12, 13, 14, 15, 16, 17}, b8[] = {13.5, 15.5, 18, 19, 20, 21, 22, 23};
    CHECK(eb_rank_u(a8, 8, b8, 8) == 58);
    CHECK(close_to(eb_rank_p_greater(a8, 8, b8, 8, NULL), 0.004662004662004662 / 2, 1e-9));
    /* its ratio interval at 95 %: [D(14), D(51)] = [1.17647..., 1.75] (groupstats) */
    double lo, hi;
    CHECK_EQ_LONG(eb_rank_ratio_interval(a8, 8, b8, 8, 0.95, &lo, &hi), 0);
    CHECK(close_to(lo, 1.1764705882352942, 1e-12));
    CHECK(close_to(hi, 1.75, 1e-12));
    /* too few values for 95 %: 2 against 2 (P(U = 0) = 1/6 > 0.025) */
    CHECK_EQ_LONG(eb_rank_ratio_interval(a3, 2, b3, 2, 0.95, &lo, &hi), -1);
    CHECK(isnan(lo) && isnan(hi));
    /* Ties: the normal approximation with tie and continuity correction
     * (groupstats.normal_p: two-sided 0.06414661873440443, U = 25.5 above m n / 2 = 15) */
    double at[] = {1, 2, 2, 3, 4}, bt[] = {2, 3, 5, 6, 6, 7};
    CHECK(eb_rank_u(at, 5, bt, 6) == 25.5);
    CHECK(close_to(eb_rank_p_greater(at, 5, bt, 6, &exact), 0.06414661873440443 / 2, 1e-9));
    CHECK_EQ_LONG(exact, 0);
    /* all values equal: nothing tells them apart */
    double same[] = {1, 1, 1};
    CHECK(eb_rank_p_greater(same, 3, same, 3, NULL) == 1.0);
    /* medians */
    CHECK(eb_rank_median(a4, 4) == 2.5);
    CHECK(eb_rank_median(b3, 3) == 5);
    /* Holm (Holm 1979; the textbook example): p = .01 .04 .03 .005 ->
     * sorted .005 .01 .03 .04 times 4 3 2 1 = .02 .03 .06 .04, running max .02 .03 .06 .06 */
    double p[] = {0.01, 0.04, 0.03, 0.005}, adj[4];
    eb_holm(p, 4, adj);
    CHECK(close_to(adj[0], 0.03, 1e-12));
    CHECK(close_to(adj[1], 0.06, 1e-12));
    CHECK(close_to(adj[2], 0.06, 1e-12));
    CHECK(close_to(adj[3], 0.02, 1e-12));
    double big[] = {0.6, 0.9}; /* capped at 1 */
    eb_holm(big, 2, big);
    CHECK(big[0] == 1.0 && big[1] == 1.0);
    UNIT_DONE();
}
