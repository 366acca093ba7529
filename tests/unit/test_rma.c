/* Pure helpers of the one-sided families: BUF_VALUE data and its checks,
 * the accumulate verification, the Truly_passive_put verdict, the window
 * geometry of IMB's code (one section; -off_cache's cycling). */
#include "imb/driver/options.h"
#include "imb/driver/repeat.h"
#include "imb/rma_passive.h"
#include "imb/rma_win.h"
#include "unit.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* IMB's window geometry (IMB_init_buffers_iter: r_cache_iter sections
 * r_offs apart): without -off_cache one section of x bytes, which every
 * repetition of both modes reuses, whatever the policy, and no cap on the
 * repetitions; with -off_cache min(n, ceil(2 * cache / stride)) sections,
 * stride = x rounded up to whole cache lines plus one line, disjoint and
 * inside the window. */
static void test_sections(void)
{
    static const eb_bench bench = {.name = "Unidir_Put"};
    eb_imb_options o;
    memset(&o, 0, sizeof o);
    o.iter = (eb_iter_settings){.msgspersample = 1000, .overall_vol = 40L << 20,
                                .msgs_nonaggr = 100};
    const size_t xs[] = {0, 1, 4, 1000, 41943, 65536, 1 << 20, 4 << 20};
    const eb_iter_policy pols[] = {EB_ITER_DYNAMIC, EB_ITER_OFF, EB_ITER_MULTIPLE_NP};
    for (size_t p = 0; p < sizeof pols / sizeof pols[0]; p++)
        for (size_t ix = 0; ix < sizeof xs / sizeof xs[0]; ix++)
            for (int agg = 0; agg <= 1; agg++) {
                size_t x = xs[ix], stride = 0;
                o.iter.policy = pols[p];
                o.cache = (eb_cache){0, 0};
                eb_ctx c = {.bench = &bench, .opt = &o, .aggregate = agg};
                CHECK_EQ_LONG(eb_rma_sections(&c, x, &stride), 1);
                CHECK_EQ_LONG((long)eb_rma_area(1, stride, x), (long)x);
                CHECK_EQ_LONG((long)eb_rma_section_offset(999, 1, stride), 0);
                CHECK_EQ_LONG(c.max_reps, 0);
                /* -off_cache 1 (MB), 64-byte lines */
                o.cache = (eb_cache){1.0, 64};
                long nsec = eb_rma_sections(&c, x, &stride);
                long n = eb_n_sample_base(&o.iter, x, agg);
                size_t ofs = ((x + 63) / 64 + 1) * 64;
                long want = (long)((2u << 20) + ofs - 1) / (long)ofs;
                CHECK_EQ_LONG(nsec, n < want ? n : want);
                if (nsec > 1) {
                    CHECK_EQ_LONG((long)stride, (long)ofs);
                    size_t area = eb_rma_area(nsec, stride, x);
                    for (long i = 0; i < 3 * nsec; i++) {
                        size_t off = eb_rma_section_offset(i, nsec, stride);
                        CHECK(off + x <= area);
                        CHECK_EQ_LONG((long)off, (long)((size_t)(i % nsec) * ofs));
                    }
                }
            }
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
