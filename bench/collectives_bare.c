/* The floor for IMB-MPI1's collectives: the smallest loops that measure what
 * Allreduce, Bcast and Alltoall measure (two barriers, n calls, the time per
 * call averaged over the ranks = t_avg).  Same arguments as effbench: float
 * sums of X/4 items, Bcast from root i % np (out of the root's send buffer),
 * Alltoall X to and from every rank.
 * Usage: collectives_bare BYTES REPETITIONS -> prints
 * "allreduce bcast alltoall" t_avg[usec] on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double t_avg(double t)
{
    int np;
    double sum;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return sum / np;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc != 3) {
        if (rank == 0)
            fprintf(stderr, "usage: collectives_bare BYTES REPETITIONS\n");
        MPI_Finalize();
        return 2;
    }
    int x = atoi(argv[1]);
    long n = atol(argv[2]);
    size_t big = (size_t)np * (size_t)x + 64;
    char *s = malloc(big), *r = malloc(big);
    /* touch every page, as effbench does, and send the same data: small
     * integer floats (effbench's reduction pattern), receive area poisoned */
    for (size_t k = 0; k < big / sizeof(float); k++)
        ((float *)s)[k] = (float)(rank % 7 + 1 + (int)(k % 13));
    memset(r, 0xA5, big);
    double res[3];
    for (int op = 0; op < 3; op++) {
        for (int pass = 0; pass < 2; pass++) { /* warm-up, then time */
            long reps = pass ? n : 2;
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (long i = 0; i < reps; i++) {
                if (op == 0) {
                    MPI_Allreduce(s, r, x / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                } else if (op == 1) {
                    int root = (int)(i % np);
                    MPI_Bcast(rank == root ? s : r, x, MPI_BYTE, root, MPI_COMM_WORLD);
                } else {
                    MPI_Alltoall(s, x, MPI_BYTE, r, x, MPI_BYTE, MPI_COMM_WORLD);
                }
            }
            double t = (MPI_Wtime() - t0) / (double)reps * 1e6;
            if (pass)
                res[op] = t_avg(t);
        }
    }
    if (rank == 0)
        printf("%.4f %.4f %.4f\n", res[0], res[1], res[2]);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
