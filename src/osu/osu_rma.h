/* OSU 7.4's one-sided programs (docs/osu/one-sided.md): the state they
 * share, the window of each row in the flavour of -w, the synchronisation
 * of -s around the program's RMA call (osu_rma_sync.c), and their text.
 *
 *   osu_rma_win.c     windows (-w), their refusal, the header and rows
 *   osu_rma_sync.c    OSU's timed loops per -s, and one checked epoch
 *   osu_rma.c         put / get latency and bandwidth, put bi-bandwidth
 *   osu_rma_atomic.c  accumulate, get_accumulate, fetch_and_op, compare_and_swap
 *
 * Two processes; rank 0 is the origin of the passive-target syncs (lock,
 * lock_all, flush, flush_local), both are origins in the active ones as
 * OSU's loops have it. */
#ifndef EB_OSU_RMA_H
#define EB_OSU_RMA_H

#include "osu/osu_rma_sync.h"
#include "osu/osu_rma_win.h"

#endif
