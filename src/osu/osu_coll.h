/* OSU's collectives, every form (docs/osu/collectives.md, docs/osu/nbc.md):
 * the shared table of MPI collective calls (core/coll_calls.c), each written once
 * as a blocking call, a non-blocking start (MPI_I*) and (MPI-4) a
 * persistent *_init, on one argument record, so a program is a descriptor
 * row:
 *
 *   coll_prog (osu_prog + which call + OSU's synchronisation)
 *     -> osu_coll_args.c: buffers (coll_setup), counts and displacements for
 *        the size (coll_layout), one call's arguments for a root (-k) and -l
 *        (coll_args_for)
 *     -> eb_coll_forms_of(kind)->call, ->start or ->init (core/coll_calls.h)
 *     -> osu_coll_check.c: the checked pass's data, per data flow
 *
 * osu_coll_args.h holds the types every file of the family shares (the
 * descriptor, the state, a loop), below the two others: the files call
 * downwards only, args <- check <- osu_coll.c and the loops.
 *
 * The loops stay with their programs: osu_coll.c (blocking),
 * osu_coll_persistent.c (MPI_Start / MPI_Wait), osu_nbc.c (OSU's overlap
 * method for osu_i* and osu_ineighbor_*), osu_nhbr.c (the neighbourhood
 * programs on their -N topology). */
#ifndef EB_OSU_COLL_H
#define EB_OSU_COLL_H

#include "osu/osu_coll_args.h"
#include "osu/osu_coll_check.h"

/* osu_coll.c: OSU's blocking loop; the rank's average time per call in us. */
double coll_timed(osu_ctx *c, const coll_loop *loop);
/* OSU's row figures from the rank's average, and -z. */
void coll_row(osu_ctx *c, double t_us, osu_row *row);
/* The blocking programs' measure and check (also the neighbourhood's). */
void coll_blocking_measure(osu_ctx *c, osu_row *row);
long coll_blocking_check(osu_ctx *c);

/* The loop defaults and shape every OSU collective shares. */
#define COLL_PROG_COMMON                                                            \
    .bench = OSU_COLLECTIVE, .row = OSU_ROW_LATENCY, .loops = {1000, 100, 100, 10}, \
    .default_min_size = 1, .min_procs = 2, .setup = coll_setup, .teardown = coll_teardown

#endif
