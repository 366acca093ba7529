/* ReproMPI's pure pieces (src/reprompi): the summary's statistics as GSL computes them, the
 * valid repetitions of a window run, and the command line (sizes, summary, refusals). */
#include "core/error.h"
#include "reprompi/rp.h"
#include "unit.h"

#include <math.h>
#include <string.h>

static void test_summary(void)
{
    double v[RP_NSUM];
    double odd[] = {3, 1, 2};
    int codes[] = {0, 0, 0};
    long n = rp_valid(odd, codes, 3, 0);
    CHECK_EQ_LONG(n, 3);
    rp_summary_values(odd, n, v);
    CHECK(v[0] == 2 && v[1] == 2 && v[2] == 1 && v[3] == 3);
    CHECK(fabs(v[4] - 1.0) < 1e-15 && fabs(v[5] - 1.0) < 1e-15); /* sample variance (n - 1) */
    double even[] = {4, 1, 3, 2};
    rp_summary_values(even, rp_valid(even, codes, 4, 0), v);
    CHECK(v[1] == 2.5); /* the middle two's mean */
    /* a window run: repetitions with an error code are never summarised */
    double w[] = {5, 1, 7, 2};
    int wc[] = {0, 3, 0, 1};
    n = rp_valid(w, wc, 4, 1);
    CHECK_EQ_LONG(n, 2);
    CHECK(w[0] == 5 && w[1] == 7);
    rp_summary_values(w, 0, v); /* none valid: zeros, as ReproMPI prints */
    CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0 && v[5] == 0);
}

static int parse(rp_options *o, const char *line, char *err)
{
    char buf[512], *argv[32];
    int argc = 0;
    strcpy(buf, line);
    for (char *w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " "))
        argv[argc++] = w;
    return rp_parse(o, argc, argv, 4, err, EB_ERRLEN);
}

static void test_command_line(void)
{
    rp_options o;
    char err[EB_ERRLEN];
    CHECK(parse(&o, "mpibenchmark --calls-list=MPI_Bcast,Sendrecv --pingpong-ranks=0,3 "
                    "--msize-interval=min=2,max=6,step=2 --nrep=3 --summary", err) == 0);
    CHECK_EQ_LONG(o.nmsizes, 3);
    CHECK(o.msizes[0] == 4 && o.msizes[1] == 16 && o.msizes[2] == 64);
    CHECK_EQ_LONG(o.summary, (1 << RP_NSUM) - 1);
    CHECK_STR(rp_call_name(o.calls[1]), "Sendrecv");
    rp_options_free(&o);
    CHECK(parse(&o, "mpibenchmark --calls-list=MPI_Scan --msizes-list=8 --nrep=2 "
                    "--summary=median,stddev --proc-sync=window --runtime-type=global "
                    "--window-size=250 --module=scan=alg:scan_as_exscan_reducelocal", err) == 0);
    CHECK_EQ_LONG(o.summary, RP_SUM_MEDIAN | RP_SUM_STDDEV);
    CHECK(o.proc_sync == RP_SYNC_WINDOW && o.runtime == RP_RUNTIME_GLOBAL);
    CHECK(fabs(o.window_s - 250e-6) < 1e-15);
    CHECK_STR(o.module[rp_call_find("MPI_Scan")]->name, "scan_as_exscan_reducelocal");
    rp_options_free(&o);
    CHECK(parse(&o, "mpibenchmark --calls-list=MPI_Bcast --msizes-list=8 --nrep=2 "
                    "--max-nrep=4", err) == -1);
    CHECK_STR(err, "unknown option '--max-nrep' (see -h)");
    rp_options_free(&o);
    CHECK(parse(&o, "mpibenchmark --calls-list=MPI_Bcast --msize-interval=min=0,max=3", err) == -1);
    CHECK_STR(err, "--msize-interval: min='0' is not an exponent from 1 to 62");
    rp_options_free(&o);
}

int main(void)
{
    test_summary();
    test_command_line();
    UNIT_DONE();
}
