/* The table of OSU's collective calls: each MPI collective once, as a
 * blocking call and (MPI-4) as its persistent *_init, from one argument
 * record; the buffers, counts and displacements OSU 7.4 gives them; the
 * root of -k and MPI_IN_PLACE of -l. */
#include "osu/osu_coll.h"

#include "core/error.h"

#include <limits.h>
#include <stdlib.h>

/* ---- blocking calls --------------------------------------------------- */

static void allgather(const coll_args *a, MPI_Comm comm)
{
    MPI_Allgather(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, comm);
}

static void allgatherv(const coll_args *a, MPI_Comm comm)
{
    MPI_Allgatherv(a->sbuf, a->count, a->type, a->rbuf, a->rcounts, a->rdispls, a->type, comm);
}

static void allreduce(const coll_args *a, MPI_Comm comm)
{
    MPI_Allreduce(a->sbuf, a->rbuf, a->count, a->type, MPI_SUM, comm);
}

static void alltoall(const coll_args *a, MPI_Comm comm)
{
    MPI_Alltoall(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, comm);
}

static void alltoallv(const coll_args *a, MPI_Comm comm)
{
    MPI_Alltoallv(a->sbuf, a->scounts, a->sdispls, a->type, a->rbuf, a->rcounts, a->rdispls,
                  a->type, comm);
}

static void alltoallw(const coll_args *a, MPI_Comm comm)
{
    MPI_Alltoallw(a->sbuf, a->scounts, a->wdispls, a->types, a->rbuf, a->rcounts, a->wdispls,
                  a->types, comm);
}

static void barrier(const coll_args *a, MPI_Comm comm)
{
    (void)a;
    MPI_Barrier(comm);
}

static void bcast(const coll_args *a, MPI_Comm comm)
{
    MPI_Bcast(a->rbuf, a->count, a->type, a->root, comm);
}

static void gather(const coll_args *a, MPI_Comm comm)
{
    MPI_Gather(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, a->root, comm);
}

static void gatherv(const coll_args *a, MPI_Comm comm)
{
    MPI_Gatherv(a->sbuf, a->count, a->type, a->rbuf, a->rcounts, a->rdispls, a->type, a->root,
                comm);
}

static void reduce(const coll_args *a, MPI_Comm comm)
{
    MPI_Reduce(a->sbuf, a->rbuf, a->count, a->type, MPI_SUM, a->root, comm);
}

static void reduce_scatter(const coll_args *a, MPI_Comm comm)
{
    MPI_Reduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->type, MPI_SUM, comm);
}

/* every rank's part is rcounts[0] elements */
static void reduce_scatter_block(const coll_args *a, MPI_Comm comm)
{
    MPI_Reduce_scatter_block(a->sbuf, a->rbuf, a->rcounts[0], a->type, MPI_SUM, comm);
}

static void scatter(const coll_args *a, MPI_Comm comm)
{
    MPI_Scatter(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, a->root, comm);
}

static void scatterv(const coll_args *a, MPI_Comm comm)
{
    MPI_Scatterv(a->sbuf, a->scounts, a->sdispls, a->type, a->rbuf, a->count, a->type, a->root,
                 comm);
}

/* ---- persistent (MPI-4) ------------------------------------------------ */

#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
#define INFO MPI_INFO_NULL
static void allgather_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Allgather_init(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, comm, INFO, q);
}

static void allgatherv_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Allgatherv_init(a->sbuf, a->count, a->type, a->rbuf, a->rcounts, a->rdispls, a->type,
                        comm, INFO, q);
}

static void allreduce_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Allreduce_init(a->sbuf, a->rbuf, a->count, a->type, MPI_SUM, comm, INFO, q);
}

static void alltoall_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Alltoall_init(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, comm, INFO, q);
}

static void alltoallv_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Alltoallv_init(a->sbuf, a->scounts, a->sdispls, a->type, a->rbuf, a->rcounts,
                       a->rdispls, a->type, comm, INFO, q);
}

static void alltoallw_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Alltoallw_init(a->sbuf, a->scounts, a->wdispls, a->types, a->rbuf, a->rcounts,
                       a->wdispls, a->types, comm, INFO, q);
}

static void barrier_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    (void)a;
    MPI_Barrier_init(comm, INFO, q);
}

static void bcast_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Bcast_init(a->rbuf, a->count, a->type, a->root, comm, INFO, q);
}

static void gather_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Gather_init(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, a->root, comm, INFO,
                    q);
}

static void gatherv_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Gatherv_init(a->sbuf, a->count, a->type, a->rbuf, a->rcounts, a->rdispls, a->type,
                     a->root, comm, INFO, q);
}

