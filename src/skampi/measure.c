/* The four SKaMPI patterns (paper, section 3.1) and their instances, and the
 * accuracy-controlled measurement of one point (section 4.1).  Measurement
 * never prints: results go back to the caller. */
#include "skampi/measure.h"

#include "skampi/check.h"

#include "core/accuracy.h"
#include "core/clock.h"
#include "core/stats.h"
#include "core/sysinfo.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/resolution.h"
#include "core/simulate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_PING 1
#define TAG_TASK 2
#define TAG_RESULT 3
#define TAG_STOP 4
#define TAG_PROBE 77 /* never sent: unsuccessful MPI_Iprobe */
#define SK_MAX_WINDOW_LEAD 0.01 /* seconds */
#define PAIR_DELAY_ENV "EFFBENCH_SKAMPI_PAIR_DELAY"

/* One point's communication state. */
typedef struct {
    sk_env *e;
    const sk_suite_ctx *sc;
    MPI_Comm comm;
    int rank, size;
    /* every send uses st, every receive rt (the suite's datatype patterns) */
    sk_msgtype st, rt;
    size_t bytes;
    long chunks;     /* master-worker: chunks per measurement */
    int *scounts, *sdispls, *rcounts, *rdispls; /* v-collectives, in elements */
    /* layouts for the copy loops (memcpy, the root's own block, type 48) */
    sk_block *sbl, *rbl;
    long nsb, nrb;
    char *pack;      /* types 47 and 48: the packed message */
    int packsize;
    MPI_Request *reqs;
    char *bsend;
    int bsend_size;
    long simple_calls;
    int resolution_limited; /* a run's time was raised to the timer's resolution */
    /* window synchronisation */
    eb_clock_model clock; /* this rank's clock against rank 0's */
    double slack;    /* root: start time ahead of "now" */
} call;

/* ---------------- ping-pong (rank 0 starts, rank 1 answers) ---------------- */

static void wait_probe(call *c, int src)
{
    int flag = 0;
    MPI_Status st;
    while (!flag)
        MPI_Iprobe(src, TAG_PING, c->comm, &flag, &st);
}

/* Types 47 and 48: the message travels packed, by MPI_Pack or by the
 * copy loop over the layout, as MPI_PACKED / MPI_BYTE. */
static void send_packed(call *c, int to)
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

static void recv_packed(call *c, int from)
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

static void pingpong(call *c)
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

static void collective(call *c)
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

static void mw_send(call *c, int type, int w, MPI_Request *rq)
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

static void mw_master(call *c)
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

static void mw_worker(call *c)
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

static void simple(call *c, long k)
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

/* ---------------- one timed run ---------------- */

/* Wait for a window's start; 1 if this process starts late.  With a core
 * of its own a process spins, and a start later than the tolerance (it was
 * preempted) is late too.  Oversubscribed, it must yield the core while it
 * waits so the others can reach the start (eb_wait_until), and only a
 * process that arrives after the start is late: its times then include
 * scheduling delays, as every oversubscribed timing does. */
#define SK_START_TOLERANCE 2e-6
static int wait_for_start(const sk_env *e, double t, double *arrived_late)
{
    double now = MPI_Wtime();
    *arrived_late = 0;
    if (now > t) {
        *arrived_late = now - t;
        return 1;
    }
    if (e->oversubscribed) {
        eb_wait_until(t);
        return 0;
    }
    while ((now = MPI_Wtime()) < t)
        ;
    return now - t > SK_START_TOLERANCE;
}

/* A run's time with the timer's overhead (and a barrier's time) taken off,
 * held to the timer's resolution (src/core/resolution.h). */
static double resolved(call *c, double t)
{
    return eb_resolved_time(t, c->e->wtick, &c->resolution_limited);
}

/* Runs the operation once; returns this rank's time (seconds, overhead
 * subtracted), *root_sample the sample the timing rank keeps, *valid 0 for a
 * window run a process started late (all ranks agree). */
