/* A PMPI interposition library for the tests: it counts the messages and
 * collective results a rank receives as benchmark data (MPI_BYTE or
 * MPI_FLOAT, non-empty) and flips one byte of the N-th, so the tests can
 * show that -check finds a corrupted message and that nothing else reports
 * one.  Load it with LD_PRELOAD.
 *
 *   EFFBENCH_CORRUPT_RANK=r        the world rank that counts (default 0)
 *   EFFBENCH_CORRUPT_AT=n          flip byte 0 of its n-th received buffer (1-based)
 *   EFFBENCH_CORRUPT_COUNT_FILE=f  write the count to f at MPI_Finalize
 *
 * Covered: MPI_Recv, MPI_Sendrecv, MPI_Irecv and the nonblocking collectives
 * completed by MPI_Wait / MPI_Waitall / MPI_Test, and the blocking
 * collectives that deliver data (Bcast to non-roots, Reduce at the root,
 * Allreduce, Gather(v) at the root, Allgather(v), Scatter(v), Alltoall(v),
 * Reduce_scatter(_block), Scan). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long counted, target = -1;
static int active = 0, inited = 0;

static void setup(void)
{
    if (inited)
        return;
    inited = 1;
    int rank = 0, want = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *r = getenv("EFFBENCH_CORRUPT_RANK"), *at = getenv("EFFBENCH_CORRUPT_AT");
    if (r)
        want = atoi(r);
    active = rank == want;
    if (at)
        target = atol(at);
}

static int is_data(MPI_Datatype t) { return t == MPI_BYTE || t == MPI_FLOAT; }

/* One received buffer of `count` elements of type t at p. */
static void received(void *p, int count, MPI_Datatype t)
{
    setup();
    if (!active || !p || count <= 0 || !is_data(t))
        return;
    if (++counted == target)
        ((unsigned char *)p)[0] ^= 0x5A;
}

/* ---- requests whose completion delivers data ---- */
#define MAX_PENDING 4096
static struct {
    MPI_Request req;
    void *buf;
    int count;
    MPI_Datatype type;
} pending[MAX_PENDING];
static int npending;

static void track(MPI_Request req, void *buf, int count, MPI_Datatype t)
{
    setup();
    if (!active || !is_data(t) || count <= 0 || npending == MAX_PENDING)
        return;
    pending[npending].req = req;
    pending[npending].buf = buf;
    pending[npending].count = count;
    pending[npending].type = t;
    npending++;
}

static void completed(MPI_Request req)
{
    for (int i = 0; i < npending; i++)
        if (pending[i].req == req) {
            received(pending[i].buf, pending[i].count, pending[i].type);
            pending[i] = pending[--npending];
            return;
        }
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Irecv(buf, count, t, src, tag, comm, req);
    track(*req, buf, count, t);
    return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
    MPI_Request r = *req;
    int rc = PMPI_Wait(req, st);
    completed(r);
    return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
    MPI_Request copy[256];
    int k = n < 256 ? n : 256;
    memcpy(copy, reqs, (size_t)k * sizeof *copy);
    int rc = PMPI_Waitall(n, reqs, sts);
    for (int i = 0; i < k; i++)
        completed(copy[i]);
    return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    MPI_Request r = *req;
    int rc = PMPI_Test(req, flag, st);
    if (*flag)
        completed(r);
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    int rc = PMPI_Recv(buf, count, t, src, tag, comm, st);
    received(buf, count, t);
    return rc;
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st_, int dest, int stag, void *rb, int rc_,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    int rc = PMPI_Sendrecv(sb, sc, st_, dest, stag, rb, rc_, rt, src, rtag, comm, status);
    received(rb, rc_, rt);
    return rc;
}

static int comm_rank(MPI_Comm c)
{
    int r;
    PMPI_Comm_rank(c, &r);
    return r;
}

static int comm_size(MPI_Comm c)
{
    int s;
    PMPI_Comm_size(c, &s);
    return s;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    int rc = PMPI_Bcast(buf, count, t, root, comm);
    if (comm_rank(comm) != root)
        received(buf, count, t);
    return rc;
}

int MPI_Reduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm)
{
    int rc = PMPI_Reduce(sb, rb, count, t, op, root, comm);
    if (comm_rank(comm) == root)
        received(rb, count, t);
    return rc;
}