static void reduce_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Reduce_init(a->sbuf, a->rbuf, a->count, a->type, MPI_SUM, a->root, comm, INFO, q);
}

static void reduce_scatter_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Reduce_scatter_init(a->sbuf, a->rbuf, a->rcounts, a->type, MPI_SUM, comm, INFO, q);
}

static void scatter_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Scatter_init(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, a->root, comm, INFO,
                     q);
}

static void scatterv_init(const coll_args *a, MPI_Comm comm, MPI_Request *q)
{
    MPI_Scatterv_init(a->sbuf, a->scounts, a->sdispls, a->type, a->rbuf, a->count, a->type,
                      a->root, comm, INFO, q);
}
#define P(fn) , fn
#else
#define P(fn)
#endif

/* OSU 7.4 has no persistent Reduce_scatter_block program. */
static const coll_call CALLS[] = {
    [COLL_ALLGATHER] = {FLOW_ALLGATHER, 0, allgather P(allgather_init)},
    [COLL_ALLGATHERV] = {FLOW_ALLGATHER, 0, allgatherv P(allgatherv_init)},
    [COLL_ALLREDUCE] = {FLOW_ALLREDUCE, 0, allreduce P(allreduce_init)},
    [COLL_ALLTOALL] = {FLOW_ALLTOALL, 0, alltoall P(alltoall_init)},
    [COLL_ALLTOALLV] = {FLOW_ALLTOALL, 0, alltoallv P(alltoallv_init)},
    [COLL_ALLTOALLW] = {FLOW_ALLTOALL, 0, alltoallw P(alltoallw_init)},
    [COLL_BARRIER] = {FLOW_NONE, 0, barrier P(barrier_init)},
    [COLL_BCAST] = {FLOW_BCAST, 1, bcast P(bcast_init)},
    [COLL_GATHER] = {FLOW_GATHER, 1, gather P(gather_init)},
    [COLL_GATHERV] = {FLOW_GATHER, 1, gatherv P(gatherv_init)},
    [COLL_REDUCE] = {FLOW_REDUCE, 1, reduce P(reduce_init)},
    [COLL_REDUCE_SCATTER] = {FLOW_REDUCE_SCATTER, 0, reduce_scatter P(reduce_scatter_init)},
    [COLL_REDUCE_SCATTER_BLOCK] = {FLOW_REDUCE_SCATTER, 0, reduce_scatter_block P(NULL)},
    [COLL_SCATTER] = {FLOW_SCATTER, 1, scatter P(scatter_init)},
    [COLL_SCATTERV] = {FLOW_SCATTER, 1, scatterv P(scatterv_init)},
};

const coll_call *coll_call_of(coll_kind kind) { return &CALLS[kind]; }

/* ---- buffers, counts, arguments ----------------------------------------- */

/* Bytes of the send and receive buffers for one block of `max` bytes, as OSU
 * allocates them (the scatters' receive buffer holds all blocks: -l's root
 * sends from it). */
static void extents(coll_flow flow, size_t max, int np, size_t *s, size_t *r)
{
    size_t all = max * (size_t)np;
    switch (flow) {
    case FLOW_NONE: *s = *r = 0; break;
    case FLOW_BCAST: *s = 0, *r = max; break;
    case FLOW_GATHER:
    case FLOW_ALLGATHER: *s = max, *r = all; break;
    case FLOW_SCATTER:
    case FLOW_ALLTOALL: *s = *r = all; break;
    default: *s = *r = max; break; /* reductions */
    }
}

int coll_setup(osu_ctx *c, char *err, size_t n)
{
    const coll_prog *cp = coll_prog_of(c);
    const coll_call *call = coll_call_of(cp->kind);
    const osu_options *o = c->o;
    if (o->ddt)
        return eb_err(err, n, "%s: derived datatypes (-D) are not built for the collectives "
                      "yet: run without -D", c->prog->name);
    if (call->rooted && o->root >= c->size)
        return eb_err(err, n, "%s: Root rank('-k') cannot be more than number of processes "
                      "[-k fixed:%d on %d processes]", c->prog->name, o->root, c->size);
    coll_state *st = eb_calloc(1, sizeof *st);
    c->priv = st;
    extents(call->flow, o->max_size, c->size, &st->s_len, &st->r_len);
    if (st->r_len > INT_MAX || st->s_len > INT_MAX)
        return eb_err(err, n, "%s: %zu bytes per process on %d processes exceed MPI's int "
                      "counts: lower -m", c->prog->name, o->max_size, c->size);
    st->s = osu_alloc(st->s_len);
    st->r = osu_alloc(st->r_len);
    if (call->flow == FLOW_REDUCE && o->in_place)
        st->spare = osu_alloc(st->r_len);
    size_t np = (size_t)c->size;
    st->scounts = eb_calloc(np, sizeof *st->scounts);
    st->sdispls = eb_calloc(np, sizeof *st->sdispls);
    st->rcounts = eb_calloc(np, sizeof *st->rcounts);
    st->rdispls = eb_calloc(np, sizeof *st->rdispls);
    st->wdispls = eb_calloc(np, sizeof *st->wdispls);
    st->types = eb_calloc(np, sizeof *st->types);
    return 0;
}

