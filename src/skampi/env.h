/* What every point of a SKaMPI run shares (collective over MPI_COMM_WORLD):
 * the message buffers, the timer's overhead and tick, and the ping-pong
 * pair, the pair of processes with the largest latency (sk_find_pair). */
#ifndef SK_ENV_H
#define SK_ENV_H

#include "skampi/config.h"

#include <stddef.h>

typedef struct {
    const sk_config *cfg;
    int wrank, wsize;
    char *sbuf, *rbuf;
    size_t half;         /* bytes in each of sbuf, rbuf (@MEMORY / 2) */
    double overhead;     /* seconds of an empty measurement (two MPI_Wtime calls) */
    double wtick;
    int pair[2];         /* ping-pong pair (world ranks), pair[0] times; -1: not found yet */
    double pair_latency; /* its round-trip time in seconds */
    double *node_buf;    /* wsize entries */
    double window_slack; /* window synchronisation: the start lead that worked (seconds) */
    int oversubscribed;  /* more ranks than cores on some node: waits yield the core */
    double *pair_delay;  /* tests: seconds each rank adds in the pair search, or NULL */
    int check;           /* --check: verify each point's data once before measuring it */
    int clock_method;    /* --clock-sync: eb_clock_method of window synchronisation */
} sk_env;

void sk_env_init(sk_env *e, const sk_config *cfg);
void sk_env_free(sk_env *e);
/* Find the pair of processes with the largest ping-pong latency (collective). */
void sk_find_pair(sk_env *e);

/* The search sk_find_pair runs, pure: rtt(ctx, a, b) is the round trip
 * between ranks a < b or a > b.  Every pair when P <= SK_PAIR_ALL_MAX, else
 * two sweeps (from rank 0 to all, then from the far end of the best pair to
 * all).  The best pair goes to pair[] (lower rank first; the first measured
 * wins a tie); returns its round trip. */
#define SK_PAIR_ALL_MAX 16
typedef double (*sk_rtt_fn)(void *ctx, int a, int b);
double sk_pair_search(int P, sk_rtt_fn rtt, void *ctx, int pair[2]);

/* The test switch EFFBENCH_SKAMPI_PAIR_DELAY="RANK:USEC[,RANK:USEC...]":
 * delay[RANK] = USEC * 1e-6 for P ranks (the others 0).  0, or -1 and why. */
int sk_parse_pair_delay(const char *text, int P, double *delay, char *err, size_t errlen);

#endif
