/* The arguments of OSU's neighbourhood collectives, blocking and
 * non-blocking, on the -N topology (osu_nhbr_topo.c): a block of c->count
 * elements per neighbour, in the order of the graph's sources (receive) and
 * destinations (send).  The checked pass's data: a rank's own stream in the
 * allgathers, stream osu_nbc_stream(sender, receiver) in the alltoalls (two
 * edges between the same ranks carry the same data). */
#include "osu/osu_nhbr_calls.h"

#include "core/buffers.h"

static int count_of(const osu_ctx *c) { return (int)c->count; }

static char *blk(char *base, int k, size_t nb) { return base + (size_t)k * nb; }

/* Equal blocks, one per neighbour: counts and displacements in elements
 * (and in bytes for the w-variant, with a type each). */
static void blocks(osu_ctx *c, osu_nbc_args *a)
{
    int n = count_of(c);
    for (int k = 0; k < a->outdegree; k++) {
        a->scounts[k] = n;
        a->sdispls[k] = k * n;
        a->sdispls_a[k] = (MPI_Aint)k * n * c->dtype_size;
        a->stypes[k] = c->dtype;
    }
    for (int k = 0; k < a->indegree; k++) {
        a->rcounts[k] = n;
        a->rdispls[k] = k * n;
        a->rdispls_a[k] = (MPI_Aint)k * n * c->dtype_size;
        a->rtypes[k] = c->dtype;
    }
}

/* ---- the calls: blocking and non-blocking ------------------------------ */

static void allgather(osu_ctx *c, osu_nbc_args *a, long i)
{
    (void)i;
    MPI_Neighbor_allgather(a->s, count_of(c), c->dtype, a->r, count_of(c), c->dtype, a->comm);
}

static void iallgather(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ineighbor_allgather(a->s, count_of(c), c->dtype, a->r, count_of(c), c->dtype, a->comm,
                            req);
}

static void allgatherv(osu_ctx *c, osu_nbc_args *a, long i)
{
    (void)i;
    MPI_Neighbor_allgatherv(a->s, count_of(c), c->dtype, a->r, a->rcounts, a->rdispls, c->dtype,
                            a->comm);
}

static void iallgatherv(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ineighbor_allgatherv(a->s, count_of(c), c->dtype, a->r, a->rcounts, a->rdispls,
                             c->dtype, a->comm, req);
}

static void alltoall(osu_ctx *c, osu_nbc_args *a, long i)
{
    (void)i;
    MPI_Neighbor_alltoall(a->s, count_of(c), c->dtype, a->r, count_of(c), c->dtype, a->comm);
}

static void ialltoall(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ineighbor_alltoall(a->s, count_of(c), c->dtype, a->r, count_of(c), c->dtype, a->comm,
                           req);
}

static void alltoallv(osu_ctx *c, osu_nbc_args *a, long i)
{
    (void)i;
    MPI_Neighbor_alltoallv(a->s, a->scounts, a->sdispls, c->dtype, a->r, a->rcounts, a->rdispls,
                           c->dtype, a->comm);
}

static void ialltoallv(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ineighbor_alltoallv(a->s, a->scounts, a->sdispls, c->dtype, a->r, a->rcounts,
                            a->rdispls, c->dtype, a->comm, req);
}

static void alltoallw(osu_ctx *c, osu_nbc_args *a, long i)
{
    (void)c, (void)i;
    MPI_Neighbor_alltoallw(a->s, a->scounts, a->sdispls_a, a->stypes, a->r, a->rcounts,
                           a->rdispls_a, a->rtypes, a->comm);
}

static void ialltoallw(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)c, (void)i;
    MPI_Ineighbor_alltoallw(a->s, a->scounts, a->sdispls_a, a->stypes, a->r, a->rcounts,
                            a->rdispls_a, a->rtypes, a->comm, req);
}

/* ---- the checked pass -------------------------------------------------- */

static void allgather_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    eb_poison(a->r, nb * (size_t)a->indegree);
    osu_fill(a->s, nb, c->rank, i);
}

static long allgather_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    long bad = 0;
    for (int k = 0; k < a->indegree; k++)
        bad += osu_verify(blk(a->r, k, nb), nb, a->sources[k], i);
    return bad;
}

static void alltoall_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    eb_poison(a->r, nb * (size_t)a->indegree);
    for (int k = 0; k < a->outdegree; k++)
        osu_fill(blk(a->s, k, nb), nb, osu_nbc_stream(c, c->rank, a->destinations[k]), i);
}

static long alltoall_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    long bad = 0;
    for (int k = 0; k < a->indegree; k++)
        bad += osu_verify(blk(a->r, k, nb), nb, osu_nbc_stream(c, a->sources[k], c->rank), i);
    return bad;
}

#define GATHER_BUFFERS .send_blocks = 1, .recv_blocks = OSU_NBC_PER_PEER, .prepare = blocks
#define GATHER_CHECK .fill = allgather_fill, .verify = allgather_verify
#define ALLTOALL_BUFFERS                                                                   \
    .send_blocks = OSU_NBC_PER_PEER, .recv_blocks = OSU_NBC_PER_PEER, .prepare = blocks
#define ALLTOALL_CHECK .fill = alltoall_fill, .verify = alltoall_verify

const osu_nbc_call osu_call_neighbor_allgather = {GATHER_BUFFERS, .call = allgather,
                                                  GATHER_CHECK};
const osu_nbc_call osu_call_neighbor_allgatherv = {GATHER_BUFFERS, .call = allgatherv,
                                                   GATHER_CHECK};
const osu_nbc_call osu_call_neighbor_alltoall = {ALLTOALL_BUFFERS, .call = alltoall,
                                                 ALLTOALL_CHECK};
const osu_nbc_call osu_call_neighbor_alltoallv = {ALLTOALL_BUFFERS, .call = alltoallv,
                                                  ALLTOALL_CHECK};
const osu_nbc_call osu_call_neighbor_alltoallw = {ALLTOALL_BUFFERS, .call = alltoallw,
                                                  ALLTOALL_CHECK};
const osu_nbc_call osu_call_ineighbor_allgather = {GATHER_BUFFERS, .start = iallgather,
                                                   GATHER_CHECK};
const osu_nbc_call osu_call_ineighbor_allgatherv = {GATHER_BUFFERS, .start = iallgatherv,
                                                    GATHER_CHECK};
const osu_nbc_call osu_call_ineighbor_alltoall = {ALLTOALL_BUFFERS, .start = ialltoall,
                                                  ALLTOALL_CHECK};
const osu_nbc_call osu_call_ineighbor_alltoallv = {ALLTOALL_BUFFERS, .start = ialltoallv,
                                                   ALLTOALL_CHECK};
const osu_nbc_call osu_call_ineighbor_alltoallw = {ALLTOALL_BUFFERS, .start = ialltoallw,
                                                   ALLTOALL_CHECK};
