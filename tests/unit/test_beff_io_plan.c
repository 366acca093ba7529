/* b_eff_io pure rules: M_PART, Table 2, default partitions, the schedule,
 * the geometric series, type 3/4 segment sizing, averaging, hints, planned rows. */
#include "beffio/beff_io_plan.h"

#include "unit.h"

#include <math.h>

#define MIB 1048576LL

static void test_mpart(void)
{
    CHECK_EQ_LONG(bio_mpart(64.0 * MIB), 2 * MIB);
    CHECK_EQ_LONG(bio_mpart(256.0 * MIB), 2 * MIB);
    CHECK_EQ_LONG(bio_mpart(1024.0 * MIB), 8 * MIB);
    CHECK_EQ_LONG(bio_mpart(12288.0 * MIB), 96 * MIB);
    CHECK_EQ_LONG(bio_mpart(1e15), 1024 * MIB);
    CHECK_EQ_LONG(bio_mpart(1000.0 * MIB) % 8, 0);
}

static void test_table(void)
{
    bio_type_table t[BIO_NTYPES];
    bio_pattern_table(4 * MIB, t);
    static const int npat[BIO_NTYPES] = {9, 8, 8, 9, 9};
    static const int units[BIO_NTYPES] = {22, 12, 10, 10, 10};
    int sum = 0;
    for (int ty = 0; ty < BIO_NTYPES; ty++) {
        CHECK_EQ_LONG(t[ty].npat, npat[ty]);
        CHECK_EQ_LONG(bio_type_units(&t[ty]), units[ty]);
        sum += bio_type_units(&t[ty]);
        for (int p = 0; p < t[ty].npat; p++) {
            if (t[ty].pat[p].filler)
                continue;
            CHECK_EQ_LONG(t[ty].pat[p].l % 8, 0);
            CHECK_EQ_LONG(t[ty].pat[p].L % t[ty].pat[p].l, 0);
        }
    }
    CHECK_EQ_LONG(sum, 64);
    static const long long l0[9] = {MIB, 4 * MIB, MIB, MIB, 32768, 1024, 32776, 1032, MIB + 8};
    static const long long L0[9] = {MIB, 4 * MIB, 2 * MIB, MIB, MIB, MIB, MIB + 256,
                                    MIB + 8192, MIB + 8};
    static const int U0[9] = {0, 4, 4, 4, 2, 2, 2, 2, 2};
    for (int p = 0; p < 9; p++) {
        CHECK_EQ_LONG(t[0].pat[p].l, l0[p]);
        CHECK_EQ_LONG(t[0].pat[p].L, L0[p]);
        CHECK_EQ_LONG(t[0].pat[p].U, U0[p]);
    }
    static const int U1[8] = {0, 4, 2, 1, 1, 1, 1, 2};
    static const long long l1[8] = {MIB, 4 * MIB, MIB, 32768, 1024, 32776, 1032, MIB + 8};
    for (int p = 0; p < 8; p++) {
        CHECK_EQ_LONG(t[1].pat[p].U, U1[p]);
        CHECK_EQ_LONG(t[1].pat[p].l, l1[p]);
        CHECK_EQ_LONG(t[1].pat[p].L, l1[p]);
        CHECK_EQ_LONG(t[2].pat[p].l, l1[p]);
        CHECK_EQ_LONG(t[3].pat[p].l, l1[p]);
    }
    CHECK_EQ_LONG(t[2].pat[1].U, 2);
    CHECK(t[3].pat[8].filler && t[4].pat[8].filler && t[3].pat[8].U == 0);
    /* summary rows: 1k, 1k+8, 32k, 32k+8, 1M, 1M+8, M_PART; pattern 2 of type 0 is left out */
    CHECK_EQ_LONG(t[0].pat[2].row, -1);
    CHECK_EQ_LONG(t[0].pat[3].row, 4);
    CHECK_EQ_LONG(t[0].pat[1].row, 6);
    CHECK_EQ_LONG(t[0].pat[7].row, 1);
    CHECK_EQ_LONG(t[1].pat[0].row, -1);
}

