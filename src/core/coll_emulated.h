/* Collective forms SimGrid's SMPI 3.32 lacks, run on forms it has: in SMPI
 * builds only (docs/simulation.md, "OSU"), and said in the run record and on
 * stderr.  Every other build issues the library's own calls, as before.
 *
 * Persistent collectives (eb_pcoll): SMPI has no MPI_Allreduce_init nor any
 * other MPI_*_init collective.  Emulated, the init records the arguments,
 * the start issues the matching non-blocking call (the collective table's
 * `start` form, MPI_I<call>), the wait completes it, and the free has
 * nothing left to free: how a library without persistent algorithms of its
 * own implements them (Open MPI's libnbc).  With MPI-4's calls
 * (EB_HAVE_MPI_ALLREDUCE_INIT) the same functions are MPI_<Call>_init,
 * MPI_Start, MPI_Wait and MPI_Request_free.
 *
 * Neighbourhood collectives (eb_nhbr_p2p): SMPI links
 * MPI_Dist_graph_create_adjacent and the neighbourhood calls, and aborts in
 * them ("Not yet implemented").  The caller keeps the in- and out-neighbour
 * lists it would give MPI_Dist_graph_create_adjacent, and a call is
 * point-to-point on the plain communicator, as Open MPI's coll/basic does
 * it: an MPI_Irecv from the k-th in-neighbour into block k of the receive
 * buffer, an MPI_Isend to the k-th out-neighbour (allgather: the send
 * buffer; alltoall: its block k), all posted at the start, then one
 * MPI_Waitall.  Blocks, counts and displacements as the MPI standard
 * places them for a distributed graph topology. */
#ifndef EB_COLL_EMULATED_H
#define EB_COLL_EMULATED_H

#include "core/coll_calls.h"

#include <mpi.h>

/* ---- persistent collectives ---------------------------------------------- */

typedef struct {
    eb_coll_mpi_call call;
    eb_coll_args args; /* emulated: the arguments as the init took them */
    MPI_Comm comm;
    MPI_Request req;   /* the persistent request, or the started MPI_I<call>'s */
} eb_pcoll;

/* 1 where this build runs persistent collectives as MPI_I<call> per start
 * (an SMPI build without MPI_Allreduce_init); 0 where it has MPI-4's own. */
int eb_pcoll_emulated(void);
/* The request of `call` on a's arguments (a is copied), inactive until the
 * start.  A build with neither MPI-4's calls nor the emulation aborts: its
 * runners refuse these benchmarks before they measure. */
void eb_pcoll_init(eb_pcoll *p, eb_coll_mpi_call call, const eb_coll_args *a, MPI_Comm comm);
void eb_pcoll_start(eb_pcoll *p);
void eb_pcoll_wait(eb_pcoll *p);
void eb_pcoll_free(eb_pcoll *p);
/* Where emulated: one note on stderr (rank 0) and in the run record's
 * simulation.emulated, naming the call ("persistent collectives:
 * MPI_Iallreduce per MPI_Start (SMPI 3.32 has no MPI_Allreduce_init)").
 * Call it before the run record is written.  Elsewhere nothing. */
void eb_pcoll_announce(eb_coll_mpi_call call);

/* ---- neighbourhood collectives --------------------------------------------- */

typedef struct {
    MPI_Comm comm;      /* the communicator the neighbours' ranks are of */
    int indegree, outdegree;
    int *sources, *destinations; /* copies of the caller's lists */
    MPI_Request *reqs;  /* indegree + outdegree: the call in flight */
} eb_nhbr_p2p;

/* 1 where this build emulates the neighbourhood collectives (SMPI builds). */
int eb_nhbr_emulated(void);
/* The neighbourhood of this rank of comm: who it receives from, in order,
 * and whom it sends to, as MPI_Dist_graph_create_adjacent takes them. */
eb_nhbr_p2p *eb_nhbr_p2p_new(MPI_Comm comm, int indegree, const int *sources, int outdegree,
                             const int *destinations);
void eb_nhbr_p2p_free(eb_nhbr_p2p *n);
/* Posts the messages of one neighbourhood call (EB_CALL_NEIGHBOR_*) on a's
 * arguments: the receives, then the sends. */
void eb_nhbr_p2p_start(eb_nhbr_p2p *n, eb_coll_mpi_call call, const eb_coll_args *a);
/* MPI_Waitall of the call's messages; MPI_Testall of them (progress, as
 * MPI_Test of a non-blocking collective's request). */
void eb_nhbr_p2p_wait(eb_nhbr_p2p *n);
void eb_nhbr_p2p_test(eb_nhbr_p2p *n);
/* The blocking call: start, then wait. */
void eb_nhbr_p2p_call(eb_nhbr_p2p *n, eb_coll_mpi_call call, const eb_coll_args *a);
/* Where emulated: the note, as eb_pcoll_announce ("neighbourhood collectives:
 * MPI_Neighbor_allgather as point-to-point ..."); `nonblocking`: the
 * MPI_Ineighbor_* form. */
void eb_nhbr_announce(eb_coll_mpi_call call, int nonblocking);

#endif
