/* IMB 2021's -load YAML: the file's words, then the command line they make
 * for every IMB family (each allows its own IMB 2021 options).  What a
 * family accepts, its -dump writes; that YAML must load and parse again. */
#include "core/error.h"
#include "imb/driver/imb_yaml.h"
#include "imb/driver/options.h"
#include "fuzz.h"

#include <stdio.h>

/* The families' names and IMB's defaults (src/imb/: the -iter a dump writes
 * back must be one the parser takes); their own option hooks are left out. */
#define ITER {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100, \
              .policy = EB_ITER_DYNAMIC, .secs = 10.0}
static const eb_imb_family families[] = {
    {.component = "mpi1", .program = "IMB-MPI1", .part = "MPI-1 part", .iter = ITER,
     .maxmsglog = 22},
    {.component = "nbc", .program = "IMB-NBC", .part = "MPI-NBC part", .iter = ITER,
     .maxmsglog = 22},
    {.component = "rma", .program = "IMB-RMA", .part = "MPI-RMA part", .iter = ITER,
     .maxmsglog = 22},
    {.component = "ext", .program = "IMB-EXT", .part = "MPI-2 part", .iter = ITER,
     .maxmsglog = 22},
    {.component = "io", .program = "IMB-IO", .part = "MPI-IO part", .iter2021 = ITER,
     .maxmsglog2021 = 22, .iter = {.msgspersample = 50, .overall_vol = 16L * 1048576L,
     .msgs_nonaggr = 10, .policy = EB_ITER_DYNAMIC, .secs = 10.0}, .maxmsglog = 24},
    {.component = "mpi4", .program = "IMB-MPI4", .part = "MPI-4 part", .iter = ITER,
     .maxmsglog = 22},
};

/* The words as argv after the program name, parsed for family f: 0, or -1
 * with a clean message in err. */
static int parse_words(const eb_imb_family *f, char **words, int n, eb_imb_options *o,
                       char *err, size_t errlen)
{
    char **argv = calloc((size_t)n + 2, sizeof *argv);
    if (!argv)
        abort();
    argv[0] = (char *)f->program;
    if (n)
        memcpy(argv + 1, words, (size_t)n * sizeof *argv);
    eb_imb_options_init(o, f);
    err[0] = '\0';
    int rc = eb_imb_parse(o, n + 1, argv, err, errlen);
    if (rc)
        fuzz_clean_message(err);
    free(argv);
    return rc;
}

/* Benchmark names as the registry spells them: letters, digits, '_'.  The
 * plan refuses any other (a "---" the command line split off a word), so
 * the round trip below holds for these only. */
static int plain_names(char **v, int n)
{
    for (int i = 0; i < n; i++)
        for (const char *c = v[i]; *c; c++)
            if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
                !(*c >= '0' && *c <= '9') && *c != '_')
                return 0;
    return 1;
}

/* -dump of o, loaded and parsed again for the same family: never refused. */
static void round_trip(const eb_imb_family *f, const eb_imb_options *o)
{
    char *yaml = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&yaml, &len);
    if (!m)
        abort();
    eb_imb_yaml_dump(m, o);
    fclose(m);
    char err[EB_ERRLEN] = {0}, **words;
    int n;
    eb_imb_options again;
    if (eb_imb_yaml_to_args(yaml, "dump.yaml", &words, &n, err, sizeof err) ||
        parse_words(f, words, n, &again, err, sizeof err)) {
        fprintf(stderr, "%s -dump wrote what -load refuses: %s\n%s", f->program, err, yaml);
        abort();
    }
    eb_imb_options_free(&again);
    eb_imb_yaml_free_args(words, n);
    free(yaml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char err[EB_ERRLEN] = {0}, **words;
    int n;
    if (eb_imb_yaml_to_args(text, "fuzz.yaml", &words, &n, err, sizeof err)) {
        fuzz_clean_message(err);
    } else {
        for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
            eb_imb_options o;
            if (!parse_words(&families[i], words, n, &o, err, sizeof err) &&
                plain_names(o.names, o.nnames) && plain_names(o.include, o.ninclude) &&
                plain_names(o.exclude, o.nexclude))
                round_trip(&families[i], &o);
            eb_imb_options_free(&o);
        }
        eb_imb_yaml_free_args(words, n);
    }
    free(text);
    return 0;
}
