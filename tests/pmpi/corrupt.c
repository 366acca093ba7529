/* A PMPI interposition library for the tests: it counts the data a rank
 * receives as benchmark data and flips one byte of the N-th, so the tests
 * can show that -check finds a corrupted message and that nothing else
 * reports one.  Load it with LD_PRELOAD.
 *
 *   EFFBENCH_CORRUPT_RANK=r        the world rank that counts (default 0)
 *   EFFBENCH_CORRUPT_AT=n          flip byte 0 of its n-th counted buffer (1-based)
 *   EFFBENCH_CORRUPT_COUNT_FILE=f  write the count to f at MPI_Finalize
 *   EFFBENCH_CORRUPT_INT=1         count messages of MPI_INT too (IMB-MT's -check)
 *   EFFBENCH_CORRUPT_BYTE=k        MPI_Recv_c (MPI-4 large counts): flip byte k
 *   EFFBENCH_CORRUPT_DERIVED=1     count messages of derived datatypes too (IMB-MPI1's
 *                                  -contig_type layouts)
 *   EFFBENCH_CORRUPT_OFFSET=k      flip byte k of the chosen buffer instead of byte 0 (a
 *                                  gap of a resized layout: a byte no call may write)
 *
 * Counted, when non-empty:
 * - messages and collective results of MPI_BYTE or MPI_FLOAT: MPI_Recv,
 *   MPI_Sendrecv, MPI_Irecv and the nonblocking collectives (all of IMB-NBC's)
 *   completed by MPI_Wait / MPI_Waitall / MPI_Test, the MPI-4 persistent
 *   collectives of IMB-MPI4 (their *_init, at every completion of the
 *   started request until MPI_Request_free), and the blocking
 *   collectives that deliver data (Bcast to non-roots, Reduce at the root,
 *   Allreduce, Gather(v) at the root, Allgather(v), Scatter(v), Alltoall(v),
 *   Reduce_scatter(_block), Scan) and MPI_Reduce_local's in-out buffer;
 * - one-sided transfers this rank originates (MPI_BYTE, MPI_FLOAT, MPI_INT,
 *   MPI_CHAR: OSU's),
 *   counted when issued.  Put-like (MPI_Put, MPI_Accumulate): the chosen one
 *   is sent from a flipped copy of the origin buffer, so the flip lands in
 *   the target window when the benchmark's synchronisation completes it.
 *   Get-like (MPI_Get, MPI_Get_accumulate, MPI_Fetch_and_op,
 *   MPI_Compare_and_swap): the result buffer is flipped right after the
 *   synchronisation that completes it (MPI_Win_fence, MPI_Win_flush(_local)
 *   (_all), MPI_Win_unlock(_all), MPI_Win_complete on that window and target);
 * - file reads of any type: MPI_File_read(_at)(_all), _read_shared,
 *   _read_ordered, the MPI_File_iread(_at)(_shared) requests completed as
 *   above, and the split collectives at their _end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long counted, target = -1;
static int active = 0, inited = 0;
static size_t flip_offset;

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
    const char *off = getenv("EFFBENCH_CORRUPT_OFFSET");
    if (off)
        flip_offset = (size_t)atol(off);
}

static int is_derived(MPI_Datatype t)
{
    int ni, na, nt, combiner;
    PMPI_Type_get_envelope(t, &ni, &na, &nt, &combiner);
    return combiner != MPI_COMBINER_NAMED;
}

static int is_data(MPI_Datatype t)
{
    static int with_int = -1, with_derived = -1;
    if (with_int < 0)
        with_int = getenv("EFFBENCH_CORRUPT_INT") != NULL;
    if (with_derived < 0)
        with_derived = getenv("EFFBENCH_CORRUPT_DERIVED") != NULL;
    return t == MPI_BYTE || t == MPI_FLOAT || (with_int && t == MPI_INT) ||
           (with_derived && is_derived(t));
}

/* Whether this rank counts a non-empty buffer, and whether it is the one. */
static int counts(const void *p, int count, int wanted)
{
    setup();
    return active && p && count > 0 && wanted;
}
static int chosen(void) { return ++counted == target; }
static void flip(void *p) { ((unsigned char *)p)[flip_offset] ^= 0x5A; }

