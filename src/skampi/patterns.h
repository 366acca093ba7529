/* The four SKaMPI patterns (paper, section 3.1) and their instances: the
 * MPI operations of one point of a suite, over the point's communication
 * state (sk_call).  Untimed: skampi/measure.c times them. */
#ifndef SK_PATTERNS_H
#define SK_PATTERNS_H

#include "core/clock.h"
#include "skampi/config.h"
#include "skampi/datatypes.h"
#include "skampi/env.h"
#include "skampi/instances.h"

#include <mpi.h>
#include <stddef.h>

/* One suite's fixed parameters while it runs. */
typedef struct {
    const sk_suite *s;
    const sk_instance *in;
    sk_basetype base;    /* @BASETYPEn of the suite */
    double t_start;      /* MPI_Wtime at the suite's start (each rank's clock) */
} sk_suite_ctx;

/* One point's communication state. */
typedef struct {
    sk_env *e;
    const sk_suite_ctx *sc;
    MPI_Comm comm;
    int rank, size;
    /* every send uses st, every receive rt (the suite's datatype patterns) */
    sk_msgtype st, rt;
    size_t bytes;
    long chunks;     /* master-worker: chunks per measurement */
    int *scounts, *sdispls, *rcounts, *rdispls; /* v-collectives, in elements */
    /* layouts for the copy loops (memcpy, the root's own block, type 48) */
    sk_block *sbl, *rbl;
    long nsb, nrb;
    char *pack;      /* types 47 and 48: the packed message */
    int packsize;
    MPI_Request *reqs;
    char *bsend;
    int bsend_size;
    long simple_calls;
    int resolution_limited; /* a run's time was raised to the timer's resolution */
    /* window synchronisation */
    eb_clock_model clock; /* this rank's clock against rank 0's */
    double slack;    /* root: start time ahead of "now" */
} sk_call;

/* The state for a message of `count` base-type elements (`chunks` chunks,
 * master-worker) on comm, which the call owns from now on: datatypes,
 * v-collective counts, layouts, pack and Bsend buffers as the instance
 * needs them.  sk_call_close frees it all, comm too. */
void sk_call_open(sk_call *c, sk_env *e, const sk_suite_ctx *sc, MPI_Comm comm, long count,
                  long chunks);
void sk_call_close(sk_call *c);

/* The operation of each pattern, once. */
void sk_pingpong(sk_call *c);
void sk_collective(sk_call *c);
void sk_mw_master(sk_call *c);
void sk_mw_worker(sk_call *c);
/* Simple pattern: k calls of the local operation. */
void sk_simple(sk_call *c, long k);
/* The operation of any pattern but the simple one, once, on every process
 * of the call (master and workers both). */
void sk_call_once(sk_call *c);

#endif
