/* The collective operations shared by IMB-MPI1 (blocking, coll.c), IMB-NBC
 * (nonblocking, nbc.c) and IMB-MPI4 (persistent, mpi4.c): one definition of
 * each operation's buffer extents, arguments, root rotation and -check
 * verification, issued through the shared call table (core/coll_calls.h) as
 * the blocking call, its MPI-3 nonblocking twin or its MPI-4 *_init. */
#ifndef EB_IMB_COLL_H
#define EB_IMB_COLL_H

#include "core/coll_calls.h"
#include "imb/driver/bench.h"
#include "imb/driver/cpu_exploit.h"

#include <mpi.h>

typedef enum {
    EB_COLL_BCAST, EB_COLL_ALLGATHER, EB_COLL_ALLGATHERV, EB_COLL_GATHER, EB_COLL_GATHERV,
    EB_COLL_SCATTER, EB_COLL_SCATTERV, EB_COLL_ALLTOALL, EB_COLL_ALLTOALLV, EB_COLL_REDUCE,
    EB_COLL_REDUCE_SCATTER, EB_COLL_ALLREDUCE, EB_COLL_BARRIER,
    /* IMB 2021's: MPI_Reduce_local (no communication) and MPI_Reduce_scatter_block
     * (X per rank from Q*X); IMB-NBC 2021 has no nonblocking benchmark of them */
    EB_COLL_REDUCE_LOCAL, EB_COLL_REDUCE_SCATTER_BLOCK, EB_COLL_N
} eb_coll_kind;

/* A benchmark built on one collective: the driver's descriptor first (so a
 * kernel can find its operation from ctx->bench), then the operation. */
typedef struct {
    eb_bench b;
    eb_coll_kind kind;
} eb_coll_bench;

/* Per-row state (ctx->priv) made by the shared prepare hook. */
typedef struct {
    /* v-variants: X each at j*X; Reduce_scatter: its split; in elements */
    size_t *count_of, *displ_of;
    int large;                  /* the row's counts pass INT_MAX: MPI-4's _c calls */
    int *counts, *displs;       /* the classic calls' vectors (!large) */
    MPI_Count *counts_c;        /* the _c calls' (large) */
    MPI_Aint *displs_c;
    eb_cpu_work cpu;      /* overlap flavours: calibrated work, passes 0 = none */
    MPI_Request req;      /* IMB-NBC: the repetition's; IMB-MPI4: the row's persistent one */
} eb_coll_state;

static inline eb_coll_kind eb_coll_kind_of(const eb_ctx *c)
{
    return ((const eb_coll_bench *)c->bench)->kind;
}

/* Completes a descriptor from its kind, for both families: class, the
 * kind's flags (EB_F_ROOT, EB_F_REDUCTION, EB_F_NO_BYTES) added to the
 * family's, the buffer extents of the guide's memory table (Alltoall(v)
 * Q*X both ways, (All)gather(v) X / Q*X, Scatter(v) Q*X / X, others X / X),
 * and the shared prepare / -check / release hooks.  The family supplies
 * component, name, order, kernel and any columns or measure. */
void eb_coll_describe(eb_coll_bench *cb);
/* eb_coll_describe, then registered with the driver. */
void eb_coll_register(eb_coll_bench *cb);

/* The shared hooks eb_coll_describe installs: per length, the counts and
 * displacements (ctx->priv) and their release; under -check, the defects of
 * what repetition i received on this rank. */
int eb_coll_prepare(eb_ctx *c);
void eb_coll_release(eb_ctx *c);
long eb_coll_check(eb_ctx *c, long i);

/* The MPI call of an operation (MPI_Reduce_local has none: not asked). */
eb_coll_mpi_call eb_coll_mpi_call_of(eb_coll_kind k);
/* Repetition i's arguments: slot i of the buffers, root of repetition i,
 * the data or reduction type, MPI_SUM, X per rank. */
void eb_coll_args_at(const eb_ctx *c, long i, eb_coll_args *a);

/* Repetition i of the operation: blocking when req is NULL, else started
 * nonblocking into *req (MPI_Reduce_local, which has no nonblocking form,
 * completes at once and leaves MPI_REQUEST_NULL).  Rooted operations use
 * root i % size. */
void eb_coll_call(eb_ctx *c, long i, MPI_Request *req);

/* Reduce_scatter's split of L items over np ranks (the guide): L = r*np + s,
 * rank i gets r+1 items if i < s, else r; displs are the prefix sums. */
void eb_reduce_scatter_split(size_t L, int np, size_t *counts, size_t *displs);

#endif