/* One delivered buffer of `count` elements at p (wanted: of a counted type). */
static void deliver(void *p, int count, int wanted)
{
    if (counts(p, count, wanted) && chosen())
        flip(p);
}

static void received(void *p, int count, MPI_Datatype t) { deliver(p, count, is_data(t)); }

/* ---- requests whose completion delivers data ---- */
#define MAX_PENDING 4096
static struct {
    MPI_Request req;
    void *buf;
    int count;
} pending[MAX_PENDING];
static int npending;

static void track_if(MPI_Request req, void *buf, int count, int wanted)
{
    if (!counts(buf, count, wanted) || npending == MAX_PENDING)
        return;
    pending[npending].req = req;
    pending[npending].buf = buf;
    pending[npending].count = count;
    npending++;
}

static void track(MPI_Request req, void *buf, int count, MPI_Datatype t)
{
    track_if(req, buf, count, is_data(t));
}

/* Persistent requests deliver at every completion, until they are freed. */
#define MAX_PERSISTENT 64
static struct {
    MPI_Request req;
    void *buf;
    int count;
} persistent[MAX_PERSISTENT];
static int npersistent;

static void completed(MPI_Request req)
{
    for (int i = 0; i < npersistent; i++)
        if (persistent[i].req == req) {
            deliver(persistent[i].buf, persistent[i].count, 1);
            return;
        }
    for (int i = 0; i < npending; i++)
        if (pending[i].req == req) {
            deliver(pending[i].buf, pending[i].count, 1);
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

#ifdef EB_HAVE_MPI_SEND_C
/* MPI-4's large-count receive (messages past INT_MAX elements): the chosen
 * one gets byte EFFBENCH_CORRUPT_BYTE flipped (default 0), so a test can
 * flip one past offset 2^31. */
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype t, int src, int tag, MPI_Comm comm,
               MPI_Status *st)
{
    int rc = PMPI_Recv_c(buf, count, t, src, tag, comm, st), size = 0;
    if (counts(buf, count > 0, is_data(t)) && chosen()) {
        const char *at = getenv("EFFBENCH_CORRUPT_BYTE");
        MPI_Count byte = at ? atoll(at) : 0;
        PMPI_Type_size(t, &size);
        if (byte >= 0 && byte < count * size)
            ((unsigned char *)buf)[byte] ^= 0x5A;
    }
    return rc;
}
#endif

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

/* No communication, but its result is what Reduce_local's -check verifies. */
int MPI_Reduce_local(const void *in, void *inout, int count, MPI_Datatype t, MPI_Op op)
{
    int rc = PMPI_Reduce_local(in, inout, count, t, op);
    received(inout, count, t);
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

int MPI_Iallgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                    const int displs[], MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iallgatherv(sb, sc, st, rb, rcs, displs, rt, comm, req);
    track(*req, rb, rcs[0], rt);
    return rc;
}

int MPI_Igatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                 const int displs[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Igatherv(sb, sc, st, rb, rcs, displs, rt, root, comm, req);
    if (comm_rank(comm) == root)
        track(*req, rb, rcs[0] > 0 ? rcs[0] : 0, rt);
    return rc;
}

int MPI_Iscatterv(const void *sb, const int scs[], const int displs[], MPI_Datatype st, void *rb,
                  int rc_, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Iscatterv(sb, scs, displs, st, rb, rc_, rt, root, comm, req);
    track(*req, rb, rc_, rt);
    return rc;
}

int MPI_Ialltoallv(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb,
                   const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm comm,
                   MPI_Request *req)
{
    int rc = PMPI_Ialltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm, req);
    /* the first non-empty incoming block */
    for (int i = 0, n = comm_size(comm); i < n; i++)
        if (rcs[i] > 0) {
            int size;
            PMPI_Type_size(rt, &size);
            track(*req, (char *)rb + (size_t)rd[i] * (size_t)size, rcs[i], rt);
            break;
        }
    return rc;
}

