/* The physical floor: the smallest MPI ping-pong loop that measures what
 * IMB's PingPong measures (two barriers, n round trips, time / n / 2).
 * Usage: pingpong_bare BYTES REPETITIONS -> prints t[usec] on rank 0. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int x = atoi(argv[1]);
    long n = atol(argv[2]);
    /* page-aligned as effbench's buffers: malloc's 16-byte offset into an
     * mmap'ed block makes large copies slower, which is not MPI's floor */
    char *s, *r;
    if (posix_memalign((void **)&s, 4096, (size_t)x + 1) || posix_memalign((void **)&r, 4096, (size_t)x + 1))
        MPI_Abort(MPI_COMM_WORLD, 1);
    /* touch every page, as effbench does, so neither side reads the
     * kernel's shared zero page */
    memset(s, 1, (size_t)x + 1);
    memset(r, 2, (size_t)x + 1);
    for (int warm = 0; warm < 2; warm++) { /* as effbench: warm-up, then time */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < n; i++) {
            if (rank == 0) {
                MPI_Send(s, x, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(r, x, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(r, x, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(s, x, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        double t = (MPI_Wtime() - t0) / (double)n / 2 * 1e6;
        if (warm == 1 && rank == 0)
            printf("%.4f\n", t);
    }
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
