/* IMB-MPI1 collective benchmarks (the user guide's "Collective Benchmarks"):
 * MPI_BYTE for data movement, MPI_FLOAT with MPI_SUM for reductions, the
 * root i % num_procs in repetition i for rooted operations (IMB 2021's
 * -data_type, -red_data_type and -root_shift change these).  The operations
 * themselves (arguments, extents, checks) are shared with IMB-NBC. */
#include "imb/coll.h"

#include "core/error.h"
#include "core/imb2021_options.h"
#include "core/registry.h"

#include "core/buffers.h"
#include "core/simulate.h"

#include <limits.h>
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

void eb_reduce_scatter_split(long L, int np, int *counts, int *displs)
{
    long r = L / np, s = L % np, off = 0;
    for (int i = 0; i < np; i++) {
        counts[i] = (int)(i < s ? r + 1 : r);
        displs[i] = (int)off;
        off += counts[i];
    }
}

static int is_vector(eb_coll_kind k)
{
    return k == EB_COLL_ALLGATHERV || k == EB_COLL_GATHERV || k == EB_COLL_SCATTERV ||
           k == EB_COLL_ALLTOALLV;
}

static int coll_prepare(eb_ctx *c)
{
    eb_coll_kind k = eb_coll_kind_of(c);
    eb_coll_state *st = eb_calloc(1, sizeof *st);
    c->priv = st;
    if (k == EB_COLL_BCAST || k == EB_COLL_REDUCE || k == EB_COLL_ALLREDUCE)
        eb_sim_prime_collectives(c->comm); /* SMPI's one-time set-up: not in a timed call */
    if (is_vector(k) || k == EB_COLL_REDUCE_SCATTER) {
        /* displacements are ints: the last one is about x * size (an Allreduce
         * of any length at any size needs no such check) */
        if ((double)c->x * c->size > (double)INT_MAX)
            eb_abort("%s: %zu bytes on each of %d processes: the displacements exceed MPI's "
                     "int range", c->bench->name, c->x, c->size);
        st->counts = eb_malloc((size_t)c->size * sizeof(int));
        st->displs = eb_malloc((size_t)c->size * sizeof(int));
        /* counts and displacements in elements of the operation's type */
        size_t unit = eb_imb_unit(c->opt, c->bench);
        if (k == EB_COLL_REDUCE_SCATTER) {
            eb_reduce_scatter_split((long)(c->x / unit), c->size, st->counts, st->displs);
        } else {
            for (int j = 0; j < c->size; j++) {
                st->counts[j] = (int)(c->x / unit);
                st->displs[j] = j * (int)(c->x / unit);
            }
        }
    }
    /* Reduce_local's receive buffer is also its input (inoutbuf = inbuf + inoutbuf):
     * it starts at zero, as IMB's, and accumulates the repetitions' sums */
    if (k == EB_COLL_REDUCE_LOCAL && !eb_sim_active())
        memset(c->r.base, 0, c->r.alloc);
    return 0;
}

static void coll_release(eb_ctx *c)
{
    eb_coll_state *st = c->priv;
    if (st) {
        free(st->counts);
        free(st->displs);
        free(st);
    }
    c->priv = NULL;
}

/* One macro per call shape keeps the blocking and the nonblocking form of
 * an operation on the same arguments. */
#define ISSUE(blocking, nonblocking, ...)                                      \
    do {                                                                       \
        if (req)                                                               \
            nonblocking(__VA_ARGS__, req);                                     \
        else                                                                   \
            blocking(__VA_ARGS__);                                             \
    } while (0)

