/* OSU's collectives, every form (docs/osu/collectives.md, docs/osu/nbc.md):
 * one table of MPI collective calls (osu_coll_calls.c), each written once
 * as a blocking call, a non-blocking start (MPI_I*) and (MPI-4) a
 * persistent *_init, on one argument record, so a program is a descriptor
 * row:
 *
 *   coll_prog (osu_prog + which call + OSU's synchronisation)
 *     -> osu_coll_args.c: buffers (coll_setup), counts and displacements for
 *        the size (coll_layout), one call's arguments for a root (-k) and -l
 *        (coll_args_for)
 *     -> coll_call_of(kind)->call, ->start or ->init
 *     -> osu_coll_check.c: the checked pass's data, per data flow
 *
 * The loops stay with their programs: osu_coll.c (blocking),
 * osu_coll_persistent.c (MPI_Start / MPI_Wait), osu_nbc.c (OSU's overlap
 * method for osu_i* and osu_ineighbor_*), osu_nhbr.c (the neighbourhood
 * programs on their -N topology). */
#ifndef EB_OSU_COLL_H
#define EB_OSU_COLL_H

#include "osu/osu.h"

typedef enum {
    COLL_ALLGATHER, COLL_ALLGATHERV, COLL_ALLREDUCE, COLL_ALLTOALL, COLL_ALLTOALLV,
    COLL_ALLTOALLW, COLL_BARRIER, COLL_BCAST, COLL_GATHER, COLL_GATHERV, COLL_REDUCE,
    COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER_BLOCK, COLL_SCATTER, COLL_SCATTERV,
    COLL_NEIGHBOR_ALLGATHER, COLL_NEIGHBOR_ALLGATHERV, COLL_NEIGHBOR_ALLTOALL,
    COLL_NEIGHBOR_ALLTOALLV, COLL_NEIGHBOR_ALLTOALLW
} coll_kind;

/* How data moves: decides the buffer extents, what -l means and what the
 * checked pass expects.  The v and w variants move data as their plain call. */
typedef enum {
    FLOW_NONE,           /* barrier */
    FLOW_BCAST,          /* root's block to every rank */
    FLOW_GATHER,         /* every rank's block to the root */
    FLOW_ALLGATHER,      /* every rank's block to every rank */
    FLOW_SCATTER,        /* block j of the root to rank j */
    FLOW_ALLTOALL,       /* block j of rank i to block i of rank j */
    FLOW_REDUCE,         /* element-wise sums at the root */
    FLOW_ALLREDUCE,      /* element-wise sums at every rank */
    FLOW_REDUCE_SCATTER, /* element-wise sums, rank j keeps its part */
    FLOW_NHBR_ALLGATHER, /* a rank's block to each out-neighbour */
    FLOW_NHBR_ALLTOALL,  /* block k of a rank to its k-th out-neighbour */
} coll_flow;

/* Where OSU puts the barrier of an iteration (outside the timing). */
typedef enum { SYNC_AFTER, SYNC_BEFORE, SYNC_NONE } coll_sync;

/* A program: OSU's descriptor, first, so c->prog leads back here. */
typedef struct {
    osu_prog prog;
    coll_kind kind;
    int pre_barrier;      /* OSU's barrier before a size's iterations */
    coll_sync sync;
    int ignores_in_place; /* persistent programs that take -l and do not use it (as OSU) */
} coll_prog;

/* One call's arguments (unused ones are ignored by the call). */
typedef struct {
    const void *sbuf;
    void *rbuf;
    int count;            /* elements per block */
    MPI_Datatype type;
    const int *scounts, *sdispls, *rcounts, *rdispls; /* v variants, reduce_scatter */
    const int *wdispls;   /* alltoallw: byte displacements (send = receive) */
    const MPI_Aint *adispls; /* neighbor_alltoallw: the same, as MPI_Aint */
    const MPI_Datatype *types;      /* the w variants */
    int root;
    const void *input;    /* where this rank's data to send lies (s or r) */
} coll_args;

