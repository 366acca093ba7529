/* effbench's own collectives: the reductions and broadcasts that effbench
 * makes for itself (times across ranks, loop lengths, decisions, options and
 * text), never the operations it measures.
 *
 * Outside SMPI builds they are MPI_Allreduce, MPI_Bcast and MPI_Reduce.  In
 * SMPI builds they are binomial trees of point-to-point messages: SMPI 3.32
 * (MPICH's selector) sets up its SMP-aware collectives at the first
 * MPI_Allreduce, MPI_Bcast or MPI_Reduce on a communicator, with two ring
 * Allgathers of P^2 messages: about 38 s of CPU at 1024 ranks, in every run,
 * whatever it measures.  A benchmark that measures one of those calls sets it
 * up beforehand, untimed (eb_sim_prime_collectives).
 *
 * The same arguments as MPI's (MPI_IN_PLACE for the send buffer of
 * eb_own_allreduce); `op` must be commutative (every built-in reduction
 * operation effbench uses is). */
#ifndef EB_OWN_COLL_H
#define EB_OWN_COLL_H

#include <mpi.h>

int eb_own_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm);
int eb_own_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
/* rbuf: significant at the root only, as MPI_Reduce's */
int eb_own_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm);

/* IMB's barrier, written once for the IMB programs that use it (IMB 2021's
 * -imb_barrier, IMB-MT's -barrier special, IMB-P2P's): ceil(log2 P) rounds of
 * zero-byte exchanges with the ranks 2^k ahead and behind, on `tag`. */
void eb_dissemination_barrier(MPI_Comm comm, int tag);

#endif
