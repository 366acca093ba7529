/* OSU's collectives: the checked pass (osu_coll_check.c), outside the timed loops. */
#ifndef EB_OSU_COLL_CHECK_H
#define EB_OSU_COLL_CHECK_H

#include "osu/osu_coll_args.h"

/* osu_coll_check.c: iteration i's data into the send side (and poison into
 * what will be received); the defects of what arrived. */
void coll_fill(osu_ctx *c, long i);
long coll_verify(const osu_ctx *c, long i);

/* osu_coll_check.c: the checked pass, c->iterations runs of the loop's
 * operation with each iteration's data; this rank's defects. */
long coll_checked(osu_ctx *c, const coll_loop *loop);

#endif