int MPI_Ireduce_scatter(const void *sb, void *rb, const int rcs[], MPI_Datatype t, MPI_Op op,
                        MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Ireduce_scatter(sb, rb, rcs, t, op, comm, req);
    track(*req, rb, rcs[comm_rank(comm)], t);
    return rc;
}

/* ---- MPI-4 persistent collectives: counted at each completion ---- */
#if MPI_VERSION >= 4
static void keep(MPI_Request req, void *buf, int count, MPI_Datatype t)
{
    if (!counts(buf, count, is_data(t)) || npersistent == MAX_PERSISTENT)
        return;
    persistent[npersistent].req = req;
    persistent[npersistent].buf = buf;
    persistent[npersistent].count = count;
    npersistent++;
}

int MPI_Request_free(MPI_Request *req)
{
    for (int i = 0; i < npersistent; i++)
        if (persistent[i].req == *req) {
            persistent[i] = persistent[--npersistent];
            break;
        }
    return PMPI_Request_free(req);
}

int MPI_Bcast_init(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request *req)
{
    int rc = PMPI_Bcast_init(buf, count, t, root, comm, info, req);
    if (comm_rank(comm) != root)
        keep(*req, buf, count, t);
    return rc;
}

int MPI_Reduce_init(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Reduce_init(sb, rb, count, t, op, root, comm, info, req);
    if (comm_rank(comm) == root)
        keep(*req, rb, count, t);
    return rc;
}

int MPI_Allreduce_init(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Allreduce_init(sb, rb, count, t, op, comm, info, req);
    keep(*req, rb, count, t);
    return rc;
}

int MPI_Reduce_scatter_init(const void *sb, void *rb, const int rcs[], MPI_Datatype t, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Reduce_scatter_init(sb, rb, rcs, t, op, comm, info, req);
    keep(*req, rb, rcs[comm_rank(comm)], t);
    return rc;
}

