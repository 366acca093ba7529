/* The guideline mock-ups of PGMPI (Hunold and Carpen-Amarie, "Autotuning MPI
 * Collectives using Performance Guidelines", HPC Asia 2018; ReproMPI's README
 * table): each MPI collective built from other collectives, under PGMPI's
 * names (`allreduce_as_reduce_bcast`, ...).  A mock-up computes what its
 * collective computes, on the same buffers, so a guideline ("MPI_Allreduce is
 * no slower than MPI_Reduce + MPI_Bcast") is checked by timing both.  Used by
 * ReproMPI's personality (mpibenchmark --module=allreduce=alg:NAME); kept in
 * core for any personality that checks guidelines. */
#ifndef EB_MOCKUPS_H
#define EB_MOCKUPS_H

#include "core/mockup_types.h"

#include <stddef.h>

int eb_mockup_count(void);
const eb_mockup *eb_mockup_at(int i);
/* By PGMPI's name; NULL if none. */
const eb_mockup *eb_mockup_find(const char *name);
/* Free the scratch space and the node communicators (after the last call). */
void eb_mockup_release(void);

#endif
