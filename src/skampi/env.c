/* The environment of a SKaMPI run (skampi/env.h): buffers, the timer's
 * overhead, and the search for the ping-pong pair. */
#include "skampi/env.h"

#include "core/clock.h"
#include "core/error.h"
#include "core/own_coll.h"
#include "core/stats.h"
#include "core/sysinfo.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define TAG_PAIR 1
#define PAIR_DELAY_ENV "EFFBENCH_SKAMPI_PAIR_DELAY"

void sk_env_init(sk_env *e, const sk_config *cfg)
{
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    MPI_Comm_rank(MPI_COMM_WORLD, &e->wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &e->wsize);
    e->half = (size_t)cfg->memory_kb * 512;
    e->sbuf = eb_malloc(e->half);
    e->rbuf = eb_malloc(e->half);
    /* zeros: sums of any number of them stay exact for every base type */
    memset(e->sbuf, 0, e->half);
    memset(e->rbuf, 0, e->half);
    e->node_buf = eb_calloc((size_t)e->wsize, sizeof *e->node_buf);
    e->wtick = MPI_Wtick();
    e->oversubscribed = eb_warn_oversubscription() > 0;
    e->pair[0] = e->pair[1] = -1;
    const char *delay = getenv(PAIR_DELAY_ENV); /* tests only (docs/skampi.md) */
    char why[EB_ERRLEN], all[EB_ERRLEN];
    int bad = 0;
    if (delay) {
        e->pair_delay = eb_malloc((size_t)e->wsize * sizeof *e->pair_delay);
        bad = sk_parse_pair_delay(delay, e->wsize, e->pair_delay, why, sizeof why);
    }
    if (eb_any_error(bad ? why : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    /* the empty measurement: two consecutive MPI_Wtime calls */
    double sum = 0;
    const int n = 1000;
    for (int i = 0; i < n; i++) {
        double t0 = MPI_Wtime();
        sum += MPI_Wtime() - t0;
    }
    e->overhead = sum / n;
}

void sk_env_free(sk_env *e)
{
    free(e->sbuf);
    free(e->rbuf);
    free(e->node_buf);
    free(e->pair_delay);
}

int sk_parse_pair_delay(const char *text, int P, double *delay, char *err, size_t errlen)
{
    for (int i = 0; i < P; i++)
        delay[i] = 0;
    const char *p = text;
    for (;;) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end == p || *end != ':' || r < 0)
            break;
        const char *q = end + 1;
        double us = strtod(q, &end);
        if (end == q || !(us >= 0) || us > 1e6 || (*end != ',' && *end != '\0'))
            break;
        if (r >= P)
            return eb_err(err, errlen, PAIR_DELAY_ENV ": rank %ld, but this run has %d processes",
                          r, P);
        delay[r] = us * 1e-6;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
    return eb_err(err, errlen,
                  PAIR_DELAY_ENV ": '%s' is not RANK:MICROSECONDS[,RANK:MICROSECONDS...] "
                  "(0 to 1000000 us)",
                  text);
}

/* Round-trip time of short messages between world ranks a and b, measured
 * on a (median of 21, after 5 warm-up exchanges).  With the test switch
 * EFFBENCH_SKAMPI_PAIR_DELAY a rank waits its delay before each message it
 * sends, so a pair's round trip grows by the sum of its ranks' delays. */
static double pair_rtt(sk_env *e, int a, int b)
{
    double t[21];
    char x = 0;
    int me = e->wrank;
    double delay = e->pair_delay ? e->pair_delay[me] : 0;
    for (int k = 0; k < 26; k++) {
        double t0 = MPI_Wtime();
        if (me == a) {
            if (delay > 0)
                eb_wait_until(MPI_Wtime() + delay);
            MPI_Send(&x, 1, MPI_CHAR, b, TAG_PAIR, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_CHAR, b, TAG_PAIR, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_CHAR, a, TAG_PAIR, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (delay > 0)
                eb_wait_until(MPI_Wtime() + delay);
            MPI_Send(&x, 1, MPI_CHAR, a, TAG_PAIR, MPI_COMM_WORLD);
        }
        if (k >= 5)
            t[k - 5] = MPI_Wtime() - t0;
    }
    return eb_median(t, 21);
}

double sk_pair_search(int P, sk_rtt_fn rtt, void *ctx, int pair[2])
{
    /* all pairs up to SK_PAIR_ALL_MAX processes; beyond, two sweeps: the
     * process farthest from 0, then the process farthest from that one
     * (docs/skampi.md says what that guarantees) */
    double best = -1;
    int ba = 0, bb = 1;
    int all = P <= SK_PAIR_ALL_MAX;
    int from = 0;
    for (int pass = 0; pass < (all ? 1 : 2); pass++) {
        for (int a = 0; a < P; a++) {
            if (!all && a != from)
                continue;
            for (int b = all ? a + 1 : 0; b < P; b++) {
                if (b == a)
                    continue;
                double t = rtt(ctx, a, b);
                if (t > best) {
                    best = t;
                    ba = a < b ? a : b;
                    bb = a < b ? b : a;
                }
            }
        }
        if (!all)
            from = from == ba ? bb : ba; /* the far end of the best pair so far */
    }
    pair[0] = ba;
    pair[1] = bb;
    return best;
}

/* One pair's round trip, measured by its two ranks, known to all. */
static double world_rtt(void *ctx, int a, int b)
{
    sk_env *e = ctx;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = 0;
    if (e->wrank == a || e->wrank == b)
        t = pair_rtt(e, a, b);
    eb_own_bcast(&t, 1, MPI_DOUBLE, a, MPI_COMM_WORLD);
    return t;
}

void sk_find_pair(sk_env *e)
{
    if (e->pair[0] >= 0 || e->wsize < 2)
        return;
    e->pair_latency = sk_pair_search(e->wsize, world_rtt, e, e->pair);
}
