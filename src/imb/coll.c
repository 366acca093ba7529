/* IMB-MPI1 collective benchmarks (the user guide's "Collective Benchmarks"):
 * MPI_BYTE for data movement, MPI_FLOAT with MPI_SUM for reductions, the
 * root i % num_procs in repetition i for rooted operations (IMB 2021's
 * -data_type, -red_data_type, -contig_type and -root_shift change these; the
 * datatype, count and operation of a length are its eb_layout).  The operations
 * themselves (arguments, extents, checks) are shared with IMB-NBC and
 * IMB-MPI4; the MPI calls with OSU (core/coll_calls.h). */
#include "imb/coll.h"

#include "core/component_names.h"
#include "core/error.h"
#include "core/large_count.h"
#include "core/mpi_features.h"
#include "core/registry.h"
#include "imb/driver/imb2021_defaults.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/large_rows.h"
#include "imb/driver/membuf.h"
#include "imb/driver/msg_layout.h"

#include "core/buffers.h"
#include "core/simulate.h"

#include <stdlib.h>
#include <string.h>

static void extents_gathered(size_t x, int np, size_t *s, size_t *r)
{
    *s = x;
    *r = (size_t)np * x;
}

static void extents_scattered(size_t x, int np, size_t *s, size_t *r)
{
    *s = (size_t)np * x;
    *r = x;
}

static void extents_alltoall(size_t x, int np, size_t *s, size_t *r)
{
    *s = (size_t)np * x;
    *r = (size_t)np * x;
}

void eb_reduce_scatter_split(size_t L, int np, size_t *counts, size_t *displs)
{
    size_t r = L / (size_t)np, s = L % (size_t)np, off = 0;
    for (int i = 0; i < np; i++) {
        counts[i] = (size_t)i < s ? r + 1 : r;
        displs[i] = off;
        off += counts[i];
    }
}

/* What the operation decides for every family: the MPI call of the shared
 * table (core/coll_calls.h), rooted (root i % size), reduction (MPI_FLOAT
 * sums, lengths in floats), no data (no #bytes column), and the buffer
 * extents of the guide's memory table. */
static const struct {
    int call; /* eb_coll_mpi_call; -1: MPI_Reduce_local, issued here */
    unsigned flags;
    void (*extents)(size_t x, int np, size_t *s, size_t *r);
} kind_traits[EB_COLL_N] = {
    [EB_COLL_BCAST] = {EB_CALL_BCAST, EB_F_ROOT, NULL},
    [EB_COLL_ALLGATHER] = {EB_CALL_ALLGATHER, 0, extents_gathered},
    [EB_COLL_ALLGATHERV] = {EB_CALL_ALLGATHERV, 0, extents_gathered},
    [EB_COLL_GATHER] = {EB_CALL_GATHER, EB_F_ROOT, extents_gathered},
    [EB_COLL_GATHERV] = {EB_CALL_GATHERV, EB_F_ROOT, extents_gathered},
    [EB_COLL_SCATTER] = {EB_CALL_SCATTER, EB_F_ROOT, extents_scattered},
    [EB_COLL_SCATTERV] = {EB_CALL_SCATTERV, EB_F_ROOT, extents_scattered},
    [EB_COLL_ALLTOALL] = {EB_CALL_ALLTOALL, 0, extents_alltoall},
    [EB_COLL_ALLTOALLV] = {EB_CALL_ALLTOALLV, 0, extents_alltoall},
    [EB_COLL_REDUCE] = {EB_CALL_REDUCE, EB_F_REDUCTION | EB_F_ROOT, NULL},
    [EB_COLL_REDUCE_SCATTER] = {EB_CALL_REDUCE_SCATTER, EB_F_REDUCTION, NULL},
    [EB_COLL_ALLREDUCE] = {EB_CALL_ALLREDUCE, EB_F_REDUCTION, NULL},
    [EB_COLL_BARRIER] = {EB_CALL_BARRIER, EB_F_NO_BYTES, NULL},
    [EB_COLL_REDUCE_LOCAL] = {-1, EB_F_REDUCTION, NULL},
    [EB_COLL_REDUCE_SCATTER_BLOCK] = {EB_CALL_REDUCE_SCATTER_BLOCK, EB_F_REDUCTION,
                                      extents_scattered},
};

eb_coll_mpi_call eb_coll_mpi_call_of(eb_coll_kind k)
{
    return (eb_coll_mpi_call)kind_traits[k].call;
}

