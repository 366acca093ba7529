/* effbench explain's pure pieces (src/explain): how a row's value is formed from every
 * process's region times under each form, statistic and order, missed windows counted and
 * never timed; the chains of one-factor rows; the warm-up counts; the command line. */
#include "core/error.h"
#include "explain/ex.h"
#include "unit.h"

#include <math.h>
#include <string.h>

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

/* two processes, three regions (rank-major) */
static const double dur[] = {1, 2, 3, 4, 1, 6};
static const double gs[] = {0, 10, 20, 0.5, 10.2, 19};
static double ge[6];
static const double ws[] = {-1, 9, 18};

static double value(int form, int stat, int order, const int *flags, long *inv)
{
    ex_config c;
    memset(&c, 0, sizeof c);
    c.v[EX_F_FORM] = form;
    c.v[EX_F_STAT] = stat;
    c.v[EX_F_ORDER] = order;
    return ex_form_value(&c, 2, 3, 1.0, dur, gs, ge, ws, flags, inv);
}

static void test_forms(void)
{
    int ok[3] = {0, 0, 0}, one[3] = {0, 1, 0}, all[3] = {1, 3, 2};
    long inv;
    for (int i = 0; i < 6; i++)
        ge[i] = gs[i] + dur[i];
    /* region first: per region max {4, 2, 6}, mean {2.5, 1.5, 4.5} */
    CHECK(NEAR(value(EX_FORM_MAX, EX_STAT_MEDIAN, EX_ORDER_REGION, ok, &inv), 4));
    CHECK_EQ_LONG(inv, 0);
    CHECK(NEAR(value(EX_FORM_MEAN, EX_STAT_MEAN, EX_ORDER_REGION, ok, &inv), 8.5 / 3));
    CHECK(NEAR(value(EX_FORM_MAX, EX_STAT_MIN, EX_ORDER_REGION, ok, &inv), 2));
    /* process first: means 2 and 11/3, then the form (IMB's t_max, OSU's average) */
    CHECK(NEAR(value(EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, ok, &inv), 11.0 / 3));
    CHECK(NEAR(value(EX_FORM_MEAN, EX_STAT_MEAN, EX_ORDER_PROCESS, ok, &inv), (2 + 11.0 / 3) / 2));
    CHECK(NEAR(value(EX_FORM_RANK0, EX_STAT_MIN, EX_ORDER_PROCESS, ok, &inv), 1));
    /* global: latest end - earliest start per region {4.5, 2, 6}; from the window's start
     * {5.5, 3, 7}; always per region */
    CHECK(NEAR(value(EX_FORM_GLOBAL, EX_STAT_MEDIAN, EX_ORDER_REGION, ok, &inv), 4.5));
    CHECK(NEAR(value(EX_FORM_GLOBAL, EX_STAT_MEDIAN, EX_ORDER_PROCESS, ok, &inv), 4.5));
    CHECK(NEAR(value(EX_FORM_FROM_START, EX_STAT_MEAN, EX_ORDER_REGION, ok, &inv), 15.5 / 3));
    /* a missed window: counted, never timed */
    CHECK(NEAR(value(EX_FORM_MAX, EX_STAT_MEDIAN, EX_ORDER_REGION, one, &inv), 5));
    CHECK_EQ_LONG(inv, 1);
    CHECK(NEAR(value(EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, one, &inv), 5));
    CHECK_EQ_LONG(inv, 1);
    CHECK(isnan(value(EX_FORM_GLOBAL, EX_STAT_MEDIAN, EX_ORDER_REGION, all, &inv)));
    CHECK_EQ_LONG(inv, 3);
    CHECK(isnan(value(EX_FORM_MAX, EX_STAT_MEAN, EX_ORDER_PROCESS, all, &inv)));
    /* the scale (per call of a loop, per message) */
    ex_config c;
    memset(&c, 0, sizeof c);
    c.v[EX_F_FORM] = EX_FORM_MAX;
    CHECK(NEAR(ex_form_value(&c, 2, 3, 0.25, dur, gs, ge, ws, ok, &inv), 1.0)); /* mean {4, 2, 6} / 4 */
    double even[] = {4, 1, 3, 2};
    CHECK(NEAR(ex_statistic(EX_STAT_MEDIAN, even, 4), 2.5));
}

