/* IMB-P2P's pure pieces: the stencils' grids (as IMB 2021.11's IMB-P2P printed them, run
 * at these rank counts), the repetition rule and the command line. */
#include "core/error.h"
#include "core/registry.h"
#include "imbp2p/p2p.h"
#include "unit.h"

#include <stdlib.h>

/* Grid of ndims on n ranks as "a x b[ x c]", or "invalid". */
static const char *grid_text(int ndims, int n)
{
    static char buf[64];
    int g[3];
    if (p2p_grid(ndims, n, g))
        return "invalid";
    if (ndims == 2)
        snprintf(buf, sizeof buf, "%d x %d", g[0], g[1]);
    else
        snprintf(buf, sizeof buf, "%d x %d x %d", g[0], g[1], g[2]);
    return buf;
}

static void test_grids(void)
{
    /* what IMB-P2P's headers say: "# Benchmarking Stencil2D (4 x 3)" on 12 ranks, ... */
    static const struct {
        int n;
        const char *two, *three;
    } imb[] = {{2, "invalid", "invalid"}, {3, "invalid", "invalid"}, {4, "2 x 2", "invalid"},
               {6, "3 x 2", "invalid"},   {8, "2 x 4", "2 x 2 x 2"}, {9, "3 x 3", "invalid"},
               {12, "4 x 3", "2 x 3 x 2"}, {16, "4 x 4", "2 x 2 x 4"}};
    for (size_t k = 0; k < sizeof imb / sizeof imb[0]; k++) {
        CHECK_STR(grid_text(2, imb[k].n), imb[k].two);
        CHECK_STR(grid_text(3, imb[k].n), imb[k].three);
    }
    /* every valid grid holds exactly the ranks, sides >= 2 (p2p_grid's own rule) */
    for (int n = 1; n <= 512; n++)
        for (int d = 2; d <= 3; d++) {
            int g[3];
            if (!p2p_grid(d, n, g))
                CHECK_EQ_LONG(d == 2 ? g[0] * g[1] : g[0] * g[1] * g[2], n);
        }
}

static void test_neighbours(void)
{
    /* Stencil2D on 6 ranks (3 rows x 2 columns): rank 3 is row 1, column 1 */
    p2p_ctx c = {.rank = 3, .nranks = 6};
    CHECK_EQ_LONG(p2p_prepare(p2p_bench_at(p2p_bench_find("stencil2d")), &c), 1);
    CHECK_EQ_LONG(c.nnbr, 4);
    int want[4] = {2, 2, 1, 5}; /* column -1 and +1 (both rank 2), row -1, row +1 */
    for (int i = 0; i < 4; i++)
        CHECK_EQ_LONG(c.nbr[i], want[i]);
    p2p_ctx d = {.rank = 0, .nranks = 8};
    CHECK_EQ_LONG(p2p_prepare(p2p_bench_at(p2p_bench_find("Stencil3D")), &d), 1);
    int want3[6] = {1, 1, 2, 2, 4, 4};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_LONG(d.nbr[i], want3[i]);
    p2p_ctx e = {.rank = 0, .nranks = 3};
    CHECK_EQ_LONG(p2p_prepare(p2p_bench_at(p2p_bench_find("PingPong")), &e), 0);
    CHECK_EQ_LONG(p2p_prepare(p2p_bench_at(p2p_bench_find("Unirandom")), &e), 1);
}

static char *no_file(const char *path, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: cannot read", path);
    return NULL;
}

static char *lengths_file(const char *path, char *err, size_t errlen)
{
    (void)path, (void)err, (void)errlen;
    char *t = malloc(64);
    snprintf(t, 64, "# comment\n0\n1k\n3000\n2M\n");
    return t;
}

static int parse(p2p_options *o, const char *line, char *err)
{
    static char buf[512];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "IMB-P2P %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    err[0] = '\0';
    return p2p_parse(argc, argv, o, strstr(line, "missing") ? no_file : lengths_file, err,
                     EB_ERRLEN);
}

