/* OSU's command line: the input's lines are the words after the program
 * name, parsed by every OSU program's descriptor (each its own getopt
 * string, defaults and rules). */
#include "core/error.h"
#include "fuzz.h"
#include "osu/osu_options.h"

#define MAX_WORDS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *argv[MAX_WORDS + 2];
    for (int i = 0; i < osu_prog_count(); i++) {
        const osu_prog *p = osu_prog_at(i);
        char *copy = strdup(text); /* a fresh line split for each program */
        if (!copy)
            abort();
        int argc = fuzz_words(copy, p->name, argv, MAX_WORDS);
        osu_options o;
        char err[EB_ERRLEN] = {0};
        int status = osu_parse(p, &o, argc, argv, err, sizeof err);
        if (status == OSU_PARSE_ERROR)
            fuzz_clean_message(err);
        else if (status != OSU_PARSE_RUN && status != OSU_PARSE_HELP &&
                 status != OSU_PARSE_VERSION)
            abort();
        if (status == OSU_PARSE_RUN &&
            (o.min_size > o.max_size || o.ndtypes < 1 || o.ndtypes > OSU_MAX_DTYPES ||
             o.npercentiles > OSU_MAX_PERCENTILES || o.iterations < 0 || o.skip < 0 ||
             o.window_size < 1))
            abort(); /* a run never starts with values the programs cannot use */
        free(copy);
    }
    free(text);
    return 0;
}
