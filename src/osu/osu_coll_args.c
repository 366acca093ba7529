/* The buffers, counts and displacements OSU 7.4 gives its collectives, the
 * root of -k and MPI_IN_PLACE of -l: one argument record (eb_coll_args) per
 * call, for every form of the call (core/coll_calls.c). */
#include "osu/osu_coll_args.h"

#include "core/error.h"
#include "core/simulate.h"
#include "osu/osu_accel.h"

#include <limits.h>
#include <stdlib.h>

/* Bytes of the send and receive buffers for one block of `max` bytes and np
 * peers, as OSU allocates them (the scatters' receive buffer holds all
 * blocks: -l's root sends from it). */
static void extents(eb_coll_flow flow, size_t max, int np, size_t *s, size_t *r)
{
    size_t all = max * (size_t)np;
    switch (flow) {
    case EB_FLOW_NONE: *s = *r = 0; break;
    case EB_FLOW_BCAST: *s = 0, *r = max; break;
    case EB_FLOW_GATHER:
    case EB_FLOW_NHBR_ALLGATHER:
    case EB_FLOW_ALLGATHER: *s = max, *r = all; break;
    case EB_FLOW_SCATTER:
    case EB_FLOW_NHBR_ALLTOALL:
    case EB_FLOW_ALLTOALL: *s = *r = all; break;
    default: *s = *r = max; break; /* reductions */
    }
}

coll_state *coll_state_new(osu_ctx *c)
{
    coll_state *st = eb_calloc(1, sizeof *st);
    st->comm = c->comm;
    c->priv = st;
    return st;
}

int coll_alloc(osu_ctx *c, int peers, char *err, size_t n)
{
    coll_state *st = c->priv;
    const osu_options *o = c->o;
    eb_coll_flow flow = coll_call_for(c)->flow;
    st->peers = peers > 0 ? peers : 1;
    extents(flow, o->max_size, st->peers, &st->s_len, &st->r_len);
    if (st->r_len > INT_MAX || st->s_len > INT_MAX)
        return eb_err(err, n, "%s: %zu bytes per process on %d processes exceed MPI's int "
                      "counts: lower -m", c->prog->name, o->max_size, st->peers);
    st->mem = osu_rank_kind(c);
    st->s = osu_buf_try(st->mem, st->s_len, err, n);
    st->r = st->s ? osu_buf_try(st->mem, st->r_len, err, n) : NULL;
    if (st->r && flow == EB_FLOW_REDUCE && o->in_place && !(st->spare = osu_buf_try(
            st->mem, st->r_len, err, n)))
        st->r = NULL;
    if (!st->r)
        return -1; /* device memory ran out: the seam's message */
    if (st->mem != EB_MEM_HOST) {
        st->hs = osu_alloc(st->s_len);
        st->hr = osu_alloc(st->r_len);
        st->hspare = st->spare ? osu_alloc(st->r_len) : NULL;
        eb_mem_set(st->mem, st->s, 1, st->s_len); /* OSU's set_buffer: send 1, receive 0 */
    }
    size_t np = (size_t)st->peers;
    st->scounts = eb_calloc(np, sizeof *st->scounts);
    st->sdispls = eb_calloc(np, sizeof *st->sdispls);
    st->rcounts = eb_calloc(np, sizeof *st->rcounts);
    st->rdispls = eb_calloc(np, sizeof *st->rdispls);
    st->wdispls = eb_calloc(np, sizeof *st->wdispls);
    st->adispls = eb_calloc(np, sizeof *st->adispls);
    st->types = eb_calloc(np, sizeof *st->types);
    return 0;
}

