/* OSU's collectives: the descriptor, a program's state and one loop's shape,
 * shared by every file of the family (osu_coll.h), and the arguments of a
 * call (osu_coll_args.c): buffers, counts, displacements, the root. */
#ifndef EB_OSU_COLL_ARGS_H
#define EB_OSU_COLL_ARGS_H

#include "core/coll_calls.h"
#include "core/coll_emulated.h"
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
    eb_mem_kind mem;      /* where they are (-d: device or managed memory on every rank) */
    char *hs, *hr, *hspare; /* -d: host copies of the three, for the checked pass and
                           * --stage-through-host (MPI moves them); NULL on host runs */
    int *scounts, *sdispls, *rcounts, *rdispls, *wdispls;
    MPI_Aint *adispls;
    MPI_Datatype *types;
    eb_coll_args a;       /* the current call's */
    MPI_Request req;      /* non-blocking programs: the started call's */
    eb_pcoll persistent;  /* persistent programs: the current size's request */
    /* the neighbourhood (osu_nhbr_topo.c); 0 / NULL otherwise */
    int indegree, outdegree;
    int *sources, *destinations;
    int dims[16], ndims;  /* -N cart: MPI_Dims_create's sizes */
    double create_us;     /* MPI_Dist_graph_create_adjacent (emulated: the lists), average */
    eb_nhbr_p2p *p2p;     /* SMPI builds: the neighbourhood calls as point-to-point, on comm */
} coll_state;

static inline const coll_prog *coll_prog_of(const osu_ctx *c) { return (const coll_prog *)c->prog; }
static inline const eb_coll_forms *coll_call_for(const osu_ctx *c)
{
    return eb_coll_forms_of(coll_prog_of(c)->kind);
}

/* One iteration of a loop: `prepare` (untimed: the arguments, the root; may
 * be NULL) and `run` (the operation, complete on return). */
typedef struct {
    void (*prepare)(osu_ctx *c, long i);
    void (*run)(osu_ctx *c);
} coll_loop;
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
/* The current call (st->a) on st->comm: blocking (coll_run), or started,
 * progressed by one test and completed (coll_start, coll_test, coll_wait).
 * The collective table's forms, or, where the neighbourhood is emulated
 * (st->p2p), its point-to-point messages (core/coll_emulated.h). */
void coll_run(osu_ctx *c);
void coll_start(osu_ctx *c);
void coll_test(void *c);
void coll_wait(osu_ctx *c);
/* The host copy of a pointer into s, r or spare (itself on host runs, and for
 * MPI_IN_PLACE or NULL). */
void *coll_host_view(const coll_state *st, const void *p);
/* The root of iteration i: -k fixed:N, or rotating over the ranks. */
int coll_root(const osu_ctx *c, long i);
/* The arguments of iteration i (its root): a loop's `prepare`. */
void coll_args_at(osu_ctx *c, long i);

#endif