static double one_run(call *c, double t_barrier, double *root_sample, int *valid)
{
    const sk_instance *in = c->sc->in;
    double ov = c->e->overhead, t0, t1, local;
    *valid = 1;
    switch (in->pattern) {
    case SK_PINGPONG:
        t0 = MPI_Wtime();
        pingpong(c);
        t1 = MPI_Wtime();
        local = resolved(c, t1 - t0 - ov);
        break;
    case SK_SIMPLE:
        t0 = MPI_Wtime();
        simple(c, c->simple_calls);
        t1 = MPI_Wtime();
        local = resolved(c, t1 - t0 - ov) / (double)c->simple_calls;
        break;
    case SK_MASTER_WORKER:
        MPI_Barrier(c->comm);
        t0 = MPI_Wtime();
        if (c->rank == 0)
            mw_master(c);
        else
            mw_worker(c);
        t1 = MPI_Wtime();
        local = resolved(c, t1 - t0 - ov);
        break;
    case SK_COLLECTIVE:
    default:
        if (c->sc->s->sync == SK_SYNC_BARRIER) {
            MPI_Barrier(c->comm);
            t0 = MPI_Wtime();
            collective(c);
            MPI_Barrier(c->comm);
            t1 = MPI_Wtime();
            local = resolved(c, t1 - t0 - ov - t_barrier);
        } else {
            /* window: start together at a time agreed in rank 0's clock */
            double start = 0;
            if (c->rank == 0)
                start = MPI_Wtime() + c->slack;
            MPI_Bcast(&start, 1, MPI_DOUBLE, 0, c->comm);
            double mine = eb_clock_to_local(&c->clock, start);
            double arrived_late;
            int late = wait_for_start(c->e, mine, &arrived_late);
            collective(c);
            t1 = MPI_Wtime();
            local = resolved(c, t1 - mine - ov);
            double in3[3] = {local, late, arrived_late}, out3[3];
            MPI_Reduce(in3, out3, 3, MPI_DOUBLE, MPI_MAX, 0, c->comm);
            int ok = 1;
            if (c->rank == 0) {
                ok = out3[1] == 0;
                /* a late start (arrived late, or preempted while waiting)
                 * asks for a longer lead: the previous run's control messages
                 * must have settled everywhere.  Bounded: a window is not a
                 * sleep. */
                if (!ok)
                    c->slack = fmin(fmax(2 * c->slack, 2 * out3[2]), SK_MAX_WINDOW_LEAD);
                *root_sample = out3[0];
            }
            MPI_Bcast(&ok, 1, MPI_INT, 0, c->comm);
            *valid = ok;
            return local;
        }
        break;
    }
    *root_sample = local;
    return local;
}

/* --check: one run of the operation with patterned buffers, before the
 * point is measured (src/skampi/check.h).  Returns the bytes that differ
 * from what a correct run leaves, summed over the processes (on the timing
 * process), or -1 when the instance moves no data.  The buffers hold zeros
 * again afterwards, as the measurement expects. */
static long check_point(call *c)
{
    const sk_suite *s = c->sc->s;
    if (!sk_check_applies(s->type))
        return -1;
    long P = c->size;
    long ls = P * c->st.span + SK_CHECK_PAD, lr = P * c->rt.span + SK_CHECK_PAD;
    if (ls > (long)c->e->half)
        ls = (long)c->e->half;
    if (lr > (long)c->e->half)
        lr = (long)c->e->half;
    sk_check_case k = {s->type, c->rank, c->size, c->chunks, &c->sc->base, c->sbl, c->rbl,
                       c->nsb, c->nrb, c->st.span, c->rt.span, c->st.count};
    unsigned char *s0 = eb_malloc((size_t)ls), *r0 = eb_malloc((size_t)lr);
    unsigned char *s1 = eb_malloc((size_t)ls), *r1 = eb_malloc((size_t)lr);
    sk_check_before(&k, s0, ls, r0, lr);
    memcpy(c->e->sbuf, s0, (size_t)ls);
    memcpy(c->e->rbuf, r0, (size_t)lr);
    switch (c->sc->in->pattern) {
    case SK_PINGPONG: pingpong(c); break;
    case SK_MASTER_WORKER:
        if (c->rank == 0)
            mw_master(c);
        else
            mw_worker(c);
        break;
    default: collective(c); break;
    }
    /* type 12's master keeps the result that came last, from any worker
     * that got a chunk: the best match counts */
    int last = sk_check_last_worker(s->type, c->chunks, c->size - 1);
    int k_last = s->type == 12 && c->rank == 0 ? (int)(c->chunks < P - 1 ? c->chunks : P - 1) : 1;
    long bad = -1;
    for (int w = 1; w <= k_last; w++) {
        memcpy(s1, s0, (size_t)ls);
        memcpy(r1, r0, (size_t)lr);
        sk_check_deliver(&k, s->type == 12 ? w : last, s1, ls, r1, lr);
        long d = sk_check_diff(s1, (unsigned char *)c->e->sbuf, ls) +
                 sk_check_diff(r1, (unsigned char *)c->e->rbuf, lr);
        if (bad < 0 || d < bad)
            bad = d;
    }
    memset(c->e->sbuf, 0, (size_t)ls);
    memset(c->e->rbuf, 0, (size_t)lr);
    free(s0);
    free(r0);
    free(s1);
    free(r1);
    long sum = 0;
    MPI_Reduce(&bad, &sum, 1, MPI_LONG, MPI_SUM, 0, c->comm);
    return sum;
}

