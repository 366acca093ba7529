/* The calls mpibenchmark measures, under ReproMPI's names (its collectives.c,
 * mpi_collectives.c, pingpong.c): the count of a job is the elements of one
 * block (a rank's part of a gather, a scatter, an all-to-all or a reduce-
 * scatter), as in ReproMPI; the collectives go through core's table of MPI
 * calls (core/coll_calls.h), Scan and Exscan, which it lacks, directly.
 *
 * -check (effbench's): one more call outside the timing on patterned data,
 * then every rank counts what arrived wrong.  Moves are checked against
 * core's byte pattern of the sender (core/buffers.h); reductions against the
 * same reduction computed locally with MPI_Reduce_local over every rank's
 * input (inputs are 1s and 2s, so sums and products are exact in every type). */
#include "core/buffers.h"
#include "core/coll_calls.h"
#include "core/error.h"
#include "reprompi/rp.h"

#include <stdlib.h>
#include <string.h>

enum { K_COLL, K_SCAN, K_EXSCAN, K_PP_SEND_RECV, K_PP_SENDRECV, K_PP_ISEND_RECV,
       K_PP_ISEND_IRECV, K_PP_SEND_IRECV };

/* blocks of the send and the receive buffer: 1 or P */
typedef struct {
    const char *name;
    int kind;
    eb_coll_mpi_call call;
    int sblocks_p, rblocks_p;
} rp_call;

static const rp_call CALLS[] = {
    {"MPI_Allgather", K_COLL, EB_CALL_ALLGATHER, 0, 1},
    {"MPI_Allreduce", K_COLL, EB_CALL_ALLREDUCE, 0, 0},
    {"MPI_Alltoall", K_COLL, EB_CALL_ALLTOALL, 1, 1},
    {"MPI_Barrier", K_COLL, EB_CALL_BARRIER, 0, 0},
    {"MPI_Bcast", K_COLL, EB_CALL_BCAST, 0, 0},
    {"MPI_Exscan", K_EXSCAN, 0, 0, 0},
    {"MPI_Gather", K_COLL, EB_CALL_GATHER, 0, 1},
    {"MPI_Reduce", K_COLL, EB_CALL_REDUCE, 0, 0},
    {"MPI_Reduce_scatter", K_COLL, EB_CALL_REDUCE_SCATTER, 1, 0},
    {"MPI_Reduce_scatter_block", K_COLL, EB_CALL_REDUCE_SCATTER_BLOCK, 1, 0},
    {"MPI_Scan", K_SCAN, 0, 0, 0},
    {"MPI_Scatter", K_COLL, EB_CALL_SCATTER, 1, 0},
    {"Send_Recv", K_PP_SEND_RECV, 0, 0, 0},
    {"Sendrecv", K_PP_SENDRECV, 0, 0, 0},
    {"Isend_Recv", K_PP_ISEND_RECV, 0, 0, 0},
    {"Isend_Irecv", K_PP_ISEND_IRECV, 0, 0, 0},
    {"Send_Irecv", K_PP_SEND_IRECV, 0, 0, 0},
};
#define NCALLS ((int)(sizeof CALLS / sizeof *CALLS))
_Static_assert(sizeof CALLS / sizeof *CALLS <= RP_MAX_CALLS, "rp_options.module holds a slot per call");
#define RP_TAG 1 /* ReproMPI's ping-pong tag */

struct rp_bufs {
    const rp_call *c;
    MPI_Comm comm;
    int rank, procs, peer; /* peer: the other ping-pong rank, -1 outside the pair */
    long count;
    MPI_Aint extent;
    size_t sbytes, rbytes;
    unsigned char *s, *r;
    int *rcounts;
    eb_coll_args a;
    const rp_options *o;
    const eb_mockup *mock; /* --module's mock-up of the call, or NULL */
    eb_mockup_args ma;
};

int rp_call_count(void) { return NCALLS; }
const char *rp_call_name(int call) { return CALLS[call].name; }
int rp_call_is_pingpong(int call) { return CALLS[call].kind >= K_PP_SEND_RECV; }

int rp_call_find(const char *name)
{
    for (int k = 0; k < NCALLS; k++)
        if (!strcmp(name, CALLS[k].name))
            return k;
    return -1;
}