int MPI_Allreduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    int rc = PMPI_Allreduce(sb, rb, count, t, op, comm);
    received(rb, count, t);
    return rc;
}

int MPI_Scan(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    int rc = PMPI_Scan(sb, rb, count, t, op, comm);
    received(rb, count, t);
    return rc;
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root,
               MPI_Comm comm)
{
    int rc = PMPI_Gather(sb, sc, st, rb, rc_, rt, root, comm);
    if (comm_rank(comm) == root)
        received(rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int displs[],
                MPI_Datatype rt, int root, MPI_Comm comm)
{
    int rc = PMPI_Gatherv(sb, sc, st, rb, rcs, displs, rt, root, comm);
    if (comm_rank(comm) == root)
        received(rb, rcs[0] > 0 ? rcs[0] : 0, rt);
    return rc;
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                  MPI_Comm comm)
{
    int rc = PMPI_Allgather(sb, sc, st, rb, rc_, rt, comm);
    received(rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                   const int displs[], MPI_Datatype rt, MPI_Comm comm)
{
    int rc = PMPI_Allgatherv(sb, sc, st, rb, rcs, displs, rt, comm);
    received(rb, rcs[0], rt);
    return rc;
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root,
                MPI_Comm comm)
{
    int rc = PMPI_Scatter(sb, sc, st, rb, rc_, rt, root, comm);
    received(rb, rc_, rt);
    return rc;
}

int MPI_Scatterv(const void *sb, const int scs[], const int displs[], MPI_Datatype st, void *rb, int rc_,
                 MPI_Datatype rt, int root, MPI_Comm comm)
{
    int rc = PMPI_Scatterv(sb, scs, displs, st, rb, rc_, rt, root, comm);
    received(rb, rc_, rt);
    return rc;
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                 MPI_Comm comm)
{
    int rc = PMPI_Alltoall(sb, sc, st, rb, rc_, rt, comm);
    received(rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Alltoallv(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb,
                  const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm comm)
{
    int rc = PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm);
    /* the first non-empty incoming block */
    for (int i = 0, n = comm_size(comm); i < n; i++)
        if (rcs[i] > 0) {
            int size;
            PMPI_Type_size(rt, &size);
            received((char *)rb + (size_t)rd[i] * (size_t)size, rcs[i], rt);
            break;
        }
    return rc;
}

int MPI_Reduce_scatter(const void *sb, void *rb, const int rcs[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm comm)
{
    int rc = PMPI_Reduce_scatter(sb, rb, rcs, t, op, comm);
    received(rb, rcs[comm_rank(comm)], t);
    return rc;
}

int MPI_Reduce_scatter_block(const void *sb, void *rb, int rc_, MPI_Datatype t, MPI_Op op,
                             MPI_Comm comm)
{
    int rc = PMPI_Reduce_scatter_block(sb, rb, rc_, t, op, comm);
    received(rb, rc_, t);
    return rc;
}

/* Nonblocking collectives deliver at completion. */
int MPI_Ibcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ibcast(buf, count, t, root, comm, req);
    if (comm_rank(comm) != root)
        track(*req, buf, count, t);
    return rc;
}

int MPI_Iallreduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                   MPI_Request *req)
{
    int rc = PMPI_Iallreduce(sb, rb, count, t, op, comm, req);
    track(*req, rb, count, t);
    return rc;
}

int MPI_Ireduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ireduce(sb, rb, count, t, op, root, comm, req);
    if (comm_rank(comm) == root)
        track(*req, rb, count, t);
    return rc;
}

int MPI_Iallgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                   MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iallgather(sb, sc, st, rb, rc_, rt, comm, req);
    track(*req, rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Ialltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                  MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ialltoall(sb, sc, st, rb, rc_, rt, comm, req);
    track(*req, rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Igather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root,
                MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Igather(sb, sc, st, rb, rc_, rt, root, comm, req);
    if (comm_rank(comm) == root)
        track(*req, rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Iscatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root,
                 MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iscatter(sb, sc, st, rb, rc_, rt, root, comm, req);
    track(*req, rb, rc_, rt);
    return rc;
}

int MPI_Finalize(void)
{
    setup();
    const char *f = getenv("EFFBENCH_CORRUPT_COUNT_FILE");
    if (active && f) {
        FILE *out = fopen(f, "w");
        if (out) {
            fprintf(out, "%ld\n", counted);
            fclose(out);
        }
    }
    return PMPI_Finalize();
}
