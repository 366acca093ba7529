/* JSON writer (escaping, null for non-finite numbers, nesting) and the
 * buffer geometry of -off_cache. */
#include "core/buffers.h"
#include "core/json.h"
#include "unit.h"

#include <math.h>

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

    unsigned char m[300];
    eb_fill_pattern(m, sizeof m, 3, 100);
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 3, 100), 0);
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 2, 100), 300);
    m[7] ^= 1;
    CHECK_EQ_LONG(eb_check_pattern(m, sizeof m, 3, 100), 1);
    float f[10];
    for (int i = 0; i < 10; i++)
        f[i] = eb_pattern_float(0, (size_t)i) + eb_pattern_float(1, (size_t)i) + eb_pattern_float(2, (size_t)i);
    CHECK_EQ_LONG(eb_check_float_sum(f, 10, 3, 0), 0);
    f[4] += 1;
    CHECK_EQ_LONG(eb_check_float_sum(f, 10, 3, 0), 1);
    UNIT_DONE();
}
