/* IMB-MT's benchmarks (IMB 2021.11, src_cpp/MT): the kernels each thread runs
 * on its own communicator, and the table of them in IMB-MT's order.  Pairs
 * are `stride` ranks apart (default: half the ranks); -check fills and
 * verifies the int buffers with IMB-MT's pattern (element i = (rank+1) * i). */
#include "imbmt/imbmt.h"
#include "core/error.h"
#include "core/registry.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

void mt_fill(const mt_thread *th, void *buf, long mul, long add)
{
    if (!th->run->o->check)
        return;
    int *p = buf;
    size_t n = (size_t)th->count * (size_t)th->run->dtsize / sizeof(int);
    for (size_t i = 0; i < n; i++)
        p[i] = (int)(mul * (long)i + add);
}

void mt_check(mt_thread *th, const void *buf, long mul)
{
    if (!th->run->o->check)
        return;
    const int *p = buf;
    size_t n = (size_t)th->count * (size_t)th->run->dtsize / sizeof(int);
    for (size_t i = 0; i < n; i++)
        th->failures += p[i] != (int)(mul * (long)i);
}

/* IMB-MT's pairing: stride 0 means half the ranks; 0 when this rank has no
 * partner (a stride beyond half, or the last incomplete group). */
static int pair_stride(const mt_thread *th, int *stride, int *group)
{
    int size = th->size;
    *stride = th->run->o->stride ? th->run->o->stride : size / 2;
    if (*stride <= 0 || *stride > size / 2)
        return 0;
    *group = th->rank / *stride;
    return !(*group / 2 == size / (2 * *stride) && size % (2 * *stride) != 0);
}

int mt_partner(const mt_thread *th, int *first)
{
    int stride, group;
    if (!pair_stride(th, &stride, &group))
        return -1;
    *first = group % 2 == 0;
    return *first ? th->rank + stride : th->rank - stride;
}

static int mt_pingpong(mt_thread *th, int repeat, int skip)
{
    int first, pair = mt_partner(th, &first);
    (void)skip;
    if (pair < 0)
        return 0;
    MPI_Datatype t = th->run->o->datatype;
    mt_fill(th, th->in, th->rank + 1, 0);
    mt_fill(th, th->out, 0, -1);
    for (int i = 0; i < repeat; i++) {
        if (first)
            MPI_Send(th->in, th->count, t, pair, 0, th->comm);
        MPI_Recv(th->out, th->count, t, pair, 0, th->comm, MPI_STATUS_IGNORE);
        if (!first)
            MPI_Send(th->in, th->count, t, pair, 0, th->comm);
    }
    mt_check(th, th->in, th->rank + 1);
    mt_check(th, th->out, pair + 1);
    return 1;
}

