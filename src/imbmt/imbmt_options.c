/* IMB-MT's command line, by IMB 2021.11's rules (args_parser.cpp, imb.cpp,
 * MT_suite.cpp): single-dash options each followed by its value, benchmark
 * names anywhere (comma lists too, any case), -include/-exclude/-input, the
 * BOOL words of args_parser.  Unlike IMB, every bad value is refused
 * (docs/imb-mt.md, "Differences"). */
#include "imbmt/imbmt.h"
#include "core/error.h"
#include "core/sysinfo.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char help_text[] =
    "Intel(R) MPI Benchmarks 2021.11\n"
    "Usage: IMB-MT [-help]\n"
    "              [-help option]\n"
    "              [-list]\n"
    "              [-thread_level single|funneled|serialized|multiple|nompinit]\n"
    "              [-input filename]\n"
    "              [-include benchmark[,benchmark,[...]]\n"
    "              [-exclude benchmark[,benchmark,[...]]\n"
    "            IMB-MT:\n"
    "              [-stride INT]\n"
    "              [-warmup INT]\n"
    "              [-repeat INT]\n"
    "              [-window_size INT]\n"
    "              [-barrier on|off|special]\n"
    "              [-count INT]\n"
    "              [-malloc_align INT]\n"
    "              [-malloc_algo serial|continuous|parallel]\n"
    "              [-check BOOL]\n"
    "              [-noheader]\n"
    "              [-datatype int|char]\n"
    "              [benchmark[,benchmark,[...]]] \n";

/* args_parser's BOOL words: 1, 0, or -1 for none of them. */
static int bool_word(const char *s)
{
    static const char *const on[] = {"on", "yes", "ON", "YES", "true", "enable", "TRUE",
                                     "ENABLE", "1"};
    static const char *const off[] = {"off", "no", "OFF", "NO", "false", "disable", "FALSE",
                                      "DISABLE", "0"};
    for (size_t i = 0; i < sizeof on / sizeof *on; i++) {
        if (!strcmp(s, on[i]))
            return 1;
        if (!strcmp(s, off[i]))
            return 0;
    }
    return -1;
}

static int int_value(const char *opt, const char *v, int min, int *out, char *err, size_t n)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < min || x > 1 << 30)
        return eb_err(err, n, "%s %s: expected a whole number from %d", opt, v, min);
    *out = (int)x;
    return 0;
}

static int count_list(mt_options *o, const char *v, char *err, size_t n)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (o->ncounts == MT_MAX_COUNTS)
            return eb_err(err, n, "-count %s: at most %d counts", v, MT_MAX_COUNTS);
        if (int_value("-count", t, 0, &o->counts[o->ncounts], err, n))
            return -1;
        o->ncounts++;
    }
    return *v ? 0 : eb_err(err, n, "-count: expected counts such as 1,2,4,8");
}

/* Names: requested (words and -input lines), -include, -exclude. */
typedef struct {
    char requested[MT_MAX_BENCHES * 4][64], include[MT_MAX_BENCHES][64], exclude[MT_MAX_BENCHES][64];
    int nrequested, ninclude, nexclude;
} name_lists;

static int add_names(char (*list)[64], int *nl, int max, const char *v, char *err, size_t n)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*nl == max)
            return eb_err(err, n, "%s: too many benchmark names", v);
        snprintf(list[(*nl)++], 64, "%s", t);
    }
    return 0;
}

static int read_input(name_lists *l, const char *path, char *err, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return eb_err(err, n, "-input %s: cannot open the file", path);
    char line[256], name[64];
    int r = 0;
    while (!r && fgets(line, sizeof line, f))
        if (line[0] != '#' && sscanf(line, "%63s", name) == 1)
            r = add_names(l->requested, &l->nrequested, MT_MAX_BENCHES * 4, name, err, n);
    fclose(f);
    return r;
}

static int listed(char (*list)[64], int nl, const char *name)
{
    for (int i = 0; i < nl; i++)
        if (!strcasecmp(list[i], name))
            return 1;
    return 0;
}