static int is_vector(eb_coll_kind k)
{
    return k == EB_COLL_ALLGATHERV || k == EB_COLL_GATHERV || k == EB_COLL_SCATTERV ||
           k == EB_COLL_ALLTOALLV;
}

/* The v-variants' last displacement, (np-1)*X, bounds their int vectors. */
static size_t vector_span(size_t elems, int np) { return (size_t)(np > 1 ? np - 1 : 1) * elems; }

/* The count and displacement vectors of a v-variant or Reduce_scatter(_block), in
 * items of the layout's type (elements, or one vector), as the call of the row
 * takes them.  Reduce_scatter: the guide splits X among the ranks; IMB 2021.11
 * (src_c/IMB_reduce_scatter.c as src_cpp builds it, without IMB2018) gives
 * every rank X of an np*X vector, as Reduce_scatter_block. */
static void make_vectors(eb_ctx *c, eb_coll_state *st, eb_coll_kind k)
{
    size_t n = (size_t)c->size, elems = (size_t)c->lay.count;
    st->count_of = eb_malloc(n * sizeof *st->count_of);
    st->displ_of = eb_malloc(n * sizeof *st->displ_of);
    if (k == EB_COLL_REDUCE_SCATTER && !eb_imb2021_method(c->opt))
        eb_reduce_scatter_split(elems, c->size, st->count_of, st->displ_of);
    else
        for (size_t j = 0; j < n; j++) {
            st->count_of[j] = elems;
            st->displ_of[j] = j * elems;
        }
    if (st->large) {
        st->counts_c = eb_malloc(n * sizeof *st->counts_c);
        st->displs_c = eb_malloc(n * sizeof *st->displs_c);
    } else {
        st->counts = eb_malloc(n * sizeof *st->counts);
        st->displs = eb_malloc(n * sizeof *st->displs);
    }
    for (size_t j = 0; j < n; j++) /* the plan refused what does not fit (large_rows.h) */
        if (st->large) {
            st->counts_c[j] = (MPI_Count)st->count_of[j];
            st->displs_c[j] = (MPI_Aint)st->displ_of[j];
        } else {
            st->counts[j] = (int)st->count_of[j];
            st->displs[j] = (int)st->displ_of[j];
        }
}

int eb_coll_prepare(eb_ctx *c)
{
    eb_coll_kind k = eb_coll_kind_of(c);
    eb_coll_state *st = eb_calloc(1, sizeof *st);
    c->priv = st;
    st->large = eb_row_large(c);
    if (k == EB_COLL_BCAST || k == EB_COLL_REDUCE || k == EB_COLL_ALLREDUCE)
        eb_sim_prime_collectives(c->comm); /* SMPI's one-time set-up: not in a timed call */
    /* Reduce_scatter_block's call takes X per rank from counts[0] */
    if (is_vector(k) || k == EB_COLL_REDUCE_SCATTER || k == EB_COLL_REDUCE_SCATTER_BLOCK)
        make_vectors(c, st, k);
    /* Reduce_local's receive buffer is also its input (inoutbuf = inbuf + inoutbuf):
     * it starts at zero, as IMB's, and accumulates the repetitions' sums */
    if (k == EB_COLL_REDUCE_LOCAL && !eb_sim_active())
        eb_mem_set(c->mem, c->r.base, 0, c->r.alloc);
    return 0;
}

void eb_coll_release(eb_ctx *c)
{
    eb_coll_state *st = c->priv;
    if (st) {
        free(st->count_of);
        free(st->displ_of);
        free(st->counts);
        free(st->displs);
        free(st->counts_c);
        free(st->displs_c);
        free(st);
    }
    c->priv = NULL;
}

/* Repetition i's arguments, for every form of the call (core/coll_calls.h):
 * slot i of the buffers, the root of repetition i, the length's layout (the
 * data type, or the reduction type and its operation), X per rank. */
void eb_coll_args_at(const eb_ctx *c, long i, eb_coll_args *a)
{
    const eb_coll_state *st = c->priv;
    char *s = eb_sbuf(c, i), *r = eb_rbuf(c, i);
    int root = eb_imb_root(c, i);
    *a = (eb_coll_args){
        .sbuf = s, .rbuf = r, .count = c->lay.count, .type = c->lay.type,
        .op = eb_sim_op(c->lay.op), /* in a simulation one that computes nothing */
        .root = root, .input = s, .large = st->large,
    };
    /* the v variants both ways (X each at j*X), Reduce_scatter's split */
    if (st->counts)
        a->scounts = a->rcounts = st->counts, a->sdispls = a->rdispls = st->displs;
    if (st->counts_c)
        a->scounts_c = a->rcounts_c = st->counts_c, a->sdispls_c = a->rdispls_c = st->displs_c;
    /* Bcast: the root sends from its send buffer, the others receive */
    if (eb_coll_kind_of(c) == EB_COLL_BCAST && c->rank == root)
        a->rbuf = s;
}