/* Mean time of MPI_Barrier on comm, to the suite's accuracy. */
static double barrier_time(call *c, const eb_acc_params *ap)
{
    eb_acc a;
    eb_acc_init(&a, ap);
    int done = 0;
    while (!done) {
        MPI_Barrier(c->comm);
        double t0 = MPI_Wtime();
        MPI_Barrier(c->comm);
        double t = MPI_Wtime() - t0 - c->e->overhead;
        eb_acc_add(&a, t);
        done = c->rank == 0 ? eb_acc_done(&a) : 0;
        MPI_Bcast(&done, 1, MPI_INT, 0, c->comm);
    }
    eb_acc_stats st = eb_acc_summary(&a);
    double m = st.mean;
    MPI_Bcast(&m, 1, MPI_DOUBLE, 0, c->comm);
    eb_acc_free(&a);
    return m;
}

/* ---------------- the point ---------------- */

#define RES_FIXED 12

void sk_measure_point(sk_env *e, const sk_suite_ctx *sc, int procs, long count, long chunks,
                      sk_point_result *r)
{
    const sk_suite *s = sc->s;
    const sk_instance *in = sc->in;
    char what[160];
    snprintf(what, sizeof what, "%s, %d processes, count %ld", s->name, procs, count);
    /* a point's time is the suite's accuracy loop: no estimate, the guard's least deadline */
    eb_guard_row(what, s->time_measurement > 0 ? s->time_measurement : 0, MPI_COMM_WORLD);
    int timer = 0; /* world rank of the timing process */
    int color = MPI_UNDEFINED, key = e->wrank;
    switch (in->pattern) {
    case SK_PINGPONG:
        timer = e->pair[0];
        procs = 2;
        if (e->wrank == e->pair[0] || e->wrank == e->pair[1]) {
            color = 0;
            key = e->wrank == e->pair[0] ? 0 : 1;
        }
        break;
    case SK_SIMPLE:
        procs = 1;
        if (e->wrank == 0)
            color = 0;
        break;
    default:
        if (e->wrank < procs)
            color = 0;
        break;
    }
    call c = {0};
    c.e = e;
    c.sc = sc;
    MPI_Comm_split(MPI_COMM_WORLD, color, key, &c.comm);
    double *res = eb_calloc((size_t)RES_FIXED + (size_t)e->wsize, sizeof *res);
    if (c.comm != MPI_COMM_NULL) {
        MPI_Comm_rank(c.comm, &c.rank);
        MPI_Comm_size(c.comm, &c.size);
        c.bytes = (size_t)count * (size_t)sc->base.size;
        char why[EB_ERRLEN];
        if (sk_msgtype_make(&sc->base, s->send_datatype, (long)c.bytes, &c.st, why, sizeof why) ||
            sk_msgtype_make(&sc->base, s->recv_datatype, (long)c.bytes, &c.rt, why, sizeof why))
            eb_abort("skampi: suite %s: %s", s->name, why); /* the plan's lengths are whole units */
        c.chunks = chunks;
        c.scounts = eb_malloc((size_t)c.size * sizeof *c.scounts);
        c.sdispls = eb_malloc((size_t)c.size * sizeof *c.sdispls);
        c.rcounts = eb_malloc((size_t)c.size * sizeof *c.rcounts);
        c.rdispls = eb_malloc((size_t)c.size * sizeof *c.rdispls);
        for (int i = 0; i < c.size; i++) {
            c.scounts[i] = c.st.count;
            c.sdispls[i] = i * c.st.count;
            c.rcounts[i] = c.rt.count;
            c.rdispls[i] = i * c.rt.count;
        }
        if (s->type == 32 || s->type == 45 || s->type == 46 || s->type == 48 || e->check) {
            c.nsb = sk_layout(&sc->base, s->send_datatype, (long)c.bytes, &c.sbl);
            c.nrb = sk_layout(&sc->base, s->recv_datatype, (long)c.bytes, &c.rbl);
        }
        if (s->type == 47 || s->type == 48) {
            int ps = (int)c.bytes, pr = (int)c.bytes;
            if (s->type == 47) {
                MPI_Pack_size(c.st.count, c.st.type, c.comm, &ps);
                MPI_Pack_size(c.rt.count, c.rt.type, c.comm, &pr);
            }
            c.packsize = ps > pr ? ps : pr;
            c.pack = eb_malloc((size_t)c.packsize);
        }
        c.reqs = eb_malloc((size_t)c.size * sizeof *c.reqs);
        if (s->type == 7 || s->type == 16 || s->type == 28) {
            /* room for every message that can be in flight, 4 times over */
            long msgs = s->type == 16 ? c.size : 1;
            int packed;
            MPI_Pack_size(c.st.count, c.st.type, c.comm, &packed);
            c.bsend_size = (int)(4 * msgs * ((long)packed + MPI_BSEND_OVERHEAD));
            c.bsend = eb_malloc((size_t)c.bsend_size);
            if (s->type != 28)
                MPI_Buffer_attach(c.bsend, c.bsend_size);
        }
        long defects = e->check ? check_point(&c) : -1;
        eb_acc_params ap = {s->standard_error, s->min_rep, s->max_rep, s->cut_quantile,
                            e->wtick / s->standard_error};
        double t_barrier = 0;
        if (in->pattern == SK_COLLECTIVE && s->sync == SK_SYNC_BARRIER)
            t_barrier = barrier_time(&c, &ap);
        if (in->pattern == SK_COLLECTIVE && s->sync == SK_SYNC_WINDOW) {
            eb_clock_sync(c.comm, 10, &c.clock);
            /* start the windows early enough for every process; a window
             * that was too short doubles, and the suite keeps what it learnt */
            c.slack = fmax(8 * c.clock.error + 1e-5, e->window_slack);
        }
        if (in->pattern == SK_SIMPLE) {
            /* a timed run is k calls: long enough for the clock to resolve */
            double target = fmax(2e-5, 100 * e->wtick);
            c.simple_calls = 1;
            for (;;) {
                double t0 = MPI_Wtime();
                simple(&c, c.simple_calls);
                /* a simulation gives local calls no time: the cap ends the search */
                if (MPI_Wtime() - t0 >= target || c.simple_calls >= eb_sim_cap_loop(1L << 24))
                    break;
                c.simple_calls *= 2;
            }
        }
        /* @CACHEWARMUP dummy runs */
        double dummy;
        int valid;
        for (int w = 0; w < e->cfg->cachewarmup; w++)
            one_run(&c, t_barrier, &dummy, &valid);
        eb_acc mine, root;
        eb_acc_init(&mine, &ap);
        eb_acc_init(&root, &ap);
        long invalid = 0;
        double t_begin = MPI_Wtime();
        int done = 0;
        while (!done) {
            double sample;
            double local = one_run(&c, t_barrier, &sample, &valid);
            if (valid) {
                eb_acc_add(&mine, local);
                if (c.rank == 0)
                    eb_acc_add(&root, sample);
            } else {
                invalid++;
            }
            if (c.rank == 0) {
                /* a point whose windows keep failing still ends: after as
                 * many late starts as Max_Repetition */
                done = eb_acc_done(&root) || invalid >= s->max_rep ||
                       (s->time_measurement > 0 && MPI_Wtime() - t_begin > s->time_measurement);
            }
            if (c.size > 1)
                MPI_Bcast(&done, 1, MPI_INT, 0, c.comm);
        }
        eb_acc_stats my = eb_acc_summary(&mine);
        double *nodes = c.rank == 0 ? res + RES_FIXED : NULL;
        MPI_Gather(&my.mean, 1, MPI_DOUBLE, nodes, 1, MPI_DOUBLE, 0, c.comm);
        if (c.rank == 0) {
            eb_acc_stats st = eb_acc_summary(&root);
            res[0] = st.mean;
            res[1] = st.std_error;
            res[2] = st.min;
            res[3] = st.max;
            res[4] = (double)st.n;
            res[5] = (double)st.kept;
            res[6] = (double)invalid;
            res[7] = c.size;
            res[8] = (double)c.simple_calls;
            res[9] = s->time_suite > 0 && MPI_Wtime() - sc->t_start > s->time_suite;
            res[10] = (double)defects;
            res[11] = c.resolution_limited;
        }
        if (c.rank == 0 && s->sync == SK_SYNC_WINDOW)
            e->window_slack = c.slack;
        eb_acc_free(&mine);
        eb_acc_free(&root);
        if (c.bsend && s->type != 28) {
            void *b;
            int sz;
            MPI_Buffer_detach(&b, &sz);
        }
        free(c.bsend);
        free(c.scounts);
        free(c.sdispls);
        free(c.rcounts);
        free(c.rdispls);
        free(c.sbl);
        free(c.rbl);
        free(c.pack);
        sk_msgtype_free(&c.st);
        sk_msgtype_free(&c.rt);
        free(c.reqs);
        MPI_Comm_free(&c.comm);
    }
    MPI_Bcast(res, RES_FIXED + e->wsize, MPI_DOUBLE, timer, MPI_COMM_WORLD);
    eb_guard_row_end();
    r->mean = res[0];
    r->std_error = res[1];
    r->min = res[2];
    r->max = res[3];
    r->n = (long)res[4];
    r->kept = (long)res[5];
    r->invalid = (long)res[6];
    r->procs = (int)res[7];
    r->nnode = r->procs;
    r->calls = res[8];
    r->stop = res[9] != 0;
    r->defects = (long)res[10];
    r->resolution_limited = res[11] != 0;
    r->count = count;
    r->bytes = count * sc->base.size;
    r->chunks = chunks;
    memcpy(e->node_buf, res + RES_FIXED, (size_t)r->nnode * sizeof *res);
    r->node = e->node_buf;
    free(res);
}