static void test_chains(void)
{
    const ex_method *m;
    int n = ex_methods(EX_OP_BCAST, 4, &m);
    CHECK_EQ_LONG(n, 7);
    int ref = ex_method_find(EX_OP_BCAST, 4, "reprompi-window"),
        imb = ex_method_find(EX_OP_BCAST, 4, "IMB-4.0");
    CHECK_EQ_LONG(ref, 0);
    ex_config rows[EX_NFACTORS];
    ex_factor which[EX_NFACTORS];
    int k = ex_chain(&m[ref].c, &m[imb].c, rows, which);
    /* sync, form, statistic, order, region, warm-up, root: each row one more factor */
    CHECK_EQ_LONG(k, 7);
    CHECK(which[0] == EX_F_SYNC && which[4] == EX_F_REGION && which[6] == EX_F_ROOT);
    CHECK(!memcmp(&rows[k - 1], &m[imb].c, sizeof rows[0]));
    for (int i = 1; i < k; i++) {
        int diff = 0;
        for (int f = 0; f < EX_NFACTORS; f++)
            diff += rows[i].v[f] != rows[i - 1].v[f];
        CHECK_EQ_LONG(diff, 1);
    }
    CHECK_EQ_LONG(ex_chain(&m[ref].c, &m[ref].c, rows, which), 0);
    /* Allreduce has no root: no root row */
    n = ex_methods(EX_OP_ALLREDUCE, 4, &m);
    CHECK_EQ_LONG(ex_chain(&m[ref].c, &m[imb].c, rows, which), 6);
    /* bw: osu_bw's window is the chain's last step */
    n = ex_methods(EX_OP_BW, 2, &m);
    int osu = ex_method_find(EX_OP_BW, 2, "osu-7.4");
    k = ex_chain(&m[ref].c, &m[osu].c, rows, which);
    CHECK(which[k - 1] == EX_F_INFLIGHT);
    CHECK_STR(ex_value_name(EX_F_INFLIGHT, 1), "window-64");
}

/* b_eff's method: where its traffic is the operation's, and its chains */
static void test_beff(void)
{
    const ex_method *m;
    ex_config rows[EX_NFACTORS];
    ex_factor which[EX_NFACTORS];
    CHECK(ex_method_find(EX_OP_BCAST, 4, "b_eff") < 0);
    CHECK(ex_method_find(EX_OP_ALLTOALL, 4, "b_eff") < 0);
    CHECK(ex_method_find(EX_OP_SENDRECV, 3, "b_eff") < 0);
    CHECK(ex_method_find(EX_OP_EXCHANGE, 2, "b_eff") < 0);
    CHECK_EQ_LONG(ex_method_find(EX_OP_PINGPONG, 4, "b_eff"), 7);
    CHECK_EQ_LONG(ex_method_find(EX_OP_BW, 2, "b_eff"), 7);
    CHECK_EQ_LONG(ex_method_find(EX_OP_PINGPING, 3, "b_eff"), 6);
    CHECK_EQ_LONG(ex_method_find(EX_OP_SENDRECV, 2, "b_eff"), 6);
    CHECK_EQ_LONG(ex_methods(EX_OP_EXCHANGE, 3, &m), 7);
    int b = ex_method_find(EX_OP_EXCHANGE, 3, "b_eff");
    CHECK_EQ_LONG(b, 6);
    /* sync, form, statistic, region, warm-up, buffers, then its three MPI methods */
    int k = ex_chain(&m[0].c, &m[b].c, rows, which);
    CHECK_EQ_LONG(k, 7);
    CHECK(which[2] == EX_F_STAT && which[3] == EX_F_REGION && which[6] == EX_F_CALLS);
    CHECK_STR(ex_value_name(EX_F_STAT, m[b].c.v[EX_F_STAT]), "min");
    CHECK_STR(ex_value_name(EX_F_CALLS, m[b].c.v[EX_F_CALLS]), "b_eff-3");
    /* PingPong: the ping-pong pair, Sendrecv only, half the round trip */
    ex_methods(EX_OP_PINGPONG, 2, &m);
    k = ex_chain(&m[0].c, &m[7].c, rows, which);
    CHECK_EQ_LONG(k, 7);
    CHECK(which[k - 1] == EX_F_UNIT);
    CHECK_STR(ex_value_name(EX_F_BUFFERS, m[7].c.v[EX_F_BUFFERS]), "b_eff-6lmax");
    /* the regions: three loops of reps / 3 calls; times three with b_eff's methods */
    long nreg, calls;
    ex_regions_of(&m[7].c, 20, &nreg, &calls);
    CHECK(nreg == 3 && calls == 6);
    ex_regions_of(&m[7].c, 2, &nreg, &calls);
    CHECK(nreg == 3 && calls == 1);
    ex_methods(EX_OP_EXCHANGE, 3, &m);
    ex_regions_of(&m[b].c, 20, &nreg, &calls);
    CHECK(nreg == 9 && calls == 6);
    ex_regions_of(&m[0].c, 20, &nreg, &calls);
    CHECK(nreg == 20 && calls == 1);
    /* L_max: the largest size, at least 8192 (b_eff at 1 MiB per process) */
    long sizes[] = {64, 524288, 1024};
    CHECK_EQ_LONG(ex_beff_lmax(sizes, 3), 524288);
    CHECK_EQ_LONG(ex_beff_lmax(sizes, 1), 8192);
}

