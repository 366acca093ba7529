/* OSU's one-sided programs: the timed loops and the checked epoch of each -s
 * synchronisation (osu_rma_sync.c). */
#ifndef EB_OSU_RMA_SYNC_H
#define EB_OSU_RMA_SYNC_H

#include "osu/osu_rma_win.h"

/* osu_rma_sync.c ------------------------------------------------------ */

/* OSU's loop of the current size under -s: c->skip + c->iterations
 * iterations of `ops` calls; per timed iteration the seconds into t[i]
 * (rank 0; t may be NULL).  Returns rank 0's seconds from the first timed
 * iteration to the end, as OSU's t_end - t_start. */
double osu_rma_loop(osu_ctx *c, int ops, double *t);
/* One iteration of the same synchronisation, untimed (the checked pass);
 * passive syncs lock and unlock around it. */
void osu_rma_epoch(osu_ctx *c, int ops);
/* Which ranks issue calls / receive them under -s for the kind's shape. */
int osu_rma_is_origin(const osu_ctx *c);
int osu_rma_is_target(const osu_ctx *c);
/* OSU's factor of a latency: 1/2 for fence and pscw round trips. */
double osu_rma_latency_factor(const osu_ctx *c);

/* Rank 0 fills the row from its loop time (latency rows, microseconds). */
void osu_rma_latency_row(osu_ctx *c, double t, osu_row *row);

#endif
