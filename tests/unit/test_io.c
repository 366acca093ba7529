/* IMB-IO pure helpers: BUF_VALUE data, portion split, file names, hints,
 * shared-pointer checks. */
#include "imb/io.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

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

    /* a shared-pointer read: 6 bytes of owner 0's file found at offset 102 */
    unsigned char got[6];
    eb_io_fill(got, sizeof got, 0, 102);
    CHECK_EQ_LONG(eb_io_check_somewhere(got, sizeof got, 0, 100, 104), 0);
    CHECK(eb_io_check_somewhere(got, sizeof got, 0, 103, 104) > 0);
    CHECK_EQ_LONG(eb_io_check_somewhere(got, 0, 0, 0, 0), 0);
}

int main(void)
{
    test_values();
    test_portion();
    test_names();
    test_hints();
    test_shuffled();
    UNIT_DONE();
}
