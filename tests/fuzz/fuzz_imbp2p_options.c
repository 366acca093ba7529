/* IMB-P2P's command line: the input's lines before its first NUL byte are
 * the words after the program name; what follows the NUL is the file every
 * -msglen names. */
#include "core/error.h"
#include "fuzz.h"
#include "imbp2p/p2p.h"

#include <limits.h>
#include <stdio.h>

#define MAX_WORDS 32

static char *msglen_file; /* this input's file part */

static char *read_file(const char *path, char *err, size_t errlen)
{
    (void)path;
    if (!msglen_file) {
        snprintf(err, errlen, "No such file or directory");
        return NULL;
    }
    char *copy = strdup(msglen_file);
    if (!copy)
        abort();
    return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    msglen_file = fuzz_file_part(data, size);
    char *argv[MAX_WORDS + 2];
    int argc = fuzz_words(text, "IMB-P2P", argv, MAX_WORDS);
    p2p_options o;
    char err[EB_ERRLEN] = {0};
    if (p2p_parse(argc, argv, &o, read_file, err, sizeof err)) {
        fuzz_clean_message(err);
    } else if (o.action == P2P_RUN) {
        /* a run has lengths an MPI count holds, benchmarks, repetitions */
        if (o.nsizes < 1 || o.nbenchmarks < 1 || o.min_size > o.max_size)
            abort();
        for (int i = 0; i < o.nsizes; i++) {
            if (o.sizes[i] > INT_MAX || o.sizes[i] < o.min_size || o.sizes[i] > o.max_size)
                abort();
            long n, warm_up;
            p2p_iterations(&o, o.sizes[i], &n, &warm_up);
            if (n < 1 || warm_up < 0 || warm_up > n)
                abort();
        }
        for (int i = 0; i < o.nbenchmarks; i++)
            if (o.benchmarks[i] < 0 || o.benchmarks[i] >= p2p_bench_count())
                abort();
    }
    p2p_options_free(&o);
    free(msglen_file);
    free(text);
    return 0;
}
