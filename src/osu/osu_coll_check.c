/* The checked pass's data for OSU's collectives (not OSU's in-loop
 * validation: the timed loop stays as OSU's, and this pass reruns the call
 * with each iteration's data and verifies every byte or element).
 *
 * Moved data: each block carries the pattern (core/buffers.h) of its sender
 * and, for personalised calls (scatter, all-to-all, neighbourhood all-to-all),
 * of its receiver too, so a block delivered to the wrong rank or slot is a
 * defect; iteration i's pattern differs from i-1's, so a stale buffer is one
 * too.  Reductions: small integers whose sums are exact in every -T type. */
#include "osu/osu_coll_check.h"

#include "core/buffers.h"

/* Personalised calls: each receiver gets a block of its own. */
static int personalised(eb_coll_flow f)
{
    return f == EB_FLOW_SCATTER || f == EB_FLOW_ALLTOALL || f == EB_FLOW_NHBR_ALLTOALL;
}

/* The pattern of a block from `from` to `to` (np ranks). */
static int block_id(eb_coll_flow flow, int from, int to, int np)
{
    return personalised(flow) ? from * np + to : from;
}

/* Element k of rank r's data in iteration i. */
static int element(int r, long i, size_t k) { return (int)((r + i + (long)k) % 5); }

static void fill_elements(void *p, MPI_Datatype t, size_t count, int r, long i)
{
    for (size_t k = 0; k < count; k++) {
        int v = element(r, i, k);
        if (t == MPI_INT)
            ((int *)p)[k] = v;
        else if (t == MPI_FLOAT)
            ((float *)p)[k] = (float)v;
        else
            ((signed char *)p)[k] = (signed char)v;
    }
}

/* Defects among `count` sums starting at element `first` of the vector. */
static long check_sums(const void *p, MPI_Datatype t, size_t first, size_t count, int np,
                       long i)
{
    long bad = 0;
    for (size_t k = 0; k < count; k++) {
        long want = 0;
        for (int r = 0; r < np; r++)
            want += element(r, i, first + k);
        if (t == MPI_INT)
            bad += ((const int *)p)[k] != want;
        else if (t == MPI_FLOAT)
            bad += ((const float *)p)[k] != (float)want;
        else /* MPI_CHAR sums wrap as signed char */
            bad += ((const signed char *)p)[k] != (signed char)want;
    }
    return bad;
}

static int is_reduction(eb_coll_flow f)
{
    return f == EB_FLOW_REDUCE || f == EB_FLOW_ALLREDUCE || f == EB_FLOW_REDUCE_SCATTER;
}

/* The data of iteration i into the host view of the buffers (coll_host_view). */
static void fill_view(osu_ctx *c, long i)
{
    coll_state *st = c->priv;
    const eb_coll_args *a = &st->a;
    eb_coll_flow flow = coll_call_for(c)->flow;
    int me = c->rank, np = c->size;
    size_t blk = c->count * (size_t)c->dtype_size;
    char *input = coll_host_view(st, a->input), *r = coll_host_view(st, st->r);
    /* what arrives must overwrite what is there; the input (possibly in the
     * receive buffer, -l) is written after */
    eb_poison(r, st->r_len);
    if (is_reduction(flow)) {
        fill_elements(input, c->dtype, c->count, me, i);
        return;
    }
    if ((flow == EB_FLOW_BCAST || flow == EB_FLOW_SCATTER) && me != a->root)
        return; /* only the root sends */
    if (flow == EB_FLOW_NHBR_ALLTOALL) { /* block k to the k-th out-neighbour */
        for (int k = 0; k < st->outdegree; k++)
            osu_fill(input + (size_t)k * blk, blk, block_id(flow, me, st->destinations[k], np),
                     i);
        return;
    }
    if (personalised(flow)) { /* the input holds one block per receiver */
        for (int j = 0; j < np; j++)
            osu_fill(input + (size_t)j * blk, blk, block_id(flow, me, j, np), i);
        return;
    }
    /* in place, a gathering rank's own block sits at its slot */
    size_t at = input == r && flow != EB_FLOW_BCAST ? (size_t)me * blk : 0;
    osu_fill(input + at, blk, block_id(flow, me, me, np), i);
}

