/* IMB-MT's pieces that need no MPI launcher: the command line (IMB 2021.11's defaults,
 * values, BOOL words, names in any case and comma lists, -include/-exclude) and its
 * refusals, word for word as docs/imb-mt.md gives them, and -list's sorted names. */
#include "imbmt/imbmt.h"
#include "core/registry.h"
#include "unit.h"

#include <stdlib.h>

static char err[512];

/* mt_parse over a command line given as one string of words. */
static int parse(mt_options *o, const char *line)
{
    char buf[512], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "IMB-MT %s", line);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && argc < 31;
         t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    err[0] = '\0';
    return mt_parse(o, argc, argv, NULL, err, sizeof err);
}

/* The names of the benchmarks the options selected, in run order, comma-separated. */
static const char *selected(const mt_options *o)
{
    static char out[512];
    out[0] = '\0';
    for (int i = 0; i < o->nbenches; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? "," : "",
                 mt_bench_at(o->benches[i])->name);
    return out;
}

static void test_defaults(void)
{
    mt_options o;
    CHECK_EQ_LONG(parse(&o, ""), 0);
    /* IMB 2021.11's MT_suite defaults */
    CHECK_EQ_LONG(o.warmup, 100);
    CHECK_EQ_LONG(o.repeat, 1000);
    CHECK_EQ_LONG(o.window_size, 64);
    CHECK_EQ_LONG(o.malloc_align, 64);
    CHECK_EQ_LONG(o.stride, 0);
    CHECK_EQ_LONG(o.ncounts, 4);
    CHECK(o.counts[0] == 1 && o.counts[1] == 2 && o.counts[2] == 4 && o.counts[3] == 8);
    CHECK_STR(o.barrier_name, "on");
    CHECK_STR(o.malloc_name, "serial");
    CHECK_STR(o.datatype_name, "int");
    CHECK(o.datatype == MPI_INT && o.thread_level == MPI_THREAD_SINGLE && !o.multiple);
    CHECK(!o.check && !o.noheader && o.json_path == NULL);
    /* every benchmark, in IMB-MT's own order, once */
    CHECK_EQ_LONG(o.nbenches, mt_bench_count());
    CHECK_EQ_LONG(mt_bench_count(), 10);
    for (int i = 0; i < o.nbenches; i++)
        CHECK_EQ_LONG(o.benches[i], i);
}

static void test_values(void)
{
    mt_options o;
    CHECK_EQ_LONG(parse(&o, "-count 16,1024 -repeat 7 -warmup 0 -window_size 3 -stride 2 "
                            "-barrier special -datatype char -thread_level multiple "
                            "-malloc_algo continuous -noheader"), 0);
    CHECK(o.ncounts == 2 && o.counts[0] == 16 && o.counts[1] == 1024);
    CHECK(o.repeat == 7 && o.warmup == 0 && o.window_size == 3 && o.stride == 2);
    CHECK(o.barrier == MT_BARR_SPECIAL && o.datatype == MPI_CHAR && o.multiple);
    CHECK(o.malloc_algo == MT_MALLOC_CONTINUOUS && o.noheader);
    /* one thread (not -thread_level multiple): IMB-MT allocates serially */
    CHECK_EQ_LONG(parse(&o, "-malloc_algo parallel"), 0);
    CHECK(o.malloc_algo == MT_MALLOC_SERIAL && !o.multiple);
    /* -check alone is on (effbench); a BOOL word after it is its value (IMB) */
    CHECK_EQ_LONG(parse(&o, "-check"), 0);
    CHECK(o.check);
    CHECK_EQ_LONG(parse(&o, "-check off PingPongMT"), 0);
    CHECK(!o.check);
    CHECK_STR(selected(&o), "PingPongMT");
    CHECK_EQ_LONG(parse(&o, "-check YES"), 0);
    CHECK(o.check);
}

static void test_names(void)
{
    mt_options o;
    CHECK_EQ_LONG(parse(&o, "pingpongmt,BcastMT allreducemt"), 0);
    CHECK_STR(selected(&o), "PingPongMT,BcastMT,AllReduceMT");
    CHECK_EQ_LONG(parse(&o, "-exclude BarrierMT,PingPingMT"), 0);
    CHECK_EQ_LONG(o.nbenches, mt_bench_count() - 2);
    for (int i = 0; i < o.nbenches; i++) {
        CHECK(strcmp(mt_bench_at(o.benches[i])->name, "BarrierMT") != 0);
        CHECK(strcmp(mt_bench_at(o.benches[i])->name, "PingPingMT") != 0);
    }
    CHECK_EQ_LONG(mt_bench_find("UNIBANDMT"), mt_bench_find("UniBandMT"));
    CHECK(mt_bench_find("UniBandMT") >= 0);
    CHECK_EQ_LONG(mt_bench_find("PingPong"), -1);
}