void eb_coll_call(eb_ctx *c, long i, MPI_Request *req)
{
    eb_coll_kind k = eb_coll_kind_of(c);
    if (k == EB_COLL_REDUCE_LOCAL) { /* no communication, no nonblocking form */
        char *r = eb_rbuf(c, i);
        /* the checked pass gives the in-out operand a known value: this rank's
         * own data, so the result is twice it */
        if (c->checking)
            eb_ctx_fill_reduction(c, r, c->r.len, c->lay.base);
        EB_COLL_CALL(((const eb_coll_state *)c->priv)->large, MPI_Reduce_local, eb_sbuf(c, i), r,
                     c->lay.count, c->lay.type, eb_sim_op(c->lay.op));
        if (req)
            *req = MPI_REQUEST_NULL;
        return;
    }
    eb_coll_args a;
    eb_coll_args_at(c, i, &a);
    const eb_coll_forms *f = eb_coll_forms_of(eb_coll_mpi_call_of(k));
    if (req)
        f->start(&a, c->comm, req);
    else
        f->call(&a, c->comm);
}

/* Reduce_local's checked result: inoutbuf and inbuf both held this rank's
 * reduction data, so every element of the message is twice this rank's
 * value, exactly (chars compared modulo 256, as their sum wraps); the gaps
 * of a resized layout (`every` > 1) keep their single value. */
static long check_doubled(const void *p, size_t count, eb_dtype t, int rank, size_t every)
{
    long bad = 0;
    for (size_t i = 0; i < count; i++) {
        long want = (i % every == 0 ? 2 : 1) * (long)eb_pattern_float(rank, i);
        switch (t) {
        case EB_DT_CHAR:
            bad += (unsigned char)((const char *)p)[i] != (unsigned char)want;
            break;
        case EB_DT_INT: bad += ((const int *)p)[i] != want; break;
        case EB_DT_DOUBLE: bad += ((const double *)p)[i] != (double)want; break;
        default: bad += ((const float *)p)[i] != (float)want; break;
        }
    }
    return bad;
}

/* Defects of repetition i on this rank: every block at its offset carries
 * the pattern its sender wrote there; reductions equal the exact sum. */
long eb_coll_check(eb_ctx *c, long i)
{
    const eb_coll_state *st = c->priv;
    const char *r = eb_rbuf(c, i);
    const eb_layout *l = &c->lay;
    size_t x = c->x, nf = x / eb_dtype_size(l->base), per = l->per_item;
    int root = eb_imb_root(c, i), me = c->rank, np = c->size;
    long bad = 0;
    switch (eb_coll_kind_of(c)) {
    case EB_COLL_BCAST:
        if (me != root)
            bad = eb_layout_check_pattern(l, r, x, root, 0);
        break;
    case EB_COLL_GATHER:
    case EB_COLL_GATHERV: /* the root holds everyone's block, like Allgather */
    case EB_COLL_ALLGATHER:
    case EB_COLL_ALLGATHERV:
        if (me == root || !(eb_coll_kind_of(c) == EB_COLL_GATHER ||
                            eb_coll_kind_of(c) == EB_COLL_GATHERV))
            for (int j = 0; j < np; j++)
                bad += eb_layout_check_pattern(l, r + eb_layout_span(l, (size_t)j * x), x, j, 0);
        break;
    case EB_COLL_SCATTER:
    case EB_COLL_SCATTERV: /* block `me` of the root's send buffer */
        bad = eb_layout_check_pattern(l, r, x, root, eb_layout_span(l, (size_t)me * x));
        break;
    case EB_COLL_ALLTOALL:
    case EB_COLL_ALLTOALLV: /* from rank j: block `me` of j's send buffer */
        for (int j = 0; j < np; j++)
            bad += eb_layout_check_pattern(l, r + eb_layout_span(l, (size_t)j * x), x, j,
                                           eb_layout_span(l, (size_t)me * x));
        break;
    case EB_COLL_REDUCE:
        if (me == root)
            bad = eb_layout_check_reduction(l, r, nf, np, 0);
        break;
    case EB_COLL_ALLREDUCE:
        bad = eb_layout_check_reduction(l, r, nf, np, 0);
        break;
    case EB_COLL_REDUCE_SCATTER: /* the split counts items (elements, or vectors) */
        bad = eb_layout_check_reduction(l, r, st->count_of[me] * per, np, st->displ_of[me] * per);
        break;
    case EB_COLL_REDUCE_SCATTER_BLOCK:
        bad = eb_layout_check_reduction(l, r, nf, np, (size_t)me * nf);
        break;
    case EB_COLL_REDUCE_LOCAL:
        bad = check_doubled(r, nf * (size_t)l->scale, l->base, me, (size_t)l->scale);
        break;
    case EB_COLL_BARRIER:
    case EB_COLL_N:
        break;
    }
    return bad;
}

