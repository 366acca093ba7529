/* `effbench skampi --check` (src/skampi/check.h): the message bytes, and the
 * images of the buffers before and after a correct run, against runs of the
 * operations simulated here with the layouts' copy loop; a wrong byte, a
 * touched guard byte and a block at the wrong place are counted. */
#include "skampi/check.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static char err[512];

#define P 3
#define LEN 4096

typedef struct {
    unsigned char s[LEN], r[LEN];
} bufs;

static sk_check_case mk(int type, int rank, const sk_basetype *b, const sk_block *sbl, long nsb,
                        const sk_block *rbl, long nrb, long sspan, long rspan)
{
    sk_check_case k = {type, rank, P, 1, b, sbl, rbl, nsb, nrb, sspan, rspan, 0};
    return k;
}

int main(void)
{
    /* bytes: never a guard or gap value; they depend on sender, message
     * number and position */
    int guard_or_gap = 0, same_src = 0, same_msg = 0, period = 0;
    for (int src = 0; src < 64; src++)
        for (long k = 0; k < 5000; k++) {
            unsigned char v = sk_check_byte(src, 3, k);
            guard_or_gap |= v == SK_CHECK_GUARD || v == SK_CHECK_GAP || v == 0;
            same_src += v == sk_check_byte(src + 1, 3, k);
            same_msg += v == sk_check_byte(src, 4, k);
            period += v == sk_check_byte(src, 3, k + 251);
        }
    CHECK(!guard_or_gap);
    CHECK(same_src < 64 * 5000 / 50 && same_msg < 64 * 5000 / 50 && period < 64 * 5000 / 50);

    /* Alltoall (21) on 3 processes, vector sends, indexed-of-structs
     * receives over MPI_INT: simulated with the copy loop, every block from
     * rank i's buffer at block d to rank d's buffer at block i */
    sk_basetype b;
    CHECK_EQ_LONG(sk_basetype_parse("MPI_INT", &b, err, sizeof err), 0);
    long bytes = 2 * 48;
    sk_block *sbl, *rbl;
    long nsb = sk_layout(&b, 2, bytes, &sbl), nrb = sk_layout(&b, 13, bytes, &rbl);
    long sspan = sk_dt_span(&b, 2, bytes), rspan = sk_dt_span(&b, 13, bytes);
    CHECK(P * sspan + SK_CHECK_PAD <= LEN && P * rspan + SK_CHECK_PAD <= LEN);
    static bufs before[P], run[P], after[P];
    for (int i = 0; i < P; i++) {
        sk_check_case k = mk(21, i, &b, sbl, nsb, rbl, nrb, sspan, rspan);
        sk_check_before(&k, before[i].s, LEN, before[i].r, LEN);
        run[i] = before[i];
        after[i] = before[i];
        sk_check_deliver(&k, 0, after[i].s, LEN, after[i].r, LEN);
    }
    for (int d = 0; d < P; d++)
        for (int i = 0; i < P; i++)
            sk_layout_copy((char *)run[d].r + i * rspan, rbl, nrb,
                           (const char *)before[i].s + d * sspan, sbl, nsb);
    long bad = 0;
    for (int i = 0; i < P; i++)
        bad += sk_check_diff(after[i].s, run[i].s, LEN) + sk_check_diff(after[i].r, run[i].r, LEN);
    CHECK_EQ_LONG(bad, 0);
    /* the send buffer holds gap bytes outside the layout, the receive
     * buffer guard bytes outside it */
    CHECK_EQ_LONG(before[1].s[12], SK_CHECK_GAP); /* the vector's gap after 3 ints */
    CHECK_EQ_LONG(after[1].r[4], SK_CHECK_GUARD); /* indexed of structs: gap at int 1 */
    CHECK_EQ_LONG(after[1].r[P * rspan], SK_CHECK_GUARD);
    /* one wrong data byte, one touched guard byte, one gap byte sent */
    run[2].r[rspan] ^= 1;
    run[2].r[4] = 0;
    CHECK_EQ_LONG(sk_check_diff(after[2].r, run[2].r, LEN), 2);
    /* rank 0's and rank 1's blocks swapped at rank 2: every byte differs */
    unsigned char swapped[LEN];
    memcpy(swapped, after[2].r, LEN);
    memcpy(swapped, after[2].r + rspan, (size_t)rspan);
    memcpy(swapped + rspan, after[2].r, (size_t)rspan);
    long data = 0;
    for (long i = 0; i < nrb; i++)
        data += rbl[i].len;
    CHECK_EQ_LONG(data, bytes);
    CHECK(sk_check_diff(after[2].r, swapped, LEN) >= 2 * bytes * 9 / 10);

    /* Sendrecv_replace (34): one buffer, own message before, the partner's after */
    bufs pp[2];
    sk_check_case k0 = mk(34, 0, &b, rbl, nrb, rbl, nrb, rspan, rspan);
    sk_check_case k1 = mk(34, 1, &b, rbl, nrb, rbl, nrb, rspan, rspan);
    k0.size = k1.size = 2;
    sk_check_before(&k0, pp[0].s, LEN, pp[0].r, LEN);
    sk_check_before(&k1, pp[1].s, LEN, pp[1].r, LEN);
    bufs want0 = pp[0];
    sk_check_deliver(&k0, 0, want0.s, LEN, want0.r, LEN);
    CHECK_EQ_LONG(sk_check_diff(want0.r, pp[1].r, LEN), 0); /* rank 1's message, same layout */
    CHECK(sk_check_diff(pp[0].r, pp[1].r, LEN) > 0);

    /* reductions: Reduce_scatter (38) of MPI_SHORT, 2 elements per block:
     * rank d gets the sums of elements 2d and 2d+1 */
    sk_basetype sh;
    CHECK_EQ_LONG(sk_basetype_parse("MPI_SHORT", &sh, err, sizeof err), 0);
    short sum[2 * P] = {0};
    for (int i = 0; i < P; i++) {
        sk_check_case k = {38, i, P, 1, &sh, NULL, NULL, 0, 0, 4, 4, 2};
        sk_check_before(&k, before[i].s, LEN, before[i].r, LEN);
        for (int e = 0; e < 2 * P; e++) {
            short v;
            memcpy(&v, before[i].s + 2 * e, 2);
            CHECK(v >= 1 && v <= 7);
            sum[e] = (short)(sum[e] + v);
        }
        CHECK_EQ_LONG(before[i].s[4 * P], SK_CHECK_GAP);
    }
    for (int d = 0; d < P; d++) {
        sk_check_case k = {38, d, P, 1, &sh, NULL, NULL, 0, 0, 4, 4, 2};
        after[d] = before[d];
        sk_check_deliver(&k, 0, after[d].s, LEN, after[d].r, LEN);
        CHECK(memcmp(after[d].r, &sum[2 * d], 4) == 0);
        CHECK_EQ_LONG(after[d].r[4], SK_CHECK_GUARD);
        CHECK_EQ_LONG(sk_check_diff(after[d].s, before[d].s, LEN), 0);
    }

    /* master-worker: the last result the master of types 13-16 receives */
    CHECK_EQ_LONG(sk_check_last_worker(13, 5, 2), 1);
    CHECK_EQ_LONG(sk_check_last_worker(14, 3, 3), 3);
    CHECK_EQ_LONG(sk_check_last_worker(16, 7, 3), 1);
    CHECK_EQ_LONG(sk_check_last_worker(12, 7, 3), 0);
    CHECK(sk_check_applies(1) && sk_check_applies(44) && sk_check_applies(16));
    CHECK(!sk_check_applies(19) && !sk_check_applies(23) && !sk_check_applies(24) &&
          !sk_check_applies(28));
    free(sbl);
    free(rbl);
    UNIT_DONE();
}
