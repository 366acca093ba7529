/* A PMPI interposition library for the tests of the node-aware code (the Lane
 * and Hier mock-ups of core/mockups_node.c): MPI_Get_processor_name answers
 * "fakenodeK", K = world rank / $EFFBENCH_RANKS_PER_NODE (or, with
 * $EFFBENCH_NODE_OF="0,0,1,..." , the K listed for the rank), so one machine
 * looks like several nodes.  Load it with LD_PRELOAD. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int node_of(int rank)
{
    const char *list = getenv("EFFBENCH_NODE_OF");
    if (list) {
        for (int r = 0; *list; r++) {
            if (r == rank)
                return atoi(list);
            list = strchr(list, ',');
            if (!list)
                break;
            list++;
        }
        return 0;
    }
    const char *per = getenv("EFFBENCH_RANKS_PER_NODE");
    int n = per ? atoi(per) : 1;
    return rank / (n > 0 ? n : 1);
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    *resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "fakenode%d", node_of(rank));
    return MPI_SUCCESS;
}
