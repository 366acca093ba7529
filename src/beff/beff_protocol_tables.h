/* The b_eff protocol's analysis sections (beff_protocol_tables.c). */
#ifndef EB_BEFF_PROTOCOL_TABLES_H
#define EB_BEFF_PROTOCOL_TABLES_H

#include "beff/beff_run.h"

#include <math.h>
#include <stdio.h>

/* A value not measured counts as 0 in the original's sums. */
static inline double beff_zero_nan(double v) { return isnan(v) ? 0.0 : v; }

/* SECTION-BY-METHODS, -BY-REPETITIONS, -BY-MTHD-MSGLNG, -BY-MSGLNG and
 * -BY-PATTERN-MSGLNG, in this order. */
void beff_protocol_tables(FILE *f, const beff_run *r);

#endif