static void test_partitions(void)
{
    int out[BIO_MAX_PARTS];
    char err[256];
    static const int P[] = {1, 2, 3, 4, 5, 8, 16, 64, 128};
    static const int want[][3] = {{1}, {1, 2}, {1, 2, 3}, {2, 3, 4}, {2, 4, 5}, {2, 4, 8},
                                  {2, 8, 16}, {4, 16, 64}, {4, 32, 128}};
    static const int count[] = {1, 2, 3, 3, 3, 3, 3, 3, 3};
    for (int i = 0; i < 9; i++) {
        int n = bio_default_partitions(P[i], out);
        CHECK_EQ_LONG(n, count[i]);
        for (int k = 0; k < n; k++)
            CHECK_EQ_LONG(out[k], want[i][k]);
    }
    CHECK_EQ_LONG(bio_parse_partitions("auto", 4, out, err, sizeof err), 3);
    CHECK_EQ_LONG(bio_parse_partitions("1,4,2", 4, out, err, sizeof err), 3);
    CHECK_EQ_LONG(out[0], 1);
    CHECK_EQ_LONG(out[1], 4);
    CHECK_EQ_LONG(out[2], 2);
    CHECK_EQ_LONG(bio_parse_partitions("5", 4, out, err, sizeof err), -1);
    CHECK_STR(err, "--partitions 5: 5 is not between 1 and 4 processes");
    CHECK_EQ_LONG(bio_parse_partitions("2,2", 4, out, err, sizeof err), -1);
    CHECK_STR(err, "--partitions 2,2: 2 appears twice");
    CHECK_EQ_LONG(bio_parse_partitions("1,", 4, out, err, sizeof err), -1);
    CHECK_STR(err, "--partitions 1,: expected `auto` or a comma list of process counts");
}

static void test_schedule(void)
{
    CHECK(fabs(bio_pattern_seconds(900, 4) - 900.0 / 3 * 4 / 64) < 1e-12);
    CHECK(bio_pattern_seconds(900, 0) == 0);
    /* the series doubles while far from the target ... */
    CHECK_EQ_LONG(bio_next_batch(1, 0.001, 1.0, 1, 0.001), 1);
    CHECK_EQ_LONG(bio_next_batch(2, 0.002, 1.0, 1, 0.001), 2);
    CHECK_EQ_LONG(bio_next_batch(64, 0.064, 1.0, 32, 0.032), 64);
    /* -T 1e300: the fit is far beyond a long long; all that is left, no overflowing cast */
    CHECK_EQ_LONG(bio_next_batch(64, 0.064, 1e300, 32, 0.032), 64);
    /* ... then takes half of what is predicted to fit at the last batch's rate */
    CHECK_EQ_LONG(bio_next_batch(512, 0.512, 1.0, 256, 0.256), 244);
    CHECK_EQ_LONG(bio_next_batch(512, 0.512, 1.0, 256, 0.128), 488);  /* calls got faster */
    CHECK_EQ_LONG(bio_next_batch(512, 0.512, 1.0, 256, 0.512), 122);  /* calls got slower */
    CHECK_EQ_LONG(bio_next_batch(512, 0.997, 1.0, 256, 0.256), 3);    /* fewer than 4 left: all */
    CHECK_EQ_LONG(bio_next_batch(1000, 0.9996, 1.0, 500, 0.5), 0);    /* rounded to nearest */
    CHECK_EQ_LONG(bio_next_batch(1000, 0.9994, 1.0, 500, 0.5), 1);
    CHECK_EQ_LONG(bio_next_batch(3, 1.5, 1.0, 2, 1.0), 0);
    CHECK_EQ_LONG(bio_next_batch(1, 0.0, 1.0, 1, 0.0), 1); /* a clock too coarse: keep doubling */
    /* the number of checks is logarithmic in the repeat factor, even when the
     * first call costs half the scheduled time */
    long long done = 0, batch = 1, last = 0;
    int checks = 0;
    double per_call = 1e-5, target = 1.0, el = 0;
    while (batch > 0) {
        double bt = batch * per_call + (done == 0 ? 0.5 : 0);
        done += batch;
        el += bt;
        last = batch;
        checks++;
        batch = bio_next_batch(done, el, target, last, bt);
    }
    CHECK_EQ_LONG(done, 50000);
    CHECK(checks <= 2 * log2(50000.0) + 3);
}

