/* JSON writer (escaping, null for non-finite numbers, nesting) and the
 * buffer geometry of -off_cache. */
#include "core/buffers.h"
#include "core/json.h"
#include "core/report/jsonl.h"
#include "unit.h"

#include <math.h>
#include <string.h>

int main(void)
{
    eb_json j;
    eb_json_init(&j);
    eb_json_str(&j, "s", "a\"b\\c\nd\x01");
    eb_json_num(&j, "x", 0.1);
    eb_json_num(&j, "nan", NAN);
    eb_json_num(&j, "inf", INFINITY);
    eb_json_int(&j, "i", -42);
    eb_json_bool(&j, "b", 1);
    eb_json_str(&j, "n", NULL);
    eb_json_array(&j, "a");
    eb_json_int(&j, NULL, 1);
    eb_json_object(&j, NULL);
    eb_json_str(&j, "k", "v");
    eb_json_close(&j);
    eb_json_close(&j);
    CHECK_STR(eb_json_finish(&j),
              "{\"s\": \"a\\\"b\\\\c\\nd\\u0001\", \"x\": 0.10000000000000001, \"nan\": null, "
              "\"inf\": null, \"i\": -42, \"b\": true, \"n\": null, \"a\": [1, {\"k\": \"v\"}]}");

    /* reading it back (--resume): top-level members only, escapes skipped */
    const char *rec = j.buf;
    size_t len;
    const char *v = eb_jsonl_value(rec, "a", &len);
    CHECK(v && len == strlen("[1, {\"k\": \"v\"}]") && strncmp(v, "[1, {\"k\": \"v\"}]", len) == 0);
    CHECK(eb_jsonl_value(rec, "k", &len) == NULL); /* nested, not a member */
    CHECK(eb_jsonl_value(rec, "missing", &len) == NULL);
    CHECK(eb_jsonl_num(rec, "x") == 0.1);
    CHECK(isnan(eb_jsonl_num(rec, "nan")) && isnan(eb_jsonl_num(rec, "s")));
    CHECK_EQ_LONG(eb_jsonl_int(rec, "i", 0), -42);
    CHECK_EQ_LONG(eb_jsonl_int(rec, "b", 0), 1);
    CHECK_EQ_LONG(eb_jsonl_int(rec, "n", 7), 7);
    char str[8];
    CHECK_EQ_LONG(eb_jsonl_str(rec, "n", str, sizeof str), -1);
    CHECK_EQ_LONG(eb_jsonl_str("{\"t\": \"result\", \"o\": {\"t\": 1}}", "t", str, sizeof str), 0);
    CHECK_STR(str, "result");
    v = eb_jsonl_value("{\"o\": {\"seed\": 12, \"l\": [1, 2]}}", "o", &len);
    CHECK_EQ_LONG(eb_jsonl_int(v, "seed", 0), 12);
    eb_json_free(&j);

    size_t stride;
    long slots;
    eb_cache off = {0, 0};
    eb_buf_geometry(1000, 50, &off, &stride, &slots);
    CHECK(stride == 1000 && slots == 1);
    eb_cache c = {1.0, 64};
    eb_buf_geometry(1000, 5000, &c, &stride, &slots);
    CHECK_EQ_LONG(stride, 1088);                              /* 16 lines + 1 line */
    CHECK_EQ_LONG(slots, (2 * 1048576 + 1088 - 1) / 1088);    /* 2 caches' worth */
    eb_buf_geometry(1000, 10, &c, &stride, &slots);
    CHECK_EQ_LONG(slots, 10);                                 /* never more than n */
    eb_cache huge = {1e300, 64}; /* -off_cache 1e300: every slot, no overflowing cast */
    eb_buf_geometry(1000, 10, &huge, &stride, &slots);
    CHECK_EQ_LONG(slots, 10);

    unsigned char m[300];
    eb_fill_pattern(m, sizeof m, 3, 100);
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 3, 100), 0);
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 2, 100), 300);
    m[7] ^= 1;
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 3, 100), 1);
    /* the block-wise fill is eb_pattern_byte at every offset, here past 2^32 */
    size_t far = ((size_t)1 << 32) + 65536 * 3 + 250;
    eb_fill_pattern(m, sizeof m, 1, far);
    long same = 0;
    for (size_t i = 0; i < sizeof m; i++)
        same += m[i] == eb_pattern_byte(1, far + i);
    CHECK_EQ_LONG(same, (long)sizeof m);
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 1, far), 0);
    /* a block 4 GiB or 64 KiB from its place is not the pattern there */
    CHECK(eb_check_pattern(m, sizeof m, 1, far - ((size_t)1 << 32)) > 250);
    CHECK(eb_check_pattern(m, sizeof m, 1, far - 65536) > 250);
    m[299] ^= 0x40;
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 1, far), 1);
    float f[10];
    for (int i = 0; i < 10; i++)
        f[i] = eb_pattern_float(0, (size_t)i) + eb_pattern_float(1, (size_t)i) + eb_pattern_float(2, (size_t)i);
    CHECK_EQ_LONG(eb_check_float_sum(f, 10, 3, 0), 0);
    f[4] += 1;
    CHECK_EQ_LONG(eb_check_float_sum(f, 10, 3, 0), 1);
    UNIT_DONE();
}
