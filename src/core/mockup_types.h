/* The types of PGMPI's guideline mock-ups (core/mockups.h, core/mockups_node.h). */
#ifndef EB_MOCKUP_TYPES_H
#define EB_MOCKUP_TYPES_H

#include <mpi.h>

/* One call's arguments, as the collective's: count elements per block (a
 * rank's part of a gather, scatter, all-to-all or reduce-scatter).  Bcast:
 * `rbuf` is every rank's buffer.  Scratch space is the mock-up's own. */
typedef struct {
    const void *sbuf;
    void *rbuf;
    int count;
    MPI_Datatype type;
    MPI_Op op;
    int root;
} eb_mockup_args;

typedef struct {
    const char *coll;  /* the collective it stands for: "MPI_Allreduce" */
    const char *name;  /* PGMPI's name: "allreduce_as_reduce_bcast" */
    void (*run)(const eb_mockup_args *a, MPI_Comm comm);
    int regular_nodes; /* needs the same number of processes on every node (Lane) */
} eb_mockup;

#endif