static int mt_pingping(mt_thread *th, int repeat, int skip)
{
    int first, dest = mt_partner(th, &first);
    (void)skip;
    if (dest < 0)
        return 0;
    MPI_Datatype t = th->run->o->datatype;
    MPI_Request r;
    mt_fill(th, th->in, th->rank + 1, 0);
    mt_fill(th, th->out, 0, -1);
    for (int i = 0; i < repeat; i++) {
        MPI_Isend(th->in, th->count, t, dest, 0, th->comm, &r);
        MPI_Recv(th->out, th->count, t, dest, 0, th->comm, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    mt_check(th, th->in, th->rank + 1);
    mt_check(th, th->out, dest + 1);
    return 1;
}

/* SendRecv and Exchange run on every rank: a ring `stride` apart. */
static int ring_stride(const mt_thread *th)
{
    return th->run->o->stride ? th->run->o->stride : th->size / 2;
}

static int mt_sendrecv(mt_thread *th, int repeat, int skip)
{
    (void)skip;
    int stride = ring_stride(th), size = th->size;
    int dest = (th->rank + stride) % size, src = (th->rank + size - stride) % size;
    MPI_Datatype t = th->run->o->datatype;
    mt_fill(th, th->in, th->rank + 1, 0);
    mt_fill(th, th->out, 0, -1);
    for (int i = 0; i < repeat; i++)
        MPI_Sendrecv(th->in, th->count, t, dest, 0, th->out, th->count, t, src, 0, th->comm,
                     MPI_STATUS_IGNORE);
    mt_check(th, th->in, th->rank + 1);
    mt_check(th, th->out, src + 1);
    return 1;
}

static int mt_exchange(mt_thread *th, int repeat, int skip)
{
    (void)skip;
    int stride = ring_stride(th), size = th->size;
    int right = (th->rank + stride) % size, left = (th->rank + size - stride) % size;
    MPI_Datatype t = th->run->o->datatype;
    char *out2 = (char *)th->out + (size_t)th->count * (size_t)th->run->dtsize;
    MPI_Request r[2];
    mt_fill(th, th->in, th->rank + 1, 0);
    mt_fill(th, th->out, 0, -1);
    for (int i = 0; i < repeat; i++) {
        MPI_Isend(th->in, th->count, t, left, 0, th->comm, &r[0]);
        MPI_Isend(th->in, th->count, t, right, 0, th->comm, &r[1]);
        MPI_Recv(th->out, th->count, t, left, 0, th->comm, MPI_STATUS_IGNORE);
        MPI_Recv(out2, th->count, t, right, 0, th->comm, MPI_STATUS_IGNORE);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
    mt_check(th, th->in, th->rank + 1);
    mt_check(th, th->out, left + 1);
    mt_check(th, out2, right + 1);
    return 1;
}

/* UniBand: the first of a pair posts a window of sends, the second a window
 * of receives, then a one-byte acknowledgement back. */
static int mt_uniband(mt_thread *th, int repeat, int skip)
{
    int first, peer = mt_partner(th, &first);
    (void)skip;
    if (peer < 0)
        return 0;
    MPI_Datatype t = th->run->o->datatype;
    int w = th->run->o->window_size;
    char ack = 0;
    mt_fill(th, th->in, th->rank + 1, 0);
    mt_fill(th, th->out, 0, -1);
    for (int i = 0; i < repeat; i++) {
        for (int k = 0; k < w; k++) {
            if (first)
                MPI_Isend(th->in, th->count, t, peer, 0, th->comm, &th->requests[k]);
            else
                MPI_Irecv(th->out, th->count, t, peer, 0, th->comm, &th->requests[k]);
        }
        MPI_Waitall(w, th->requests, MPI_STATUSES_IGNORE);
        if (first)
            MPI_Recv(&ack, 1, MPI_CHAR, peer, 0, th->comm, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_CHAR, peer, 0, th->comm);
    }
    mt_check(th, th->in, th->rank + 1);
    if (!first)
        mt_check(th, th->out, peer + 1);
    return 1;
}

/* BiBand: both sides post a window of receives and of sends. */
static int mt_biband(mt_thread *th, int repeat, int skip)
{
    int first, peer = mt_partner(th, &first);
    (void)skip;
    if (peer < 0)
        return 0;
    MPI_Datatype t = th->run->o->datatype;
    int w = th->run->o->window_size;
    char ack = 0;
    mt_fill(th, th->in, th->rank + 1, 0);
    mt_fill(th, th->out, 0, -1);
    for (int i = 0; i < repeat; i++) {
        for (int k = 0; k < w; k++)
            MPI_Irecv(th->out, th->count, t, peer, 0, th->comm, &th->requests[k]);
        for (int k = 0; k < w; k++)
            MPI_Isend(th->in, th->count, t, peer, 0, th->comm, &th->requests[w + k]);
        MPI_Waitall(2 * w, th->requests, MPI_STATUSES_IGNORE);
        if (first)
            MPI_Recv(&ack, 1, MPI_CHAR, peer, 0, th->comm, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_CHAR, peer, 0, th->comm);
    }
    mt_check(th, th->in, th->rank + 1);
    mt_check(th, th->out, peer + 1);
    return 1;
}

/* The collectives time each iteration, then meet -barrier five times (IMB-MT
 * keeps the next iteration away from the last one's tail). */
typedef void (*coll_op)(mt_thread *th);

static int coll_loop(mt_thread *th, int repeat, int skip, coll_op op)
{
    double sum = 0;
    for (int i = 0; i < repeat + skip; i++) {
        double t = MPI_Wtime();
        op(th);
        t = MPI_Wtime() - t;
        if (i >= skip)
            sum += t;
        for (int k = 0; k < 5; k++)
            mt_sync(th);
    }
    th->t = sum;
    return 1;
}

static int mt_barrier_kernel(mt_thread *th, int repeat, int skip)
{
    double sum = 0;
    for (int i = 0; i < repeat + skip; i++) {
        double t = MPI_Wtime();
        if (th->run->o->multiple) /* the threads start the barrier together */
            eb_team_barrier(&th->run->team);
        MPI_Barrier(th->comm);
        t = MPI_Wtime() - t;
        if (i >= skip)
            sum += t;
    }
    th->t = sum;
    return 1;
}

static void op_bcast(mt_thread *th)
{
    MPI_Bcast(th->rank == 0 ? th->in : th->out, th->count, th->run->o->datatype, 0, th->comm);
}

static int mt_bcast(mt_thread *th, int repeat, int skip)
{
    if (th->rank == 0)
        mt_fill(th, th->in, 1, 0);
    else
        mt_fill(th, th->out, 0, -1);
    coll_loop(th, repeat, skip, op_bcast);
    if (th->rank != 0)
        mt_check(th, th->out, 1);
    return 1;
}

static void op_reduce(mt_thread *th)
{
    MPI_Reduce(th->in, th->out, th->count, th->run->o->datatype, MPI_SUM, 0, th->comm);
}

static void op_allreduce(mt_thread *th)
{
    MPI_Allreduce(th->in, th->out, th->count, th->run->o->datatype, MPI_SUM, th->comm);
}

static int reduction(mt_thread *th, int repeat, int skip, coll_op op, int all)
{
    mt_fill(th, th->in, th->rank + 1, 0);
    mt_fill(th, th->out, 0, -1);
    coll_loop(th, repeat, skip, op);
    if (all || th->rank == 0) /* the sum of (rank+1) * i over the ranks */
        mt_check(th, th->out, (long)th->size * (th->size + 1) / 2);
    return 1;
}

static int mt_reduce(mt_thread *th, int r, int s) { return reduction(th, r, s, op_reduce, 0); }
static int mt_allreduce(mt_thread *th, int r, int s) { return reduction(th, r, s, op_allreduce, 1); }

enum {
    PT2PT_COLS = MT_OUT_MINMAX | MT_OUT_BW,
    WINDOW_COLS = MT_WINDOW | MT_DIV_WINDOW | MT_OUT_BW_CUM,
    COLL_COLS = MT_COLLECTIVE | MT_OUT_MINMAX,
};

static const mt_bench benches[] = {
    {"PingPongMT", PT2PT_COLS | MT_DIV_2, mt_pingpong},
    {"PingPingMT", PT2PT_COLS, mt_pingping},
    {"SendRecvMT", PT2PT_COLS | MT_BW_X2, mt_sendrecv},
    {"ExchangeMT", PT2PT_COLS | MT_RECV_FROM_2 | MT_BW_X4, mt_exchange},
    {"UniBandMT", WINDOW_COLS, mt_uniband},
    {"BiBandMT", WINDOW_COLS | MT_DIV_2, mt_biband},
    {"BarrierMT", COLL_COLS | MT_SEND_0, mt_barrier_kernel},
    {"BcastMT", COLL_COLS, mt_bcast},
    {"ReduceMT", COLL_COLS, mt_reduce},
    {"AllReduceMT", COLL_COLS, mt_allreduce},
};

enum { NBUILTIN = (int)(sizeof benches / sizeof *benches) };

/* Kernels of other files (mt_register_bench), after IMB-MT's own. */
static const mt_bench *added[MT_MAX_BENCHES - NBUILTIN];
static int nadded;

void mt_register_bench(const mt_bench *b)
{
    char msg[128];
    if (mt_bench_find(b->name) >= 0)
        snprintf(msg, sizeof msg, "IMB-MT has two benchmarks called '%s' (the second one is "
                 "refused)", b->name);
    else if (nadded == (int)(sizeof added / sizeof *added))
        snprintf(msg, sizeof msg, "IMB-MT holds %d benchmarks: '%s' is refused",
                 MT_MAX_BENCHES, b->name);
    else {
        added[nadded++] = b;
        return;
    }
    eb_registry_refuse(msg);
}

int mt_bench_count(void) { return NBUILTIN + nadded; }
int mt_bench_default_count(void) { return NBUILTIN; }
const mt_bench *mt_bench_at(int i) { return i < NBUILTIN ? &benches[i] : added[i - NBUILTIN]; }

int mt_bench_find(const char *name)
{
    for (int i = 0; i < mt_bench_count(); i++)
        if (!strcasecmp(mt_bench_at(i)->name, name))
            return i;
    return -1;
}