int coll_setup(osu_ctx *c, char *err, size_t n)
{
    const osu_options *o = c->o;
    if (o->ddt)
        return eb_err(err, n, "%s: derived datatypes (-D) are not built for the collectives "
                      "yet: run without -D", c->prog->name);
    if (coll_call_for(c)->rooted && o->root >= c->size)
        return eb_err(err, n, "%s: Root rank('-k') cannot be more than number of processes "
                      "[-k fixed:%d on %d processes]", c->prog->name, o->root, c->size);
    coll_state_new(c);
    eb_coll_mpi_call k = coll_prog_of(c)->kind;
    if (k == EB_CALL_ALLREDUCE || k == EB_CALL_BCAST || k == EB_CALL_REDUCE)
        eb_sim_prime_collectives(c->comm); /* SMPI's one-time set-up: not in a timed call */
    return coll_alloc(c, c->size, err, n);
}

void coll_teardown(osu_ctx *c)
{
    coll_state *st = c->priv;
    if (!st)
        return;
    if (st->comm != c->comm && st->comm != MPI_COMM_NULL)
        MPI_Comm_free(&st->comm);
    eb_nhbr_p2p_free(st->p2p);
    osu_buf_free(st->mem, st->s);
    osu_buf_free(st->mem, st->r);
    osu_buf_free(st->mem, st->spare);
    osu_free(st->hs);
    osu_free(st->hr);
    osu_free(st->hspare);
    void *mem[] = {st->scounts, st->sdispls, st->rcounts, st->rdispls, st->wdispls,
                   st->adispls, st->types, st->sources, st->destinations};
    for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
        free(mem[k]);
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
 * move a block per peer (process or neighbour), equal blocks laid out one
 * after the other, as OSU's. */
void coll_layout(osu_ctx *c)
{
    coll_state *st = c->priv;
    const coll_prog *cp = coll_prog_of(c);
    int count = (int)c->count;
    for (int j = 0; j < st->peers; j++) {
        st->scounts[j] = st->rcounts[j] = count;
        st->sdispls[j] = st->rdispls[j] = j * count;
        st->wdispls[j] = j * count * c->dtype_size;
        st->adispls[j] = st->wdispls[j];
        st->types[j] = c->dtype;
    }
    if (cp->kind == EB_CALL_REDUCE_SCATTER || cp->kind == EB_CALL_REDUCE_SCATTER_BLOCK)
        reduce_scatter_parts(c, cp->kind == EB_CALL_REDUCE_SCATTER_BLOCK, st->rcounts);
}

int coll_root(const osu_ctx *c, long i)
{
    return c->o->root < 0 ? (int)(i % c->size) : c->o->root;
}

/* -l as OSU 7.4 uses it: the all-to-all-ish calls and the reductions send
 * MPI_IN_PLACE from every rank (the data in the receive buffer); gathers
 * and scatters only at the root (a gather's other ranks pass no receive
 * buffer); Reduce's other ranks send from their receive buffer. */
static void in_place(const osu_ctx *c, eb_coll_flow flow, coll_state *st, eb_coll_args *a)
{
    int root = c->rank == a->root;
    switch (flow) {
    case EB_FLOW_ALLGATHER:
    case EB_FLOW_ALLTOALL:
    case EB_FLOW_ALLREDUCE:
    case EB_FLOW_REDUCE_SCATTER:
        a->sbuf = MPI_IN_PLACE, a->input = st->r;
        break;
    case EB_FLOW_GATHER:
        if (root)
            a->sbuf = MPI_IN_PLACE, a->input = st->r;
        else
            a->rbuf = NULL;
        break;
    case EB_FLOW_SCATTER:
        if (root)
            a->sbuf = st->r, a->rbuf = MPI_IN_PLACE, a->input = st->r;
        break;
    case EB_FLOW_REDUCE:
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
    eb_coll_flow flow = eb_coll_forms_of(cp->kind)->flow;
    st->a = (eb_coll_args){
        .sbuf = st->s, .rbuf = st->r, .count = (int)c->count, .type = c->dtype,
        .op = eb_sim_op(MPI_SUM), /* a simulation's shared buffers: nothing to add up */
        .scounts = st->scounts, .sdispls = st->sdispls, .rcounts = st->rcounts,
        .rdispls = st->rdispls, .wdispls = st->wdispls, .adispls = st->adispls,
        .types = st->types, .root = root,
        .input = flow == EB_FLOW_BCAST ? st->r : st->s,
    };
    if (c->o->in_place && !cp->ignores_in_place)
        in_place(c, flow, st, &st->a);
}

void coll_args_at(osu_ctx *c, long i) { coll_args_for(c, coll_root(c, i)); }

/* ---- issuing the call: the table's forms, or the emulated neighbourhood ---- */

void *coll_host_view(const coll_state *st, const void *p)
{
    const char *q = p;
    if (!st->hs || !q || p == MPI_IN_PLACE)
        return (void *)q;
    if (q >= st->s && q < st->s + st->s_len)
        return st->hs + (q - st->s);
    if (q >= st->r && q < st->r + st->r_len)
        return st->hr + (q - st->r);
    if (st->spare && q >= st->spare && q < st->spare + st->r_len)
        return st->hspare + (q - st->spare);
    return (void *)q;
}

/* --stage-through-host, inside the timed call: what this rank sends, copied device to
 * host first (the send buffer's, or -l's receive buffer's, bytes at this size), the call
 * on the host copies, what it receives copied host to device after (the receive buffer's
 * bytes at this size: Bcast's other ranks, Gather's and Reduce's root, Scatter's ranks
 * but an in-place root, every rank of the others). */
static void staged_call(osu_ctx *c, coll_state *st)
{
    const eb_coll_args *a = &st->a;
    eb_coll_flow flow = coll_call_for(c)->flow;
    int root = c->rank == a->root;
    size_t s_now, r_now;
    extents(flow, c->bytes, st->peers, &s_now, &r_now);
    if (flow == EB_FLOW_BCAST ? root : flow != EB_FLOW_SCATTER || root) {
        const char *from = flow == EB_FLOW_BCAST || a->sbuf == MPI_IN_PLACE ? st->r : a->sbuf;
        size_t n = from == st->s ? s_now : r_now;
        if (from && n)
            eb_mem_to_host(coll_host_view(st, from), st->mem, from, n);
    }
    eb_coll_args h = *a;
    h.sbuf = coll_host_view(st, a->sbuf);
    h.rbuf = coll_host_view(st, a->rbuf);
    coll_call_for(c)->call(&h, st->comm);
    int receives = flow == EB_FLOW_BCAST ? !root
                   : flow == EB_FLOW_GATHER || flow == EB_FLOW_REDUCE ? root
                   : flow == EB_FLOW_SCATTER ? a->rbuf != MPI_IN_PLACE
                   : flow != EB_FLOW_NONE;
    if (receives && r_now)
        eb_mem_from_host(st->mem, st->r, st->hr, r_now);
}

void coll_run(osu_ctx *c)
{
    coll_state *st = c->priv;
    if (st->p2p)
        eb_nhbr_p2p_call(st->p2p, coll_prog_of(c)->kind, &st->a);
    else if (osu_staged(c))
        staged_call(c, st);
    else
        coll_call_for(c)->call(&st->a, st->comm);
}

void coll_start(osu_ctx *c)
{
    coll_state *st = c->priv;
    if (st->p2p)
        eb_nhbr_p2p_start(st->p2p, coll_prog_of(c)->kind, &st->a);
    else
        coll_call_for(c)->start(&st->a, st->comm, &st->req);
}

void coll_test(void *ctx)
{
    osu_ctx *c = ctx;
    coll_state *st = c->priv;
    int flag;
    if (st->p2p)
        eb_nhbr_p2p_test(st->p2p);
    else
        MPI_Test(&st->req, &flag, MPI_STATUS_IGNORE);
}

void coll_wait(osu_ctx *c)
{
    coll_state *st = c->priv;
    if (st->p2p)
        eb_nhbr_p2p_wait(st->p2p);
    else
        MPI_Wait(&st->req, MPI_STATUS_IGNORE);
}
