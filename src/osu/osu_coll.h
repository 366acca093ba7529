/* OSU's blocking and persistent collectives (docs/osu/collectives.md): one
 * table of MPI collective calls (osu_coll_calls.c) shared by both kinds of
 * program, so a program is a descriptor row:
 *
 *   coll_prog (osu_prog + which call + OSU's synchronisation)
 *     -> coll_layout: counts and displacements for the size and process count
 *     -> coll_args_for: one call's arguments for a root (-k) and -l
 *     -> coll_call_of(kind)->call (blocking) or ->init (MPI-4 persistent)
 *     -> osu_coll_check.c: the checked pass's data, per data flow
 *
 * osu_coll.c registers the blocking programs and runs OSU's loop around a
 * call; osu_coll_persistent.c does the same around MPI_Start / MPI_Wait. */
#ifndef EB_OSU_COLL_H
#define EB_OSU_COLL_H

#include "osu/osu.h"

typedef enum {
    COLL_ALLGATHER, COLL_ALLGATHERV, COLL_ALLREDUCE, COLL_ALLTOALL, COLL_ALLTOALLV,
    COLL_ALLTOALLW, COLL_BARRIER, COLL_BCAST, COLL_GATHER, COLL_GATHERV, COLL_REDUCE,
    COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER_BLOCK, COLL_SCATTER, COLL_SCATTERV
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
    const MPI_Datatype *types;      /* alltoallw */
    int root;
    const void *input;    /* where this rank's data to send lies (s or r) */
} coll_args;

/* A family member's state on every rank (c->priv). */
typedef struct {
    char *s, *r, *spare;  /* send, receive, an unused receive buffer (reduce -l) */
    size_t s_len, r_len;
    int *scounts, *sdispls, *rcounts, *rdispls, *wdispls;
    MPI_Datatype *types;
    coll_args a;          /* the current call's */
    MPI_Request req;      /* persistent programs: the current size's */
} coll_state;

typedef struct {
    coll_flow flow;
    int rooted;
    void (*call)(const coll_args *a, MPI_Comm comm);
#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
    void (*init)(const coll_args *a, MPI_Comm comm, MPI_Request *req);
#endif
} coll_call;

const coll_call *coll_call_of(coll_kind kind);

static inline const coll_prog *coll_prog_of(const osu_ctx *c) { return (const coll_prog *)c->prog; }

/* osu_coll_calls.c: buffers for the largest size (setup), the counts of the
 * current size (layout, once per size), one call's arguments for a root. */
int coll_setup(osu_ctx *c, char *err, size_t errlen);
void coll_teardown(osu_ctx *c);
void coll_layout(osu_ctx *c);
void coll_args_for(osu_ctx *c, int root);
/* The root of iteration i: -k fixed:N, or rotating over the ranks. */
int coll_root(const osu_ctx *c, long i);

/* osu_coll_check.c: iteration i's data into the send side (and poison into
 * what will be received); the defects of what arrived. */
void coll_fill(osu_ctx *c, long i);
long coll_verify(const osu_ctx *c, long i);

/* osu_coll.c: OSU's loop, `prepare` (untimed: the root) and `run` (timed)
 * per iteration; the rank's average time per call in us. */
typedef struct {
    void (*prepare)(osu_ctx *c, long i);
    void (*run)(osu_ctx *c);
} coll_loop;
double coll_timed(osu_ctx *c, const coll_loop *loop);
/* OSU's row figures from the rank's average, and -z. */
void coll_row(osu_ctx *c, double t_us, osu_row *row);

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
