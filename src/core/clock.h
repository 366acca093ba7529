/* Clocks across ranks: a model of each rank's MPI_Wtime against rank 0's
 * (offset and drift), estimated by ping-pongs, for window-synchronised
 * timing where every rank starts a repetition at an agreed global time. */
#ifndef EB_CLOCK_H
#define EB_CLOCK_H

#include <mpi.h>

typedef struct {
    double offset;  /* global - local at local time t_ref, seconds */
    double drift;   /* d(offset)/d(local time) */
    double t_ref;   /* local time of the last estimate; 0 before any */
    double error;   /* half the best round trip: the estimate's uncertainty */
} eb_clock_model;

/* Collective over comm: estimate this rank's model against comm's rank 0
 * (the global clock) with `rounds` ping-pongs per rank, keeping the one with
 * the shortest round trip.  A second call updates the drift from the change
 * of the offset since the first.  `error` ends up as the maximum over ranks. */
void eb_clock_sync(MPI_Comm comm, int rounds, eb_clock_model *m);

double eb_clock_to_global(const eb_clock_model *m, double local);
double eb_clock_to_local(const eb_clock_model *m, double global);

/* Wait until local time t (yielding the core while far from it, so
 * oversubscribed ranks can run); returns 1 if t had already passed. */
int eb_wait_until(double t);

#endif