void eb_coll_describe(eb_coll_bench *cb)
{
    cb->b.cls = EB_COLLECTIVE;
    cb->b.flags |= kind_traits[cb->kind].flags;
    if (cb->kind != EB_COLL_BARRIER)
        cb->b.flags |= EB_F_REP_SYNC;
    cb->b.extents = kind_traits[cb->kind].extents;
    if (cb->kind == EB_COLL_REDUCE_SCATTER) /* X per rank under IMB 2021's method */
        cb->b.extents_2021 = extents_scattered;
    if (is_vector(cb->kind))
        cb->b.count_span = vector_span;
    cb->b.prepare = eb_coll_prepare;
    /* a barrier moves no data: nothing to verify, its rows say "not checked" */
    cb->b.check = cb->kind == EB_COLL_BARRIER ? NULL : eb_coll_check;
    cb->b.release = eb_coll_release;
}

void eb_coll_register(eb_coll_bench *cb)
{
    eb_coll_describe(cb);
    eb_register_bench(&cb->b);
}

/* ---- IMB-MPI1 ------------------------------------------------------------ */

static void blocking_kernel(eb_ctx *c, long first, long n)
{
    for (long i = first; i < first + n; i++)
        eb_coll_call(c, i, NULL);
}

#define MPI1(nm, ord, k) \
    {.b = {.component = EB_COMPONENT_MPI1, .name = nm, .order = ord, .kernel = blocking_kernel,  \
           .large_counts = EB_MPI_LARGE_COUNT_COLL},                                  \
     .kind = k}
/* IMB 2021's additions run by name or -include only: without names effbench
 * runs the 4.0 guide's list (IMB 2021.11, and --imb-defaults 2021, run them by
 * default) */
#define MPI1_BY_NAME(nm, ord, k)                                                        \
    {.b = {.component = EB_COMPONENT_MPI1, .name = nm, .order = ord,                   \
           .flags = EB_F_EXPLICIT_ONLY | EB_F_DEFAULT_2021,                             \
           .kernel = blocking_kernel, .large_counts = EB_MPI_LARGE_COUNT_COLL},         \
     .kind = k}

/* IMB's default order (after the point-to-point benchmarks, Exchange 150). */
static eb_coll_bench mpi1_colls[] = {
    MPI1("Allreduce", 200, EB_COLL_ALLREDUCE),
    MPI1("Reduce", 210, EB_COLL_REDUCE),
    MPI1_BY_NAME("Reduce_local", 220, EB_COLL_REDUCE_LOCAL),
    MPI1("Reduce_scatter", 230, EB_COLL_REDUCE_SCATTER),
    MPI1_BY_NAME("Reduce_scatter_block", 240, EB_COLL_REDUCE_SCATTER_BLOCK),
    MPI1("Allgather", 250, EB_COLL_ALLGATHER),
    MPI1("Allgatherv", 260, EB_COLL_ALLGATHERV),
    MPI1("Gather", 270, EB_COLL_GATHER),
    MPI1("Gatherv", 280, EB_COLL_GATHERV),
    MPI1("Scatter", 290, EB_COLL_SCATTER),
    MPI1("Scatterv", 300, EB_COLL_SCATTERV),
    MPI1("Alltoall", 310, EB_COLL_ALLTOALL),
    MPI1("Alltoallv", 320, EB_COLL_ALLTOALLV),
    MPI1("Bcast", 330, EB_COLL_BCAST),
    MPI1("Barrier", 340, EB_COLL_BARRIER),
};

EB_CONSTRUCTOR(register_mpi1_colls)
{
    for (size_t i = 0; i < sizeof mpi1_colls / sizeof mpi1_colls[0]; i++)
        eb_coll_register(&mpi1_colls[i]);
}