void coll_teardown(osu_ctx *c)
{
    coll_state *st = c->priv;
    if (!st)
        return;
    free(st->s), free(st->r), free(st->spare);
    free(st->scounts), free(st->sdispls), free(st->rcounts), free(st->rdispls);
    free(st->wdispls), free(st->types);
    free(st);
    c->priv = NULL;
}

/* Reduce_scatter's parts as OSU deals them: count / np each, the first
 * count % np ranks one more; one element each to the first `count` ranks
 * when there are fewer elements than ranks.  Reduce_scatter_block: count / np
 * each (possibly 0). */
static void reduce_scatter_parts(const osu_ctx *c, int block, int *parts)
{
    int count = (int)c->count, np = c->size;
    for (int j = 0; j < np; j++) {
        if (block)
            parts[j] = count / np;
        else if (count < np)
            parts[j] = j < count;
        else
            parts[j] = count / np + (j < count % np);
    }
}

/* The counts and displacements of the current size: the v and w variants
 * move np equal blocks laid out one after the other, as OSU's. */
void coll_layout(osu_ctx *c)
{
    coll_state *st = c->priv;
    const coll_prog *cp = coll_prog_of(c);
    int count = (int)c->count;
    for (int j = 0; j < c->size; j++) {
        st->scounts[j] = st->rcounts[j] = count;
        st->sdispls[j] = st->rdispls[j] = j * count;
        st->wdispls[j] = j * count * c->dtype_size;
        st->types[j] = c->dtype;
    }
    if (cp->kind == COLL_REDUCE_SCATTER || cp->kind == COLL_REDUCE_SCATTER_BLOCK)
        reduce_scatter_parts(c, cp->kind == COLL_REDUCE_SCATTER_BLOCK, st->rcounts);
}

int coll_root(const osu_ctx *c, long i)
{
    return c->o->root < 0 ? (int)(i % c->size) : c->o->root;
}

/* -l as OSU 7.4 uses it: the all-to-all-ish calls and the reductions send
 * MPI_IN_PLACE from every rank (the data in the receive buffer); gathers
 * and scatters only at the root (a gather's other ranks pass no receive
 * buffer); Reduce's other ranks send from their receive buffer. */
static void in_place(const osu_ctx *c, coll_flow flow, coll_state *st, coll_args *a)
{
    int root = c->rank == a->root;
    switch (flow) {
    case FLOW_ALLGATHER:
    case FLOW_ALLTOALL:
    case FLOW_ALLREDUCE:
    case FLOW_REDUCE_SCATTER:
        a->sbuf = MPI_IN_PLACE, a->input = st->r;
        break;
    case FLOW_GATHER:
        if (root)
            a->sbuf = MPI_IN_PLACE, a->input = st->r;
        else
            a->rbuf = NULL;
        break;
    case FLOW_SCATTER:
        if (root)
            a->sbuf = st->r, a->rbuf = MPI_IN_PLACE, a->input = st->r;
        break;
    case FLOW_REDUCE:
        /* OSU passes the receive buffer twice off the root: a spare one here,
         * as MPI forbids aliased arguments */
        if (root)
            a->sbuf = MPI_IN_PLACE;
        else
            a->sbuf = st->r, a->rbuf = st->spare;
        a->input = st->r;
        break;
    default:
        break;
    }
}

void coll_args_for(osu_ctx *c, int root)
{
    coll_state *st = c->priv;
    const coll_prog *cp = coll_prog_of(c);
    coll_flow flow = coll_call_of(cp->kind)->flow;
    st->a = (coll_args){
        .sbuf = st->s, .rbuf = st->r, .count = (int)c->count, .type = c->dtype,
        .scounts = st->scounts, .sdispls = st->sdispls, .rcounts = st->rcounts,
        .rdispls = st->rdispls, .wdispls = st->wdispls, .types = st->types, .root = root,
        .input = flow == FLOW_BCAST ? st->r : st->s,
    };
    if (c->o->in_place && !cp->ignores_in_place)
        in_place(c, flow, st, &st->a);
}
