/* Running one suite of a .skampi file: its points, measured along the plan's
 * grid (skampi/refine.h), each reported as a row of the output file and a
 * JSON Lines `result` record, with the suite's lines in the @LOGFILE.
 * Collective over MPI_COMM_WORLD. */
#ifndef SK_SUITE_RUN_H
#define SK_SUITE_RUN_H

#include "skampi/config.h"
#include "skampi/env.h"
#include "skampi/plan.h"

#include <stdio.h>

/* Measure suite s along plan p; rank 0 writes its block to sko (NULL on
 * the other ranks). */
void sk_run_suite(sk_env *e, const sk_config *cfg, const sk_suite *s, const sk_plan *p, FILE *sko);

#endif
