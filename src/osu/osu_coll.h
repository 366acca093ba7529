/* OSU's collectives, every form (docs/osu/collectives.md, docs/osu/nbc.md):
 * the shared table of MPI collective calls (core/coll_calls.c), each written once
 * as a blocking call, a non-blocking start (MPI_I*) and (MPI-4) a
 * persistent *_init, on one argument record, so a program is a descriptor
 * row:
 *
 *   coll_prog (osu_prog + which call + OSU's synchronisation)
 *     -> osu_coll_args.c: buffers (coll_setup), counts and displacements for
 *        the size (coll_layout), one call's arguments for a root (-k) and -l
 *        (coll_args_for)
 *     -> eb_coll_forms_of(kind)->call, ->start or ->init (core/coll_calls.h)
 *     -> osu_coll_check.c: the checked pass's data, per data flow
 *
 * The loops stay with their programs: osu_coll.c (blocking),
 * osu_coll_persistent.c (MPI_Start / MPI_Wait), osu_nbc.c (OSU's overlap
 * method for osu_i* and osu_ineighbor_*), osu_nhbr.c (the neighbourhood
 * programs on their -N topology). */
#ifndef EB_OSU_COLL_H
#define EB_OSU_COLL_H

#include "core/coll_calls.h"
#include "osu/osu.h"

/* Where OSU puts the barrier of an iteration (outside the timing). */
typedef enum { SYNC_AFTER, SYNC_BEFORE, SYNC_NONE } coll_sync;

/* A program: OSU's descriptor, first, so c->prog leads back here. */
typedef struct {
    osu_prog prog;
    eb_coll_mpi_call kind;
    int pre_barrier;      /* OSU's barrier before a size's iterations */
    coll_sync sync;
    int ignores_in_place; /* persistent programs that take -l and do not use it (as OSU) */
} coll_prog;

/* A program's state on every rank (c->priv). */
typedef struct {
    MPI_Comm comm;        /* where the call runs: c->comm or the neighbourhood's graph */
    int peers;            /* entries of the counts: processes, or the larger degree */
    char *s, *r, *spare;  /* send, receive, an unused receive buffer (reduce -l) */
    size_t s_len, r_len;
    int *scounts, *sdispls, *rcounts, *rdispls, *wdispls;
    MPI_Aint *adispls;
    MPI_Datatype *types;
    eb_coll_args a;       /* the current call's */
    MPI_Request req;      /* persistent programs: the current size's */
    /* the neighbourhood (osu_nhbr_topo.c); 0 / NULL otherwise */
    int indegree, outdegree;
    int *sources, *destinations;
    int dims[16], ndims;  /* -N cart: MPI_Dims_create's sizes */
    double create_us;     /* MPI_Dist_graph_create_adjacent, average over ranks */
} coll_state;

static inline const coll_prog *coll_prog_of(const osu_ctx *c) { return (const coll_prog *)c->prog; }
static inline const eb_coll_forms *coll_call_for(const osu_ctx *c)
{
    return eb_coll_forms_of(coll_prog_of(c)->kind);
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

#endif
