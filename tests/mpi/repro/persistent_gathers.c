/* A library check, not effbench code: do MPI-4's persistent MPI_Gather_init,
 * MPI_Allgather_init and MPI_Scatter_init requests send the buffer's contents at
 * each MPI_Start, not those of an earlier start?  Every start fills the send
 * buffer with a value of its own, and the receivers check the first byte of every
 * block.  Prints "<call>: N wrong blocks" for each call; exit status 1 when any
 * block is wrong.  tests/mpi/test_libraries.py builds it with each library's
 * mpicc (docs/mpi-libraries.md, "Library bugs"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 4, STARTS = 5 };

/* The byte rank `from` sends in start `start`. */
static char expected(int start, int from) { return (char)('a' + start + 3 * from); }

static int check(const char *recv, int blocks, int start, int from_rank_of_block)
{
    int wrong = 0;
    for (int b = 0; b < blocks; b++) {
        int from = from_rank_of_block < 0 ? b : from_rank_of_block;
        wrong += recv[(size_t)b * BLOCK] != expected(start, from);
    }
    return wrong;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *send = malloc((size_t)BLOCK * size), *recv = malloc((size_t)BLOCK * size);
    const char *names[] = {"MPI_Gather_init", "MPI_Allgather_init", "MPI_Scatter_init"};
    int any = 0;
    for (int call = 0; call < 3; call++) {
        MPI_Request req;
        if (call == 0)
            MPI_Gather_init(send, BLOCK, MPI_CHAR, recv, BLOCK, MPI_CHAR, 0, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &req);
        else if (call == 1)
            MPI_Allgather_init(send, BLOCK, MPI_CHAR, recv, BLOCK, MPI_CHAR, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &req);
        else
            MPI_Scatter_init(send, BLOCK, MPI_CHAR, recv, BLOCK, MPI_CHAR, 0, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req);
        int wrong = 0;
        for (int start = 0; start < STARTS; start++) {
            /* scatter: the root's block b goes to rank b; the others: one block of our own */
            for (int b = 0; b < size; b++)
                memset(send + (size_t)b * BLOCK, expected(start, call == 2 ? b : rank), BLOCK);
            memset(recv, 0, (size_t)BLOCK * size);
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (call == 0 && rank == 0)
                wrong += check(recv, size, start, -1);
            else if (call == 1)
                wrong += check(recv, size, start, -1);
            else if (call == 2)
                wrong += check(recv, 1, start, rank);
        }
        MPI_Request_free(&req);
        int total = 0;
        MPI_Reduce(&wrong, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s: %d wrong blocks\n", names[call], total);
        any |= total != 0;
    }
    MPI_Bcast(&any, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(send);
    free(recv);
    MPI_Finalize();
    return any;
}
