/* The JSON Lines record reader --resume uses: member lookup and value
 * conversion on any line a crashed or edited file may hold. */
#include "core/report/jsonl.h"
#include "fuzz.h"

static const char *const keys[] = {"type", "component", "benchmark", "mode", "procs",
                                   "bytes", "group", "options", "t_avg_us", "rows_kept"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *rec = fuzz_text(data, size);
    char out[64];
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t len = 0;
        const char *v = eb_jsonl_value(rec, keys[k], &len);
        if (v && (v < rec || v + len > rec + size))
            abort(); /* a value lies inside the record */
        int n = eb_jsonl_str(rec, keys[k], out, sizeof out);
        if (n >= 0 && strlen(out) >= sizeof out)
            abort();
        (void)eb_jsonl_num(rec, keys[k]);
        (void)eb_jsonl_int(rec, keys[k], -1);
    }
    free(rec);
    return 0;
}
