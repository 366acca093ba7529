/* IMB-IO pure helpers: BUF_VALUE data, portion split, file names, hints,
 * shared-pointer checks. */
#include "imb/io_util.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_values(void)
{
    CHECK_EQ_LONG(eb_io_value(0, 0), 10000000);
    CHECK_EQ_LONG(eb_io_value(2, 5), 30000005);
    CHECK_EQ_LONG(eb_io_value(0, 10000001), 10000001); /* i % 10000000 */
    unsigned char buf[13];
    eb_io_fill(buf, sizeof buf, 1, 0);
    int32_t v;
    memcpy(&v, buf + 4, 4);
    CHECK_EQ_LONG(v, 20000001);
    CHECK_EQ_LONG(eb_io_check(buf, sizeof buf, 1, 0), 0);
    CHECK_EQ_LONG(eb_io_check(buf, sizeof buf, 0, 0), 13); /* rank 0 differs in every byte */
    /* an unaligned stretch equals the same bytes of the whole array */
    unsigned char part[7];
    eb_io_fill(part, sizeof part, 1, 3);
    CHECK(memcmp(part, buf + 3, sizeof part) == 0);
    CHECK_EQ_LONG(eb_io_byte(1, 12), buf[12]);
    buf[6] ^= 1;
    CHECK_EQ_LONG(eb_io_check(buf, sizeof buf, 1, 0), 1);
}

static void test_portion(void)
{
    size_t off, len;
    /* 10 bytes = 3 ints over 2 processes: 8 + 2 bytes */
    eb_io_portion(10, 2, 0, &off, &len);
    CHECK_EQ_LONG(off, 0);
    CHECK_EQ_LONG(len, 8);
    eb_io_portion(10, 2, 1, &off, &len);
    CHECK_EQ_LONG(off, 8);
    CHECK_EQ_LONG(len, 2);
    /* 1 byte over 3: only rank 0 has data */
    eb_io_portion(1, 3, 0, &off, &len);
    CHECK_EQ_LONG(len, 1);
    eb_io_portion(1, 3, 2, &off, &len);
    CHECK_EQ_LONG(len, 0);
    CHECK_EQ_LONG(off, 1);
    /* 4096 over 3: 342 / 341 / 341 ints, contiguous, covering everything */
    size_t end = 0;
    for (int r = 0; r < 3; r++) {
        eb_io_portion(4096, 3, r, &off, &len);
        CHECK_EQ_LONG(off, end);
        end = off + len;
    }
    CHECK_EQ_LONG(end, 4096);
    eb_io_portion(4096, 3, 0, &off, &len);
    CHECK_EQ_LONG(len, 342 * 4);
    eb_io_portion(0, 4, 3, &off, &len);
    CHECK_EQ_LONG(len, 0);
}

static void test_names(void)
{
    char n[64];
    CHECK_EQ_LONG(eb_io_file_name(n, sizeof n, "IMB_out", -1, -1), 0);
    CHECK_STR(n, "IMB_out");
    eb_io_file_name(n, sizeof n, "IMB_out", 2, -1);
    CHECK_STR(n, "IMB_out_g2");
    eb_io_file_name(n, sizeof n, "IMB_out", -1, 3);
    CHECK_STR(n, "IMB_out_3");
    eb_io_file_name(n, sizeof n, "/d/f", 1, 3);
    CHECK_STR(n, "/d/f_g1_3");
    CHECK_EQ_LONG(eb_io_file_name(n, 8, "IMB_out", 1, 3), -1);
}

static void test_hints(void)
{
    eb_io_hints h;
    char err[256];
    CHECK_EQ_LONG(eb_io_parse_hints("# ROMIO\n\nromio_cb_write enable\n  cb_nodes   2  \n", "h.txt",
                                    &h, err, sizeof err), 0);
    CHECK_EQ_LONG(h.n, 2);
    CHECK_STR(h.key[0], "romio_cb_write");
    CHECK_STR(h.value[0], "enable");
    CHECK_STR(h.key[1], "cb_nodes");
    CHECK_STR(h.value[1], "2");
    eb_io_hints_free(&h);
    CHECK_EQ_LONG(eb_io_parse_hints("a 1\nlonely\n", "h.txt", &h, err, sizeof err), -1);
    CHECK_STR(err, "h.txt:2: hint 'lonely' has no value (expected 'key value')");
    CHECK_EQ_LONG(h.n, 0);
}

