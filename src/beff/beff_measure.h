/* b_eff's measurement (beff_measure.c): every loop of a run, with what rank
 * 0 shows while it goes. */
#ifndef EB_BEFF_MEASURE_H
#define EB_BEFF_MEASURE_H

#include "beff/beff_run.h"
#include "core/progress.h"

#include <stdio.h>

/* What rank 0 shows while measuring (docs/beff.md, "Watching a long run"). */
typedef struct {
    FILE *prot;      /* the protocol file when it can be rewritten at the end, else NULL */
    eb_progress bar; /* units: measurements b(pat, L, mthd, rep) */
} beff_live;

/* prot if it is a regular file (not a pipe, a device or /dev/stdout), which
 * the whole protocol can replace at the end; else NULL. */
FILE *beff_live_protocol(FILE *prot);

/* All loops, in the order rep -> length -> pattern -> method, into r (rank
 * 0 also writes the result records).  Values read back by --resume are not
 * measured again.  Returns the wrong first/last bytes over all processes. */
long beff_measure(beff_run *r, beff_live *live);

#endif
