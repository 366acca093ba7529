/* ReproMPI's command line (mpibenchmark) and its job file: the input's lines before its
 * first NUL byte are the words after the program name; what follows the NUL is the job
 * file (-f / --input-file), written to a temporary file and read as rank 0 reads it. */
#include "core/error.h"
#include "fuzz.h"
#include "reprompi/rp.h"

#include <stdio.h>
#include <unistd.h>

#define MAX_WORDS 32

static char input_path[] = "/tmp/effbench-fuzz-reprompi-XXXXXX";

static void remove_input(void) { unlink(input_path); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    int fd = mkstemp(input_path);
    if (fd < 0)
        abort();
    close(fd);
    atexit(remove_input);
    return 0;
}

/* A parsed command line holds what a run can use. */
static void check_options(const rp_options *o)
{
    if (o->ncalls < 0 || o->nmsizes < 0 || o->nrep < 0 || o->window_s < 0 || o->wait_s < 0 ||
        o->clock_rounds < 1)
        abort();
    for (int k = 0; k < o->ncalls; k++)
        if (o->calls[k] < 0 || o->calls[k] >= rp_call_count())
            abort();
    for (int k = 0; k < o->nmsizes; k++)
        if (o->msizes[k] <= 0)
            abort();
}

/* A job file read: jobs of known calls with positive sizes and counts, or a message. */
static void check_jobs(const char *file)
{
    FILE *f = fopen(input_path, "w");
    if (!f)
        abort();
    fputs(file, f);
    fclose(f);
    rp_jobs j = {0};
    char err[EB_ERRLEN] = {0};
    if (rp_read_job_file(input_path, &j, err, sizeof err) < 0)
        fuzz_clean_message(err);
    else
        for (int k = 0; k < j.njobs; k++)
            if (j.jobs[k].call < 0 || j.jobs[k].call >= rp_call_count() ||
                j.jobs[k].msize <= 0 || j.jobs[k].nrep <= 0)
                abort();
    free(j.jobs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), *file = fuzz_file_part(data, size);
    char *argv[MAX_WORDS + 2];
    int argc = fuzz_words(text, "mpibenchmark", argv, MAX_WORDS);
    rp_options o;
    char err[EB_ERRLEN] = {0};
    if (rp_parse(&o, argc, argv, 4, err, sizeof err) < 0)
        fuzz_clean_message(err);
    else
        check_options(&o);
    rp_options_free(&o);
    if (file)
        check_jobs(file);
    free(file);
    free(text);
    return 0;
}