/* ---------------- environment ---------------- */

void sk_env_init(sk_env *e, const sk_config *cfg)
{
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    MPI_Comm_rank(MPI_COMM_WORLD, &e->wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &e->wsize);
    e->half = (size_t)cfg->memory_kb * 512;
    e->sbuf = eb_malloc(e->half);
    e->rbuf = eb_malloc(e->half);
    /* zeros: sums of any number of them stay exact for every base type */
    memset(e->sbuf, 0, e->half);
    memset(e->rbuf, 0, e->half);
    e->node_buf = eb_calloc((size_t)e->wsize, sizeof *e->node_buf);
    e->wtick = MPI_Wtick();
    e->oversubscribed = eb_warn_oversubscription() > 0;
    e->pair[0] = e->pair[1] = -1;
    const char *delay = getenv(PAIR_DELAY_ENV); /* tests only (docs/skampi.md) */
    char why[EB_ERRLEN], all[EB_ERRLEN];
    int bad = 0;
    if (delay) {
        e->pair_delay = eb_malloc((size_t)e->wsize * sizeof *e->pair_delay);
        bad = sk_parse_pair_delay(delay, e->wsize, e->pair_delay, why, sizeof why);
    }
    if (eb_any_error(bad ? why : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    /* the empty measurement: two consecutive MPI_Wtime calls */
    double sum = 0;
    const int n = 1000;
    for (int i = 0; i < n; i++) {
        double t0 = MPI_Wtime();
        sum += MPI_Wtime() - t0;
    }
    e->overhead = sum / n;
}

void sk_env_free(sk_env *e)
{
    free(e->sbuf);
    free(e->rbuf);
    free(e->node_buf);
    free(e->pair_delay);
}

int sk_parse_pair_delay(const char *text, int P, double *delay, char *err, size_t errlen)
{
    for (int i = 0; i < P; i++)
        delay[i] = 0;
    const char *p = text;
    for (;;) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end == p || *end != ':' || r < 0)
            break;
        const char *q = end + 1;
        double us = strtod(q, &end);
        if (end == q || !(us >= 0) || us > 1e6 || (*end != ',' && *end != '\0'))
            break;
        if (r >= P)
            return eb_err(err, errlen, PAIR_DELAY_ENV ": rank %ld, but this run has %d processes",
                          r, P);
        delay[r] = us * 1e-6;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
    return eb_err(err, errlen,
                  PAIR_DELAY_ENV ": '%s' is not RANK:MICROSECONDS[,RANK:MICROSECONDS...] "
                  "(0 to 1000000 us)",
                  text);
}

/* Round-trip time of short messages between world ranks a and b, measured
 * on a (median of 21, after 5 warm-up exchanges).  With the test switch
 * EFFBENCH_SKAMPI_PAIR_DELAY a rank waits its delay before each message it
 * sends, so a pair's round trip grows by the sum of its ranks' delays. */
static double pair_rtt(sk_env *e, int a, int b)
{
    double t[21];
    char x = 0;
    int me = e->wrank;
    double delay = e->pair_delay ? e->pair_delay[me] : 0;
    for (int k = 0; k < 26; k++) {
        double t0 = MPI_Wtime();
        if (me == a) {
            if (delay > 0)
                eb_wait_until(MPI_Wtime() + delay);
            MPI_Send(&x, 1, MPI_CHAR, b, TAG_PING, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_CHAR, b, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_CHAR, a, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (delay > 0)
                eb_wait_until(MPI_Wtime() + delay);
            MPI_Send(&x, 1, MPI_CHAR, a, TAG_PING, MPI_COMM_WORLD);
        }
        if (k >= 5)
            t[k - 5] = MPI_Wtime() - t0;
    }
    return eb_median(t, 21);
}

double sk_pair_search(int P, sk_rtt_fn rtt, void *ctx, int pair[2])
{
    /* all pairs up to SK_PAIR_ALL_MAX processes; beyond, two sweeps: the
     * process farthest from 0, then the process farthest from that one
     * (docs/skampi.md says what that guarantees) */
    double best = -1;
    int ba = 0, bb = 1;
    int all = P <= SK_PAIR_ALL_MAX;
    int from = 0;
    for (int pass = 0; pass < (all ? 1 : 2); pass++) {
        for (int a = 0; a < P; a++) {
            if (!all && a != from)
                continue;
            for (int b = all ? a + 1 : 0; b < P; b++) {
                if (b == a)
                    continue;
                double t = rtt(ctx, a, b);
                if (t > best) {
                    best = t;
                    ba = a < b ? a : b;
                    bb = a < b ? b : a;
                }
            }
        }
        if (!all)
            from = from == ba ? bb : ba; /* the far end of the best pair so far */
    }
    pair[0] = ba;
    pair[1] = bb;
    return best;
}

/* One pair's round trip, measured by its two ranks, known to all. */
static double world_rtt(void *ctx, int a, int b)
{
    sk_env *e = ctx;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = 0;
    if (e->wrank == a || e->wrank == b)
        t = pair_rtt(e, a, b);
    MPI_Bcast(&t, 1, MPI_DOUBLE, a, MPI_COMM_WORLD);
    return t;
}

void sk_find_pair(sk_env *e)
{
    if (e->pair[0] >= 0 || e->wsize < 2)
        return;
    e->pair_latency = sk_pair_search(e->wsize, world_rtt, e, e->pair);
}
