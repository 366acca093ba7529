/* The arguments of OSU's non-blocking collectives that move data without
 * reducing it (the reductions: osu_nbc_reduce.c): buffers, counts and
 * displacements as OSU 7.4's programs build them, in place (-l) where they
 * allow it, the root of -k, and the checked pass's data: block k of a
 * personalised exchange from rank s carries the pattern of stream
 * osu_nbc_stream(s, k), a rank's block of a gather the rank's own. */
#include "osu/osu_nbc.h"

#include "core/buffers.h"

static char *blk(char *base, int k, size_t nb) { return base + (size_t)k * nb; }

static int count_of(const osu_ctx *c) { return (int)c->count; }

/* Equal blocks of c->count elements, one per rank, in rank order. */
static void v_counts(const osu_ctx *c, int *counts, int *displs)
{
    for (int k = 0; k < c->size; k++) {
        counts[k] = count_of(c);
        displs[k] = k * count_of(c);
    }
}

/* Defects in the c->size blocks of r: block k holds stream(k, me) in a
 * personalised exchange, else rank k's own stream. */
static long verify_blocks(const osu_ctx *c, const char *r, long i, int personal)
{
    size_t nb = osu_nbc_bytes(c);
    long bad = 0;
    for (int k = 0; k < c->size; k++)
        bad += osu_verify(r + (size_t)k * nb, nb, personal ? osu_nbc_stream(c, k, c->rank) : k,
                          i);
    return bad;
}

/* ---- osu_ibarrier ------------------------------------------------------ */

static void ibarrier_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)c, (void)i;
    MPI_Ibarrier(a->comm, req);
}

const osu_nbc_call osu_call_ibarrier = {.unsynced = 1, .start = ibarrier_start};

/* ---- osu_ibcast: root 0 (OSU's; no -k) --------------------------------- */

static void ibcast_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ibcast(a->s, count_of(c), c->dtype, 0, a->comm, req);
}

static void ibcast_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    if (c->rank == 0)
        osu_fill(a->s, osu_nbc_bytes(c), 0, i);
    else
        eb_poison(a->s, osu_nbc_bytes(c));
}

static long ibcast_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    return c->rank == 0 ? 0 : osu_verify(a->s, osu_nbc_bytes(c), 0, i);
}

const osu_nbc_call osu_call_ibcast = {
    .send_blocks = 1, .start = ibcast_start, .fill = ibcast_fill, .verify = ibcast_verify};

/* ---- osu_iallgather, osu_iallgatherv ----------------------------------- */

static void iallgather_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Iallgather(osu_nbc_in_place(c) ? MPI_IN_PLACE : a->s, count_of(c), c->dtype, a->r,
                   count_of(c), c->dtype, a->comm, req);
}

static void iallgatherv_prepare(osu_ctx *c, osu_nbc_args *a)
{
    v_counts(c, a->rcounts, a->rdispls);
}

static void iallgatherv_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Iallgatherv(osu_nbc_in_place(c) ? MPI_IN_PLACE : a->s, count_of(c), c->dtype, a->r,
                    a->rcounts, a->rdispls, c->dtype, a->comm, req);
}

/* In place, a rank's contribution is its own block of the receive buffer. */
static void allgather_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    eb_poison(a->r, nb * (size_t)c->size);
    osu_fill(osu_nbc_in_place(c) ? blk(a->r, c->rank, nb) : a->s, nb, c->rank, i);
}

static long allgather_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    return verify_blocks(c, a->r, i, 0);
}

const osu_nbc_call osu_call_iallgather = {
    .send_blocks = 1, .recv_blocks = OSU_NBC_PER_PEER, .start = iallgather_start,
    .fill = allgather_fill, .verify = allgather_verify};

const osu_nbc_call osu_call_iallgatherv = {
    .send_blocks = 1, .recv_blocks = OSU_NBC_PER_PEER, .prepare = iallgatherv_prepare,
    .start = iallgatherv_start, .fill = allgather_fill, .verify = allgather_verify};

/* ---- osu_ialltoall, osu_ialltoallv, osu_ialltoallw ---------------------- */

static const void *a2a_send(const osu_ctx *c, const osu_nbc_args *a)
{
    return osu_nbc_in_place(c) ? MPI_IN_PLACE : a->s;
}

static void ialltoall_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ialltoall(a2a_send(c, a), count_of(c), c->dtype, a->r, count_of(c), c->dtype, a->comm,
                  req);
}

static void ialltoallv_prepare(osu_ctx *c, osu_nbc_args *a)
{
    v_counts(c, a->scounts, a->sdispls);
    v_counts(c, a->rcounts, a->rdispls);
}

static void ialltoallv_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ialltoallv(a2a_send(c, a), a->scounts, a->sdispls, c->dtype, a->r, a->rcounts,
                   a->rdispls, c->dtype, a->comm, req);
}

/* MPI_Ialltoallw: counts in elements, displacements in bytes, a type each. */
static void ialltoallw_prepare(osu_ctx *c, osu_nbc_args *a)
{
    ialltoallv_prepare(c, a);
    for (int k = 0; k < c->size; k++) {
        a->sdispls[k] = a->rdispls[k] = k * count_of(c) * c->dtype_size;
        a->stypes[k] = a->rtypes[k] = c->dtype;
    }
}

static void ialltoallw_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ialltoallw(a2a_send(c, a), a->scounts, a->sdispls, a->stypes, a->r, a->rcounts,
                   a->rdispls, a->rtypes, a->comm, req);
}

/* In place, the data to send are in the receive buffer. */
static void alltoall_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    if (!osu_nbc_in_place(c))
        eb_poison(a->r, nb * (size_t)c->size);
    char *out = osu_nbc_in_place(c) ? a->r : a->s;
    for (int k = 0; k < c->size; k++)
        osu_fill(blk(out, k, nb), nb, osu_nbc_stream(c, c->rank, k), i);
}