rp_bufs *rp_bufs_make(int call, long count, const rp_options *o, MPI_Comm comm)
{
    rp_bufs *b = eb_calloc(1, sizeof *b);
    MPI_Aint lb;
    b->c = &CALLS[call];
    b->comm = comm;
    b->o = o;
    MPI_Comm_rank(comm, &b->rank);
    MPI_Comm_size(comm, &b->procs);
    MPI_Type_get_extent(o->type, &lb, &b->extent);
    b->count = count;
    b->sbytes = (size_t)count * (size_t)b->extent * (size_t)(b->c->sblocks_p ? b->procs : 1);
    b->rbytes = (size_t)count * (size_t)b->extent * (size_t)(b->c->rblocks_p ? b->procs : 1);
    b->s = eb_calloc(b->sbytes + 1, 1);
    b->r = eb_calloc(b->rbytes + 1, 1);
    b->rcounts = eb_calloc((size_t)b->procs, sizeof *b->rcounts);
    for (int k = 0; k < b->procs; k++)
        b->rcounts[k] = (int)count;
    b->peer = b->rank == o->pingpong[0] ? o->pingpong[1]
            : b->rank == o->pingpong[1] ? o->pingpong[0] : -1;
    int bcast = b->c->kind == K_COLL && b->c->call == EB_CALL_BCAST;
    b->a = (eb_coll_args){.sbuf = b->s, .rbuf = bcast ? b->s : b->r, .count = count,
                          .type = o->type, .op = o->op, .rcounts = b->rcounts,
                          .root = o->root, .input = b->s};
    b->mock = o->module[call];
    b->ma = (eb_mockup_args){.sbuf = b->s, .rbuf = bcast ? b->s : b->r, .count = (int)count,
                             .type = o->type, .op = o->op, .root = o->root};
    return b;
}

void rp_bufs_free(rp_bufs *b)
{
    if (!b)
        return;
    free(b->s);
    free(b->r);
    free(b->rcounts);
    free(b);
}

