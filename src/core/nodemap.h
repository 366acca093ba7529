/* Which ranks share a node: every rank learns the node of every rank of a
 * communicator (from the processor name), so a pair of ranks can say whether
 * it measured within one node or across the network.  Memory is O(P) per
 * rank (a 64-bit hash per rank); node names are kept on rank 0 only. */
#ifndef EB_NODEMAP_H
#define EB_NODEMAP_H

#include <mpi.h>

typedef struct {
    int size;        /* ranks of the communicator */
    int nnodes;      /* distinct nodes, numbered in order of their lowest rank */
    int *node_of;    /* [size]: node of every rank */
    int *leader;     /* [nnodes]: lowest rank on each node */
    int *count;      /* [nnodes]: ranks on each node */
    char **name;     /* [nnodes]: node names, on rank 0 of the communicator only */
} eb_nodemap;

/* Collective over comm. */
void eb_nodemap_build(eb_nodemap *m, MPI_Comm comm);
void eb_nodemap_free(eb_nodemap *m);

/* The map of MPI_COMM_WORLD, built once: main() builds it on every rank
 * right after MPI_Init, so later calls are local. */
const eb_nodemap *eb_world_nodes(void);

/* "intra" when world ranks a and b share a node, else "inter". */
const char *eb_link_label(int a, int b);

#endif
