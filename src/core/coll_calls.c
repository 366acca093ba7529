/* The table of MPI collective calls (coll_calls.h): each collective's
 * arguments written once, from one argument record (OSU's osu_coll_args.c and
 * IMB's imb/coll.c build it), made into the blocking call, the non-blocking
 * start (MPI_I*) and, with MPI-4, the persistent *_init. */
#include "core/coll_calls.h"

#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
#define INIT_FORM(fn, init, ...)                                                    \
    static void fn##_init(const eb_coll_args *a, MPI_Comm comm, MPI_Request *q)       \
    {                                                                               \
        init(__VA_ARGS__, comm, MPI_INFO_NULL, q);                                  \
    }
#define P(fn) , fn##_init
#else
#define INIT_FORM(fn, init, ...)
#define P(fn)
#endif

/* A parenthesised argument list, unpacked. */
#define UNPACK(...) __VA_ARGS__

/* fn, fn_start and fn_init: `call`, `start` and `init` on the same
 * arguments (each followed by the communicator, the persistent one by an
 * info and all but the blocking one by a request); with `large`, the first
 * two are call_c and start_c on args_c, the same arguments but the vectors of
 * MPI_Count / MPI_Aint. */
#define FORMS_C(fn, call, start, init, args, args_c)                                    \
    static void fn(const eb_coll_args *a, MPI_Comm comm)                               \
    {                                                                                 \
        if (a->large)                                                                 \
            EB_COLL_C(call, UNPACK args_c, comm);                                     \
        else                                                                          \
            call(UNPACK args, comm);                                                  \
    }                                                                                 \
    static void fn##_start(const eb_coll_args *a, MPI_Comm comm, MPI_Request *q)        \
    {                                                                                 \
        if (a->large)                                                                 \
            EB_NBC_C(start, UNPACK args_c, comm, q);                                  \
        else                                                                          \
            start(UNPACK args, comm, q);                                              \
    }                                                                                 \
    INIT_FORM(fn, init, UNPACK args)
/* Calls whose arguments are the same in both forms (the counts are eb_count). */
#define FORMS(fn, call, start, init, ...)                                              \
    FORMS_C(fn, call, start, init, (__VA_ARGS__), (__VA_ARGS__))
/* Calls without a large-count form here (w variants, neighbourhoods). */
#define FORMS_CLASSIC(fn, call, start, init, ...)                                      \
    static void fn(const eb_coll_args *a, MPI_Comm comm) { call(__VA_ARGS__, comm); }  \
    static void fn##_start(const eb_coll_args *a, MPI_Comm comm, MPI_Request *q)      \
    {                                                                               \
        start(__VA_ARGS__, comm, q);                                                \
    }                                                                               \
    INIT_FORM(fn, init, __VA_ARGS__)

/* The argument lists, by shape */
#define GATHER_ARGS a->sbuf, a->count, a->type, a->rbuf, a->count, a->type
#define GATHERV_ARGS a->sbuf, a->count, a->type, a->rbuf, a->rcounts, a->rdispls, a->type
#define GATHERV_ARGS_C a->sbuf, a->count, a->type, a->rbuf, a->rcounts_c, a->rdispls_c, a->type
#define ALLTOALLV_ARGS                                                               \
    a->sbuf, a->scounts, a->sdispls, a->type, a->rbuf, a->rcounts, a->rdispls, a->type
#define ALLTOALLV_ARGS_C                                                             \
    a->sbuf, a->scounts_c, a->sdispls_c, a->type, a->rbuf, a->rcounts_c, a->rdispls_c, a->type
#define REDUCE_ARGS a->sbuf, a->rbuf, a->count, a->type, a->op

FORMS(allgather, MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, GATHER_ARGS)
FORMS_C(allgatherv, MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, (GATHERV_ARGS),
        (GATHERV_ARGS_C))
FORMS(allreduce, MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init, REDUCE_ARGS)
FORMS(alltoall, MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, GATHER_ARGS)
FORMS_C(alltoallv, MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, (ALLTOALLV_ARGS),
        (ALLTOALLV_ARGS_C))
FORMS_CLASSIC(alltoallw, MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init,
      a->sbuf, a->scounts, a->wdispls, a->types, a->rbuf, a->rcounts, a->wdispls, a->types)
FORMS(bcast, MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, a->rbuf, a->count, a->type, a->root)
FORMS(gather, MPI_Gather, MPI_Igather, MPI_Gather_init, GATHER_ARGS, a->root)
FORMS_C(gatherv, MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, (GATHERV_ARGS, a->root),
        (GATHERV_ARGS_C, a->root))
FORMS(reduce, MPI_Reduce, MPI_Ireduce, MPI_Reduce_init, REDUCE_ARGS, a->root)
FORMS_C(reduce_scatter, MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init,
        (a->sbuf, a->rbuf, a->rcounts, a->type, a->op),
        (a->sbuf, a->rbuf, a->rcounts_c, a->type, a->op))
/* every rank's part is rcounts[0] elements */
FORMS_C(reduce_scatter_block, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block,
        MPI_Reduce_scatter_block_init, (a->sbuf, a->rbuf, a->rcounts[0], a->type, a->op),
        (a->sbuf, a->rbuf, a->rcounts_c[0], a->type, a->op))
