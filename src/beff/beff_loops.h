/* b_eff's timed loops (beff_loops.c): what one process does in a pattern,
 * with the buffers its messages cycle through. */
#ifndef EB_BEFF_LOOPS_H
#define EB_BEFF_LOOPS_H

#include "beff/beff_patterns.h"

#include <mpi.h>
#include <stddef.h>

#define BEFF_BUF_FACTOR 6   /* send and receive buffers of 6 * L_max each */

/* This process's part of a pattern. */
typedef struct {
    MPI_Comm comm; /* the pattern's active processes; MPI_COMM_NULL when idle */
    int nsteps, nsend, nrecv;
    int to[BEFF_MAX_STEPS], from[BEFF_MAX_STEPS];
    int *sslot, *rslot; /* per comm rank: index of the send/recv slot, -1 none */
    int *scount, *sdispl, *rcount, *rdispl;
    int active_n;
} beff_rank_plan;

typedef struct {
    char *sbuf, *rbuf;
    size_t cap;        /* bytes in each buffer */
    size_t soff, roff; /* running offsets: messages cycle through the buffers */
} beff_bufs;

/* One communicator per active-process count (ranks 0..active-1), built on
 * first use; MPI_COMM_NULL on the idle ranks. */
typedef struct {
    MPI_Comm *comm; /* [active] */
    char *built;
    int n;          /* P + 1 */
} beff_comm_cache;

void beff_comm_cache_init(beff_comm_cache *cc, int P);
void beff_comm_cache_free(beff_comm_cache *cc);

/* Rank me's part of pattern pt (its communicator from cc). */
void beff_rank_plan_build(beff_rank_plan *rp, const beff_pattern *pt, int me, beff_comm_cache *cc);
void beff_rank_plan_free(beff_rank_plan *rp);
/* The MPI_Alltoallv counts for messages of L bytes, L8 apart. */
void beff_set_alltoallv_counts(beff_rank_plan *rp, long L, size_t L8);

/* Every process sends its pattern: byte k of every message from rank x is
 * eb_pattern_byte(x, k). */
void beff_fill_send(beff_bufs *cb, int rank, size_t L8);
/* n iterations of method m after a barrier (one untimed iteration first
 * with warmup); returns this process's loop time, adds wrong first/last
 * bytes to *defects.  Idle processes only take part in the barrier. */
double beff_timed_loop(const beff_rank_plan *rp, int m, long L, size_t L8, long n, int warmup,
                       beff_bufs *cb, long *defects);
/* -check: two iterations into poisoned receive areas, every byte verified;
 * returns the wrong bytes. */
long beff_checked_pass(const beff_rank_plan *rp, int m, long L, size_t L8, beff_bufs *cb);

/* The loop length after a loop of n iterations that took t_loop seconds
 * (the slowest process): kept inside [loop_ms, 2 loop_ms], else scaled to
 * 1.5 loop_ms, at least 1. */
long beff_next_looplength(long n, double t_loop, double loop_ms);

#endif
