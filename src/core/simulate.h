/* Simulation mode: effbench run by SimGrid's SMPI on a simulated platform
 * (docs/simulation.md).
 *
 * Compile time: an SMPI build (smpicc) is recognised by SMPI's own macro
 * SMPI_SHARED_MALLOC in its mpi.h; every other build compiles the plain
 * versions below and behaves exactly as before.  Run time: an SMPI build is
 * in simulation mode unless EFFBENCH_SIM_MODE=off (then it runs as an
 * ordinary MPI program inside SMPI: real copies, -check allowed, the CPU time
 * between MPI calls simulated as SMPI does by default).
 *
 * In simulation mode:
 * - message buffers come from SMPI's shared allocation (SMPI_SHARED_MALLOC):
 *   every rank maps the same few pages, and SMPI moves no payload;
 * - the CPU time between MPI calls is not injected into the simulated clock
 *   (smpi/simulate-computation:no, set by eb_sim_init), so the simulated
 *   times are the network's alone and the same on a busy and an idle host;
 *   the overlap benchmarks' CPU work is injected as exactly its target time;
 * - loop lengths come from simulated time (MPI_Wtime is the simulated clock)
 *   and are capped (EFFBENCH_SIM_REPS, default EB_SIM_DEFAULT_REPS): a
 *   simulated network has no noise, so longer loops cost wall time only;
 * - b_eff's Alltoallv method runs MPICH's algorithm (eb_alltoallv): only the
 *   non-empty blocks are messages;
 * - reductions compute nothing (eb_sim_op): the buffers hold no data;
 * - -check is refused (shared buffers hold no payload to verify);
 * - the run record says "simulated": true, with the platform and its
 *   parameters. */
#ifndef EB_SIMULATE_H
#define EB_SIMULATE_H

#include "core/json.h"
#include "core/smpi_build.h"

#include <mpi.h>
#include <stddef.h>

/* Repetitions of a loop in simulation mode unless EFFBENCH_SIM_REPS says. */
#define EB_SIM_DEFAULT_REPS 10

/* main, after every rank has rank 0's argv: decide the mode, refuse -check,
 * read EFFBENCH_SIM_* settings (a bad value: exit 2 on every rank). */
void eb_sim_init(int argc, char **argv);

/* 1 when this run is a simulation in simulation mode. */
int eb_sim_active(void);

/* In simulation mode: exit 2 on every rank, saying that `option` (a data check: -check,
 * OSU's -c) cannot run (the shared buffers hold no data).  Otherwise nothing. */
void eb_sim_refuse_check(const char *option);

/* Page-aligned message buffers: shared (no payload) in simulation mode. */
void *eb_msgbuf_alloc(size_t n);
void eb_msgbuf_free(void *p);

/* The cap of a loop's repetitions: 0 (none) outside simulation mode. */
long eb_sim_max_reps(void);
/* n, or the cap when simulation mode caps it (at least 1). */
long eb_sim_cap_loop(long n);

/* Simulation mode: advance this rank's simulated clock by `seconds` of
 * computation; returns the simulated time it took. */
double eb_sim_compute(double seconds);

/* MPI_Alltoallv, but in simulation mode as MPICH's default algorithm does it
 * ("scattered": blocks of EB_SIM_ALLTOALLV_BLOCK partners, nonblocking, a
 * message only where the count is not zero).  SMPI 3.32's own Alltoallv
 * algorithms post a message to every rank, zero bytes or not: for b_eff's
 * sparse patterns that is P^2 simulated messages instead of 2P, each with
 * a latency no real MPI pays. */
#define EB_SIM_ALLTOALLV_BLOCK 32 /* MPICH's MPIR_CVAR_ALLTOALL_THROTTLE default */
#define EB_SIM_ALLTOALLV_TAG 32767 /* not b_eff's tag 0: no match with its own messages */
int eb_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype,
                 void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                 MPI_Comm comm);

/* The operation of a reduction benchmark: op, but in simulation mode a
 * commutative operation that computes nothing.  The shared buffers hold no
 * data, and the simulated clock does not count an operation's CPU time, so
 * MPI_SUM over them would be host work for nothing: IMB Allreduce at 1024
 * ranks spent most of its time summing floats of 2 and 4 MB. */
MPI_Op eb_sim_op(MPI_Op op);

/* MPI_Comm_split(MPI_COMM_WORLD, color, key, out), except in simulation mode
 * when the caller knows that the split makes one group of every rank in rank
 * order (`whole`): then *out is MPI_COMM_WORLD itself.  SMPI 3.32 sets up
 * every new communicator with a ring Allgather over it (P^2 messages: about
 * 30 s of CPU at 1024 ranks).  Free with eb_comm_release. */
void eb_sim_split_world(int whole, int color, int key, MPI_Comm *out);
/* SMPI builds: one MPI_Allreduce on comm, so that SMPI's set-up of its SMP-aware
 * collectives (two ring Allgathers over comm, at the first MPI_Allreduce,
 * MPI_Bcast or MPI_Reduce on it) happens here and not in a timed call.  A
 * benchmark that measures one of those three calls primes its communicator
 * before timing it; effbench's own collectives never set them up (core/own_coll.h).
 * Nothing outside SMPI builds. */
void eb_sim_prime_collectives(MPI_Comm comm);
/* MPI_Comm_free unless *c is MPI_COMM_NULL or MPI_COMM_WORLD. */
void eb_comm_release(MPI_Comm *c);

/* SMPI builds: a call this run makes in place of one SMPI lacks
 * (core/coll_emulated.h), e.g. "persistent collectives: MPI_Iallreduce per
 * MPI_Start (SMPI 3.32 has no MPI_Allreduce_init)": said once on stderr by
 * rank 0 ("effbench: note: emulated in this simulation: ...") and listed in
 * the run record's simulation.emulated (absent when nothing is).  Every rank
 * calls it, before the run record is written.  Nothing outside SMPI builds. */
void eb_sim_note_emulation(const char *what);

/* The run record's "simulated" field (false outside SMPI builds' simulation
 * mode is not written, so ordinary records stay as they were) and, when
 * simulated, the "simulation" object. */
void eb_sim_json(eb_json *j);

#endif
