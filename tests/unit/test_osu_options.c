/* OSU's option letters as data (src/osu/osu_options.c, osu_optsets.h): every
 * program's optstring as OSU 7.4 has it, every letter in the table, and a few
 * command lines per letter set, good and bad, with OSU's messages. */
#include "osu/osu.h"
#include "osu/osu_accel.h"
#include "osu/osu_options.h"
#include "unit.h"

#include <string.h>

/* The getopt strings of OSU 7.4's programs (c/util/osu_util_options.h and
 * the one-sided assembly in osu_util.c, builds without accelerators),
 * written down once from the descriptors' literals before they named
 * letter sets: the assembled strings must stay exactly these. */
static const struct {
    const char *name, *optstring;
} OSU_STRINGS[] = {
    {"osu_acc_latency", "+:w:s:hvm:x:i:G:Iz::P:cT:"},
    {"osu_allgather", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_allgather_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_allgatherv", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_allgatherv_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_allreduce", "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"},
    {"osu_allreduce_persistent", "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"},
    {"osu_alltoall", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_alltoall_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_alltoallv", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_alltoallv_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_alltoallw", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_alltoallw_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_barrier", "+:hvfm:i:x:M:a:u:G:P:Iz::"},
    {"osu_barrier_persistent", "+:hvfm:i:x:M:a:u:G:P:Iz::"},
    {"osu_bcast", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Iz::"},
    {"osu_bcast_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Iz::"},
    {"osu_bibw", "+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::"},
    {"osu_bibw_persistent", "+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::"},
    {"osu_bw", "+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::"},
    {"osu_bw_fan_in", "+:hvm:x:i:W:b:G:D:P:T:Iz::"},
    {"osu_bw_fan_out", "+:hvm:x:i:W:b:G:D:P:T:Iz::"},
    {"osu_bw_persistent", "+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::"},
    {"osu_cas_latency", "+:w:s:hvm:x:i:G:Iz::P:cT:"},
    {"osu_fop_latency", "+:w:s:hvm:x:i:G:Iz::P:cT:"},
    {"osu_gather", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_gather_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_gatherv", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_gatherv_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_get_acc_latency", "+:w:s:hvm:x:i:G:Iz::P:"},
    {"osu_get_bw", "+:w:s:hvm:x:i:G:Iz::W:P:"},
    {"osu_get_latency", "+:w:s:hvm:x:i:G:Iz::P:"},
    {"osu_hello", ""},
    {"osu_iallgather", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::"},
    {"osu_iallgatherv", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::"},
    {"osu_iallreduce", "+:hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::"},
    {"osu_ialltoall", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::"},
    {"osu_ialltoallv", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::"},
    {"osu_ialltoallw", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::"},
    {"osu_ibarrier", "+:hvfm:i:x:M:t:a:G:P:Iz::"},
    {"osu_ibcast", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Iz::"},
    {"osu_igather", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_igatherv", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_ineighbor_allgather", "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_ineighbor_allgatherv", "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_ineighbor_alltoall", "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_ineighbor_alltoallv", "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_ineighbor_alltoallw", "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_init", "I"},
    {"osu_ireduce", "+:hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::k:"},
    {"osu_ireduce_scatter", "+:hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::"},
    {"osu_ireduce_scatter_block", "+:hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::"},
    {"osu_iscatter", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_iscatterv", "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_latency", "+:hvm:x:i:b:c::u:G:D:P:T:Iz::"},
    {"osu_latency_mp", "+:hvm:x:i:t:c::u:G:D:P:T:Iz::"},
    {"osu_latency_mt", "+:hvm:x:i:t:c::u:G:D:T:Iz::"},
    {"osu_latency_persistent", "+:hvm:x:i:b:c::u:G:D:P:T:Iz::"},
    {"osu_mbw_mr", "p:W:R:x:i:m:Vhvb:c::u:G:D:P:T:Iz::"},
    {"osu_multi_lat", "+:hvm:x:i:b:c::u:G:D:P:T:Iz::"},
    {"osu_neighbor_allgather", "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_neighbor_allgatherv", "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_neighbor_alltoall", "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_neighbor_alltoallv", "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_neighbor_alltoallw", "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"},
    {"osu_put_bibw", "+:w:s:hvm:x:i:G:Iz::W:P:"},
    {"osu_put_bw", "+:w:s:hvm:x:i:G:Iz::W:P:"},
    {"osu_put_latency", "+:w:s:hvm:x:i:G:Iz::P:"},
    {"osu_reduce", "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::k:"},
    {"osu_reduce_persistent", "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"},
    {"osu_reduce_scatter", "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"},
    {"osu_reduce_scatter_block", "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"},
    {"osu_reduce_scatter_persistent", "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"},
    {"osu_scatter", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_scatter_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
    {"osu_scatterv", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::k:"},
    {"osu_scatterv_persistent", "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"},
};
#define NSTRINGS (int)(sizeof OSU_STRINGS / sizeof OSU_STRINGS[0])

static void test_every_program_has_osus_string(void)
{
    CHECK_EQ_LONG(osu_prog_count(), NSTRINGS);
    for (int i = 0; i < NSTRINGS; i++) {
        const osu_prog *p = osu_find(OSU_STRINGS[i].name);
        CHECK(p != NULL);
        if (p)
            CHECK_STR(p->optstring, OSU_STRINGS[i].optstring);
    }
}

/* Each letter a program takes has one row, with a long name, a help line
 * and a parser; a letter that takes a value has OSU's message for a bad
 * one unless its parser refuses in words of its own. */
static void test_every_letter_has_a_row(void)
{
    for (int i = 0; i < osu_prog_count(); i++)
        for (const char *s = osu_prog_at(i)->optstring; *s; s++)
            if (*s != ':' && *s != '+')
                CHECK(osu_letter_of(*s) != NULL);
    for (int i = 0; i < osu_letter_count(); i++) {
        const osu_letter *l = osu_letter_at(i);
        CHECK(osu_letter_of(l->c) == l); /* one row per letter */
        CHECK(l->name && l->help && l->take);
        CHECK(l->lo <= l->hi);
    }
    CHECK(osu_letter_of('q') == NULL);
    CHECK(osu_letter_at(osu_letter_count()) == NULL);
    CHECK_STR(osu_long_name('m'), "message-size");
    CHECK_STR(osu_letter_of('i')->bad, "Invalid Number of Iterations");
}

static osu_options opts;
static char err[512];

/* Parse a command line (words split at spaces) for program `name`. */
static int parse(const char *name, const char *line)
{
    char buf[256], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    argv[argc++] = (char *)name;
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
    err[0] = '\0';
    const osu_prog *p = osu_find(name);
    if (!p)
        return 99;
    return osu_parse(p, &opts, argc, argv, err, sizeof err);
}

#define REFUSED(name, line, msg)                                                 \
    do {                                                                         \
        CHECK_EQ_LONG(parse(name, line), OSU_PARSE_ERROR);                       \
        CHECK_STR(err, msg);                                                     \
    } while (0)

/* OSU_OPTS_PT2PT_LAT and _BW: sizes, counts, window, buffers, validation */
static void test_point_to_point(void)
{
    CHECK_EQ_LONG(parse("osu_latency", "-m 4:64 -i 10 -x 2 -b multiple -c -u 3 -T MPI_INT"),
                  OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.min_size, 4);
    CHECK_EQ_LONG(opts.max_size, 64);
    CHECK_EQ_LONG(opts.iterations, 10);
    CHECK_EQ_LONG(opts.iterations_large, 10);
    CHECK_EQ_LONG(opts.skip, 2);
    CHECK_EQ_LONG(opts.skip_large, 2);
    CHECK_EQ_LONG(opts.buf_multiple, 1);
    CHECK_EQ_LONG(opts.validate, 1);
    CHECK_EQ_LONG(opts.warmup_validation, 3);
    CHECK(opts.ndtypes == 1 && opts.dtypes[0] == MPI_INT);
    CHECK_EQ_LONG(parse("osu_latency", "--message-size=:128 --iterations=3 -z50,99"),
                  OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.min_size, 0);
    CHECK_EQ_LONG(opts.max_size, 128);
    CHECK_EQ_LONG(opts.npercentiles, 2);
    CHECK_EQ_LONG(opts.percentiles[1], 99);
    CHECK_EQ_LONG(parse("osu_bw", "-W 8 -t 2"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.window_size, 8);
    CHECK_EQ_LONG(parse("osu_latency", "-h"), OSU_PARSE_HELP);
    CHECK_EQ_LONG(parse("osu_latency", "--version"), OSU_PARSE_VERSION);
    REFUSED("osu_latency", "-i 10k", "Invalid Number of Iterations [-i 10k]");
    REFUSED("osu_latency", "-x -1", "Invalid Number of Warmup Iterations [-x -1]");
    REFUSED("osu_latency", "-m 1:2:3", "Invalid Message Size [-m 1:2:3]");
    REFUSED("osu_latency", "-m 64:4", "Invalid Message Size: minimum 64 above maximum 4 [-m]");
    REFUSED("osu_latency", "-b two", "Please use 'single' or 'multiple' for buffer type [-b two]");
    REFUSED("osu_latency", "-u 11",
            "Number of Validation Warmup Iterations must be from 0 to 10 [-u 11]");
    REFUSED("osu_latency", "-z101", "Percentile range must be in between 0 and 100 [-z 101]");
    REFUSED("osu_latency", "-c -D cont", "Derived data type does not support validation [-D cont]");
    REFUSED("osu_latency", "-D cont -c", "Derived data type does not support validation [-c]");
    REFUSED("osu_latency", "-D vect:4:8",
            "Invalid ddt type. Valid ddt types[cont,vect:STRIDE:BLOCK,indx:FILE] [-D vect:4:8]");
    REFUSED("osu_latency", "-T MPI_LONG",
            "Invalid data type (MPI_CHAR, MPI_INT, MPI_FLOAT or all) [-T MPI_LONG]");
    REFUSED("osu_latency", "-W 8", "Invalid option [-W]"); /* not in the latency set */
    REFUSED("osu_latency", "-f", "Invalid option [-f]");
    REFUSED("osu_latency", "--full", "Invalid option [--full]");
    REFUSED("osu_latency", "-i", "Option Missing Required Argument [-i]");
    REFUSED("osu_bw", "-W 0", "Invalid Window Size [-W 0]");
    REFUSED("osu_latency", "-G tty", "graphs (-G tty) are not drawn by effbench: write --json "
                                     "FILE and use effbench-results report");
    REFUSED("osu_latency", "-r gpu", "-r gpu: the compute target of OSU's CUDA kernels, which "
                                     "effbench does not build (its -d cuda buffers need no "
                                     "kernel)");
}

/* -t counts processes, threads or MPI_Test calls, by program */
static void test_the_t_letter(void)
{
    CHECK_EQ_LONG(parse("osu_latency_mt", "-t 2:3"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.senders, 2);
    CHECK_EQ_LONG(opts.receivers, 3);
    CHECK_EQ_LONG(parse("osu_latency_mp", "-t 4"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.senders, -1);
    CHECK_EQ_LONG(opts.receivers, 4);
    CHECK_EQ_LONG(parse("osu_iallreduce", "-t 7"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.num_probes, 7);
    REFUSED("osu_latency_mt", "-t 0", "Invalid Number of Threads [-t 0]");
    REFUSED("osu_latency_mp", "-t 128", "Invalid Number of Processes [-t 128]");
    REFUSED("osu_iallreduce", "-t x", "Invalid Number of Probes [-t x]");
    REFUSED("osu_allreduce", "-t 7", "Invalid option [-t]"); /* blocking: no -t */
}

/* osu_mbw_mr's own string: pairs, rate, varied windows */
static void test_mbw_mr(void)
{
    CHECK_EQ_LONG(parse("osu_mbw_mr", "-p 2 -R 0 -V -W 16"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.pairs, 2);
    CHECK_EQ_LONG(opts.print_rate, 0);
    CHECK_EQ_LONG(opts.window_varied, 1);
    CHECK_EQ_LONG(opts.window_size, 16);
    REFUSED("osu_mbw_mr", "-R 2", "Invalid message rate flag (0 or 1) [-R 2]");
    REFUSED("osu_mbw_mr", "-p 0", "Invalid Number of Pairs [-p 0]");
}

/* the collective sets: -f, -M, -a, -l, -k only where OSU has them, -N */
static void test_collectives(void)
{
    CHECK_EQ_LONG(parse("osu_reduce", "-f -M 5 -a 9 -l -k fixed:1 -T all"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.show_full, 1);
    CHECK_EQ_LONG(opts.mem_limit, 1 << 20); /* OSU's lower bound */
    CHECK_EQ_LONG(opts.in_place, 1);
    CHECK_EQ_LONG(opts.root, 1);
    CHECK_EQ_LONG(opts.ndtypes, 3);
    CHECK_EQ_LONG(parse("osu_gather", "--root-rank rotate"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.root, -1);
    CHECK_EQ_LONG(parse("osu_neighbor_alltoall", "-N cart:2:3"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.nhbr_dim, 2);
    CHECK_EQ_LONG(opts.nhbr_rad, 3);
    REFUSED("osu_allreduce", "-k fixed:1", "Invalid option [-k]");
    REFUSED("osu_bcast", "-l", "Invalid option [-l]");
    REFUSED("osu_barrier", "-c", "Invalid option [-c]");
    REFUSED("osu_reduce", "-k fixed:", "Invalid root rank rotate type. Valid types[fixed:N, "
                                       "rotate] [-k fixed:]");
    REFUSED("osu_reduce", "-M -1", "Invalid memory limit [-M -1]");
    REFUSED("osu_reduce", "-a 0", "Invalid Device Array Size [-a 0]");
    REFUSED("osu_neighbor_alltoall", "-N cart:0:1",
            "Invalid topology (cart:DIM:RAD or graph:FILE) [-N cart:0:1]");
    REFUSED("osu_alltoall", "-P x", "Invalid option. Please reconfigure with PAPI. [-P] "
                                    "(effbench has no PAPI support)");
}

/* the one-sided set: -w, -s as the program allows, its pieces -W and cT: */
static void test_one_sided(void)
{
    CHECK_EQ_LONG(parse("osu_put_bw", "-w create -s lock_all -W 4"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.win, OSU_WIN_CREATE);
    CHECK_EQ_LONG(opts.sync, OSU_SYNC_LOCK_ALL);
    CHECK_EQ_LONG(parse("osu_acc_latency", "-c -T MPI_FLOAT"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.validate, 1);
    REFUSED("osu_put_bibw", "-s lock", "Invalid option or invalid argument [-s lock]");
    REFUSED("osu_put_latency", "-w heap", "Invalid option or invalid argument [-w heap]");
    REFUSED("osu_put_latency", "-W 4", "Invalid option [-W]");
    REFUSED("osu_put_latency", "-c", "Invalid option [-c]");
}

/* -d and the buffer letters as OSU 7.4's accelerator build takes them (osu_accel.c) */
static void test_accelerator(void)
{
    CHECK_EQ_LONG(parse("osu_latency", "-d cuda D D"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.accel, EB_ACCEL_CUDA);
    CHECK_STR(opts.src, "D");
    CHECK_STR(opts.dst, "D");
    CHECK_EQ_LONG(opts.buffers_asked[0], 0);
    CHECK_EQ_LONG(parse("osu_bw", "-d CUDA -c H D"), OSU_PARSE_RUN);
    CHECK_STR(opts.src, "H");
    CHECK_EQ_LONG(osu_side_kind(osu_find("osu_bw"), &opts, 1), EB_MEM_DEVICE);
    CHECK_EQ_LONG(parse("osu_latency", "-d cuda"), OSU_PARSE_RUN); /* host buffers, as OSU */
    CHECK_EQ_LONG(osu_on_device(osu_find("osu_latency"), &opts), 0);
    /* M: OSU's deprecated MH, and setAccel's multiple buffers */
    CHECK_EQ_LONG(parse("osu_latency", "-d cuda M M"), OSU_PARSE_RUN);
    CHECK_STR(opts.src, "MH");
    CHECK_EQ_LONG(opts.m_deprecated, 1);
    CHECK_EQ_LONG(opts.buf_multiple, 1);
    CHECK_EQ_LONG(osu_side_kind(osu_find("osu_latency"), &opts, 0), EB_MEM_MANAGED);
    /* -d managed with a D or M letter: OSU's setAccel makes it CUDA */
    CHECK_EQ_LONG(parse("osu_latency", "-d managed MH D"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.managed, 0);
    CHECK_STR(osu_accel_title(&opts, OSU_TITLE_PREAMBLE), "-CUDA");
    CHECK_EQ_LONG(parse("osu_allreduce", "-d managed"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.managed, 1);
    CHECK_EQ_LONG(osu_side_kind(osu_find("osu_allreduce"), &opts, 0), EB_MEM_MANAGED);
    CHECK_STR(osu_accel_title(&opts, OSU_TITLE_PREAMBLE), "");
    CHECK_STR(osu_accel_title(&opts, OSU_TITLE_NBC), "-MANAGED");
    CHECK_STR(osu_accel_title(&opts, OSU_TITLE_VERSION), "-CUDA MANAGED");
    CHECK_EQ_LONG(parse("osu_put_latency", "-d cuda M M"), OSU_PARSE_RUN);
    CHECK_STR(opts.src, "M"); /* one-sided: "MANAGED (M)", no deprecation */
    CHECK_EQ_LONG(opts.m_deprecated, 0);
    CHECK_STR(osu_side_text(&opts, 1), "MANAGED (M)");
    CHECK_EQ_LONG(parse("osu_latency", "-d rocm D D"), OSU_PARSE_RUN); /* the seam refuses it */
    CHECK_EQ_LONG(opts.accel, EB_ACCEL_ROCM);
    CHECK_EQ_LONG(parse("osu_latency", "--stage-through-host -d cuda D H"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.stage, 1);
    /* without -d the letters are only noted (ReFrame's CPU check: osu_bw -c D D) */
    CHECK_EQ_LONG(parse("osu_bw", "-c D D"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.accel, EB_ACCEL_NONE);
    CHECK_STR(opts.buffers_asked, "D D");
    CHECK_STR(opts.src, "H");
    CHECK_EQ_LONG(osu_takes_accel(osu_find("osu_mbw_mr")), 1);
    CHECK_EQ_LONG(osu_takes_accel(osu_find("osu_ibcast")), 1);
    CHECK_EQ_LONG(osu_takes_accel(osu_find("osu_get_bw")), 1);
    CHECK_EQ_LONG(osu_takes_accel(osu_find("osu_latency_mp")), 0);
    CHECK_EQ_LONG(osu_takes_accel(osu_find("osu_neighbor_alltoall")), 0);
    CHECK_EQ_LONG(osu_takes_accel(osu_find("osu_hello")), 0);
    REFUSED("osu_latency_mt", "-d cuda", "Benchmark Does Not Support Accelerator Transfers [-d "
                                         "cuda] (osu_latency_mt has no accelerator buffers in "
                                         "OSU 7.4)");
    REFUSED("osu_latency", "-d gpu", "Invalid Accel Type Specified [-d gpu] (cuda, managed; "
                                     "rocm, openacc and level_zero are named but not built)");
    REFUSED("osu_latency", "-d cuda MD D", "buffer type MD (managed memory prefetched to the "
                                           "device) needs OSU's CUDA kernels, which effbench "
                                           "does not build: use D, MH or H");
    REFUSED("osu_latency", "-d cuda D X", "unknown buffer type 'X' (H host, D device, MH or M "
                                          "managed)");
    REFUSED("osu_latency", "--stage-through-host D D", "--stage-through-host stages device "
            "buffers: give -d cuda and the buffer types (e.g. -d cuda D D)");
    REFUSED("osu_latency", "--stage-through-host -d cuda H H", "--stage-through-host: no buffer "
            "is on the device (H H): give D or M buffer types");
    REFUSED("osu_iallreduce", "--stage-through-host -d cuda", "--stage-through-host is built for "
            "osu_latency, osu_bw, osu_bibw and the blocking collectives, not osu_iallreduce: run "
            "it without staging (an MPI library that takes device pointers)");
    REFUSED("osu_put_latency", "-d managed D D", "-d managed with a D buffer: OSU 7.4's one-sided "
            "programs cannot allocate device memory under -d managed; use -d cuda D D, or M M");
}

/* osu_init takes -I only, osu_hello nothing */
static void test_startup(void)
{
    CHECK_EQ_LONG(parse("osu_init", "-I"), OSU_PARSE_RUN);
    CHECK_EQ_LONG(opts.session, 1);
    REFUSED("osu_init", "-m 8", "Invalid option [-m]");
    REFUSED("osu_hello", "-I", "Invalid option [-I]");
}

int main(void)
{
    test_every_program_has_osus_string();
    test_every_letter_has_a_row();
    test_point_to_point();
    test_the_t_letter();
    test_mbw_mr();
    test_collectives();
    test_one_sided();
    test_startup();
    test_accelerator();
    UNIT_DONE();
}