int MPI_Gather_init(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                    int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Gather_init(sb, sc, st, rb, rc_, rt, root, comm, info, req);
    if (comm_rank(comm) == root)
        keep(*req, rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Gatherv_init(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                     const int displs[], MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *req)
{
    int rc = PMPI_Gatherv_init(sb, sc, st, rb, rcs, displs, rt, root, comm, info, req);
    if (comm_rank(comm) == root)
        keep(*req, rb, rcs[0] > 0 ? rcs[0] : 0, rt);
    return rc;
}

int MPI_Allgather_init(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                       MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Allgather_init(sb, sc, st, rb, rc_, rt, comm, info, req);
    keep(*req, rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Allgatherv_init(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[],
                        const int displs[], MPI_Datatype rt, MPI_Comm comm, MPI_Info info,
                        MPI_Request *req)
{
    int rc = PMPI_Allgatherv_init(sb, sc, st, rb, rcs, displs, rt, comm, info, req);
    keep(*req, rb, rcs[0], rt);
    return rc;
}

int MPI_Scatter_init(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                     int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Scatter_init(sb, sc, st, rb, rc_, rt, root, comm, info, req);
    keep(*req, rb, rc_, rt);
    return rc;
}

int MPI_Scatterv_init(const void *sb, const int scs[], const int displs[], MPI_Datatype st,
                      void *rb, int rc_, MPI_Datatype rt, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *req)
{
    int rc = PMPI_Scatterv_init(sb, scs, displs, st, rb, rc_, rt, root, comm, info, req);
    keep(*req, rb, rc_, rt);
    return rc;
}

int MPI_Alltoall_init(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                      MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Alltoall_init(sb, sc, st, rb, rc_, rt, comm, info, req);
    keep(*req, rb, rc_ * comm_size(comm), rt);
    return rc;
}

int MPI_Alltoallv_init(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb,
                       const int rcs[], const int rd[], MPI_Datatype rt, MPI_Comm comm,
                       MPI_Info info, MPI_Request *req)
{
    int rc = PMPI_Alltoallv_init(sb, scs, sd, st, rb, rcs, rd, rt, comm, info, req);
    /* the first non-empty incoming block */
    for (int i = 0, n = comm_size(comm); i < n; i++)
        if (rcs[i] > 0) {
            int size;
            PMPI_Type_size(rt, &size);
            keep(*req, (char *)rb + (size_t)rd[i] * (size_t)size, rcs[i], rt);
            break;
        }
    return rc;
}
#endif

/* ---- one-sided: counted at the origin when issued ---- */
static int is_rma_data(MPI_Datatype t) { return is_data(t) || t == MPI_INT || t == MPI_CHAR; }

/* Put-like: the chosen payload goes out from a flipped copy (kept until
 * MPI_Finalize: it must outlive the transfer's completion). */
static unsigned char *flipped_copy;

static const void *outgoing(const void *p, int count, MPI_Datatype t)
{
    if (!counts(p, count, is_rma_data(t)) || !chosen())
        return p;
    int size;
    PMPI_Type_size(t, &size);
    flipped_copy = malloc((size_t)count * (size_t)size);
    memcpy(flipped_copy, p, (size_t)count * (size_t)size);
    flip(flipped_copy);
    return flipped_copy;
}

/* Get-like: the chosen result buffer, flipped by the synchronisation that
 * completes it (one on its window, at its target or at all). */
static struct {
    void *buf;
    MPI_Win win;
    int rank;
} armed;

static void fetching(void *p, int count, MPI_Datatype t, int rank, MPI_Win win)
{
    if (counts(p, count, is_rma_data(t)) && chosen()) {
        armed.buf = p;
        armed.win = win;
        armed.rank = rank;
    }
}

static void synced(MPI_Win win, int rank)
{
    if (armed.buf && armed.win == win && (rank < 0 || rank == armed.rank)) {
        flip(armed.buf);
        armed.buf = NULL;
    }
}

int MPI_Put(const void *ob, int oc, MPI_Datatype ot, int rank, MPI_Aint disp, int tc,
            MPI_Datatype tt, MPI_Win win)
{
    return PMPI_Put(outgoing(ob, oc, ot), oc, ot, rank, disp, tc, tt, win);
}

int MPI_Accumulate(const void *ob, int oc, MPI_Datatype ot, int rank, MPI_Aint disp, int tc,
                   MPI_Datatype tt, MPI_Op op, MPI_Win win)
{
    return PMPI_Accumulate(outgoing(ob, oc, ot), oc, ot, rank, disp, tc, tt, op, win);
}

int MPI_Get(void *ob, int oc, MPI_Datatype ot, int rank, MPI_Aint disp, int tc, MPI_Datatype tt,
            MPI_Win win)
{
    fetching(ob, oc, ot, rank, win);
    return PMPI_Get(ob, oc, ot, rank, disp, tc, tt, win);
}

int MPI_Get_accumulate(const void *ob, int oc, MPI_Datatype ot, void *rb, int rc_,
                       MPI_Datatype rt, int rank, MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Op op,
                       MPI_Win win)
{
    fetching(rb, rc_, rt, rank, win);
    return PMPI_Get_accumulate(ob, oc, ot, rb, rc_, rt, rank, disp, tc, tt, op, win);
}

int MPI_Fetch_and_op(const void *ob, void *rb, MPI_Datatype t, int rank, MPI_Aint disp, MPI_Op op,
                     MPI_Win win)
{
    fetching(rb, 1, t, rank, win);
    return PMPI_Fetch_and_op(ob, rb, t, rank, disp, op, win);
}

int MPI_Compare_and_swap(const void *ob, const void *cb, void *rb, MPI_Datatype t, int rank,
                         MPI_Aint disp, MPI_Win win)
{
    fetching(rb, 1, t, rank, win);
    return PMPI_Compare_and_swap(ob, cb, rb, t, rank, disp, win);
}

int MPI_Win_fence(int assert_, MPI_Win win)
{
    int rc = PMPI_Win_fence(assert_, win);
    synced(win, -1);
    return rc;
}

int MPI_Win_complete(MPI_Win win)
{
    int rc = PMPI_Win_complete(win);
    synced(win, -1);
    return rc;
}

int MPI_Win_flush(int rank, MPI_Win win)
{
    int rc = PMPI_Win_flush(rank, win);
    synced(win, rank);
    return rc;
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
    int rc = PMPI_Win_flush_local(rank, win);
    synced(win, rank);
    return rc;
}

int MPI_Win_flush_all(MPI_Win win)
{
    int rc = PMPI_Win_flush_all(win);
    synced(win, -1);
    return rc;
}

int MPI_Win_flush_local_all(MPI_Win win)
{
    int rc = PMPI_Win_flush_local_all(win);
    synced(win, -1);
    return rc;
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
    int rc = PMPI_Win_unlock(rank, win);
    synced(win, rank);
    return rc;
}

int MPI_Win_unlock_all(MPI_Win win)
{
    int rc = PMPI_Win_unlock_all(win);
    synced(win, -1);
    return rc;
}

/* ---- file reads: any type (b_eff_io reads MPI_DOUBLE) ---- */
static int file_read(int rc, void *buf, int count)
{
    deliver(buf, count, 1);
    return rc;
}

int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    return file_read(PMPI_File_read(fh, buf, count, t, st), buf, count);
}

int MPI_File_read_at(MPI_File fh, MPI_Offset at, void *buf, int count, MPI_Datatype t,
                     MPI_Status *st)
{
    return file_read(PMPI_File_read_at(fh, at, buf, count, t, st), buf, count);
}

int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    return file_read(PMPI_File_read_all(fh, buf, count, t, st), buf, count);
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset at, void *buf, int count, MPI_Datatype t,
                         MPI_Status *st)
{
    return file_read(PMPI_File_read_at_all(fh, at, buf, count, t, st), buf, count);
}

int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    return file_read(PMPI_File_read_shared(fh, buf, count, t, st), buf, count);
}

int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype t, MPI_Status *st)
{
    return file_read(PMPI_File_read_ordered(fh, buf, count, t, st), buf, count);
}

