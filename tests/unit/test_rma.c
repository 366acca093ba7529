/* Pure helpers of the one-sided families: BUF_VALUE data and its checks,
 * the accumulate verification, the Truly_passive_put verdict. */
#include "imb/rma.h"
#include "imb/rma_win.h"
#include "unit.h"

#include <float.h>
#include <math.h>
#include <string.h>

int main(void)
{
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
