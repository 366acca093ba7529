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

/* Measure with `procs` processes (world ranks 0..procs-1, or the ping-pong
 * pair, or rank 0 alone for the simple pattern), message of `count`
 * base-type elements (sent and received with the suite's datatype
 * patterns), `chunks` chunks (master-worker). */
void sk_measure_point(sk_env *e, const sk_suite_ctx *sc, int procs, long count, long chunks,
                      sk_point_result *r);

#endif
