/* IMB's command line: the input's lines are the words after the program
 * name, parsed by every registered IMB family. */
#include "core/error.h"
#include "fuzz.h"
#include "imb/driver/options.h"

#define MAX_WORDS 32

static const eb_imb_family family = {.component = "mpi1", .program = "IMB-MPI1",
                                     .part = "MPI-1 part", .maxmsglog = 22};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *argv[MAX_WORDS + 2];
    int argc = fuzz_words(text, "IMB-MPI1", argv, MAX_WORDS);
    eb_imb_options o;
    eb_imb_options_init(&o, &family);
    char err[EB_ERRLEN] = {0};
    if (eb_imb_parse(&o, argc, argv, err, sizeof err))
        fuzz_clean_message(err);
    eb_imb_options_free(&o);
    free(text);
    return 0;
}