void eb_coll_call(eb_ctx *c, long i, MPI_Request *req)
{
    const eb_coll_state *st = c->priv;
    char *s = eb_sbuf(c, i), *r = eb_rbuf(c, i);
    const eb_imb2021 *t = &c->opt->imb21;
    MPI_Datatype dt = eb_dtype_mpi(t->data_type), rt = eb_dtype_mpi(t->red_data_type);
    /* x counts elements of the data type, nf of the reduction type */
    int x = (int)(c->x / eb_dtype_size(t->data_type)), root = eb_imb_root(c, i),
        nf = (int)(c->x / eb_dtype_size(t->red_data_type));
    MPI_Comm comm = c->comm;
    MPI_Op op = eb_sim_op(MPI_SUM); /* IMB's; in a simulation one that computes nothing */
    switch (eb_coll_kind_of(c)) {
    case EB_COLL_BCAST: /* the root sends from its send buffer, the others receive */
        ISSUE(MPI_Bcast, MPI_Ibcast, c->rank == root ? s : r, x, dt, root, comm);
        break;
    case EB_COLL_ALLGATHER:
        ISSUE(MPI_Allgather, MPI_Iallgather, s, x, dt, r, x, dt, comm);
        break;
    case EB_COLL_ALLGATHERV:
        ISSUE(MPI_Allgatherv, MPI_Iallgatherv, s, x, dt, r, st->counts, st->displs,
              dt, comm);
        break;
    case EB_COLL_GATHER:
        ISSUE(MPI_Gather, MPI_Igather, s, x, dt, r, x, dt, root, comm);
        break;
    case EB_COLL_GATHERV:
        ISSUE(MPI_Gatherv, MPI_Igatherv, s, x, dt, r, st->counts, st->displs, dt,
              root, comm);
        break;
    case EB_COLL_SCATTER:
        ISSUE(MPI_Scatter, MPI_Iscatter, s, x, dt, r, x, dt, root, comm);
        break;
    case EB_COLL_SCATTERV:
        ISSUE(MPI_Scatterv, MPI_Iscatterv, s, st->counts, st->displs, dt, r, x, dt,
              root, comm);
        break;
    case EB_COLL_ALLTOALL:
        ISSUE(MPI_Alltoall, MPI_Ialltoall, s, x, dt, r, x, dt, comm);
        break;
    case EB_COLL_ALLTOALLV:
        ISSUE(MPI_Alltoallv, MPI_Ialltoallv, s, st->counts, st->displs, dt, r, st->counts,
              st->displs, dt, comm);
        break;
    case EB_COLL_REDUCE:
        ISSUE(MPI_Reduce, MPI_Ireduce, s, r, nf, rt, op, root, comm);
        break;
    case EB_COLL_REDUCE_SCATTER:
        ISSUE(MPI_Reduce_scatter, MPI_Ireduce_scatter, s, r, st->counts, rt, op, comm);
        break;
    case EB_COLL_ALLREDUCE:
        ISSUE(MPI_Allreduce, MPI_Iallreduce, s, r, nf, rt, op, comm);
        break;
    case EB_COLL_BARRIER:
        ISSUE(MPI_Barrier, MPI_Ibarrier, comm);
        break;
    case EB_COLL_REDUCE_LOCAL:
        /* the checked pass gives the in-out operand a known value: this rank's
         * own data, so the result is twice it */
        if (c->checking)
            eb_fill_reduction(r, c->x, t->red_data_type, c->rank);
        MPI_Reduce_local(s, r, nf, rt, op);
        if (req)
            *req = MPI_REQUEST_NULL;
        break;
    case EB_COLL_REDUCE_SCATTER_BLOCK: /* nf elements per rank, rank j's block at j*nf */
        ISSUE(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, s, r, nf, rt, op, comm);
        break;
    case EB_COLL_N:
        break;
    }
}

/* Reduce_local's checked result: inoutbuf and inbuf both held this rank's
 * reduction data, so every element is twice this rank's value, exactly
 * (chars compared modulo 256, as their sum wraps). */
