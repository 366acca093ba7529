/* The arguments of OSU's non-blocking reductions (MPI_SUM over the -T
 * type): osu_iallreduce, osu_ireduce (-k root), osu_ireduce_scatter (OSU's
 * split of the elements), osu_ireduce_scatter_block; in place (-l) as OSU
 * passes it.  The checked pass's data are small integers, element k of rank
 * r in iteration i being (r + i + k) % 5, so every sum is exact in every
 * type and differs from one iteration to the next. */
#include "osu/osu_nbc.h"

#include "core/buffers.h"

static int element(int r, long i, size_t k) { return (int)((r + i + (long)k) % 5); }

static void put(void *p, MPI_Datatype t, size_t k, long v)
{
    if (t == MPI_INT)
        ((int *)p)[k] = (int)v;
    else if (t == MPI_FLOAT)
        ((float *)p)[k] = (float)v;
    else
        ((signed char *)p)[k] = (signed char)v; /* MPI_CHAR: sums wrap as a char's */
}

static long get(const void *p, MPI_Datatype t, size_t k)
{
    if (t == MPI_INT)
        return ((const int *)p)[k];
    if (t == MPI_FLOAT) {
        float f = ((const float *)p)[k];
        return f == (float)(long)f ? (long)f : -1000000; /* not a whole number: wrong */
    }
    return ((const signed char *)p)[k];
}

/* This rank's input: n elements from index first. */
static void fill_input(const osu_ctx *c, void *p, size_t n, long i)
{
    for (size_t k = 0; k < n; k++)
        put(p, c->dtype, k, element(c->rank, i, k));
}

/* Defects among n result elements holding the sums of indices first.. */
static long check_sums(const osu_ctx *c, const void *p, size_t n, size_t first, long i)
{
    long bad = 0;
    for (size_t k = 0; k < n; k++) {
        long want = 0;
        for (int r = 0; r < c->size; r++)
            want += element(r, i, first + k);
        if (c->dtype == MPI_CHAR) /* a char's sum wraps (gcc: modulo 256) */
            want = (signed char)want;
        bad += get(p, c->dtype, k) != want;
    }
    return bad;
}

static int count_of(const osu_ctx *c) { return (int)c->count; }

/* The buffer holding this rank's input: the receive buffer in place. */
static void *input(const osu_ctx *c, osu_nbc_args *a)
{
    return osu_nbc_in_place(c) ? a->r : a->s;
}

/* ---- osu_iallreduce ---------------------------------------------------- */

static void iallreduce_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Iallreduce(osu_nbc_in_place(c) ? MPI_IN_PLACE : a->s, a->r, count_of(c), c->dtype,
                   MPI_SUM, a->comm, req);
}

static void reduce_fill(osu_ctx *c, osu_nbc_args *a, long i)
{
    if (!osu_nbc_in_place(c))
        eb_poison(a->r, osu_nbc_bytes(c));
    fill_input(c, input(c, a), c->count, i);
}

static long iallreduce_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    return check_sums(c, a->r, c->count, 0, i);
}

const osu_nbc_call osu_call_iallreduce = {
    .send_blocks = 1, .recv_blocks = 1, .start = iallreduce_start, .fill = reduce_fill,
    .verify = iallreduce_verify};

/* ---- osu_ireduce: in place, the root passes MPI_IN_PLACE and the others
 * send from their receive buffer (OSU's) --------------------------------- */

static void ireduce_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    int root = osu_nbc_root(c, i);
    const void *s = !osu_nbc_in_place(c) ? a->s : root == c->rank ? MPI_IN_PLACE : a->r;
    MPI_Ireduce(s, a->r, count_of(c), c->dtype, MPI_SUM, root, a->comm, req);
}

static long ireduce_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    return osu_nbc_root(c, i) == c->rank ? check_sums(c, a->r, c->count, 0, i) : 0;
}

const osu_nbc_call osu_call_ireduce = {
    .send_blocks = 1, .recv_blocks = 1, .start = ireduce_start, .fill = reduce_fill,
    .verify = ireduce_verify};

/* ---- osu_ireduce_scatter: OSU's split, the remainder to the first ranks,
 * one element each to the first ranks when there are fewer than ranks ---- */

static void ireduce_scatter_prepare(osu_ctx *c, osu_nbc_args *a)
{
    int n = count_of(c), portion = n / c->size, rest = n % c->size;
    for (int k = 0; k < c->size; k++)
        a->rcounts[k] = n < c->size ? k < n : portion + (k < rest);
}

static void ireduce_scatter_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ireduce_scatter(osu_nbc_in_place(c) ? MPI_IN_PLACE : a->s, a->r, a->rcounts, c->dtype,
                        MPI_SUM, a->comm, req);
}

static long ireduce_scatter_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t first = 0;
    for (int k = 0; k < c->rank; k++)
        first += (size_t)a->rcounts[k];
    return check_sums(c, a->r, (size_t)a->rcounts[c->rank], first, i);
}

const osu_nbc_call osu_call_ireduce_scatter = {
    .send_blocks = 1, .recv_blocks = 1, .prepare = ireduce_scatter_prepare,
    .start = ireduce_scatter_start, .fill = reduce_fill, .verify = ireduce_scatter_verify};

/* ---- osu_ireduce_scatter_block: count / procs elements each ------------ */

static void ireduce_scatter_block_prepare(osu_ctx *c, osu_nbc_args *a)
{
    a->portion = count_of(c) / c->size;
}

static void ireduce_scatter_block_start(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req)
{
    (void)i;
    MPI_Ireduce_scatter_block(osu_nbc_in_place(c) ? MPI_IN_PLACE : a->s, a->r, a->portion,
                              c->dtype, MPI_SUM, a->comm, req);
}

static long ireduce_scatter_block_verify(osu_ctx *c, osu_nbc_args *a, long i)
{
    size_t n = (size_t)a->portion;
    return check_sums(c, a->r, n, (size_t)c->rank * n, i);
}

const osu_nbc_call osu_call_ireduce_scatter_block = {
    .send_blocks = 1, .recv_blocks = 1, .prepare = ireduce_scatter_block_prepare,
    .start = ireduce_scatter_block_start, .fill = reduce_fill,
    .verify = ireduce_scatter_block_verify};