/* A program's state on every rank (c->priv). */
typedef struct {
    MPI_Comm comm;        /* where the call runs: c->comm or the neighbourhood's graph */
    int peers;            /* entries of the counts: processes, or the larger degree */
    char *s, *r, *spare;  /* send, receive, an unused receive buffer (reduce -l) */
    size_t s_len, r_len;
    int *scounts, *sdispls, *rcounts, *rdispls, *wdispls;
    MPI_Aint *adispls;
    MPI_Datatype *types;
    coll_args a;          /* the current call's */
    MPI_Request req;      /* persistent programs: the current size's */
    /* the neighbourhood (osu_nhbr_topo.c); 0 / NULL otherwise */
    int indegree, outdegree;
    int *sources, *destinations;
    int dims[16], ndims;  /* -N cart: MPI_Dims_create's sizes */
    double create_us;     /* MPI_Dist_graph_create_adjacent, average over ranks */
} coll_state;

typedef struct {
    coll_flow flow;
    int rooted;
    void (*call)(const coll_args *a, MPI_Comm comm);
    void (*start)(const coll_args *a, MPI_Comm comm, MPI_Request *req);
#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
    void (*init)(const coll_args *a, MPI_Comm comm, MPI_Request *req);
#endif
} coll_call;

const coll_call *coll_call_of(coll_kind kind);

static inline const coll_prog *coll_prog_of(const osu_ctx *c) { return (const coll_prog *)c->prog; }
static inline const coll_call *coll_call_for(const osu_ctx *c)
{
    return coll_call_of(coll_prog_of(c)->kind);
}

/* osu_coll_args.c.  coll_setup: the checks of -k and -D and buffers for the
 * largest size on c->comm; or, in steps, coll_state_new, then (after a
 * neighbourhood is made) coll_alloc for `peers` blocks.  coll_layout: the
 * counts of the current size (once per size); coll_args_for: one call's
 * arguments for a root. */
int coll_setup(osu_ctx *c, char *err, size_t errlen);
coll_state *coll_state_new(osu_ctx *c);
int coll_alloc(osu_ctx *c, int peers, char *err, size_t errlen);
void coll_teardown(osu_ctx *c);
void coll_layout(osu_ctx *c);
void coll_args_for(osu_ctx *c, int root);
/* The root of iteration i: -k fixed:N, or rotating over the ranks. */
int coll_root(const osu_ctx *c, long i);
/* The arguments of iteration i (its root): a loop's `prepare`. */
void coll_args_at(osu_ctx *c, long i);

/* osu_coll_check.c: iteration i's data into the send side (and poison into
 * what will be received); the defects of what arrived. */
void coll_fill(osu_ctx *c, long i);
long coll_verify(const osu_ctx *c, long i);

/* One iteration of a loop: `prepare` (untimed: the arguments, the root; may
 * be NULL) and `run` (the operation, complete on return). */
typedef struct {
    void (*prepare)(osu_ctx *c, long i);
    void (*run)(osu_ctx *c);
} coll_loop;
/* osu_coll_check.c: the checked pass, c->iterations runs of the loop's
 * operation with each iteration's data; this rank's defects. */
long coll_checked(osu_ctx *c, const coll_loop *loop);

/* osu_coll.c: OSU's blocking loop; the rank's average time per call in us. */
double coll_timed(osu_ctx *c, const coll_loop *loop);
/* OSU's row figures from the rank's average, and -z. */
void coll_row(osu_ctx *c, double t_us, osu_row *row);
/* The blocking programs' measure and check (also the neighbourhood's). */
void coll_blocking_measure(osu_ctx *c, osu_row *row);
long coll_blocking_check(osu_ctx *c);

/* The loop defaults and shape every OSU collective shares. */
#define COLL_PROG_COMMON                                                            \
    .bench = OSU_COLLECTIVE, .row = OSU_ROW_LATENCY, .loops = {1000, 100, 100, 10}, \
    .default_min_size = 1, .min_procs = 2, .setup = coll_setup, .teardown = coll_teardown

/* OSU 7.4's option strings (osu_util_options.h, without accelerators). */
#define COLL_OPT_ALLTOALL "+:hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"
#define COLL_OPT_ROOTED_MOVE COLL_OPT_ALLTOALL "k:"
#define COLL_OPT_BCAST "+:hvfm:i:x:M:a:c::u:G:D:P:T:Iz::"
#define COLL_OPT_BARRIER "+:hvfm:i:x:M:a:u:G:P:Iz::"
#define COLL_OPT_ALLREDUCE "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::"
#define COLL_OPT_REDUCE COLL_OPT_ALLREDUCE "k:"

#endif
