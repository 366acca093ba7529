/* b_eff's pattern plan (beff_plan.c). */
#ifndef EB_BEFF_PLAN_H
#define EB_BEFF_PLAN_H

#include "beff/beff_run.h"

/* The patterns of r (r->P processes, r->opt's random patterns and seed) in
 * the original's order: rings, random, then the analysis patterns (with a
 * second ping-pong pair of the other kind of link where the nodes allow);
 * fills pat, npat, nring, nrandom, random_order, pingpong*, dims, messages. */
void beff_build_patterns(beff_run *r);

#endif
