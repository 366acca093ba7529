/* MPI-IO hint files: IMB-IO's --info and b_eff_io's --hints, and b_eff_io's
 * partition list. */
#include "beffio/beff_io_plan.h"
#include "core/error.h"
#include "fuzz.h"
#include "imb/io_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[EB_ERRLEN] = {0};
    eb_io_hints h = {0};
    if (eb_io_parse_hints(text, "fuzz.info", &h, err, sizeof err))
        fuzz_clean_message(err);
    eb_io_hints_free(&h);
    static bio_hint hints[BIO_MAX_HINTS];
    err[0] = 0;
    if (bio_parse_hints(text, "fuzz.hints", hints, err, sizeof err) < 0)
        fuzz_clean_message(err);
    /* --partitions is one command-line word: its first line */
    text[strcspn(text, "\n")] = '\0';
    int parts[BIO_MAX_PARTS];
    err[0] = 0;
    int n = bio_parse_partitions(text, 64, parts, err, sizeof err);
    if (n < 0)
        fuzz_clean_message(err);
    for (int i = 0; i < n; i++)
        if (parts[i] < 1 || parts[i] > 64)
            abort(); /* a partition is 1..P processes */
    free(text);
    return 0;
}
