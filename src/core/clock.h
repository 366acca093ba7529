/* Clocks across ranks: a model of each rank's MPI_Wtime against rank 0's
 * (offset and drift), estimated by ping-pongs, for window-synchronised
 * timing where every rank starts a repetition at an agreed global time.
 * Methods (docs/clock-sync.md): linear (rank 0 probes every rank in turn,
 * the default), skampi (SKaMPI's bounded ping-pong chain, rank 0 against
 * every rank), hca3 (Hunold and Carpen-Amarie's hierarchical algorithm:
 * O(log P) rounds, offset and drift from a linear fit) and hca3_2level
 * (hca3 over one leader per node, then hca3 inside every node). */
#ifndef EB_CLOCK_H
#define EB_CLOCK_H

#include "core/clock_model.h"

#include <mpi.h>

/* Collective over comm: estimate this rank's model against comm's rank 0
 * (the global clock) with m->method, `rounds` ping-pongs per estimate
 * (linear, skampi: per rank; hca3: per fit point), then measure the result
 * in one more round (check_max, check_error, check_self) and time it
 * (sync_s).  linear keeps the shortest of the round trips; a second call
 * updates the drift from the change of the offset since the first.  `error`
 * ends up as the maximum over ranks.  With EFFBENCH_TEST_CLOCK_TRACE set,
 * every rank prints its model and measured offset to stderr (tests). */
void eb_clock_sync(MPI_Comm comm, int rounds, eb_clock_model *m);

/* Wait until local time t (yielding the core while far from it, so
 * oversubscribed ranks can run); returns 1 if t had already passed. */
int eb_wait_until(double t);

#endif
