#include "core/own_coll.h"

#include "core/smpi_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if EB_SMPI_BUILD

/* Not b_eff's, IMB's or SKaMPI's tags, nor eb_alltoallv's.  Every message of an
 * own collective is received by its destination within the same call, before that
 * rank posts anything else: none meets a benchmark's receive, even with MPI_ANY_TAG. */
#define OWN_TAG 32766

/* No core/error here: error.c reports through these collectives. */
static void *alloc_or_abort(size_t n, MPI_Comm comm)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "effbench: error: out of memory (%zu bytes) in a collective\n", n);
        MPI_Abort(comm, 1);
    }
    return p;
}

static size_t bytes_of(int count, MPI_Datatype type)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(type, &lb, &extent);
    return (size_t)count * (size_t)extent;
}

/* acc: this rank's contribution; on return the root's acc holds the reduction
 * (a binomial tree rooted at `root`, children folded in as they arrive) */
static void tree_reduce(void *acc, int count, MPI_Datatype type, MPI_Op op, int root,
                        MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int vr = (rank - root + size) % size;
    void *in = NULL;
    for (int mask = 1; mask < size; mask <<= 1) {
        if (vr & mask) {
            MPI_Send(acc, count, type, (vr - mask + root) % size, OWN_TAG, comm);
            break;
        }
        if (vr + mask < size) {
            if (!in)
                in = alloc_or_abort(bytes_of(count, type) + 1, comm);
            MPI_Recv(in, count, type, (vr + mask + root) % size, OWN_TAG, comm,
                     MPI_STATUS_IGNORE);
            MPI_Reduce_local(in, acc, count, type, op);
        }
    }
    free(in);
}

int eb_own_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int vr = (rank - root + size) % size, mask = 1;
    for (; mask < size; mask <<= 1)
        if (vr & mask) {
            MPI_Recv(buf, count, type, (vr - mask + root) % size, OWN_TAG, comm,
                     MPI_STATUS_IGNORE);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < size)
            MPI_Send(buf, count, type, (vr + mask + root) % size, OWN_TAG, comm);
    return MPI_SUCCESS;
}

int eb_own_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t n = bytes_of(count, type);
    void *acc = rank == root ? rbuf : alloc_or_abort(n + 1, comm);
    memcpy(acc, sbuf, n);
    tree_reduce(acc, count, type, op, root, comm);
    if (acc != rbuf)
        free(acc);
    return MPI_SUCCESS;
}

int eb_own_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm)
{
    if (sbuf != MPI_IN_PLACE)
        memcpy(rbuf, sbuf, bytes_of(count, type));
    tree_reduce(rbuf, count, type, op, 0, comm);
    return eb_own_bcast(rbuf, count, type, 0, comm);
}

#else

int eb_own_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm)
{
    return MPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

int eb_own_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    return MPI_Bcast(buf, count, type, root, comm);
}

int eb_own_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm)
{
    return MPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
}

#endif

void eb_dissemination_barrier(MPI_Comm comm, int tag)
{
    int size, rank, dummy = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    for (int mask = 1; mask < size; mask <<= 1)
        MPI_Sendrecv(&dummy, 0, MPI_BYTE, (rank + mask) % size, tag, &dummy, 0, MPI_BYTE,
                     (rank - mask + size) % size, tag, comm, MPI_STATUS_IGNORE);
}