static void test_refusals(void)
{
    static const struct {
        const char *line, *message;
    } bad[] = {
        {"-repeat 0", "-repeat 0: expected a whole number from 1"},
        {"-warmup -1", "-warmup -1: expected a whole number from 0"},
        {"-window_size 10k", "-window_size 10k: expected a whole number from 1"},
        {"-repeat 99999999999999999999999", /* clamped by strtol, then refused */
         "-repeat 99999999999999999999999: expected a whole number from 1"},
        {"-count 1,x", "-count x: expected a whole number from 0"},
        {"-barrier maybe", "-barrier maybe: expected off|on|special (Wrong barrier option value)"},
        {"-malloc_algo fast", "-malloc_algo fast: expected serial|continuous|parallel "
                              "(Wrong malloc_algo option value)"},
        {"-datatype double", "-datatype double: expected int|char "
                             "(Unknown data type in datatype option)"},
        {"-thread_level many", "-thread_level many: expected single|funneled|serialized|multiple "
                               "(wrong value of `thread_level' option)"},
        {"-check -datatype char", "-check with -datatype char: IMB-MT: Only int data type is "
                                  "supported with check option"},
        {"PingPong", "Invalid benchmark name pingpong"},
        {"-bogus 1", "Invalid option -bogus"},
        {"-repeat", "-repeat: expects a value (ERROR: Parse error on option: -repeat)"},
        {"--resume f.jsonl", "--resume: IMB-MT runs are not resumed; run it again"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        mt_options o;
        CHECK_EQ_LONG(parse(&o, bad[k].line), -1);
        if (strcmp(err, bad[k].message) != 0)
            fprintf(stderr, "  for '%s'\n", bad[k].line);
        CHECK_STR(err, bad[k].message);
    }
}

static void test_list_sorted(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mt_options o;
    char *argv[] = {"IMB-MT", "-list", NULL};
    CHECK_EQ_LONG(mt_parse(&o, 2, argv, f, err, sizeof err), 1);
    fclose(f);
    CHECK_STR(text, "Intel(R) MPI Benchmarks 2021.11\nList of benchmarks:\nIMB-MT:\n"
                    "    AllReduceMT\n    BarrierMT\n    BcastMT\n    BiBandMT\n    ExchangeMT\n"
                    "    PingPingMT\n    PingPongMT\n    ReduceMT\n    SendRecvMT\n"
                    "    UniBandMT\n");
    free(text);
}

static int no_kernel(mt_thread *th, int repeat, int skip)
{
    (void)th, (void)repeat, (void)skip;
    return 0;
}

/* mt_register_bench (docs/extending.md): a kernel of another file runs by name (or -include)
 * only, after IMB-MT's own; -list and the default run stay IMB-MT's; a name taken (in any
 * case) is refused. */
static void test_registered_kernel(void)
{
    static const mt_bench mine = {"UnitMT", MT_OUT_MINMAX, no_kernel};
    static const mt_bench dup = {"pingpongmt", MT_OUT_MINMAX, no_kernel};
    mt_options o;
    mt_register_bench(&mine);
    CHECK_EQ_LONG(mt_bench_count(), 11);
    CHECK_EQ_LONG(mt_bench_default_count(), 10);
    CHECK(mt_bench_at(10) == &mine);
    CHECK_EQ_LONG(mt_bench_find("unitmt"), 10);
    CHECK_EQ_LONG(parse(&o, ""), 0);
    CHECK_EQ_LONG(o.nbenches, 10);
    CHECK_EQ_LONG(parse(&o, "UnitMT,PingPongMT"), 0);
    CHECK_STR(selected(&o), "UnitMT,PingPongMT");
    CHECK_EQ_LONG(parse(&o, "-include UnitMT -exclude BarrierMT,BcastMT,ReduceMT"), 0);
    CHECK_STR(selected(&o), "UnitMT,PingPongMT,PingPingMT,SendRecvMT,ExchangeMT,UniBandMT,"
                            "BiBandMT,AllReduceMT");
    CHECK(eb_registry_error() == NULL);
    mt_register_bench(&dup);
    CHECK_EQ_LONG(mt_bench_count(), 11);
    CHECK_STR(eb_registry_error(),
              "IMB-MT has two benchmarks called 'pingpongmt' (the second one is refused)");
    test_list_sorted();
}

int main(void)
{
    test_defaults();
    test_values();
    test_names();
    test_refusals();
    test_list_sorted();
    test_registered_kernel();
    UNIT_DONE();
}
