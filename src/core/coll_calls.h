/* The MPI collective calls, each written once on one argument record and
 * made into its three forms: the blocking call, the non-blocking start
 * (MPI_I*) and, with MPI-4, the persistent *_init.  Shared by OSU's programs
 * (blocking, osu_i*, *_persistent, neighbourhood) and IMB's families
 * (IMB-MPI1 blocking, IMB-NBC nonblocking, IMB-MPI4 persistent), so every
 * personality issues a collective through the same code.  The blocking and
 * non-blocking forms of IMB's operations take MPI-4's large-count calls
 * (MPI_Allgather_c ...) when the record says `large` (core/large_count.h);
 * the persistent forms, the w variants and the neighbourhood calls are
 * classic only (their programs refuse counts past INT_MAX). */
#ifndef EB_COLL_CALLS_H
#define EB_COLL_CALLS_H

#include "core/large_count.h"

#include <mpi.h>

typedef enum {
    EB_CALL_ALLGATHER, EB_CALL_ALLGATHERV, EB_CALL_ALLREDUCE, EB_CALL_ALLTOALL,
    EB_CALL_ALLTOALLV, EB_CALL_ALLTOALLW, EB_CALL_BARRIER, EB_CALL_BCAST, EB_CALL_GATHER,
    EB_CALL_GATHERV, EB_CALL_REDUCE, EB_CALL_REDUCE_SCATTER, EB_CALL_REDUCE_SCATTER_BLOCK,
    EB_CALL_SCATTER, EB_CALL_SCATTERV, EB_CALL_NEIGHBOR_ALLGATHER, EB_CALL_NEIGHBOR_ALLGATHERV,
    EB_CALL_NEIGHBOR_ALLTOALL, EB_CALL_NEIGHBOR_ALLTOALLV, EB_CALL_NEIGHBOR_ALLTOALLW
} eb_coll_mpi_call;

/* How data moves: decides the buffer extents, what in-place means and what a
 * checked pass expects.  The v and w variants move data as their plain call. */
typedef enum {
    EB_FLOW_NONE,           /* barrier */
    EB_FLOW_BCAST,          /* root's block to every rank */
    EB_FLOW_GATHER,         /* every rank's block to the root */
    EB_FLOW_ALLGATHER,      /* every rank's block to every rank */
    EB_FLOW_SCATTER,        /* block j of the root to rank j */
    EB_FLOW_ALLTOALL,       /* block j of rank i to block i of rank j */
    EB_FLOW_REDUCE,         /* element-wise reduction at the root */
    EB_FLOW_ALLREDUCE,      /* element-wise reduction at every rank */
    EB_FLOW_REDUCE_SCATTER, /* element-wise reduction, rank j keeps its part */
    EB_FLOW_NHBR_ALLGATHER, /* a rank's block to each out-neighbour */
    EB_FLOW_NHBR_ALLTOALL,  /* block k of a rank to its k-th out-neighbour */
} eb_coll_flow;

/* One call's arguments (unused ones are ignored by the call). */
typedef struct {
    const void *sbuf;
    void *rbuf;           /* Bcast: the buffer of every rank, the root's included */
    eb_count count;       /* elements per block */
    MPI_Datatype type;
    MPI_Op op;            /* the reductions' */
    const int *scounts, *sdispls, *rcounts, *rdispls; /* v variants; reduce_scatter(_block):
                                                         rcounts (every rank's rcounts[0]) */
    const int *wdispls;   /* alltoallw: byte displacements (send = receive) */
    const MPI_Aint *adispls; /* neighbor_alltoallw: the same, as MPI_Aint */
    const MPI_Datatype *types;      /* the w variants */
    int root;
    const void *input;    /* where this rank's data to send lies (sbuf, or rbuf in place) */
    int large;            /* the _c calls, with the vectors below (IMB's operations only) */
    const MPI_Count *scounts_c, *rcounts_c;
    const MPI_Aint *sdispls_c, *rdispls_c;
} eb_coll_args;

typedef struct {
    eb_coll_flow flow;
    int rooted;
    const char *name; /* the MPI name after "MPI_": "Allreduce", "Neighbor_alltoallw" */
    void (*call)(const eb_coll_args *a, MPI_Comm comm);
    void (*start)(const eb_coll_args *a, MPI_Comm comm, MPI_Request *req);
#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
    /* the persistent request (MPI_INFO_NULL), inactive until MPI_Start */
    void (*init)(const eb_coll_args *a, MPI_Comm comm, MPI_Request *req);
#endif
} eb_coll_forms;

const eb_coll_forms *eb_coll_forms_of(eb_coll_mpi_call call);

#endif
