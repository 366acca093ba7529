/* OSU's non-blocking collectives (docs/osu/nbc.md): the osu_i* and
 * osu_ineighbor_* programs start a call of the collective table
 * (osu_coll.h, its `start` form) in OSU's overlap method (osu_nbc.c); the
 * descriptors are in osu_nbc_progs.c and osu_nhbr.c. */
#ifndef EB_OSU_NBC_H
#define EB_OSU_NBC_H

#include "osu/osu_coll.h"

/* OSU's overlap method for one size, and the checked pass of a
 * non-blocking program (start, then MPI_Wait, with each iteration's data). */
void osu_nbc_measure(osu_ctx *c, osu_row *row);
long osu_nbc_check(osu_ctx *c);

#endif