/* IMB's order: the requested names as given (or IMB-MT's default list),
 * minus -exclude, after the -include names. */
static int select_benches(mt_options *o, name_lists *l, char *err, size_t n)
{
    char (*sets[2])[64] = {l->include, l->requested};
    int counts[2] = {l->ninclude, l->nrequested};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < counts[s]; i++)
            if (mt_bench_find(sets[s][i]) < 0) {
                char low[64];
                for (int k = 0; k < 64; k++)
                    low[k] = (char)(sets[s][i][k] >= 'A' && sets[s][i][k] <= 'Z'
                                        ? sets[s][i][k] + 32 : sets[s][i][k]);
                return eb_err(err, n, "Invalid benchmark name %s", low);
            }
    o->nbenches = 0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < counts[s] && o->nbenches < MT_MAX_BENCHES; i++)
            if (!listed(l->exclude, l->nexclude, sets[s][i]))
                o->benches[o->nbenches++] = mt_bench_find(sets[s][i]);
    for (int b = 0; !l->nrequested && b < mt_bench_default_count() && o->nbenches < MT_MAX_BENCHES;
         b++)
        if (!listed(l->exclude, l->nexclude, mt_bench_at(b)->name))
            o->benches[o->nbenches++] = b;
    return 0;
}

static void defaults(mt_options *o)
{
    memset(o, 0, sizeof *o);
    o->thread_level = MPI_THREAD_SINGLE;
    o->warmup = 100;
    o->repeat = 1000;
    o->window_size = 64;
    o->malloc_align = 64;
    o->barrier = MT_BARR_ON;
    o->barrier_name = "on";
    o->malloc_algo = MT_MALLOC_SERIAL;
    o->malloc_name = "serial";
    o->datatype = MPI_INT;
    o->datatype_name = "int";
}

/* A value from a list; a refusal says what IMB-MT says (`imb`) too. */
static int word_value(const char *opt, const char *v, const char *const *words, int nwords,
                      const char *imb, int *out, char *err, size_t n)
{
    for (int i = 0; i < nwords; i++)
        if (!strcmp(v, words[i])) {
            *out = i;
            return 0;
        }
    char all[128] = "";
    for (int i = 0; i < nwords; i++)
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? "|" : "", words[i]);
    return eb_err(err, n, "%s %s: expected %s (%s)", opt, v, all, imb);
}

static const char *const barrier_words[] = {"off", "on", "special"};
static const char *const malloc_words[] = {"serial", "continuous", "parallel"};
static const char *const datatype_words[] = {"int", "char"};
static const char *const level_words[] = {"single", "funneled", "serialized", "multiple"};

/* One option that takes a value; 1 when `opt` is none of them. */
static int value_option(mt_options *o, name_lists *l, const char *opt, const char *v, char *err,
                        size_t n)
{
    int w = 0;
    struct { const char *name; int *dst, min; } ints[] = {
        {"-stride", &o->stride, 0}, {"-warmup", &o->warmup, 0}, {"-repeat", &o->repeat, 1},
        {"-window_size", &o->window_size, 1}, {"-malloc_align", &o->malloc_align, 1}};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if (!strcmp(opt, ints[i].name))
            return int_value(opt, v, ints[i].min, ints[i].dst, err, n);
    if (!strcmp(opt, "-count"))
        return count_list(o, v, err, n);
    if (!strcmp(opt, "-barrier")) {
        if (word_value(opt, v, barrier_words, 3, "Wrong barrier option value", &w, err, n))
            return -1;
        o->barrier = (mt_barrier)w, o->barrier_name = barrier_words[w];
    } else if (!strcmp(opt, "-malloc_algo")) {
        if (word_value(opt, v, malloc_words, 3, "Wrong malloc_algo option value", &w, err, n))
            return -1;
        o->malloc_algo = (mt_malloc)w, o->malloc_name = malloc_words[w];
    } else if (!strcmp(opt, "-datatype")) {
        if (word_value(opt, v, datatype_words, 2, "Unknown data type in datatype option",
                       &w, err, n))
            return -1;
        o->datatype = w ? MPI_CHAR : MPI_INT, o->datatype_name = datatype_words[w];
    } else if (!strcmp(opt, "-thread_level")) {
        if (word_value(opt, v, level_words, 4, "wrong value of `thread_level' option", &w, err, n))
            return -1;
        o->thread_level = eb_thread_level_parse(v);
    } else if (!strcmp(opt, "-input")) {
        return read_input(l, v, err, n);
    } else if (!strcmp(opt, "-include")) {
        return add_names(l->include, &l->ninclude, MT_MAX_BENCHES, v, err, n);
    } else if (!strcmp(opt, "-exclude")) {
        return add_names(l->exclude, &l->nexclude, MT_MAX_BENCHES, v, err, n);
    } else if (!strcmp(opt, "--json")) {
        o->json_path = v;
    } else {
        return 1;
    }
    return 0;
}

