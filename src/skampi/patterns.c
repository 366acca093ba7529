/* The four SKaMPI patterns and their instances (skampi/patterns.h). */
#include "skampi/patterns.h"

#include "core/error.h"
#include "core/simulate.h"

#include <stdlib.h>
#include <string.h>

#define TAG_PING 1
#define TAG_TASK 2
#define TAG_RESULT 3
#define TAG_STOP 4
#define TAG_PROBE 77 /* never sent: unsuccessful MPI_Iprobe */

/* ---------------- ping-pong (rank 0 starts, rank 1 answers) ---------------- */

static void wait_probe(sk_call *c, int src)
{
    int flag = 0;
    MPI_Status st;
    while (!flag)
        MPI_Iprobe(src, TAG_PING, c->comm, &flag, &st);
}

/* Types 47 and 48: the message travels packed, by MPI_Pack or by the
 * copy loop over the layout, as MPI_PACKED / MPI_BYTE. */
static void send_packed(sk_call *c, int to)
{
    int pos = (int)c->bytes;
    if (c->sc->s->type == 47) {
        pos = 0;
        MPI_Pack(c->e->sbuf, c->st.count, c->st.type, c->pack, c->packsize, &pos, c->comm);
        MPI_Send(c->pack, pos, MPI_PACKED, to, TAG_PING, c->comm);
        return;
    }
    sk_layout_gather(c->pack, c->e->sbuf, c->sbl, c->nsb);
    MPI_Send(c->pack, pos, MPI_BYTE, to, TAG_PING, c->comm);
}

static void recv_packed(sk_call *c, int from)
{
    if (c->sc->s->type == 47) {
        int pos = 0;
        MPI_Recv(c->pack, c->packsize, MPI_PACKED, from, TAG_PING, c->comm, MPI_STATUS_IGNORE);
        MPI_Unpack(c->pack, c->packsize, &pos, c->e->rbuf, c->rt.count, c->rt.type, c->comm);
        return;
    }
    MPI_Recv(c->pack, (int)c->bytes, MPI_BYTE, from, TAG_PING, c->comm, MPI_STATUS_IGNORE);
    sk_layout_scatter(c->e->rbuf, c->pack, c->rbl, c->nrb);
}