int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype t, MPI_Request *req)
{
    int rc = PMPI_File_iread(fh, buf, count, t, req);
    track_if(*req, buf, count, 1);
    return rc;
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset at, void *buf, int count, MPI_Datatype t,
                      MPI_Request *req)
{
    int rc = PMPI_File_iread_at(fh, at, buf, count, t, req);
    track_if(*req, buf, count, 1);
    return rc;
}

int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype t, MPI_Request *req)
{
    int rc = PMPI_File_iread_shared(fh, buf, count, t, req);
    track_if(*req, buf, count, 1);
    return rc;
}

/* Split collectives: at most one is active per file; the _end delivers. */
static struct {
    void *buf;
    int count;
} split;

static int split_begin(int rc, void *buf, int count)
{
    split.buf = buf;
    split.count = count;
    return rc;
}

static int split_end(int rc, void *buf)
{
    if (buf == split.buf)
        deliver(buf, split.count, 1);
    split.buf = NULL;
    return rc;
}

int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype t)
{
    return split_begin(PMPI_File_read_all_begin(fh, buf, count, t), buf, count);
}

int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *st)
{
    return split_end(PMPI_File_read_all_end(fh, buf, st), buf);
}

int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset at, void *buf, int count, MPI_Datatype t)
{
    return split_begin(PMPI_File_read_at_all_begin(fh, at, buf, count, t), buf, count);
}

int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *st)
{
    return split_end(PMPI_File_read_at_all_end(fh, buf, st), buf);
}

int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype t)
{
    return split_begin(PMPI_File_read_ordered_begin(fh, buf, count, t), buf, count);
}

int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *st)
{
    return split_end(PMPI_File_read_ordered_end(fh, buf, st), buf);
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
    free(flipped_copy);
    return PMPI_Finalize();
}