static long check_doubled(const void *p, size_t count, eb_dtype t, int rank)
{
    long bad = 0;
    for (size_t i = 0; i < count; i++) {
        long want = 2 * (long)eb_pattern_float(rank, i);
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
static long coll_check(eb_ctx *c, long i)
{
    const eb_coll_state *st = c->priv;
    const char *r = eb_rbuf(c, i);
    eb_dtype rt = c->opt->imb21.red_data_type;
    size_t x = c->x, nf = x / eb_dtype_size(rt);
    int root = eb_imb_root(c, i), me = c->rank, np = c->size;
    long bad = 0;
    switch (eb_coll_kind_of(c)) {
    case EB_COLL_BCAST:
        if (me != root)
            bad = eb_check_pattern(r, x, root, 0);
        break;
    case EB_COLL_GATHER:
    case EB_COLL_GATHERV: /* the root holds everyone's block, like Allgather */
    case EB_COLL_ALLGATHER:
    case EB_COLL_ALLGATHERV:
        if (me == root || !(eb_coll_kind_of(c) == EB_COLL_GATHER ||
                            eb_coll_kind_of(c) == EB_COLL_GATHERV))
            for (int j = 0; j < np; j++)
                bad += eb_check_pattern(r + (size_t)j * x, x, j, 0);
        break;
    case EB_COLL_SCATTER:
    case EB_COLL_SCATTERV: /* block `me` of the root's send buffer */
        bad = eb_check_pattern(r, x, root, (size_t)me * x);
        break;
    case EB_COLL_ALLTOALL:
    case EB_COLL_ALLTOALLV: /* from rank j: block `me` of j's send buffer */
        for (int j = 0; j < np; j++)
            bad += eb_check_pattern(r + (size_t)j * x, x, j, (size_t)me * x);
        break;
    case EB_COLL_REDUCE:
        if (me == root)
            bad = eb_check_reduction(r, nf, rt, np, 0);
        break;
    case EB_COLL_ALLREDUCE:
        bad = eb_check_reduction(r, nf, rt, np, 0);
        break;
    case EB_COLL_REDUCE_SCATTER:
        bad = eb_check_reduction(r, (size_t)st->counts[me], rt, np, (size_t)st->displs[me]);
        break;
    case EB_COLL_REDUCE_SCATTER_BLOCK:
        bad = eb_check_reduction(r, nf, rt, np, (size_t)me * nf);
        break;
    case EB_COLL_REDUCE_LOCAL:
        bad = check_doubled(r, nf, rt, me);
        break;
    case EB_COLL_BARRIER:
    case EB_COLL_N:
        break;
    }
    return bad;
}

/* What the operation decides for both families: rooted (root i % size),
 * reduction (MPI_FLOAT sums, lengths in floats), no data (no #bytes column),
 * and the buffer extents of the guide's memory table. */
static const struct {
    unsigned flags;
    void (*extents)(size_t x, int np, size_t *s, size_t *r);
} kind_traits[EB_COLL_N] = {
    [EB_COLL_BCAST] = {EB_F_ROOT, NULL},
    [EB_COLL_ALLGATHER] = {0, extents_gathered},
    [EB_COLL_ALLGATHERV] = {0, extents_gathered},
    [EB_COLL_GATHER] = {EB_F_ROOT, extents_gathered},
    [EB_COLL_GATHERV] = {EB_F_ROOT, extents_gathered},
    [EB_COLL_SCATTER] = {EB_F_ROOT, extents_scattered},
    [EB_COLL_SCATTERV] = {EB_F_ROOT, extents_scattered},
    [EB_COLL_ALLTOALL] = {0, extents_alltoall},
    [EB_COLL_ALLTOALLV] = {0, extents_alltoall},
    [EB_COLL_REDUCE] = {EB_F_REDUCTION | EB_F_ROOT, NULL},
    [EB_COLL_REDUCE_SCATTER] = {EB_F_REDUCTION, NULL},
    [EB_COLL_ALLREDUCE] = {EB_F_REDUCTION, NULL},
    [EB_COLL_BARRIER] = {EB_F_NO_BYTES, NULL},
    [EB_COLL_REDUCE_LOCAL] = {EB_F_REDUCTION, NULL},
    [EB_COLL_REDUCE_SCATTER_BLOCK] = {EB_F_REDUCTION, extents_scattered},
};

void eb_coll_describe(eb_coll_bench *cb)
{
    cb->b.cls = EB_COLLECTIVE;
    cb->b.flags |= kind_traits[cb->kind].flags;
    if (cb->kind != EB_COLL_BARRIER)
        cb->b.flags |= EB_F_REP_SYNC;
    cb->b.extents = kind_traits[cb->kind].extents;
    cb->b.prepare = coll_prepare;
    /* a barrier moves no data: nothing to verify, its rows say "not checked" */
    cb->b.check = cb->kind == EB_COLL_BARRIER ? NULL : coll_check;
    cb->b.release = coll_release;
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
    {.b = {.component = "mpi1", .name = nm, .order = ord, .kernel = blocking_kernel}, .kind = k}
/* IMB 2021's additions run by name or -include only: without names effbench
 * runs the 4.0 guide's list (IMB 2021.11, and --imb-defaults 2021, run them by
 * default) */
#define MPI1_BY_NAME(nm, ord, k)                                                        \
    {.b = {.component = "mpi1", .name = nm, .order = ord,                              \
           .flags = EB_F_EXPLICIT_ONLY | EB_F_DEFAULT_2021,                             \
           .kernel = blocking_kernel},                                                  \
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
