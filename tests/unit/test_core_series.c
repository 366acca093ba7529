/* Message lengths, repetition counts, process sets, -map numbering,
 * statistics and the clock model of -sync window. */
#include "core/clock.h"
#include "core/error.h"
#include "core/stats.h"
#include "imb/driver/procsets.h"
#include "imb/driver/repeat.h"
#include "imb/driver/sizes.h"
#include "unit.h"

#include <math.h>

static void expect_sizes(const eb_sizes *s, const size_t *want, int n)
{
    CHECK_EQ_LONG(s->n, n);
    for (int i = 0; i < n && i < s->n; i++)
        CHECK_EQ_LONG(s->v[i], want[i]);
}

static void expect_q(int P, int npmin, const int *want, int n)
{
    int q[64];
    int got = eb_procs_list(P, npmin, q, 64);
    CHECK_EQ_LONG(got, n);
    for (int i = 0; i < n && i < got; i++)
        CHECK_EQ_LONG(q[i], want[i]);
}

int main(void)
{
    eb_sizes s;
    char err[EB_ERRLEN];

    /* -msglog */
    eb_sizes_msglog(3, 7, 1, &s);
    expect_sizes(&s, (size_t[]){0, 8, 16, 32, 64, 128}, 6);
    eb_sizes_free(&s);
    eb_sizes_msglog(0, 3, 1, &s);
    expect_sizes(&s, (size_t[]){0, 1, 2, 4, 8}, 5);
    eb_sizes_free(&s);
    eb_sizes_msglog(0, 4, 4, &s); /* reductions: MINMSGLOG rule, unit sizeof(float) */
    expect_sizes(&s, (size_t[]){0, 4, 8, 16}, 4);
    eb_sizes_free(&s);
    eb_sizes_msglog(0, 22, 1, &s);
    CHECK_EQ_LONG(s.n, 24);
    CHECK_EQ_LONG(s.v[23], 4194304);
    eb_sizes_free(&s);
    int mn = -1, mx = -1, given = -1;
    CHECK_EQ_LONG(eb_parse_msglog("3:7", &mn, &mx, &given, err, EB_ERRLEN), 0);
    CHECK(mn == 3 && mx == 7 && given == 1);
    CHECK_EQ_LONG(eb_parse_msglog("12", &mn, &mx, &given, err, EB_ERRLEN), 0);
    CHECK(mx == 12 && given == 0);
    CHECK_EQ_LONG(eb_parse_msglog("9:3", &mn, &mx, &given, err, EB_ERRLEN), -1);
    CHECK_STR(err, "-msglog 9:3: minlog 9 is larger than maxlog 3");
    CHECK_EQ_LONG(eb_parse_msglog("3:", &mn, &mx, &given, err, EB_ERRLEN), -1);

    /* -msglen */
    CHECK_EQ_LONG(eb_sizes_parse_msglen("0\n1\n# comment\n\n 1024 \n100000\n", "L", 1, &s, err,
                                        EB_ERRLEN), 0);
    expect_sizes(&s, (size_t[]){0, 1, 1024, 100000}, 4);
    eb_sizes_free(&s);
    CHECK_EQ_LONG(eb_sizes_parse_msglen("4\n5\n6\n9\n", "L", 4, &s, err, EB_ERRLEN), 0);
    expect_sizes(&s, (size_t[]){4, 8}, 2);
    eb_sizes_free(&s);
    CHECK_EQ_LONG(eb_sizes_parse_msglen("16\nabc\n", "lengths.txt", 1, &s, err, EB_ERRLEN), -1);
    CHECK_STR(err, "lengths.txt:2: 'abc' is not a non-negative message length in bytes");
    CHECK_EQ_LONG(eb_sizes_parse_msglen("-5\n", "L", 1, &s, err, EB_ERRLEN), -1);
    CHECK_STR(err, "L:1: '-5' is not a non-negative message length in bytes");
    CHECK_EQ_LONG(eb_sizes_parse_msglen("# nothing\n", "L", 1, &s, err, EB_ERRLEN), -1);
    CHECK_STR(err, "L: no message lengths in the file");

    /* repetition counts: IMB-MPI1 standard mode (1000, 40 MiB, 100) */
    eb_iter_settings it = {1000, 40L * 1048576L, 100, EB_ITER_DYNAMIC, 10.0};
    CHECK_EQ_LONG(eb_n_sample_base(&it, 0, 1), 1000);
    CHECK_EQ_LONG(eb_n_sample_base(&it, 1024, 1), 1000);
    CHECK_EQ_LONG(eb_n_sample_base(&it, 65536, 1), 640);
    CHECK_EQ_LONG(eb_n_sample_base(&it, 4194304, 1), 10);
    CHECK_EQ_LONG(eb_n_sample_base(&it, 0, 0), 100);
    CHECK_EQ_LONG(eb_n_sample_base(&it, 4194304, 0), 10);
    CHECK_EQ_LONG(eb_n_sample_base(&it, 1L << 30, 1), 1);
    /* multiple_np, np = 4, largest length 4 MiB (x = 0 counts as 4 bytes) */
    CHECK_EQ_LONG(eb_n_sample_multiple_np(1000, 4, 4194304, 4), 1000);
    CHECK_EQ_LONG(eb_n_sample_multiple_np(1000, 1024, 4194304, 4), 996);
    CHECK_EQ_LONG(eb_n_sample_multiple_np(1000, 4194304, 4194304, 4), 200);
    CHECK_EQ_LONG(eb_n_sample_multiple_np(1000, 4194304, 4194304, 3), 249);
    CHECK_EQ_LONG(eb_n_sample_multiple_np(10, 4194304, 4194304, 64), 64);
    /* dynamic: the probe, then the time limit and monotonicity */
    CHECK_EQ_LONG(eb_probe_reps(1e-7, 1000), 1000);
    CHECK_EQ_LONG(eb_probe_reps(0.01, 1000), 100);
    CHECK_EQ_LONG(eb_probe_reps(2.0, 1000), 1);
    CHECK_EQ_LONG(eb_n_sample_dynamic(1000, 1000, 1e-6, 10.0), 1000);  /* X = 0 */
    CHECK_EQ_LONG(eb_n_sample_dynamic(1000, 1000, 5e-5, 10.0), 1000);  /* 1 KiB */
    CHECK_EQ_LONG(eb_n_sample_dynamic(10, 1000, 1e-3, 10.0), 10);      /* 4 MiB */
    /* effbench quick's loop length: what fits, 1..base; a -time of 1e300
     * gives base (its quotient compared as a double, never cast) */
    CHECK_EQ_LONG(eb_reps_within(1.0, 0.0078125, 1000), 128);
    CHECK_EQ_LONG(eb_reps_within(0.02, 1.0, 1000), 1);
    CHECK_EQ_LONG(eb_reps_within(0.02, 0, 1000), 1000);
    CHECK_EQ_LONG(eb_reps_within(1e300 / 50, 1e-7, 1000), 1000);
    CHECK_EQ_LONG(eb_n_sample_dynamic(1000, 1000, 0.05, 1.0), 21);     /* -time 1 */
    CHECK_EQ_LONG(eb_n_sample_dynamic(1000, 15, 0.05, 1.0), 15);       /* never grows */
    CHECK_EQ_LONG(eb_n_sample_dynamic(10, 10, 20.0, 10.0), 1);
    /* multiple_np under -time: cut to the time, a multiple of np, at least np */
    CHECK_EQ_LONG(eb_n_sample_multiple_np_timed(1000, 4, 1e-6, 10.0), 1000); /* X = 0 */
    CHECK_EQ_LONG(eb_n_sample_multiple_np_timed(996, 4, 5e-5, 10.0), 996);   /* 1 KiB */
    CHECK_EQ_LONG(eb_n_sample_multiple_np_timed(200, 4, 1e-3, 10.0), 200);   /* 4 MiB */
    CHECK_EQ_LONG(eb_n_sample_multiple_np_timed(200, 4, 1e-3, 0.1), 100);    /* -time 0.1 */
    CHECK_EQ_LONG(eb_n_sample_multiple_np_timed(249, 3, 0.01, 0.5), 51);
    CHECK_EQ_LONG(eb_n_sample_multiple_np_timed(200, 4, 2.0, 0.1), 4);
    /* off: the fixed count at every length, aggregate or not */
    CHECK_EQ_LONG(eb_n_sample_off(&it, 1), 1000);
    CHECK_EQ_LONG(eb_n_sample_off(&it, 0), 100);
    eb_iter_settings it_off = {20, 40L * 1048576L, 5, EB_ITER_OFF, 10.0};
    CHECK_EQ_LONG(eb_n_sample_off(&it_off, 1), 20);
    CHECK_EQ_LONG(eb_n_sample_off(&it_off, 0), 5);
    /* auto: multiple_np's counts for rooted collectives, dynamic's otherwise */
    CHECK(eb_effective_policy(EB_ITER_AUTO, 1) == EB_ITER_MULTIPLE_NP);
    CHECK(eb_effective_policy(EB_ITER_AUTO, 0) == EB_ITER_DYNAMIC);
    CHECK(eb_effective_policy(EB_ITER_OFF, 1) == EB_ITER_OFF);

    /* Q lists for P = 1..9, default and -npmin */
    expect_q(1, 0, (int[]){1}, 1);
    expect_q(2, 0, (int[]){2}, 1);
    expect_q(3, 0, (int[]){2, 3}, 2);
    expect_q(4, 0, (int[]){2, 4}, 2);
    expect_q(5, 0, (int[]){2, 4, 5}, 3);
    expect_q(6, 0, (int[]){2, 4, 6}, 3);
    expect_q(7, 0, (int[]){2, 4, 7}, 3);
    expect_q(8, 0, (int[]){2, 4, 8}, 3);
    expect_q(9, 0, (int[]){2, 4, 8, 9}, 4);
    expect_q(1, 1, (int[]){1}, 1);
    expect_q(5, 1, (int[]){1, 2, 4, 5}, 4);
    expect_q(9, 3, (int[]){3, 6, 9}, 3);
    expect_q(9, 9, (int[]){9}, 1);
    expect_q(7, 12, (int[]){7}, 1);
    expect_q(8, 4, (int[]){4, 8}, 2);
    expect_q(2, 2, (int[]){2}, 1);
    expect_q(3, 2, (int[]){2, 3}, 2);
    expect_q(4, 1, (int[]){1, 2, 4}, 3);
    expect_q(6, 2, (int[]){2, 4, 6}, 3);
    expect_q(6, 4, (int[]){4, 6}, 2);
    expect_q(2, 3, (int[]){2}, 1);

    /* -map PxQ: numbered down the columns, read along the rows */
    int order[12];
    CHECK_EQ_LONG(eb_map_order(6, 3, 2, order, err, EB_ERRLEN), 0);
    int want32[] = {0, 3, 1, 4, 2, 5};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_LONG(order[i], want32[i]);
    CHECK_EQ_LONG(eb_map_order(6, 2, 3, order, err, EB_ERRLEN), 0);
    int want23[] = {0, 2, 4, 1, 3, 5};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_LONG(order[i], want23[i]);
    CHECK_EQ_LONG(eb_map_order(5, 0, 0, order, err, EB_ERRLEN), 0);
    for (int i = 0; i < 5; i++)
        CHECK_EQ_LONG(order[i], i);
    CHECK_EQ_LONG(eb_map_order(6, 2, 2, order, err, EB_ERRLEN), -1);
    CHECK_STR(err, "-map 2x2: the matrix has 4 places but 6 processes run");
    int p, q;
    CHECK_EQ_LONG(eb_parse_map("4x2", &p, &q, err, EB_ERRLEN), 0);
    CHECK(p == 4 && q == 2);
    CHECK_EQ_LONG(eb_parse_map("4x", &p, &q, err, EB_ERRLEN), -1);

    /* statistics */
    double v[] = {4, 1, 3, 2, 100};
    CHECK(fabs(eb_logavg((double[]){1, 100}, 2) - 10.0) < 1e-12);
    CHECK(eb_logavg((double[]){1, 0}, 2) == 0);
    CHECK(eb_median(v, 5) == 3);
    CHECK(eb_quantile_sorted((double[]){1, 2, 3, 4}, 4, 0.5) == 2.5);
    CHECK(fabs(eb_std_error((double[]){1, 2, 3, 4}, 4) - 0.6454972243679028) < 1e-12);
    double loops[] = {5, 1, 3, 2};
    CHECK(eb_median_copy(loops, 4) == 2.5 && loops[0] == 5 && loops[3] == 2);

    /* noise warnings: spread and warm-up beyond 1.5x, from 3 loops on */
    eb_noise z = eb_noise_of((double[]){10, 10, 10}, 3);
    CHECK(z.spread == 1 && z.first_vs_rest == 1 && !z.noisy && !z.warming_up);
    z = eb_noise_of((double[]){10, 15, 10}, 3); /* exactly 1.5x: not yet */
    CHECK(z.spread == 1.5 && !z.noisy && !z.warming_up);
    z = eb_noise_of((double[]){10, 16, 10, 11}, 4);
    CHECK(z.spread == 1.6 && z.noisy && z.first_vs_rest == 10.0 / 11 && !z.warming_up);
    z = eb_noise_of((double[]){31, 10, 20, 11}, 4); /* first = 31 / median(10, 20, 11) */
    CHECK(z.warming_up && z.first_vs_rest == 31.0 / 11 && z.noisy && z.spread == 3.1);
    z = eb_noise_of((double[]){100, 10}, 2); /* two loops judge nothing */
    CHECK(!z.noisy && !z.warming_up && isnan(z.spread));

    /* -sync window's clock model: global = local + offset + drift (local - t_ref) */
    eb_clock_model cm = {.offset = 0.25, .drift = 0, .t_ref = 100, .error = 1e-6};
    CHECK(eb_clock_to_global(&cm, 101) == 101.25);
    CHECK(eb_clock_to_local(&cm, 101.25) == 101);
    cm.drift = 1e-5; /* 10 us per second: 20 us two seconds after t_ref */
    CHECK(fabs(eb_clock_to_global(&cm, 102) - (102 + 0.25 + 2e-5)) < 1e-12);
    CHECK(fabs(eb_clock_to_global(&cm, 99) - (99 + 0.25 - 1e-5)) < 1e-12);
    for (double local = 50; local < 200; local += 37.5) /* the two are inverse */
        CHECK(fabs(eb_clock_to_local(&cm, eb_clock_to_global(&cm, local)) - local) < 1e-12);
    UNIT_DONE();
}
