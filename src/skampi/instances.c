#include "skampi/instances.h"

/* Figure 2's numbers, where its extracted text is garbled read as
 * docs/skampi.md explains (ping-pong 1-8 and 34; memcpy moved to 32 because
 * 24 is MPI_Wtime); 47 and 48 are effbench's, numbers Figure 2 leaves free. */
static const sk_instance table[] = {
    {1, SK_PINGPONG, "MPI_Send-MPI_Recv", 0, SK_MEM_ONE},
    {2, SK_PINGPONG, "MPI_Send-MPI_Recv(MPI_ANY_TAG)", 0, SK_MEM_ONE},
    {3, SK_PINGPONG, "MPI_Send-MPI_Irecv", 0, SK_MEM_ONE},
    {4, SK_PINGPONG, "MPI_Send-MPI_Iprobe-MPI_Recv", 0, SK_MEM_ONE},
    {5, SK_PINGPONG, "MPI_Ssend-MPI_Recv", 0, SK_MEM_ONE},
    {6, SK_PINGPONG, "MPI_Isend-MPI_Recv", 0, SK_MEM_ONE},
    {7, SK_PINGPONG, "MPI_Bsend-MPI_Recv", 0, SK_MEM_ONE},
    {8, SK_PINGPONG, "MPI_Sendrecv", 0, SK_MEM_ONE},
    {34, SK_PINGPONG, "MPI_Sendrecv_replace", SK_I_ONE_TYPE, SK_MEM_ONE},
    /* effbench: packing by hand against the datatypes (docs/skampi-datatypes.md) */
    {47, SK_PINGPONG, "MPI_Pack-MPI_Send-MPI_Recv-MPI_Unpack", 0, SK_MEM_ONE},
    {48, SK_PINGPONG, "copy loop-MPI_Send-MPI_Recv-copy loop", 0, SK_MEM_ONE},
    {10, SK_MASTER_WORKER, "MPI_Wait", 0, SK_MEM_P_RECV},
    {11, SK_MASTER_WORKER, "MPI_Waitany", 0, SK_MEM_P_RECV},
    {12, SK_MASTER_WORKER, "MPI_Recv(MPI_ANY_SOURCE)", 0, SK_MEM_ONE},
    {13, SK_MASTER_WORKER, "MPI_Send", 0, SK_MEM_ONE},
    {14, SK_MASTER_WORKER, "MPI_Ssend", 0, SK_MEM_ONE},
    {15, SK_MASTER_WORKER, "MPI_Isend", 0, SK_MEM_P_SEND},
    {16, SK_MASTER_WORKER, "MPI_Bsend", 0, SK_MEM_ONE},
    {17, SK_COLLECTIVE, "MPI_Issend", 0, SK_MEM_ONE},
    {18, SK_COLLECTIVE, "MPI_Bcast", 0, SK_MEM_ONE},
    {19, SK_COLLECTIVE, "MPI_Barrier", SK_I_NO_BYTES, SK_MEM_ONE},
    {20, SK_COLLECTIVE, "MPI_Reduce", SK_I_REDUCE, SK_MEM_ONE},
    {21, SK_COLLECTIVE, "MPI_Alltoall", 0, SK_MEM_P_BOTH},
    {22, SK_COLLECTIVE, "MPI_Scan", SK_I_REDUCE, SK_MEM_ONE},
    {23, SK_COLLECTIVE, "MPI_Comm_split", SK_I_NO_BYTES, SK_MEM_ONE},
    {32, SK_COLLECTIVE, "memcpy", 0, SK_MEM_ONE},
    {33, SK_COLLECTIVE, "MPI_Gather", 0, SK_MEM_P_RECV},
    {35, SK_COLLECTIVE, "MPI_Scatter", 0, SK_MEM_P_SEND},
    {36, SK_COLLECTIVE, "MPI_Allreduce", SK_I_REDUCE, SK_MEM_ONE},
    {37, SK_COLLECTIVE, "MPI_Reduce-MPI_Bcast", SK_I_REDUCE, SK_MEM_ONE},
    {38, SK_COLLECTIVE, "MPI_Reduce_scatter", SK_I_REDUCE, SK_MEM_P_SEND},
    {39, SK_COLLECTIVE, "MPI_Allgather", 0, SK_MEM_P_RECV},
    {40, SK_COLLECTIVE, "MPI_Scatterv", 0, SK_MEM_P_SEND},
    {41, SK_COLLECTIVE, "MPI_Gatherv", 0, SK_MEM_P_RECV},
    {42, SK_COLLECTIVE, "MPI_Allgatherv", 0, SK_MEM_P_RECV},
    {43, SK_COLLECTIVE, "MPI_Alltoallv", 0, SK_MEM_P_BOTH},
    {44, SK_COLLECTIVE, "MPI_Reduce-MPI_Scatterv", SK_I_REDUCE, SK_MEM_P_BOTH},
    {45, SK_COLLECTIVE, "Gatherv by MPI_Send-MPI_Recv", 0, SK_MEM_P_RECV},
    {46, SK_COLLECTIVE, "Gatherv by MPI_Isend-MPI_Irecv-MPI_Waitall", 0, SK_MEM_P_RECV},
    {24, SK_SIMPLE, "MPI_Wtime", SK_I_NO_BYTES, SK_MEM_ONE},
    {25, SK_SIMPLE, "MPI_Comm_rank", SK_I_NO_BYTES, SK_MEM_ONE},
    {26, SK_SIMPLE, "MPI_Comm_size", SK_I_NO_BYTES, SK_MEM_ONE},
    {27, SK_SIMPLE, "MPI_Iprobe (unsuccessful)", SK_I_NO_BYTES, SK_MEM_ONE},
    {28, SK_SIMPLE, "MPI_Buffer_attach", SK_I_NO_BYTES, SK_MEM_ONE},
};

const sk_instance *sk_instance_find(int type)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].type == type)
            return &table[i];
    return 0;
}

const char *sk_pattern_name(enum sk_pattern p)
{
    switch (p) {
    case SK_PINGPONG: return "ping-pong";
    case SK_COLLECTIVE: return "collective";
    case SK_MASTER_WORKER: return "master-worker";
    case SK_SIMPLE: return "simple";
    }
    return "?";
}

void sk_instance_memory(const sk_instance *in, double m, int p, double *send, double *recv)
{
    double pm = m * (p > 0 ? p : 1);
    switch (in->mem) {
    case SK_MEM_ONE: *send = m; *recv = m; break;
    case SK_MEM_P_RECV: *send = m; *recv = pm; break;
    case SK_MEM_P_SEND: *send = pm; *recv = m; break;
    case SK_MEM_P_BOTH: *send = pm; *recv = pm; break;
    case SK_MEM_P_SEND_ONE_RECV: *send = pm; *recv = m; break;
    }
}