static void test_warmup(void)
{
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_IMB4, 1 << 20, 100, 8192), 2);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_IMB2021, 8, 100, 8192), 10);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_IMB2021, 8, 5, 8192), 1);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_IMB2021, 8, 1, 8192), 0);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_OSU, 8192, 100, 8192), 100);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_OSU, 8193, 100, 8192), 10);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_OSU_BW, 8192, 100, 8192), 10);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_OSU_BW, 1 << 20, 100, 8192), 2);
    /* b_eff: none at its three largest lengths; L_max 512 KiB (M = 64): 155872 285870 524288 */
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_BEFF, 155871, 100, 524288), 1);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_BEFF, 155872, 100, 524288), 0);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_BEFF, 1024, 100, 524288), 1);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_BEFF, 262144, 100, 1 << 20), 0); /* a = 2 */
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_BEFF, 262143, 100, 1 << 20), 1);
    CHECK_EQ_LONG(ex_warmup_calls(EX_WARM_BEFF, 8192, 100, 8192), 0);
}

static int parse(ex_options *o, const char *line, char *err)
{
    char buf[512], *argv[32];
    int argc = 0;
    strcpy(buf, line);
    for (char *w = strtok(buf, " "); w && argc < 32; w = strtok(NULL, " "))
        argv[argc++] = w;
    return ex_parse(o, argc, argv, 4, err, EB_ERRLEN);
}

static void test_command_line(void)
{
    ex_options o;
    char err[EB_ERRLEN];
    CHECK(parse(&o, "explain allreduce 8,1024 --rounds 3 --seed 7 --reference osu-7.4", err) == 0);
    CHECK(o.op == EX_OP_ALLREDUCE && o.nsizes == 2 && o.sizes[1] == 1024 && o.rounds == 3);
    CHECK(o.seed == 7 && o.reference == ex_method_find(EX_OP_ALLREDUCE, 4, "osu-7.4"));
    CHECK_EQ_LONG(ex_reps(&o, 1024), 100);
    CHECK_EQ_LONG(ex_reps(&o, 1 << 20), 20);
    CHECK(parse(&o, "explain Barrier", err) == 0);
    CHECK(o.nsizes == 1 && o.sizes[0] == 0);
    CHECK(parse(&o, "explain PingPong --reps 0", err) == -1);
    CHECK_STR(err, "--reps 0: expected an integer from 1 to 1000000");
    CHECK(parse(&o, "explain PingPong --json", err) == -1);
    CHECK_STR(err, "--json needs a value");
}

int main(void)
{
    test_forms();
    test_chains();
    test_beff();
    test_warmup();
    test_command_line();
    UNIT_DONE();
}
