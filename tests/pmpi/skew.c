/* A PMPI interposition library for the clock synchronisation tests
 * (tests/mpi/test_clock_sync.py, docs/clock-sync.md): it shifts and skews
 * each process's clock underneath MPI_Wtime.  Load it with LD_PRELOAD.
 *   EFFBENCH_SKEW_OFFSET_MS=o0,o1,...   world rank r's clock runs o_r ms ahead
 *   EFFBENCH_SKEW_DRIFT_PPM=d0,d1,...   and gains d_r ppm (negative: loses)
 * (the numbers separated by commas or colons: srun's --export takes no commas in a value)
 * A rank beyond a list gets 0.  World rank 0 prints T0 (below) to stderr.  MPI_Wtime returns
 *   t + o_r + d_r (t - T0)
 * with t the machine's CLOCK_MONOTONIC in seconds (one clock for every
 * process of a machine, where Open MPI 4.1's MPI_Wtime counts from each
 * process's first call) and T0 world rank 0's t at MPI_Init (broadcast
 * there), so rank r's clock minus rank 0's is exactly
 * (o_r - o_0) + (d_r - d_0)(t - T0). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double offset_s, drift, t0;

/* The rank-th number of a comma-separated list, 0 where there is none. */
static double nth(const char *list, int rank)
{
    if (!list)
        return 0;
    const char *p = list;
    for (int i = 0; i < rank; i++) {
        p = strpbrk(p, ",:");
        if (!p)
            return 0;
        p++;
    }
    return atof(p);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void setup(void)
{
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    offset_s = 1e-3 * nth(getenv("EFFBENCH_SKEW_OFFSET_MS"), rank);
    drift = 1e-6 * nth(getenv("EFFBENCH_SKEW_DRIFT_PPM"), rank);
    t0 = now();
    PMPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) /* the tests compute the true offsets from it */
        fprintf(stderr, "effbench skew: t0 %.9f\n", t0);
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        setup();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        setup();
    return rc;
}

double MPI_Wtime(void)
{
    double t = now();
    return t + offset_s + drift * (t - t0);
}
