/* IMB command line: every option form of the user guide and every error. */
#include "core/error.h"
#include "core/options.h"
#include "unit.h"

#include <stdlib.h>

static const eb_imb_family fam = {
    .component = "mpi1", .program = "IMB-MPI1", .part = "MPI-1 part",
    .iter = {1000, 40L * 1048576L, 100, EB_ITER_DYNAMIC, 10.0},
    .minmsglog = 0, .maxmsglog = 22,
};

/* Parse a space-separated command line; returns the parser's result. */
static int parse(eb_imb_options *o, const char *line, char *err)
{
    static char buf[1024];
    static char *argv[64];
    snprintf(buf, sizeof buf, "IMB-MPI1 %s", line);
    int argc = 0;
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    eb_imb_options_init(o, &fam);
    err[0] = '\0';
    return eb_imb_parse(o, argc, argv, err, EB_ERRLEN);
}

static void expect_error(const char *line, const char *message)
{
    eb_imb_options o;
    char err[EB_ERRLEN];
    int r = parse(&o, line, err);
    CHECK_EQ_LONG(r, -1);
    CHECK_STR(err, message);
}

int main(void)
{
    eb_imb_options o;
    char err[EB_ERRLEN];

    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(o.iter.msgspersample, 1000);
    CHECK_EQ_LONG(o.iter.overall_vol, 40L * 1048576L);
    CHECK_EQ_LONG(o.iter.msgs_nonaggr, 100);
    CHECK(o.iter.policy == EB_ITER_DYNAMIC);
    CHECK(o.iter.secs == 10.0);
    CHECK_EQ_LONG(o.multi, -1);
    CHECK_EQ_LONG(o.msglog_min, 0);
    CHECK_EQ_LONG(o.msglog_max, 22);

    /* benchmark names: positional, comma lists, -include/-exclude lists */
    CHECK_EQ_LONG(parse(&o, "PingPong sendrecv,Exchange -include PingPongSpecificSource "
                            "PingPingSpecificSource -exclude Exchange", err), 0);
    CHECK_EQ_LONG(o.nnames, 3);
    CHECK_STR(o.names[1], "sendrecv");
    CHECK_EQ_LONG(o.ninclude, 2);
    CHECK_STR(o.include[1], "PingPingSpecificSource");
    CHECK_EQ_LONG(o.nexclude, 1);

    /* -iter: every form of the guide */
    CHECK_EQ_LONG(parse(&o, "-iter 2000", err), 0);
    CHECK_EQ_LONG(o.iter.msgspersample, 2000);
    CHECK_EQ_LONG(parse(&o, "-iter 2000,100", err), 0);
    CHECK_EQ_LONG(o.iter.overall_vol, 100L * 1048576L);
    CHECK_EQ_LONG(parse(&o, "-iter 1000,40,150", err), 0);
    CHECK_EQ_LONG(o.iter.msgs_nonaggr, 150);
    CHECK_EQ_LONG(parse(&o, "-iter 2000, multiple_np", err), 0);
    CHECK_EQ_LONG(o.iter.msgspersample, 2000);
    CHECK(o.iter.policy == EB_ITER_MULTIPLE_NP);
    CHECK_EQ_LONG(parse(&o, "-iter 1000,40,150,off", err), 0);
    CHECK(o.iter.policy == EB_ITER_OFF);
    CHECK_EQ_LONG(parse(&o, "-iter auto", err), 0);
    CHECK(o.iter.policy == EB_ITER_AUTO);
    CHECK_EQ_LONG(o.iter.msgspersample, 1000);
    CHECK_EQ_LONG(parse(&o, "-iter_policy multiple_np", err), 0);
    CHECK(o.iter.policy == EB_ITER_MULTIPLE_NP);

    /* the other valued options */
    CHECK_EQ_LONG(parse(&o, "-npmin 3 -multi 1 -time 1.5 -mem 2 -map 3x2 -thread_level multiple "
                            "-check --json out.jsonl -msglog 3:7", err), 0);
    CHECK_EQ_LONG(o.npmin, 3);
    CHECK_EQ_LONG(o.multi, 1);
    CHECK(o.iter.secs == 1.5);
    CHECK(o.mem_gb == 2.0);
    CHECK_EQ_LONG(o.map_p, 3);
    CHECK_EQ_LONG(o.map_q, 2);
    CHECK_EQ_LONG(o.thread_level, MPI_THREAD_MULTIPLE);
    CHECK_EQ_LONG(o.check, 1);
    CHECK_STR(o.json_path, "out.jsonl");
    CHECK_EQ_LONG(o.msglog_min, 3);
    CHECK_EQ_LONG(o.msglog_max, 7);
    CHECK_EQ_LONG(parse(&o, "-msglog 5", err), 0);
    CHECK_EQ_LONG(o.msglog_min, 0);
    CHECK_EQ_LONG(o.msglog_max, 5);
    CHECK_EQ_LONG(parse(&o, "-off_cache -1", err), 0);
    CHECK(o.cache.cache_mb == EB_DEFAULT_CACHE_MB && o.cache.line == EB_DEFAULT_CACHE_LINE);
    CHECK_EQ_LONG(parse(&o, "-off_cache 2.5", err), 0);
    CHECK(o.cache.cache_mb == 2.5 && o.cache.line == EB_DEFAULT_CACHE_LINE);
    CHECK_EQ_LONG(parse(&o, "-off_cache 16,128", err), 0);
    CHECK(o.cache.cache_mb == 16.0 && o.cache.line == 128);
    CHECK_EQ_LONG(parse(&o, "-input sel.txt -msglen lens.txt", err), 0);
    CHECK_STR(o.input_file, "sel.txt");
    CHECK_STR(o.msglen_file, "lens.txt");
    CHECK_EQ_LONG(parse(&o, "-h", err), 0);
    CHECK_EQ_LONG(o.help, 1);

    /* errors: one clear message naming the option and the value */
    expect_error("-iter abc", "-iter abc: expected msgspersample[,overall_vol_MB[,msgs_nonaggr]]"
                              "[,off|dynamic|multiple_np|auto]");
    expect_error("-iter 0", "-iter 0: expected msgspersample[,overall_vol_MB[,msgs_nonaggr]]"
                            "[,off|dynamic|multiple_np|auto]");
    expect_error("-iter_policy fast", "-iter_policy fast: expected off, dynamic, multiple_np or auto");
    expect_error("-npmin 0", "-npmin 0: expected a positive integer");
    expect_error("-npmin two", "-npmin two: expected a positive integer");
    expect_error("-multi 2", "-multi 2: expected 0 or 1");
    expect_error("-off_cache big", "-off_cache big: expected cache_size_MB[,cache_line_size] or -1");
    expect_error("-off_cache 16,0", "-off_cache 16,0: cache line size must be a positive integer");
    expect_error("-time -1", "-time -1: expected a positive number of seconds");
    expect_error("-time 1s", "-time 1s: expected a positive number of seconds");
    expect_error("-mem 0", "-mem 0: expected a positive number of GB");
    expect_error("-msglog 9:3", "-msglog 9:3: minlog 9 is larger than maxlog 3");
    expect_error("-msglog x", "-msglog x: expected [minlog:]maxlog with integers 0..40");
    expect_error("-msglog 3:99", "-msglog 3:99: expected [minlog:]maxlog with integers 0..40");
    expect_error("-map 3", "-map 3: expected PxQ with positive integers");
    expect_error("-map 0x2", "-map 0x2: expected PxQ with positive integers");
    expect_error("-thread_level bogus",
                 "-thread_level bogus: expected single, funneled, serialized or multiple");
    expect_error("-include", "option -include needs benchmark names");
    expect_error("-exclude -check", "option -exclude needs benchmark names");
    expect_error("-msglen", "option -msglen needs a value");
    expect_error("-frobnicate", "unknown option '-frobnicate' (see IMB-MPI1 -h)");
    expect_error("-msglog 3 -msglen f", "-msglog and -msglen exclude each other");

    /* -input file text */
    CHECK_EQ_LONG(parse(&o, "", err), 0);
    CHECK_EQ_LONG(eb_imb_apply_input(&o, "#\n# IMB selection\n#Window\nUnidir_Get\n  Accumulate  \n\n",
                                     "sel", err, EB_ERRLEN), 0);
    CHECK_EQ_LONG(o.nnames, 2);
    CHECK_STR(o.names[0], "Unidir_Get");
    CHECK_STR(o.names[1], "Accumulate");
    CHECK_EQ_LONG(eb_imb_apply_input(&o, "PingPong\nPing Pong\n", "sel", err, EB_ERRLEN), -1);
    CHECK_STR(err, "sel:2: 'Ping Pong': a line holds exactly one benchmark name or a # comment");
    UNIT_DONE();
}
