/* The ping-pong pair search (docs/skampi.md, "How each pattern times") on
 * synthetic round-trip tables: every pair up to 16 processes, two sweeps
 * beyond, and what the two sweeps guarantee; the test switch's parser. */
#include "skampi/measure.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

#define MAXP 32

typedef struct {
    int P;
    double d[MAXP][MAXP];
    int calls;
    int order[MAXP * MAXP][2];
} table;

static double rtt(void *ctx, int a, int b)
{
    table *t = ctx;
    t->order[t->calls][0] = a;
    t->order[t->calls][1] = b;
    t->calls++;
    return t->d[a][b];
}

static void fill(table *t, int P, double v)
{
    t->P = P;
    t->calls = 0;
    for (int a = 0; a < MAXP; a++)
        for (int b = 0; b < MAXP; b++)
            t->d[a][b] = a == b ? 0 : v;
}

static void set(table *t, int a, int b, double v) { t->d[a][b] = t->d[b][a] = v; }

/* A hierarchical network: 5 nodes of 4 ranks, nodes 0-1 on switch A and
 * 2-4 on switch B, A and B under one root.  The round trip is the sum of
 * the edge weights on the path: a tree metric. */
static void tree(table *t, int P)
{
    static const double node_up[5] = {1, 3, 1, 4, 2}; /* node to its switch */
    static const double switch_up[2] = {2, 5};        /* switch to the root */
    fill(t, P, 0);
    for (int a = 0; a < P; a++)
        for (int b = 0; b < P; b++) {
            if (a == b)
                continue;
            int na = a / 4, nb = b / 4, sa = na >= 2, sb = nb >= 2;
            double d = 0.1 * (a % 4 + 1) + 0.1 * (b % 4 + 1); /* rank to node */
            if (na != nb)
                d += node_up[na] + node_up[nb];
            if (sa != sb)
                d += switch_up[sa] + switch_up[sb];
            t->d[a][b] = d;
        }
}

int main(void)
{
    static table t;
    int pair[2];

    /* 4 processes: every pair once, in order; the largest wins */
    fill(&t, 4, 1);
    set(&t, 1, 3, 7);
    set(&t, 0, 2, 5);
    CHECK(sk_pair_search(4, rtt, &t, pair) == 7);
    CHECK_EQ_LONG(pair[0], 1);
    CHECK_EQ_LONG(pair[1], 3);
    CHECK_EQ_LONG(t.calls, 6);
    static const int want[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (int i = 0; i < 6; i++)
        CHECK(t.order[i][0] == want[i][0] && t.order[i][1] == want[i][1]);
    /* a tie: the first measured pair */
    fill(&t, 4, 1);
    set(&t, 2, 3, 7);
    set(&t, 0, 3, 7);
    sk_pair_search(4, rtt, &t, pair);
    CHECK(pair[0] == 0 && pair[1] == 3);

    /* 16 processes: still every pair, so a single slow pair is found */
    fill(&t, 16, 1);
    set(&t, 7, 12, 5);
    CHECK(sk_pair_search(16, rtt, &t, pair) == 5);
    CHECK(pair[0] == 7 && pair[1] == 12);
    CHECK_EQ_LONG(t.calls, 16 * 15 / 2);

    /* 17: two sweeps of 16 pairs each; that pair (which breaks the triangle
     * inequality: 5 > 1 + 1) is not seen */
    fill(&t, 17, 1);
    set(&t, 7, 12, 5);
    CHECK(sk_pair_search(17, rtt, &t, pair) == 1);
    CHECK(pair[0] == 0 && pair[1] == 1);
    CHECK_EQ_LONG(t.calls, 2 * 16);
    for (int i = 0; i < 16; i++)
        CHECK(t.order[i][0] == 0 && t.order[16 + i][0] == 1);

    /* 20 processes on a tree network: the two sweeps find the largest pair,
     * which the first sweep alone misses (farthest from 0 is 15; farthest
     * from 15 is 7) */
    tree(&t, 20);
    double best = 0;
    int ba = -1, bb = -1;
    for (int a = 0; a < 20; a++)
        for (int b = a + 1; b < 20; b++)
            if (t.d[a][b] > best) {
                best = t.d[a][b];
                ba = a;
                bb = b;
            }
    CHECK(ba == 7 && bb == 15 && fabs(best - 14.8) < 1e-12);
    double first = 0;
    for (int b = 1; b < 20; b++)
        first = fmax(first, t.d[0][b]);
    CHECK(first < best);
    t.calls = 0;
    CHECK(sk_pair_search(20, rtt, &t, pair) == best);
    CHECK(pair[0] == 7 && pair[1] == 15);

    /* a metric (the triangle inequality holds) where two sweeps fall short:
     * they find half the largest round trip, the bound's worst case */
    fill(&t, 18, 2);
    set(&t, 7, 12, 4);
    CHECK(sk_pair_search(18, rtt, &t, pair) == 2);
    CHECK(pair[0] == 0 && pair[1] == 1);

    /* the test switch EFFBENCH_SKAMPI_PAIR_DELAY */
    char err[512];
    double delay[4];
    CHECK_EQ_LONG(sk_parse_pair_delay("1:4000,3:2000", 4, delay, err, sizeof err), 0);
    CHECK(delay[0] == 0 && delay[1] == 4000e-6 && delay[2] == 0 && delay[3] == 2000e-6);
    CHECK_EQ_LONG(sk_parse_pair_delay("0:0.5", 4, delay, err, sizeof err), 0);
    CHECK(delay[0] == 0.5e-6);
    CHECK_EQ_LONG(sk_parse_pair_delay("4:100", 4, delay, err, sizeof err), -1);
    CHECK_STR(err, "EFFBENCH_SKAMPI_PAIR_DELAY: rank 4, but this run has 4 processes");
    const char *bad[] = {"", "2", "2:", "x:100", "-1:100", "1:100,", "1:100;2:5", "1:-3", "1:2e6"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_LONG(sk_parse_pair_delay(bad[i], 4, delay, err, sizeof err), -1);
        char msg[512];
        snprintf(msg, sizeof msg,
                 "EFFBENCH_SKAMPI_PAIR_DELAY: '%s' is not RANK:MICROSECONDS[,RANK:MICROSECONDS...] "
                 "(0 to 1000000 us)",
                 bad[i]);
        CHECK_STR(err, msg);
    }
    UNIT_DONE();
}