FORMS(scatter, MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, GATHER_ARGS, a->root)
FORMS_C(scatterv, MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init,
        (a->sbuf, a->scounts, a->sdispls, a->type, a->rbuf, a->count, a->type, a->root),
        (a->sbuf, a->scounts_c, a->sdispls_c, a->type, a->rbuf, a->count, a->type, a->root))
FORMS_CLASSIC(nhbr_allgather, MPI_Neighbor_allgather, MPI_Ineighbor_allgather,
      MPI_Neighbor_allgather_init, GATHER_ARGS)
FORMS_CLASSIC(nhbr_allgatherv, MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv,
      MPI_Neighbor_allgatherv_init, GATHERV_ARGS)
FORMS_CLASSIC(nhbr_alltoall, MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall,
      MPI_Neighbor_alltoall_init, GATHER_ARGS)
FORMS_CLASSIC(nhbr_alltoallv, MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv,
      MPI_Neighbor_alltoallv_init, ALLTOALLV_ARGS)
FORMS_CLASSIC(nhbr_alltoallw, MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw,
      MPI_Neighbor_alltoallw_init,
      a->sbuf, a->scounts, a->adispls, a->types, a->rbuf, a->rcounts, a->adispls, a->types)

/* The barrier has no arguments besides the communicator. */
static void barrier(const eb_coll_args *a, MPI_Comm comm)
{
    (void)a;
    MPI_Barrier(comm);
}

static void barrier_start(const eb_coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    (void)a;
    MPI_Ibarrier(comm, q);
}

#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
static void barrier_init(const eb_coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    (void)a;
    MPI_Barrier_init(comm, MPI_INFO_NULL, q);
}
#endif

/* {flow, rooted, the MPI name, the forms} */
#define ROW(flow, rooted, name, fn) {flow, rooted, name, fn, fn##_start P(fn)}

static const eb_coll_forms CALLS[] = {
    [EB_CALL_ALLGATHER] = ROW(EB_FLOW_ALLGATHER, 0, "Allgather", allgather),
    [EB_CALL_ALLGATHERV] = ROW(EB_FLOW_ALLGATHER, 0, "Allgatherv", allgatherv),
    [EB_CALL_ALLREDUCE] = ROW(EB_FLOW_ALLREDUCE, 0, "Allreduce", allreduce),
    [EB_CALL_ALLTOALL] = ROW(EB_FLOW_ALLTOALL, 0, "Alltoall", alltoall),
    [EB_CALL_ALLTOALLV] = ROW(EB_FLOW_ALLTOALL, 0, "Alltoallv", alltoallv),
    [EB_CALL_ALLTOALLW] = ROW(EB_FLOW_ALLTOALL, 0, "Alltoallw", alltoallw),
    [EB_CALL_BARRIER] = ROW(EB_FLOW_NONE, 0, "Barrier", barrier),
    [EB_CALL_BCAST] = ROW(EB_FLOW_BCAST, 1, "Bcast", bcast),
    [EB_CALL_GATHER] = ROW(EB_FLOW_GATHER, 1, "Gather", gather),
    [EB_CALL_GATHERV] = ROW(EB_FLOW_GATHER, 1, "Gatherv", gatherv),
    [EB_CALL_REDUCE] = ROW(EB_FLOW_REDUCE, 1, "Reduce", reduce),
    [EB_CALL_REDUCE_SCATTER] = ROW(EB_FLOW_REDUCE_SCATTER, 0, "Reduce_scatter", reduce_scatter),
    [EB_CALL_REDUCE_SCATTER_BLOCK] = ROW(EB_FLOW_REDUCE_SCATTER, 0, "Reduce_scatter_block",
                                         reduce_scatter_block),
    [EB_CALL_SCATTER] = ROW(EB_FLOW_SCATTER, 1, "Scatter", scatter),
    [EB_CALL_SCATTERV] = ROW(EB_FLOW_SCATTER, 1, "Scatterv", scatterv),
    [EB_CALL_NEIGHBOR_ALLGATHER] = ROW(EB_FLOW_NHBR_ALLGATHER, 0, "Neighbor_allgather",
                                       nhbr_allgather),
    [EB_CALL_NEIGHBOR_ALLGATHERV] = ROW(EB_FLOW_NHBR_ALLGATHER, 0, "Neighbor_allgatherv",
                                        nhbr_allgatherv),
    [EB_CALL_NEIGHBOR_ALLTOALL] = ROW(EB_FLOW_NHBR_ALLTOALL, 0, "Neighbor_alltoall", nhbr_alltoall),
    [EB_CALL_NEIGHBOR_ALLTOALLV] = ROW(EB_FLOW_NHBR_ALLTOALL, 0, "Neighbor_alltoallv",
                                       nhbr_alltoallv),
    [EB_CALL_NEIGHBOR_ALLTOALLW] = ROW(EB_FLOW_NHBR_ALLTOALL, 0, "Neighbor_alltoallw",
                                       nhbr_alltoallw),
};

const eb_coll_forms *eb_coll_forms_of(eb_coll_mpi_call call) { return &CALLS[call]; }
