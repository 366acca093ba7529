/* b_eff: the pure parts of the benchmark (docs/beff-spec.md): the 21
 * message lengths, the ring layouts, the random permutations, the Cartesian
 * grid sizes and the communication patterns as lists of steps per process.
 * Nothing here measures or prints, so all of it is unit-testable. */
#ifndef EB_BEFF_PATTERNS_H
#define EB_BEFF_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

#define BEFF_NLEN 21
#define BEFF_NRINGS 6
#define BEFF_MAX_STEPS 6 /* 3-D Cartesian, all directions: +-x, +-y, +-z */
#define BEFF_NAME_LEN 24

/* L_max in bytes for M MiB per process: M/128 MiB, at most 128 MiB. */
long beff_lmax(long mem_mib);
/* The 21 lengths for L_max (L_20 = L_max); a (the growth factor) if a != NULL. */
void beff_lengths(long lmax, long len[BEFF_NLEN], double *a);

/* Ring pattern r (0..5) at P processes: counts of rings and their sizes in
 * the order they are laid out over the ranks.  Returns the number of rings
 * (sizes[] must hold P/2 + 1 entries). */
int beff_ring_target(int r, int P);
int beff_ring_sizes(int r, int P, int *sizes);
/* "ring-3*2&+1" etc. as the original prints it. */
void beff_ring_name(int r, int P, char name[BEFF_NAME_LEN]);

/* Random permutations: a splitmix64 stream, so a seed repeats a run on any
 * platform.  beff_permutation draws the next permutation of 0..P-1. */
typedef struct {
    uint64_t state;
} beff_rng;
void beff_rng_seed(beff_rng *g, uint64_t seed);
uint64_t beff_rng_next(beff_rng *g);
void beff_permutation(beff_rng *g, int P, int *perm);

/* The number of processes q <= P used for the ndims-dimensional grids, and
 * the grid extents (dims[0..ndims-1], from `dims_create`, which has the
 * contract of MPI_Dims_create with zero-initialised dims). */
typedef int (*beff_dims_fn)(int nnodes, int ndims, int dims[]);
int beff_cart_procs(int P, int ndims, beff_dims_fn dims_create, int dims[3]);

enum beff_kind { BEFF_RING, BEFF_RANDOM, BEFF_ANALYSIS };

/* A pattern: for every process p of 0..P-1 and step s, the rank it sends to
 * and receives from (-1: none).  Steps are executed in order; a process with
 * fewer steps has -1/-1 in its trailing ones. */
typedef struct {
    char name[BEFF_NAME_LEN];
    enum beff_kind kind;
    int P;
    int active;      /* processes 0..active-1 take part (its communicator) */
    int nsteps;      /* calls per iteration: steps of the busiest process */
    int sendrecv_only; /* the ping-pong pair: Sendrecv method only */
    int *to, *from;  /* [p * BEFF_MAX_STEPS + s] */
} beff_pattern;

void beff_pattern_init(beff_pattern *pt, const char *name, enum beff_kind kind, int P, int active);
void beff_pattern_free(beff_pattern *pt);
static inline int beff_to(const beff_pattern *pt, int p, int s) { return pt->to[p * BEFF_MAX_STEPS + s]; }
static inline int beff_from(const beff_pattern *pt, int p, int s) { return pt->from[p * BEFF_MAX_STEPS + s]; }

/* A ring over `order` (k ranks) : ping to the right, pong to the left; the
 * pong step is dropped when both go to the same partner (k <= 2). */
void beff_add_ring(beff_pattern *pt, const int *order, int k);
/* Ring pattern r, random ring over perm, worst-case cycle. */
void beff_make_ring_pattern(beff_pattern *pt, int r, int P);
void beff_make_random_pattern(beff_pattern *pt, int P, const int *perm);
void beff_make_worst_cycle(beff_pattern *pt, int P);
/* Pairs ping-pong (lower sends, then upper answers): best (0,1),(2,3)...,
 * worst (i, q-1-i), and the single pair (0,1).  Return 0 if P < 2. */
int beff_make_bisection(beff_pattern *pt, int P, int worst);
int beff_make_pingpong(beff_pattern *pt, int P);
/* One ping-pong pair (a, b), a < b, among the first b + 1 processes. */
void beff_make_pingpong_pair(beff_pattern *pt, int P, int a, int b, const char *name);
/* Cartesian grid of q = prod(dims) processes; dir = -1: all directions,
 * else that one direction; periodic or not. */
void beff_make_cart(beff_pattern *pt, int P, int ndims, const int dims[3], int dir, int periodic);

/* Messages per iteration over all processes; processes with a step. */
long beff_messages(const beff_pattern *pt);
int beff_used_procs(const beff_pattern *pt);
/* Steps of process p that send (receive). */
int beff_sends(const beff_pattern *pt, int p);
int beff_recvs(const beff_pattern *pt, int p);

#endif
