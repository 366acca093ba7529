/* Measuring one point of a suite (one message length, process count or
 * chunk count) with a pattern instance, to the suite's accuracy.  MPI:
 * collective over MPI_COMM_WORLD; every rank gets the result. */
#ifndef SK_MEASURE_H
#define SK_MEASURE_H

#include "skampi/config.h"
#include "skampi/datatypes.h"
#include "skampi/instances.h"

#include <mpi.h>

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
} sk_env;

/* What one point measured (on every rank after sk_measure_point). */
typedef struct {
    int procs;           /* processes taking part */
    long count, bytes, chunks;
    long n, kept, invalid;
    double mean, std_error, min, max; /* seconds */
    double *node;        /* per-process means of the kept runs (seconds), nnode of them;
                            points into the env's buffer (valid until the next point) */
    int nnode;
    double calls;        /* simple pattern: calls per timed run */
    int stop;            /* Time_Suite exhausted */
    long defects;        /* --check: wrong bytes of the checked run; -1: not checked */
    int resolution_limited; /* the timing rank's runs were held to the timer's resolution */
} sk_point_result;

/* One suite's fixed parameters while it runs. */
typedef struct {
    const sk_suite *s;
    const sk_instance *in;
    sk_basetype base;    /* @BASETYPEn of the suite */
    double t_start;      /* MPI_Wtime at the suite's start (each rank's clock) */
} sk_suite_ctx;

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

/* Measure with `procs` processes (world ranks 0..procs-1, or the ping-pong
 * pair, or rank 0 alone for the simple pattern), message of `count`
 * base-type elements (sent and received with the suite's datatype
 * patterns), `chunks` chunks (master-worker). */
void sk_measure_point(sk_env *e, const sk_suite_ctx *sc, int procs, long count, long chunks,
                      sk_point_result *r);

#endif
