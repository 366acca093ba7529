/* OSU's dummy compute for the overlap method of the non-blocking
 * collectives: CPU work for a target time, measured by the wall clock of its
 * own small chunks, with -t MPI_Test calls spread over it.  Not core's
 * cpu_exploit (IMB-NBC's): that kernel does a calibrated, fixed amount of
 * work, while OSU's compute runs until its chunks have taken the target time
 * (docs/osu/nbc.md says why that matters). */
#ifndef EB_OSU_NBC_COMPUTE_H
#define EB_OSU_NBC_COMPUTE_H

#include <mpi.h>

/* Compute for `seconds` (the rank's pure communication time): with probes
 * > 0, in `probes` parts of seconds / probes, each followed by one
 * test_call(arg), the MPI_Test of the started call (osu_coll_args.h's
 * coll_test).  Returns the seconds spent in the tests. */
double osu_nbc_compute(double seconds, int probes, void (*test_call)(void *), void *arg);

#endif