static void test_shuffled(void)
{
    /* x = 10 over 3 ranks: 4 + 4 + 2 bytes, written in the order 2, 0, 1 */
    size_t len[3], off;
    for (int r = 0; r < 3; r++)
        eb_io_portion(10, 3, r, &off, &len[r]);
    unsigned char block[10];
    eb_io_fill(block, len[2], 2, 0);
    eb_io_fill(block + len[2], len[0], 0, 0);
    eb_io_fill(block + len[2] + len[0], len[1], 1, 0);
    CHECK_EQ_LONG(eb_io_check_shuffled(block, 10, 3, len), 0);
    block[5] ^= 0xff; /* inside rank 0's portion */
    CHECK(eb_io_check_shuffled(block, 10, 3, len) > 0);

    /* shared-pointer reads of block 3 (x = 37, 4 ranks: 12 + 12 + 8 + 5
     * bytes) of owner 0's file: the ranks' parts in the order 3, 1, 0, 2 */
    size_t x = 37, lens[4], at = 3 * 37;
    unsigned char file[37], got[37];
    const unsigned char *piece[4];
    for (int r = 0; r < 4; r++)
        eb_io_portion(x, 4, r, &off, &lens[r]);
    CHECK(lens[0] == 12 && lens[1] == 12 && lens[2] == 8 && lens[3] == 5);
    eb_io_fill(file, x, 0, at);
    const int order[4] = {3, 1, 0, 2};
    size_t pos = 0;
    for (int k = 0; k < 4; k++) {
        int r = order[k];
        eb_io_fill(got + pos, lens[r], 0, at + pos);
        piece[r] = got + pos;
        pos += lens[r];
    }
    CHECK_EQ_LONG(eb_io_check_tiling(file, x, 4, piece, lens), 0);
    /* one flipped byte in what rank 0 read: the block is not covered */
    got[5 + 12] ^= 1;
    CHECK(eb_io_check_tiling(file, x, 4, piece, lens) > 0);
    got[5 + 12] ^= 1;
    /* two ranks that read the same part (rank 2 a copy of rank 1's bytes,
     * where its own 8 bytes were due): some bytes read twice, others never */
    unsigned char dup[8];
    memcpy(dup, piece[1], 8);
    piece[2] = dup;
    CHECK(eb_io_check_tiling(file, x, 4, piece, lens) > 0);
    /* data of the right file but the wrong block (at 2x instead of 3x) */
    eb_io_fill(got, x, 0, 2 * 37);
    for (int r = 0, p = 0; r < 4; p += (int)lens[r], r++)
        piece[r] = got + p;
    CHECK(eb_io_check_tiling(file, x, 4, piece, lens) > 0);
    /* a piece that matches at more than one place: block 1 2 1 is [1 2][1],
     * though [1] also fits first (then [1 2] would not): backtracking */
    const unsigned char b3[3] = {1, 2, 1}, one[1] = {1}, onetwo[2] = {1, 2};
    const unsigned char *p3[2] = {one, onetwo};
    CHECK_EQ_LONG(eb_io_check_tiling(b3, 3, 2, p3, (size_t[]){1, 2}), 0);
    const unsigned char b3other[3] = {1, 1, 2}; /* the other order */
    CHECK_EQ_LONG(eb_io_check_tiling(b3other, 3, 2, p3, (size_t[]){1, 2}), 0);
    const unsigned char b3no[3] = {2, 1, 1};
    CHECK_EQ_LONG(eb_io_check_tiling(b3no, 3, 2, p3, (size_t[]){1, 2}), 3);
    CHECK_EQ_LONG(eb_io_check_tiling(b3, 0, 2, p3, (size_t[]){0, 0}), 0);
}

/* IMB-IO's disjoint sections: for M repetitions of an X-byte portion split
 * among np ranks, the ranks' parts never overlap, cover the file's M*X
 * bytes (common file) or the rank's own M*len bytes (own file), and stay
 * inside that extent. */
static void test_sections(void)
{
    const size_t xs[] = {0, 1, 3, 4, 5, 37, 1000, 4096, 4097};
    const long M = 7;
    for (size_t ix = 0; ix < sizeof xs / sizeof xs[0]; ix++) {
        size_t x = xs[ix];
        for (int np = 1; np <= 5; np++) {
            /* common file: count the ranks covering each byte */
            unsigned char *cover = calloc((size_t)M * x + 1, 1);
            for (long b = 0; b < M; b++)
                for (int r = 0; r < np; r++) {
                    size_t len, o = eb_io_section(x, np, r, 0, b, &len);
                    CHECK(o + len <= (size_t)M * x);
                    for (size_t k = 0; k < len && o + k < (size_t)M * x; k++)
                        cover[o + k]++;
                }
            size_t wrong = 0;
            for (size_t k = 0; k < (size_t)M * x; k++)
                wrong += cover[k] != 1;
            CHECK_EQ_LONG(wrong, 0);
            free(cover);
            /* own file: the rank's parts one after another from 0 */
            for (int r = 0; r < np; r++) {
                size_t len, end = 0;
                for (long b = 0; b < M; b++) {
                    size_t o = eb_io_section(x, np, r, 1, b, &len);
                    CHECK_EQ_LONG(o, end);
                    end = o + len;
                }
                CHECK_EQ_LONG(end, (size_t)M * len);
            }
        }
    }
}

int main(void)
{
    test_values();
    test_portion();
    test_names();
    test_hints();
    test_shuffled();
    test_sections();
    UNIT_DONE();
}
