/* Measuring one point of a suite (one message length, process count or
 * chunk count) with a pattern instance, to the suite's accuracy.  MPI:
 * collective over MPI_COMM_WORLD; every rank gets the result. */
#ifndef SK_MEASURE_H
#define SK_MEASURE_H

#include "skampi/config.h"
#include "skampi/env.h"
#include "skampi/patterns.h"

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
    int clock_method;    /* window synchronisation: the clocks' eb_clock_method, and what */
    double clock_sync_s, clock_offset_max, clock_check_error, clock_drift; /* it achieved */
} sk_point_result;

/* Measure with `procs` processes (world ranks 0..procs-1, or the ping-pong
 * pair, or rank 0 alone for the simple pattern), message of `count`
 * base-type elements (sent and received with the suite's datatype
 * patterns), `chunks` chunks (master-worker). */
void sk_measure_point(sk_env *e, const sk_suite_ctx *sc, int procs, long count, long chunks,
                      sk_point_result *r);

#endif