static void test_segment(void)
{
    bio_type_table t[BIO_NTYPES];
    bio_pattern_table(2 * MIB, t);
    /* the repeat factors of the original's protocol (n=1, T=60) */
    long long rep[BIO_NTYPES][BIO_MAX_PAT] = {
        {1, 127, 90, 190, 94, 122, 308, 128, 126},
        {1, 131, 140, 2671, 45931, 362, 15567, 123},
        {1, 65, 139, 2328, 37258, 1690, 30103, 74},
    };
    long long rep34[BIO_MAX_PAT], filler;
    long long lseg = bio_segment(t, rep, rep34, &filler);
    static const long long want[8] = {1, 65, 139, 2328, 37258, 1690, 30103, 74};
    for (int p = 0; p < 8; p++)
        CHECK_EQ_LONG(rep34[p], want[p]);
    CHECK_EQ_LONG(lseg, 536 * MIB);   /* Lseg=536 MBytes in the .prot */
    CHECK_EQ_LONG(filler, 432168);    /* its filler pattern l */
    CHECK_EQ_LONG(rep34[8], 1);
    /* n=2 of the same protocol: type 1 limits 32k (10 * 42), type 2 the others */
    long long rep2[BIO_NTYPES][BIO_MAX_PAT] = {
        {1, 23, 1, 20, 31, 23, 23, 19, 32},
        {1, 32, 20, 42, 1457, 133, 2659, 18},
        {1, 27, 50, 479, 8013, 218, 9730, 16},
    };
    lseg = bio_segment(t, rep2, rep34, &filler);
    static const long long want2[8] = {1, 23, 20, 420, 8013, 218, 9730, 16};
    for (int p = 0; p < 8; p++)
        CHECK_EQ_LONG(rep34[p], want2[p]);
    CHECK_EQ_LONG(lseg, 121 * MIB);
    CHECK_EQ_LONG(filler, 691360);
    /* a sum on a MiB boundary needs no filler */
    long long rep3[BIO_NTYPES][BIO_MAX_PAT] = {{1, 1, 1, 1, 0, 0, 0, 0, 0},
                                               {1, 1, 1, 0, 0, 0, 0, 0},
                                               {1, 1, 1, 0, 0, 0, 0, 0}};
    lseg = bio_segment(t, rep3, rep34, &filler);
    CHECK_EQ_LONG(lseg, 4 * MIB);
    CHECK_EQ_LONG(filler, 0);
    CHECK_EQ_LONG(rep34[8], 0);
}

static void test_values(void)
{
    /* the original's summary for n=1: type values -> access methods -> 2.1's formula */
    double w[5] = {287.685, 250.459, 237.608, 166.370, 135.919};
    double r[5] = {1158.003, 1527.021, 1419.611, 1435.204, 1233.755};
    CHECK(fabs(bio_method_value(w) - 227.621) < 0.001);
    CHECK(fabs(bio_method_value(r) - 1321.933) < 0.001);
    CHECK(fabs(bio_rel21_value(w, 821.027, 1321.933) - 646.843) < 0.001);
    CHECK(fabs(bio_partition_value(100, 200, 400) - 275) < 1e-12);
}