void sk_pingpong(sk_call *c)
{
    int me = c->rank, other = 1 - me, t = c->sc->s->type;
    char *s = c->e->sbuf, *r = c->e->rbuf;
    int sn = c->st.count, rn = c->rt.count;
    MPI_Datatype st = c->st.type, rt = c->rt.type;
    MPI_Request rq;
    if (t == 8) {
        MPI_Sendrecv(s, sn, st, other, TAG_PING, r, rn, rt, other, TAG_PING, c->comm,
                     MPI_STATUS_IGNORE);
        return;
    }
    if (t == 34) { /* one datatype: the configuration makes both the same */
        MPI_Sendrecv_replace(r, rn, rt, other, TAG_PING, other, TAG_PING, c->comm,
                             MPI_STATUS_IGNORE);
        return;
    }
    if (t == 47 || t == 48) {
        if (me == 0) {
            send_packed(c, other);
            recv_packed(c, other);
        } else {
            recv_packed(c, other);
            send_packed(c, other);
        }
        return;
    }
    for (int step = 0; step < 2; step++) {
        int sending = (step == 0) == (me == 0);
        if (sending) {
            switch (t) {
            case 5: MPI_Ssend(s, sn, st, other, TAG_PING, c->comm); break;
            case 6:
                MPI_Isend(s, sn, st, other, TAG_PING, c->comm, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
                break;
            case 7: MPI_Bsend(s, sn, st, other, TAG_PING, c->comm); break;
            default: MPI_Send(s, sn, st, other, TAG_PING, c->comm); break;
            }
        } else {
            switch (t) {
            case 2:
                MPI_Recv(r, rn, rt, other, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
                break;
            case 3:
                MPI_Irecv(r, rn, rt, other, TAG_PING, c->comm, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
                break;
            case 4:
                wait_probe(c, other);
                MPI_Recv(r, rn, rt, other, TAG_PING, c->comm, MPI_STATUS_IGNORE);
                break;
            default:
                MPI_Recv(r, rn, rt, other, TAG_PING, c->comm, MPI_STATUS_IGNORE);
                break;
            }
        }
    }
}

/* ---------------- collective (root 0) ---------------- */

void sk_collective(sk_call *c)
{
    char *s = c->e->sbuf, *r = c->e->rbuf;
    int sn = c->st.count, rn = c->rt.count, P = c->size, me = c->rank;
    /* the reductions (20, 22, 36-38, 44) have one datatype: pattern 0 on both sides */
    MPI_Datatype st = c->st.type, rt = c->rt.type, t = st;
    int n = sn;
    size_t rspan = (size_t)c->rt.span;
    MPI_Comm comm = c->comm;
    switch (c->sc->s->type) {
    case 17: {
        MPI_Request rq[2];
        MPI_Irecv(r, rn, rt, (me - 1 + P) % P, TAG_PING, comm, &rq[0]);
        MPI_Issend(s, sn, st, (me + 1) % P, TAG_PING, comm, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        break;
    }
    case 18:
        if (me == 0)
            MPI_Bcast(s, sn, st, 0, comm);
        else
            MPI_Bcast(s, rn, rt, 0, comm);
        break;
    case 19: MPI_Barrier(comm); break;
    case 20: MPI_Reduce(s, r, n, t, MPI_SUM, 0, comm); break;
    case 21: MPI_Alltoall(s, sn, st, r, rn, rt, comm); break;
    case 22: MPI_Scan(s, r, n, t, MPI_SUM, comm); break;
    case 23: {
        MPI_Comm nc;
        MPI_Comm_split(comm, 0, me, &nc);
        MPI_Comm_free(&nc);
        break;
    }
    case 32: sk_layout_copy(r, c->rbl, c->nrb, s, c->sbl, c->nsb); break;
    case 33: MPI_Gather(s, sn, st, r, rn, rt, 0, comm); break;
    case 35: MPI_Scatter(s, sn, st, r, rn, rt, 0, comm); break;
    case 36: MPI_Allreduce(s, r, n, t, MPI_SUM, comm); break;
    case 37:
        MPI_Reduce(s, r, n, t, MPI_SUM, 0, comm);
        MPI_Bcast(r, n, t, 0, comm);
        break;
    case 38: MPI_Reduce_scatter(s, r, c->rcounts, t, MPI_SUM, comm); break;
    case 39: MPI_Allgather(s, sn, st, r, rn, rt, comm); break;
    case 40: MPI_Scatterv(s, c->scounts, c->sdispls, st, r, rn, rt, 0, comm); break;
    case 41: MPI_Gatherv(s, sn, st, r, c->rcounts, c->rdispls, rt, 0, comm); break;
    case 42: MPI_Allgatherv(s, sn, st, r, c->rcounts, c->rdispls, rt, comm); break;
    case 43:
        MPI_Alltoallv(s, c->scounts, c->sdispls, st, r, c->rcounts, c->rdispls, rt, comm);
        break;
    case 44:
        /* reduce P blocks to the root, then scatter block i to process i */
        MPI_Reduce(s, r, n * P, t, MPI_SUM, 0, comm);
        MPI_Scatterv(r, c->scounts, c->sdispls, t, s, n, t, 0, comm);
        break;
    case 45:
        if (me == 0) {
            sk_layout_copy(r, c->rbl, c->nrb, s, c->sbl, c->nsb); /* the root's own block */
            for (int i = 1; i < P; i++)
                MPI_Recv(r + i * rspan, rn, rt, i, TAG_PING, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Send(s, sn, st, 0, TAG_PING, comm);
        }
        break;
    case 46:
        if (me == 0) {
            sk_layout_copy(r, c->rbl, c->nrb, s, c->sbl, c->nsb);
            for (int i = 1; i < P; i++)
                MPI_Irecv(r + i * rspan, rn, rt, i, TAG_PING, comm, &c->reqs[i - 1]);
            MPI_Waitall(P - 1, c->reqs, MPI_STATUSES_IGNORE);
        } else {
            MPI_Request rq;
            MPI_Isend(s, sn, st, 0, TAG_PING, comm, &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
        }
        break;
    default: eb_abort("skampi: type %d is not a collective instance", c->sc->s->type);
    }
}

/* ---------------- master-worker (master 0) ---------------- */

static void mw_send(sk_call *c, int type, int w, MPI_Request *rq)
{
    char *s = c->e->sbuf;
    int n = c->st.count;
    MPI_Datatype t = c->st.type;
    switch (type) {
    case 14: MPI_Ssend(s, n, t, w, TAG_TASK, c->comm); break;
    case 15: MPI_Isend(s, n, t, w, TAG_TASK, c->comm, rq); break;
    case 16: MPI_Bsend(s, n, t, w, TAG_TASK, c->comm); break;
    default: MPI_Send(s, n, t, w, TAG_TASK, c->comm); break;
    }
}

void sk_mw_master(sk_call *c)
{
    int type = c->sc->s->type, W = c->size - 1;
    long C = c->chunks;
    char *r = c->e->rbuf;
    if (type >= 13) {
        /* rounds: a chunk to each worker with the instance's send, then the
         * results back in worker order */
        for (long left = C; left > 0;) {
            int k = left < W ? (int)left : W;
            for (int w = 1; w <= k; w++)
                mw_send(c, type, w, &c->reqs[w - 1]);
            if (type == 15)
                MPI_Waitall(k, c->reqs, MPI_STATUSES_IGNORE);
            for (int w = 1; w <= k; w++)
                MPI_Recv(r, c->rt.count, c->rt.type, w, TAG_RESULT, c->comm, MPI_STATUS_IGNORE);
            left -= k;
        }
    } else {
        /* dynamic: the next chunk goes to the worker whose result arrived */
        long sent = 0, got = 0;
        for (int w = 0; w < W; w++)
            c->reqs[w] = MPI_REQUEST_NULL;
        char *active = eb_calloc((size_t)W + 1, 1);
        for (int w = 1; w <= W && sent < C; w++, sent++) {
            MPI_Send(c->e->sbuf, c->st.count, c->st.type, w, TAG_TASK, c->comm);
            active[w] = 1;
            if (type != 12)
                MPI_Irecv(r + (size_t)(w - 1) * (size_t)c->rt.span, c->rt.count, c->rt.type, w,
                          TAG_RESULT, c->comm, &c->reqs[w - 1]);
        }
        int next = 1;
        while (got < C) {
            int w = 0;
            MPI_Status st;
            if (type == 10) { /* MPI_Wait on the workers in turn */
                while (!active[next])
                    next = next % W + 1;
                w = next;
                next = next % W + 1;
                MPI_Wait(&c->reqs[w - 1], MPI_STATUS_IGNORE);
            } else if (type == 11) {
                int idx;
                MPI_Waitany(W, c->reqs, &idx, MPI_STATUS_IGNORE);
                w = idx + 1;
            } else {
                MPI_Recv(r, c->rt.count, c->rt.type, MPI_ANY_SOURCE, TAG_RESULT, c->comm, &st);
                w = st.MPI_SOURCE;
            }
            got++;
            if (sent < C) {
                MPI_Send(c->e->sbuf, c->st.count, c->st.type, w, TAG_TASK, c->comm);
                sent++;
                if (type != 12)
                    MPI_Irecv(r + (size_t)(w - 1) * (size_t)c->rt.span, c->rt.count, c->rt.type, w,
                              TAG_RESULT, c->comm, &c->reqs[w - 1]);
            } else {
                active[w] = 0;
            }
        }
        free(active);
    }
    for (int w = 1; w <= W; w++)
        MPI_Send(NULL, 0, MPI_BYTE, w, TAG_STOP, c->comm);
}

void sk_mw_worker(sk_call *c)
{
    for (;;) {
        MPI_Status st;
        MPI_Recv(c->e->rbuf, c->rt.count, c->rt.type, 0, MPI_ANY_TAG, c->comm, &st);
        if (st.MPI_TAG == TAG_STOP)
            return;
        /* the result goes back like every send: the send datatype over the
         * send buffer (the chunk came in along the receive datatype) */
        MPI_Send(c->e->sbuf, c->st.count, c->st.type, 0, TAG_RESULT, c->comm);
    }
}

/* ---------------- simple (local calls) ---------------- */

void sk_simple(sk_call *c, long k)
{
    int v;
    volatile double sink = 0;
    switch (c->sc->s->type) {
    case 24:
        for (long i = 0; i < k; i++)
            sink += MPI_Wtime();
        break;
    case 25:
        for (long i = 0; i < k; i++)
            MPI_Comm_rank(MPI_COMM_WORLD, &v);
        break;
    case 26:
        for (long i = 0; i < k; i++)
            MPI_Comm_size(MPI_COMM_WORLD, &v);
        break;
    case 27:
        for (long i = 0; i < k; i++) {
            int flag;
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_PROBE, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (flag)
                eb_abort("skampi: MPI_Iprobe found an unexpected message");
        }
        break;
    case 28:
        for (long i = 0; i < k; i++) {
            void *buf;
            int size;
            MPI_Buffer_attach(c->bsend, c->bsend_size);
            MPI_Buffer_detach(&buf, &size);
        }
        break;
    default: eb_abort("skampi: type %d is not a simple instance", c->sc->s->type);
    }
    (void)sink;
}

void sk_call_once(sk_call *c)
{
    switch (c->sc->in->pattern) {
    case SK_PINGPONG: sk_pingpong(c); break;
    case SK_MASTER_WORKER:
        if (c->rank == 0)
            sk_mw_master(c);
        else
            sk_mw_worker(c);
        break;
    default: sk_collective(c); break;
    }
}

/* ---------------- the point's state ---------------- */

void sk_call_open(sk_call *c, sk_env *e, const sk_suite_ctx *sc, MPI_Comm comm, long count,
                  long chunks)
{
    const sk_suite *s = sc->s;
    memset(c, 0, sizeof *c);
    c->e = e;
    c->sc = sc;
    c->comm = comm;
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->size);
    if (sc->in->pattern == SK_COLLECTIVE)
        eb_sim_prime_collectives(comm); /* SMPI's one-time set-up: not in a timed call */
    c->bytes = (size_t)count * (size_t)sc->base.size;
    char why[EB_ERRLEN];
    if (sk_msgtype_make(&sc->base, s->send_datatype, (long)c->bytes, &c->st, why, sizeof why) ||
        sk_msgtype_make(&sc->base, s->recv_datatype, (long)c->bytes, &c->rt, why, sizeof why))
        eb_abort("skampi: suite %s: %s", s->name, why); /* the plan's lengths are whole units */
    c->chunks = chunks;
    c->scounts = eb_malloc((size_t)c->size * sizeof *c->scounts);
    c->sdispls = eb_malloc((size_t)c->size * sizeof *c->sdispls);
    c->rcounts = eb_malloc((size_t)c->size * sizeof *c->rcounts);
    c->rdispls = eb_malloc((size_t)c->size * sizeof *c->rdispls);
    for (int i = 0; i < c->size; i++) {
        c->scounts[i] = c->st.count;
        c->sdispls[i] = i * c->st.count;
        c->rcounts[i] = c->rt.count;
        c->rdispls[i] = i * c->rt.count;
    }
    if (s->type == 32 || s->type == 45 || s->type == 46 || s->type == 48 || e->check) {
        c->nsb = sk_layout(&sc->base, s->send_datatype, (long)c->bytes, &c->sbl);
        c->nrb = sk_layout(&sc->base, s->recv_datatype, (long)c->bytes, &c->rbl);
    }
    if (s->type == 47 || s->type == 48) {
        int ps = (int)c->bytes, pr = (int)c->bytes;
        if (s->type == 47) {
            MPI_Pack_size(c->st.count, c->st.type, c->comm, &ps);
            MPI_Pack_size(c->rt.count, c->rt.type, c->comm, &pr);
        }
        c->packsize = ps > pr ? ps : pr;
        c->pack = eb_malloc((size_t)c->packsize);
    }
    c->reqs = eb_malloc((size_t)c->size * sizeof *c->reqs);
    if (s->type == 7 || s->type == 16 || s->type == 28) {
        /* room for every message that can be in flight, 4 times over */
        long msgs = s->type == 16 ? c->size : 1;
        int packed;
        MPI_Pack_size(c->st.count, c->st.type, c->comm, &packed);
        c->bsend_size = (int)(4 * msgs * ((long)packed + MPI_BSEND_OVERHEAD));
        c->bsend = eb_malloc((size_t)c->bsend_size);
        if (s->type != 28)
            MPI_Buffer_attach(c->bsend, c->bsend_size);
    }
}

void sk_call_close(sk_call *c)
{
    if (c->bsend && c->sc->s->type != 28) {
        void *b;
        int sz;
        MPI_Buffer_detach(&b, &sz);
    }
    free(c->bsend);
    free(c->scounts);
    free(c->sdispls);
    free(c->rcounts);
    free(c->rdispls);
    free(c->sbl);
    free(c->rbl);
    free(c->pack);
    sk_msgtype_free(&c->st);
    sk_msgtype_free(&c->rt);
    free(c->reqs);
    MPI_Comm_free(&c->comm);
}
