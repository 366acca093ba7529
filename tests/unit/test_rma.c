/* Pure helpers of the one-sided families: BUF_VALUE data and its checks,
 * the accumulate verification, the Truly_passive_put verdict, the window
 * sections of aggregated transfers. */
#include "imb/driver/options.h"
#include "imb/driver/repeat.h"
#include "imb/rma_passive.h"
#include "imb/rma_win.h"
#include "unit.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The guide's "M disjoint transfers": the M transfers of one sample (M =
 * the driver's repetition count under each policy, after prepare's cap;
 * M = 1 per completion in non-aggregate mode) go to pairwise disjoint
 * sections inside the window of nsec * x bytes, which stays within
 * max(x, OVERALL_VOL) (the guide's memory table). */
static void test_sections(void)
{
    static const eb_bench bench = {.name = "Unidir_Put"};
    eb_imb_options o;
    memset(&o, 0, sizeof o);
    o.iter = (eb_iter_settings){.msgspersample = 1000, .overall_vol = 40L << 20,
                                .msgs_nonaggr = 100};
    const size_t xs[] = {0, 1, 4, 1000, 41943, 41944, 65536, 1 << 20, 4 << 20};
    const eb_iter_policy pols[] = {EB_ITER_DYNAMIC, EB_ITER_OFF, EB_ITER_MULTIPLE_NP};
    for (size_t p = 0; p < sizeof pols / sizeof pols[0]; p++)
        for (size_t ix = 0; ix < sizeof xs / sizeof xs[0]; ix++)
            for (int agg = 0; agg <= 1; agg++) {
                size_t x = xs[ix], vol = (size_t)o.iter.overall_vol;
                o.iter.policy = pols[p];
                eb_ctx c = {.bench = &bench, .opt = &o, .aggregate = agg};
                long nsec = eb_rma_prepare_sections(&c, x);
                long want = pols[p] == EB_ITER_OFF ? (agg ? 1000 : 100)
                            : pols[p] == EB_ITER_MULTIPLE_NP
                                ? eb_n_sample_multiple_np(1000, x > 4 ? x : 4, 4 << 20, 2)
                                : eb_n_sample_base(&o.iter, x, agg);
                long M = !agg ? 1 : c.max_reps > 0 && want > c.max_reps ? c.max_reps : want;
                if (agg) {
                    CHECK((size_t)nsec * x <= (x > vol ? x : vol));
                } else {
                    CHECK_EQ_LONG(nsec, 1);
                    CHECK_EQ_LONG(c.max_reps, 0);
                }
                char *used = calloc((size_t)nsec, 1);
                long clash = 0, outside = 0;
                for (long i = 0; i < M; i++) {
                    size_t off = eb_rma_section_offset(i, nsec, x);
                    outside += off + x > (size_t)nsec * x;
                    if (x > 0 && off % x == 0 && off / x < (size_t)nsec) {
                        clash += used[off / x];
                        used[off / x] = 1;
                    }
                }
                free(used);
                CHECK_EQ_LONG(clash, 0);
                CHECK_EQ_LONG(outside, 0);
            }
    /* -iter_policy off at 1 MiB: 1000 asked, 40 MiB / 1 MiB = 40 sections,
     * so 40 repetitions; the dynamic policy never needs the cap */
    o.iter.policy = EB_ITER_OFF;
    eb_ctx c = {.bench = &bench, .opt = &o, .aggregate = 1};
    CHECK_EQ_LONG(eb_rma_prepare_sections(&c, 1 << 20), 40);
    CHECK_EQ_LONG(c.max_reps, 40);
    /* a cap already set (Compare_and_swap under osc/pt2pt) stays if lower */
    c.max_reps = 20;
    eb_rma_prepare_sections(&c, 1 << 20);
    CHECK_EQ_LONG(c.max_reps, 20);
}

int main(void)
{
    test_sections();

    /* BUF_VALUE(rank, i) = 0.1*(rank+1) + i, as float */
    CHECK(eb_buf_value(0, 0) == (float)0.1);
    CHECK(eb_buf_value(1, 3) == (float)3.2);
    CHECK_EQ_LONG(eb_buf_value_int(2, 5), 30000005);

    float f[8];
    eb_fill_buf_values(f, sizeof f, 3);
    for (int i = 0; i < 8; i++)
        CHECK(f[i] == (float)(0.4 + (float)i));
    CHECK_EQ_LONG(eb_check_buf_values(f, sizeof f, 3), 0);
    /* another rank's data differ in every float (at least one byte each) */
    CHECK(eb_check_buf_values(f, sizeof f, 2) >= 8);
    /* one flipped byte is one defect; partial trailing float is compared too */
    unsigned char b[7];
    eb_fill_buf_values(b, sizeof b, 1);
    CHECK_EQ_LONG(eb_check_buf_values(b, sizeof b, 1), 0);
    b[6] ^= 0x40;
    CHECK_EQ_LONG(eb_check_buf_values(b, sizeof b, 1), 1);

    /* two terms: exact in any order, so the test is exact */
    float acc[4];
    for (int j = 0; j < 4; j++)
        acc[j] = eb_buf_value(0, j) + eb_buf_value(1, j);
    CHECK_EQ_LONG(eb_check_float_accumulate(acc, 4, 2, 0, 0), 0);
    acc[2] = nextafterf(acc[2], 1e30f); /* one ulp off: a defect */
    CHECK_EQ_LONG(eb_check_float_accumulate(acc, 4, 2, 0, 0), 1);
    /* init + one origin (RMA Accumulate): T + O */
    for (int j = 0; j < 4; j++)
        acc[j] = eb_buf_value(1, j) + eb_buf_value(0, j);
    CHECK_EQ_LONG(eb_check_float_accumulate(acc, 4, 1, 1, 1), 0);
    /* only the target's old value (the accumulate never happened): defects */
    for (int j = 0; j < 4; j++)
        acc[j] = eb_buf_value(1, j);
    CHECK_EQ_LONG(eb_check_float_accumulate(acc, 4, 1, 1, 1), 4);
    /* four origins summed in reverse order pass; a missing origin fails */
    for (int j = 0; j < 4; j++) {
        float s = 0;
        for (int r = 3; r >= 0; r--)
            s += eb_buf_value(r, j);
        acc[j] = s;
    }
    CHECK_EQ_LONG(eb_check_float_accumulate(acc, 4, 4, 0, 0), 0);
    for (int j = 0; j < 4; j++)
        acc[j] -= eb_buf_value(2, j);
    CHECK_EQ_LONG(eb_check_float_accumulate(acc, 4, 4, 0, 0), 4);

    /* verdict: overlap (t_ovrl ~ t_cpu + barrier) vs serialised (t_cpu + t_pure) */
    CHECK_EQ_LONG(eb_rma_passive_verdict(10.0, 12.0, 10.5), 1);
    CHECK_EQ_LONG(eb_rma_passive_verdict(10.0, 20.5, 10.5), 0);
    CHECK_EQ_LONG(eb_rma_passive_verdict(10.0, 15.6, 10.5), 0);
    CHECK_EQ_LONG(eb_rma_passive_verdict(10.0, 15.4, 10.5), 1);
    UNIT_DONE();
}
