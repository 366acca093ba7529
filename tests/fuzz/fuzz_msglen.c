/* -msglen and -input files: IMB's length list and benchmark-name list. */
#include "core/error.h"
#include "fuzz.h"
#include "imb/driver/options.h"
#include "imb/driver/sizes.h"

static const eb_imb_family family = {.component = "mpi1", .program = "IMB-MPI1",
                                     .part = "MPI-1 part", .maxmsglog = 22};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[EB_ERRLEN] = {0};
    for (size_t unit = 1; unit <= 4; unit += 3) {
        eb_sizes s = {0};
        if (eb_sizes_parse_msglen(text, "fuzz.msglen", unit, &s, err, sizeof err))
            fuzz_clean_message(err);
        for (int i = 0; i < s.n; i++)
            if (s.v[i] % unit)
                abort(); /* reductions get multiples of the element size */
        eb_sizes_free(&s);
    }
    eb_imb_options o;
    eb_imb_options_init(&o, &family);
    err[0] = 0;
    if (eb_imb_apply_input(&o, text, "fuzz.input", err, sizeof err))
        fuzz_clean_message(err);
    eb_imb_options_free(&o);
    free(text);
    return 0;
}
