/* The synchronisation methods behind eb_clock_sync (core/clock.c), each
 * collective over comm; internal to core. */
#ifndef EB_CLOCK_METHODS_H
#define EB_CLOCK_METHODS_H

#include "core/clock_model.h"

#include <mpi.h>

#define EB_TAG_CLOCK_LINEAR 7700
#define EB_TAG_CLOCK_SKAMPI 7701
#define EB_TAG_CLOCK_HCA 7702
#define EB_TAG_CLOCK_CHECK 7703

/* core/clock_linear.c: rank 0 against every rank in turn.  Each sets
 * m->offset, m->t_ref (and linear m->drift from the previous estimate) and
 * this rank's uncertainty in *err. */
void eb_clock_linear(MPI_Comm comm, int rounds, eb_clock_model *m, double *err);
void eb_clock_skampi(MPI_Comm comm, int rounds, eb_clock_model *m, double *err);

/* core/clock_hca.c: hierarchical, offset and drift by a linear fit. */
void eb_clock_hca3(MPI_Comm comm, int rounds, eb_clock_model *m, double *err);
void eb_clock_hca3_2level(MPI_Comm comm, int rounds, eb_clock_model *m, double *err);

#endif