static void print_list(FILE *out)
{
    fprintf(out, "Intel(R) MPI Benchmarks 2021.11\nList of benchmarks:\nIMB-MT:\n");
    const char *sorted[MT_MAX_BENCHES];
    int n = mt_bench_default_count(); /* IMB-MT's own: its -list, byte for byte */
    for (int i = 0; i < n; i++) { /* IMB lists them sorted by name */
        int k = i;
        for (; k > 0 && strcmp(sorted[k - 1], mt_bench_at(i)->name) > 0; k--)
            sorted[k] = sorted[k - 1];
        sorted[k] = mt_bench_at(i)->name;
    }
    for (int i = 0; i < n; i++)
        fprintf(out, "    %s\n", sorted[i]);
}

/* The rules between options, checked once all are read. */
static int finish(mt_options *o, name_lists *l, char *err, size_t n)
{
    if (!o->ncounts) {
        static const int dflt[] = {1, 2, 4, 8};
        memcpy(o->counts, dflt, sizeof dflt);
        o->ncounts = 4;
    }
    if (o->check && o->datatype != MPI_INT)
        return eb_err(err, n, "-check with -datatype %s: IMB-MT: Only int data type is "
                      "supported with check option", o->datatype_name);
    o->multiple = o->thread_level == MPI_THREAD_MULTIPLE;
    if (!o->multiple && o->malloc_algo != MT_MALLOC_SERIAL) /* one thread: IMB-MT's serial */
        o->malloc_algo = MT_MALLOC_SERIAL;
    return select_benches(o, l, err, n);
}

int mt_parse(mt_options *o, int argc, char **argv, FILE *out, char *err, size_t n)
{
    name_lists *l = eb_calloc(1, sizeof *l);
    int list = 0, r = 0;
    defaults(o);
    if (argc > 1 && !strcmp(argv[1], "-help")) {
        if (out)
            fputs(help_text, out);
        free(l);
        return 1;
    }
    for (int i = 1; i < argc && !r; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-list") || !strcmp(a, "-noheader")) {
            *(a[1] == 'l' ? &list : &o->noheader) = 1;
        } else if (!strcmp(a, "-check")) { /* IMB: -check BOOL; effbench: -check alone is on */
            int b = i + 1 < argc ? bool_word(argv[i + 1]) : -1;
            o->check = b != 0;
            i += b >= 0;
        } else if (!strcmp(a, "--resume")) {
            r = eb_err(err, n, "--resume: IMB-MT runs are not resumed; run it again");
        } else if (a[0] == '-') {
            if (i + 1 >= argc)
                r = value_option(o, l, a, "", err, n) == 1
                        ? eb_err(err, n, "Invalid option %s", a)
                        : eb_err(err, n, "%s: expects a value (ERROR: Parse error on option: %s)",
                                 a, a);
            else if ((r = value_option(o, l, a, argv[i + 1], err, n)) == 1)
                r = eb_err(err, n, "Invalid option %s", a);
            i++;
        } else {
            r = add_names(l->requested, &l->nrequested, MT_MAX_BENCHES * 4, a, err, n);
        }
    }
    if (!r && list && out)
        print_list(out);
    if (!r && !list)
        r = finish(o, l, err, n);
    free(l);
    return r < 0 ? -1 : list;
}