/* -d: filled on the host copies, which then go to the device. */
void coll_fill(osu_ctx *c, long i)
{
    coll_state *st = c->priv;
    if (coll_call_for(c)->flow == EB_FLOW_NONE)
        return;
    fill_view(c, i);
    if (st->mem == EB_MEM_HOST)
        return;
    eb_mem_from_host(st->mem, st->s, st->hs, st->s_len);
    eb_mem_from_host(st->mem, st->r, st->hr, st->r_len);
}

/* Bytes that differ from their senders' patterns in the np blocks at p,
 * block j from rank j (gathers, all-to-all). */
static long verify_blocks(const osu_ctx *c, eb_coll_flow flow, const char *p, long i)
{
    int me = c->rank, np = c->size;
    size_t blk = c->count * (size_t)c->dtype_size;
    long bad = 0;
    for (int j = 0; j < np; j++)
        bad += osu_verify(p + (size_t)j * blk, blk, block_id(flow, j, me, np), i);
    return bad;
}

/* The same for the indegree blocks from the neighbourhood's sources. */
static long verify_neighbours(const osu_ctx *c, eb_coll_flow flow, const char *r, long i)
{
    const coll_state *st = c->priv;
    size_t blk = c->count * (size_t)c->dtype_size;
    long bad = 0;
    for (int k = 0; k < st->indegree; k++)
        bad += osu_verify(r + (size_t)k * blk, blk,
                          block_id(flow, st->sources[k], c->rank, c->size), i);
    return bad;
}

long coll_verify(const osu_ctx *c, long i)
{
    const coll_state *st = c->priv;
    const eb_coll_args *a = &st->a;
    eb_coll_flow flow = coll_call_for(c)->flow;
    int me = c->rank, np = c->size, root = me == a->root;
    size_t blk = c->count * (size_t)c->dtype_size;
    const char *r = st->r;
    if (st->mem != EB_MEM_HOST && flow != EB_FLOW_NONE) { /* -d: verified on a host copy */
        eb_mem_to_host(st->hr, st->mem, st->r, st->r_len);
        r = st->hr;
    }
    switch (flow) {
    case EB_FLOW_BCAST:
        return osu_verify(r, blk, block_id(flow, a->root, me, np), i);
    case EB_FLOW_GATHER:
        return root ? verify_blocks(c, flow, r, i) : 0;
    case EB_FLOW_ALLGATHER:
    case EB_FLOW_ALLTOALL:
        return verify_blocks(c, flow, r, i);
    case EB_FLOW_SCATTER: { /* -l: the root's own block stays at its slot */
        const char *p = a->rbuf == MPI_IN_PLACE ? r + (size_t)me * blk : r;
        return osu_verify(p, blk, block_id(flow, a->root, me, np), i);
    }
    case EB_FLOW_NHBR_ALLGATHER:
    case EB_FLOW_NHBR_ALLTOALL:
        return verify_neighbours(c, flow, r, i);
    case EB_FLOW_REDUCE:
        return root ? check_sums(r, c->dtype, 0, c->count, np, i) : 0;
    case EB_FLOW_ALLREDUCE:
        return check_sums(r, c->dtype, 0, c->count, np, i);
    case EB_FLOW_REDUCE_SCATTER: {
        size_t first = 0;
        for (int j = 0; j < me; j++)
            first += (size_t)st->rcounts[j];
        return check_sums(r, c->dtype, first, (size_t)st->rcounts[me], np, i);
    }
    default:
        return 0;
    }
}

long coll_checked(osu_ctx *c, const coll_loop *loop)
{
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        if (loop->prepare)
            loop->prepare(c, i);
        coll_fill(c, i);
        MPI_Barrier(c->comm);
        loop->run(c);
        defects += coll_verify(c, i);
    }
    return defects;
}