static long alltoall_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    return verify_blocks(c, a->r, i, 1);
}

#define OSU_A2A_BUFFERS .send_blocks = OSU_NBC_PER_PEER, .recv_blocks = OSU_NBC_PER_PEER
const osu_nbc_call osu_call_ialltoall = {
    OSU_A2A_BUFFERS, .start = ialltoall_start, .fill = alltoall_fill, .verify = alltoall_verify};
const osu_nbc_call osu_call_ialltoallv = {
    OSU_A2A_BUFFERS, .prepare = ialltoallv_prepare, .start = ialltoallv_start,
    .fill = alltoall_fill, .verify = alltoall_verify};
const osu_nbc_call osu_call_ialltoallw = {
    OSU_A2A_BUFFERS, .prepare = ialltoallw_prepare, .start = ialltoallw_start,
    .fill = alltoall_fill, .verify = alltoall_verify};

/* ---- osu_igather, osu_igatherv: -k's root, in place at the root -------- */

static void igather_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    int root = osu_nbc_root(c, i), at_root = root == c->rank;
    const void *s = osu_nbc_in_place(c) && at_root ? MPI_IN_PLACE : a->s;
    void *r = osu_nbc_in_place(c) && !at_root ? NULL : a->r; /* OSU passes NULL there */
    MPI_Igather(s, count_of(c), c->dtype, r, count_of(c), c->dtype, root, a->comm, req);
}

static void igatherv_prepare(osu_ctx *c, osu_nbc_args *a)
{
    v_counts(c, a->rcounts, a->rdispls);
}

static void igatherv_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    int root = osu_nbc_root(c, i), at_root = root == c->rank;
    const void *s = osu_nbc_in_place(c) && at_root ? MPI_IN_PLACE : a->s;
    void *r = osu_nbc_in_place(c) && !at_root ? NULL : a->r;
    MPI_Igatherv(s, count_of(c), c->dtype, r, a->rcounts, a->rdispls, c->dtype, root, a->comm,
                 req);
}

static void gather_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    int at_root = osu_nbc_root(c, i) == c->rank;
    if (at_root)
        eb_poison(a->r, nb * (size_t)c->size);
    osu_fill(osu_nbc_in_place(c) && at_root ? blk(a->r, c->rank, nb) : a->s, nb, c->rank, i);
}

static long gather_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    return osu_nbc_root(c, i) == c->rank ? verify_blocks(c, a->r, i, 0) : 0;
}

const osu_nbc_call osu_call_igather = {
    .send_blocks = 1, .recv_blocks = OSU_NBC_PER_PEER, .start = igather_start,
    .fill = gather_fill, .verify = gather_verify};
const osu_nbc_call osu_call_igatherv = {
    .send_blocks = 1, .recv_blocks = OSU_NBC_PER_PEER, .prepare = igatherv_prepare,
    .start = igatherv_start, .fill = gather_fill, .verify = gather_verify};

/* ---- osu_iscatter, osu_iscatterv: in place, the root sends from its
 * receive buffer and keeps its own block there (OSU's) ------------------ */

static void iscatter_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    int root = osu_nbc_root(c, i);
    if (osu_nbc_in_place(c) && root == c->rank)
        MPI_Iscatter(a->r, count_of(c), c->dtype, MPI_IN_PLACE, count_of(c), c->dtype, root,
                     a->comm, req);
    else
        MPI_Iscatter(a->s, count_of(c), c->dtype, a->r, count_of(c), c->dtype, root, a->comm,
                     req);
}

static void iscatterv_prepare(osu_ctx *c, osu_nbc_args *a)
{
    v_counts(c, a->scounts, a->sdispls);
}

static void iscatterv_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    int root = osu_nbc_root(c, i);
    if (osu_nbc_in_place(c) && root == c->rank)
        MPI_Iscatterv(a->r, a->scounts, a->sdispls, c->dtype, MPI_IN_PLACE, count_of(c),
                      c->dtype, root, a->comm, req);
    else
        MPI_Iscatterv(a->s, a->scounts, a->sdispls, c->dtype, a->r, count_of(c), c->dtype, root,
                      a->comm, req);
}

static int scatter_in_place_root(const osu_ctx *c, long i)
{
    return osu_nbc_in_place(c) && osu_nbc_root(c, i) == c->rank;
}

static void scatter_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    int root = osu_nbc_root(c, i);
    if (!scatter_in_place_root(c, i))
        eb_poison(a->r, nb);
    if (root != c->rank)
        return;
    char *out = osu_nbc_in_place(c) ? a->r : a->s;
    for (int k = 0; k < c->size; k++)
        osu_fill(blk(out, k, nb), nb, osu_nbc_stream(c, root, k), i);
}

static long scatter_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t nb = osu_nbc_bytes(c);
    int root = osu_nbc_root(c, i);
    const char *mine = scatter_in_place_root(c, i) ? blk(a->r, c->rank, nb) : a->r;
    return osu_verify(mine, nb, osu_nbc_stream(c, root, c->rank), i);
}

const osu_nbc_call osu_call_iscatter = {
    .send_blocks = OSU_NBC_PER_PEER, .recv_blocks = OSU_NBC_PER_PEER, .start = iscatter_start,
    .fill = scatter_fill, .verify = scatter_verify};
const osu_nbc_call osu_call_iscatterv = {
    .send_blocks = OSU_NBC_PER_PEER, .recv_blocks = OSU_NBC_PER_PEER,
    .prepare = iscatterv_prepare, .start = iscatterv_start, .fill = scatter_fill,
    .verify = scatter_verify};
