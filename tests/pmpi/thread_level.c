/* A PMPI interposition library for the tests of the threaded programs
 * (IMB-MT, osu_latency_mt): it makes the MPI library grant at most the
 * thread level in $EFFBENCH_GRANT_THREAD_LEVEL (single, funneled,
 * serialized), as a library without thread support would.  Load it with
 * LD_PRELOAD. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int cap(int provided)
{
    const char *s = getenv("EFFBENCH_GRANT_THREAD_LEVEL");
    int level = !s ? provided
                : !strcmp(s, "single") ? MPI_THREAD_SINGLE
                : !strcmp(s, "funneled") ? MPI_THREAD_FUNNELED
                : !strcmp(s, "serialized") ? MPI_THREAD_SERIALIZED : provided;
    return level < provided ? level : provided;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    *provided = cap(*provided);
    return rc;
}

int MPI_Query_thread(int *provided)
{
    int rc = PMPI_Query_thread(provided);
    *provided = cap(*provided);
    return rc;
}
