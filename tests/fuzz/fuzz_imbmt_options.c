/* IMB-MT's command line: the input's lines before its first NUL byte are
 * the words after the program name; what follows the NUL is the file every
 * -input names (written to a temporary file, as IMB-MT opens it itself). */
#include "core/error.h"
#include "fuzz.h"
#include "imbmt/imbmt.h"

#include <stdio.h>
#include <unistd.h>

#define MAX_WORDS 32

static char input_path[] = "/tmp/effbench-fuzz-imbmt-XXXXXX";
static FILE *devnull;

static void remove_input(void) { unlink(input_path); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    int fd = mkstemp(input_path);
    devnull = fopen("/dev/null", "w");
    if (fd < 0 || !devnull)
        abort();
    close(fd);
    atexit(remove_input);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), *file = fuzz_file_part(data, size);
    FILE *f = fopen(input_path, "w");
    if (!f)
        abort();
    fputs(file ? file : "", f);
    fclose(f);
    char *argv[MAX_WORDS + 2];
    int argc = fuzz_words(text, "IMB-MT", argv, MAX_WORDS);
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-input"))
            argv[i + 1] = input_path; /* never a path from the input (a FIFO would hang) */
    mt_options o;
    char err[EB_ERRLEN] = {0};
    int r = mt_parse(&o, argc, argv, devnull, err, sizeof err);
    if (r < 0)
        fuzz_clean_message(err);
    else if (r == 0) {
        /* a run has counts and benchmarks it can use */
        if (o.ncounts < 1 || o.ncounts > MT_MAX_COUNTS || o.nbenches > MT_MAX_BENCHES ||
            o.repeat < 1 || o.window_size < 1 || o.malloc_align < 1)
            abort();
        for (int i = 0; i < o.ncounts; i++)
            if (o.counts[i] < 0)
                abort();
        for (int i = 0; i < o.nbenches; i++)
            if (o.benches[i] < 0 || o.benches[i] >= mt_bench_count())
                abort();
    }
    free(file);
    free(text);
    return 0;
}