static void test_hints(void)
{
    bio_hint h[BIO_MAX_HINTS];
    char err[256];
    int n = bio_parse_hints("# comment\n\nall romio_cb_write enable\n 0,3 striping_unit 1048576 "
                            "# tail\n4 key a value with spaces\n",
                            "h.txt", h, err, sizeof err);
    CHECK_EQ_LONG(n, 3);
    CHECK_EQ_LONG(h[0].types, 31);
    CHECK_STR(h[0].key, "romio_cb_write");
    CHECK_STR(h[0].value, "enable");
    CHECK_EQ_LONG(h[1].types, 9);
    CHECK_STR(h[1].value, "1048576");
    CHECK_EQ_LONG(h[2].types, 16);
    CHECK_STR(h[2].key, "key");
    CHECK_STR(h[2].value, "a value with spaces");
    /* file lines, for the messages about keys the MPI library refuses */
    CHECK_EQ_LONG(h[0].line, 3);
    CHECK_EQ_LONG(h[1].line, 4);
    CHECK_EQ_LONG(h[2].line, 5);
    CHECK_EQ_LONG(bio_parse_hints("all key\n", "h.txt", h, err, sizeof err), -1);
    CHECK_STR(err, "h.txt:1: expected `TYPES KEY VALUE` (TYPES = all or e.g. 0,3), got `all key`");
    CHECK_EQ_LONG(bio_parse_hints("all\n", "h.txt", h, err, sizeof err), -1);
    CHECK_STR(err, "h.txt:1: expected `TYPES KEY VALUE` (TYPES = all or e.g. 0,3), got `all`");
    /* 255 characters fit; 256 are refused, not cut */
    char text[700], k255[256], k256[257];
    memset(k255, 'k', 255);
    k255[255] = 0;
    memset(k256, 'k', 256);
    k256[256] = 0;
    snprintf(text, sizeof text, "all %s %s\n", k255, k255);
    CHECK_EQ_LONG(bio_parse_hints(text, "h.txt", h, err, sizeof err), 1);
    CHECK_STR(h[0].key, k255);
    CHECK_STR(h[0].value, k255);
    snprintf(text, sizeof text, "all %s v\n", k256);
    CHECK_EQ_LONG(bio_parse_hints(text, "h.txt", h, err, sizeof err), -1);
    CHECK_STR(err, "h.txt:1: the key and the value may have at most 255 characters each");
    snprintf(text, sizeof text, "0 k %s\n", k256);
    CHECK_EQ_LONG(bio_parse_hints(text, "h.txt", h, err, sizeof err), -1);
    CHECK_STR(err, "h.txt:1: the key and the value may have at most 255 characters each");
    CHECK_EQ_LONG(bio_parse_hints("\n0,7 a b\n", "h.txt", h, err, sizeof err), -1);
    CHECK_STR(err, "h.txt:2: `0,7` is not `all` or a list of pattern types 0..4");
    CHECK_EQ_LONG(bio_parse_hints("01 a b\n", "h.txt", h, err, sizeof err), -1);
    CHECK_EQ_LONG(bio_word_tag(0, 5), 1LL << 56);
    CHECK_EQ_LONG(bio_word_tag(2, 5), (3LL << 56) | (5LL << 40));
}

/* --json's planned_rows: per partition, write, rewrite and read each have
 * 43 pattern and 5 type records; the release-2.0 rewrite 9 + 1. */
static void test_planned_rows(void)
{
    bio_type_table t[BIO_NTYPES];
    bio_pattern_table(2 * BIO_MIB, t);
    CHECK_EQ_LONG(bio_planned_rows(t, 1, 0), 3 * 48);
    CHECK_EQ_LONG(bio_planned_rows(t, 3, 0), 3 * 3 * 48);
    CHECK_EQ_LONG(bio_planned_rows(t, 1, 1), 48 + 10 + 48);
    CHECK_EQ_LONG(bio_planned_rows(t, 2, 1), 2 * (48 + 10 + 48));
}

int main(void)
{
    test_mpart();
    test_table();
    test_partitions();
    test_schedule();
    test_segment();
    test_values();
    test_hints();
    test_planned_rows();
    UNIT_DONE();
}