static void test_command_line(void)
{
    p2p_options o;
    char err[EB_ERRLEN];
    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(o.nsizes, 24);
    CHECK_EQ_LONG(o.max_size, 4 << 20);
    CHECK_EQ_LONG(o.nbenchmarks, 8);
    CHECK_EQ_LONG(o.iter_max, 100000);
    CHECK_EQ_LONG(o.pause_us, 100000);
    long n, w;
    p2p_iterations(&o, 4 << 20, &n, &w);
    CHECK_EQ_LONG(n, 200);
    CHECK_EQ_LONG(w, 20);
    p2p_iterations(&o, 0, &n, &w);
    CHECK_EQ_LONG(n, 100000);
    p2p_options_free(&o);

    CHECK_EQ_LONG(parse(&o, "-MSGLOG 3:5 -msgsz 2K stencil3d PINGPONG -iter 9,2 -pause -1", err),
                  0);
    CHECK_EQ_LONG(o.nsizes, 4);
    CHECK_EQ_LONG(o.sizes[0], 8);
    CHECK_EQ_LONG(o.sizes[3], 2048);
    CHECK_EQ_LONG(o.benchmarks[0], p2p_bench_find("Stencil3D"));
    CHECK_EQ_LONG(o.benchmarks[1], p2p_bench_find("PingPong"));
    CHECK_EQ_LONG(o.numerator, 2L << 20);
    CHECK_EQ_LONG(o.pause_us, -1);
    p2p_iterations(&o, 2048, &n, &w);
    CHECK_EQ_LONG(n, 9);
    CHECK_EQ_LONG(w, 1);
    p2p_options_free(&o);

    CHECK_EQ_LONG(parse(&o, "-msgsz 7 -msglen f.txt -msgsz 5", err), 0);
    CHECK_EQ_LONG(o.nsizes, 5); /* the file replaced 7; 5 added after it */
    CHECK_EQ_LONG(o.sizes[3], 2 << 20);
    CHECK_EQ_LONG(o.min_size, 0);
    CHECK_EQ_LONG(o.max_size, 2 << 20);
    p2p_options_free(&o);

    CHECK_EQ_LONG(parse(&o, "-iter 5 -help msgwr", err), 0);
    CHECK_EQ_LONG(o.action, P2P_HELP);
    CHECK_STR(o.help_topic, "msgwr");
    CHECK_EQ_LONG(parse(&o, "-msglog nonsense -l", err), 0);
    CHECK_EQ_LONG(o.action, P2P_LIST);

    static const char *const bad[][2] = {
        {"-msglog 5:2", "Unexpected -msglog argument value '5:2'"},
        {"-msglog 48", "Unexpected -msglog argument value '48'"},
        {"-msgsz", "Missing argument after \"-msgsz\""},
        {"-msgsz 4kk", "Unexpected format after \"-msgsz\": '4kk'"},
        {"-msgwr maybe", "Unexpected -msgwr argument value 'maybe'"},
        {"-pause 5x", "Unexpected format after \"-pause\": '5x'"},
        {"-msglen missing", "Unable to open msglen file: missing"},
        {"-iter 0", "-iter '0': expected"},
        {"Pingpongg", "'Pingpongg' is neither an option nor a benchmark"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CHECK_EQ_LONG(parse(&o, bad[k][0], err), -1);
        CHECK(strstr(err, bad[k][1]) != NULL);
        if (!strstr(err, bad[k][1]))
            fprintf(stderr, "  %s: %s\n", bad[k][0], err);
        p2p_options_free(&o);
    }
}

static void no_step(p2p_ctx *c) { (void)c; }

/* p2p_register_bench (docs/extending.md): a benchmark of another file runs by name only,
 * after IMB-P2P's eight, whose default run stays IMB-P2P's; a name taken is refused. */
static void test_registered_benchmark(void)
{
    static const p2p_bench mine = {.name = "UnitBench", .nbufs = 1, .latency_factor = 1,
                                   .step = no_step};
    static const p2p_bench dup = {.name = "STENCIL2D", .nbufs = 1, .step = no_step};
    p2p_options o;
    char err[EB_ERRLEN];
    p2p_register_bench(&mine);
    CHECK_EQ_LONG(p2p_bench_count(), 9);
    CHECK_EQ_LONG(p2p_bench_default_count(), 8);
    CHECK(p2p_bench_at(8) == &mine);
    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(o.nbenchmarks, 8);
    CHECK_EQ_LONG(o.benchmarks[7], p2p_bench_find("SendRecv_Replace"));
    p2p_options_free(&o);
    CHECK_EQ_LONG(parse(&o, "unitbench PingPong", err), 0);
    CHECK_EQ_LONG(o.nbenchmarks, 2);
    CHECK_EQ_LONG(o.benchmarks[0], 8);
    p2p_options_free(&o);
    CHECK(eb_registry_error() == NULL);
    p2p_register_bench(&dup);
    CHECK_EQ_LONG(p2p_bench_count(), 9);
    CHECK_STR(eb_registry_error(),
              "IMB-P2P has two benchmarks called 'STENCIL2D' (the second one is refused)");
}

int main(void)
{
    test_grids();
    test_neighbours();
    test_command_line();
    test_registered_benchmark();
    UNIT_DONE();
}
