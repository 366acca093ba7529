/* The standard-error stopping rule (src/core/accuracy.c) on known data and
 * on synthetic noise sources. */
#include "core/accuracy.h"
#include "unit.h"

#include <math.h>

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * (fabs(b) + 1); }

/* Deterministic uniform noise in [0, 1). */
static unsigned long long lcg_state = 12345;
static double uniform(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) / 9007199254740992.0;
}

/* How many runs the rule takes on the source mean + amp * (u - 0.5). */
static long runs_until_done(eb_acc_params p, double mean, double amp)
{
    eb_acc a;
    eb_acc_init(&a, &p);
    while (!eb_acc_done(&a))
        eb_acc_add(&a, mean + amp * (uniform() - 0.5));
    long n = a.n;
    eb_acc_free(&a);
    return n;
}

int main(void)
{
    CHECK_EQ_LONG(eb_acc_cut_count(10, 0.1), 1);
    CHECK_EQ_LONG(eb_acc_cut_count(9, 0.1), 0);
    CHECK_EQ_LONG(eb_acc_cut_count(40, 0.25), 10);
    CHECK_EQ_LONG(eb_acc_cut_count(3, 0.25), 0);
    CHECK_EQ_LONG(eb_acc_cut_count(2, 0.49), 0);
    CHECK_EQ_LONG(eb_acc_cut_count(5, 0.0), 0);

    /* Known data: cut 1 at each end of 5 -> kept {2,3,4}. */
    eb_acc_params p = {0.01, 1, 100, 0.2, 0};
    eb_acc a;
    eb_acc_init(&a, &p);
    double data[] = {100, 3, 1, 4, 2};
    for (int i = 0; i < 5; i++)
        eb_acc_add(&a, data[i]);
    eb_acc_stats s = eb_acc_summary(&a);
    CHECK_EQ_LONG(s.n, 5);
    CHECK_EQ_LONG(s.kept, 3);
    CHECK(close_to(s.mean, 3.0));
    /* sigma = sqrt(((2-3)^2 + 0 + (4-3)^2) / 3), std_error = sigma / sqrt(3) */
    CHECK(close_to(s.std_error, sqrt(2.0 / 3.0) / sqrt(3.0)));
    CHECK(close_to(s.min, 1.0));
    CHECK(close_to(s.max, 100.0));
    /* 0.4714 / 3 = 0.157 relative error: not below 0.01 */
    CHECK(!eb_acc_done(&a));
    eb_acc_free(&a);

    /* A constant source stops exactly at min_reps. */
    p = (eb_acc_params){0.05, 8, 40, 0.1, 0};
    CHECK_EQ_LONG(runs_until_done(p, 10.0, 0.0), 8);
    /* Noise of +-50% cannot reach 0.1% in 40 runs: max_reps stops it. */
    p = (eb_acc_params){0.001, 8, 40, 0.1, 0};
    CHECK_EQ_LONG(runs_until_done(p, 10.0, 10.0), 40);
    /* Two equal samples have no error, but the rule wants min_reps of them
     * (a caller whose time budget ends here has not converged). */
    p = (eb_acc_params){0.05, 5, 10, 0.0, 0};
    eb_acc_init(&a, &p);
    eb_acc_add(&a, 7.0);
    eb_acc_add(&a, 7.0);
    CHECK(!eb_acc_done(&a) && !eb_acc_converged(&a));
    eb_acc_free(&a);
    p = (eb_acc_params){0.05, 2, 2, 0.0, 0};
    eb_acc_init(&a, &p);
    eb_acc_add(&a, 7.0);
    eb_acc_add(&a, 7.0);
    CHECK(eb_acc_done(&a) && eb_acc_converged(&a));
    eb_acc_free(&a);
    /* The clock-resolution rule: 8 runs of 1.0 are not enough when the
     * total must reach 20. */
    p = (eb_acc_params){0.05, 8, 100, 0.0, 20.0};
    CHECK_EQ_LONG(runs_until_done(p, 1.0, 0.0), 20);

    /* Moderate noise: the rule stops at the first n where the kept runs'
     * standard error falls below eps * mean, recomputed here by hand. */
    for (int trial = 0; trial < 5; trial++) {
        p = (eb_acc_params){0.02, 4, 10000, 0.1, 0};
        unsigned long long seed = lcg_state;
        long n = runs_until_done(p, 10.0, 4.0);
        lcg_state = seed;
        double x[10000];
        long expect = -1;
        for (long k = 0; k < 10000 && expect < 0; k++) {
            x[k] = 10.0 + 4.0 * (uniform() - 0.5);
            long m = k + 1;
            if (m < 4)
                continue;
            /* sort a copy, cut floor(0.1 m) at each end */
            double y[10000];
            for (long i = 0; i < m; i++)
                y[i] = x[i];
            for (long i = 1; i < m; i++)
                for (long j = i; j > 0 && y[j - 1] > y[j]; j--) {
                    double t = y[j];
                    y[j] = y[j - 1];
                    y[j - 1] = t;
                }
            long c = (long)floor(0.1 * (double)m), kept = m - 2 * c;
            double mean = 0, ss = 0;
            for (long i = c; i < m - c; i++)
                mean += y[i];
            mean /= (double)kept;
            for (long i = c; i < m - c; i++)
                ss += (y[i] - mean) * (y[i] - mean);
            double se = sqrt(ss / (double)kept) / sqrt((double)kept);
            if (se < 0.02 * mean)
                expect = m;
        }
        CHECK_EQ_LONG(n, expect);
        CHECK(n > 4 && n < 200);
    }
    /* Stricter accuracy needs more runs of the same source. */
    lcg_state = 99;
    long loose = runs_until_done((eb_acc_params){0.02, 2, 100000, 0.1, 0}, 10.0, 4.0);
    lcg_state = 99;
    long strict = runs_until_done((eb_acc_params){0.002, 2, 100000, 0.1, 0}, 10.0, 4.0);
    CHECK(strict > 10 * loose);
    UNIT_DONE();
}