static void pingpong(rp_bufs *b)
{
    int n = (int)b->count, p = b->peer, first = b->rank == b->o->pingpong[0];
    MPI_Datatype t = b->o->type;
    MPI_Request rq[2];
    if (p < 0)
        return;
    switch (b->c->kind) {
    case K_PP_SEND_RECV:
        if (first) {
            MPI_Send(b->s, n, t, p, RP_TAG, b->comm);
            MPI_Recv(b->r, n, t, p, RP_TAG, b->comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b->r, n, t, p, RP_TAG, b->comm, MPI_STATUS_IGNORE);
            MPI_Send(b->s, n, t, p, RP_TAG, b->comm);
        }
        break;
    case K_PP_SENDRECV:
        MPI_Sendrecv(b->s, n, t, p, RP_TAG, b->r, n, t, p, RP_TAG, b->comm, MPI_STATUS_IGNORE);
        break;
    case K_PP_ISEND_RECV:
        MPI_Isend(b->s, n, t, p, RP_TAG, b->comm, &rq[0]);
        MPI_Recv(b->r, n, t, p, RP_TAG, b->comm, MPI_STATUS_IGNORE);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        break;
    case K_PP_ISEND_IRECV:
        MPI_Isend(b->s, n, t, p, RP_TAG, b->comm, &rq[0]);
        MPI_Irecv(b->r, n, t, p, RP_TAG, b->comm, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        break;
    default: /* K_PP_SEND_IRECV */
        MPI_Irecv(b->r, n, t, p, RP_TAG, b->comm, &rq[0]);
        MPI_Send(b->s, n, t, p, RP_TAG, b->comm);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        break;
    }
}

void rp_call_run(rp_bufs *b)
{
    if (b->mock) {
        b->mock->run(&b->ma, b->comm);
        return;
    }
    switch (b->c->kind) {
    case K_COLL:
        eb_coll_forms_of(b->c->call)->call(&b->a, b->comm);
        break;
    case K_SCAN:
        MPI_Scan(b->s, b->r, (int)b->count, b->o->type, b->o->op, b->comm);
        break;
    case K_EXSCAN:
        MPI_Exscan(b->s, b->r, (int)b->count, b->o->type, b->o->op, b->comm);
        break;
    default:
        pingpong(b);
    }
}

/* ---------------- -check ---------------- */

/* Rank r's input element i of a reduction: 1 or 2 in the job's type. */
static void reduction_input(const rp_bufs *b, int r, void *buf, long n, long first)
{
    MPI_Datatype t = b->o->type;
    for (long i = 0; i < n; i++) {
        int v = 1 + (int)((r + first + i) % 2);
        if (t == MPI_INT)
            ((int *)buf)[i] = v;
        else if (t == MPI_FLOAT)
            ((float *)buf)[i] = (float)v;
        else if (t == MPI_DOUBLE)
            ((double *)buf)[i] = v;
        else
            ((unsigned char *)buf)[i] = (unsigned char)v;
    }
}

/* The reduction over ranks lo..hi of elements first..first+n-1, into out. */
static void expected(const rp_bufs *b, int lo, int hi, long n, long first, void *out)
{
    void *in = eb_calloc((size_t)n + 1, (size_t)b->extent);
    reduction_input(b, lo, out, n, first);
    for (int r = lo + 1; r <= hi; r++) {
        reduction_input(b, r, in, n, first);
        MPI_Reduce_local(in, out, (int)n, b->o->type, b->o->op);
    }
    free(in);
}

static long differ(const void *got, const void *want, size_t bytes)
{
    long d = 0;
    for (size_t i = 0; i < bytes; i++)
        d += ((const unsigned char *)got)[i] != ((const unsigned char *)want)[i];
    return d;
}

/* Defects of a reduction's result on this rank (none where it gets none). */
static long check_reduction(rp_bufs *b)
{
    eb_coll_mpi_call call = b->c->call;
    int k = b->c->kind, me = b->rank, last = b->procs - 1;
    long n = b->count, first = 0;
    if (k == K_EXSCAN && me == 0)
        return 0; /* undefined on rank 0 */
    if (k == K_COLL && call == EB_CALL_REDUCE && me != b->o->root)
        return 0;
    if (k == K_COLL && (call == EB_CALL_REDUCE_SCATTER || call == EB_CALL_REDUCE_SCATTER_BLOCK))
        first = (long)me * n;
    int hi = k == K_SCAN ? me : k == K_EXSCAN ? me - 1 : last;
    void *want = eb_calloc((size_t)n + 1, (size_t)b->extent);
    expected(b, 0, hi, n, first, want);
    long d = differ(b->r, want, (size_t)n * (size_t)b->extent);
    free(want);
    return d;
}

static int is_reduction(const rp_bufs *b)
{
    eb_coll_mpi_call c = b->c->call;
    return b->c->kind == K_SCAN || b->c->kind == K_EXSCAN ||
           (b->c->kind == K_COLL && (c == EB_CALL_ALLREDUCE || c == EB_CALL_REDUCE ||
                                     c == EB_CALL_REDUCE_SCATTER ||
                                     c == EB_CALL_REDUCE_SCATTER_BLOCK));
}

/* Fill the send side: a reduction's inputs or the rank's byte pattern
 * (block j of a scatter or an all-to-all at pattern offset j * block). */
static void fill(rp_bufs *b)
{
    memset(b->r, EB_POISON_BYTE, b->rbytes);
    if (is_reduction(b)) {
        long n = (long)(b->sbytes / (size_t)b->extent);
        reduction_input(b, b->rank, b->s, n, 0);
        return;
    }
    if (b->c->kind == K_COLL && b->c->call == EB_CALL_BCAST && b->rank != b->o->root)
        memset(b->s, EB_POISON_BYTE, b->sbytes);
    else
        eb_fill_pattern(b->s, b->sbytes, b->rank, 0);
}

/* Defects of a move: each received block against its sender's pattern. */
static long check_move(rp_bufs *b)
{
    size_t blk = (size_t)b->count * (size_t)b->extent;
    int root = b->o->root, me = b->rank;
    if (b->c->kind >= K_PP_SEND_RECV)
        return b->peer < 0 ? 0 : eb_check_pattern(b->r, blk, b->peer, 0);
    long d = 0;
    switch (b->c->call) {
    case EB_CALL_BCAST:
        return eb_check_pattern(b->s, blk, root, 0);
    case EB_CALL_SCATTER:
        return eb_check_pattern(b->r, blk, root, (size_t)me * blk);
    case EB_CALL_GATHER:
        if (me != root)
            return 0;
        /* fall through */
    case EB_CALL_ALLGATHER:
        for (int j = 0; j < b->procs; j++)
            d += eb_check_pattern(b->r + (size_t)j * blk, blk, j, 0);
        return d;
    case EB_CALL_ALLTOALL:
        for (int j = 0; j < b->procs; j++)
            d += eb_check_pattern(b->r + (size_t)j * blk, blk, j, (size_t)me * blk);
        return d;
    default: /* the barrier moves nothing */
        return 0;
    }
}

long rp_call_check(rp_bufs *b)
{
    fill(b);
    MPI_Barrier(b->comm);
    rp_call_run(b);
    long d = is_reduction(b) ? check_reduction(b) : check_move(b);
    memset(b->s, 0, b->sbytes); /* the timed calls' data, as ReproMPI's (zeros) */
    memset(b->r, 0, b->rbytes);
    return d;
}
