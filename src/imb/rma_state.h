/* IMB-RMA's state of one message length (ctx->priv): the window with its
 * sections (one, or -off_cache's) and the origin's local areas, how each pattern prepares
 * them, and the presets and checks of -check.  Shared by the patterns
 * (rma.c) and Truly_passive_put (rma_passive.c). */
#ifndef EB_IMB_RMA_STATE_H
#define EB_IMB_RMA_STATE_H

#include "imb/driver/bench.h"
#include "imb/rma_win.h"

#include <mpi.h>
#include <stddef.h>

typedef struct {
    eb_rma_win w;
} eb_rma_state;

static inline eb_rma_state *rma_st(const eb_ctx *c) { return c->priv; }
static inline MPI_Win rma_window(const eb_ctx *c) { return rma_st(c)->w.win; }
static inline long rma_sec(const eb_ctx *c, long i) { return i % rma_st(c)->w.nsec; }
/* Transfer i's section: its byte offset, in the window and in the local area. */
static inline size_t rma_off(const eb_ctx *c, long i)
{
    return eb_rma_section_offset(i, rma_st(c)->w.nsec, rma_st(c)->w.stride);
}
static inline char *rma_win_sec(const eb_ctx *c, long i)
{
    return rma_st(c)->w.mem + rma_off(c, i);
}
static inline char *rma_loc_sec(const eb_ctx *c, long i)
{
    return rma_st(c)->w.local + rma_off(c, i);
}
static inline MPI_Aint rma_disp(const eb_ctx *c, long i) { return (MPI_Aint)rma_off(c, i); }
/* A second local area of the same geometry (results of get_accumulate,
 * fetch_and_op, compare_and_swap). */
static inline char *rma_res_sec(const eb_ctx *c, long i)
{
    return rma_st(c)->w.local + rma_st(c)->w.local_bytes / 2 + rma_off(c, i);
}

/* The driver's send / receive buffers are unused: windows hold the data. */
void eb_rma_no_extents(size_t x, int np, size_t *s_len, size_t *r_len);
void eb_rma_release(eb_ctx *c);

/* The prepare hooks of the patterns: single transfer (bytes), reductions
 * (floats), Compare_and_swap (ints), one / all to all puts and gets,
 * Exchange. */
int eb_rma_prepare_single(eb_ctx *c);
int eb_rma_prepare_float(eb_ctx *c);
int eb_rma_prepare_cas(eb_ctx *c);
int eb_rma_prepare_put_all(eb_ctx *c);
int eb_rma_prepare_get_all(eb_ctx *c);
int eb_rma_prepare_exchange(eb_ctx *c);

/* Poison / check bytes of this rank's own window under a self-lock. */
void eb_rma_poison_own(eb_ctx *c, void *p, size_t n);
long eb_rma_check_own(eb_ctx *c, const void *p, size_t n, int from, size_t off);

/* Single transfer (rank 0 the origin, rank 1 the target; both if bidir):
 * the preset before and the check after checked repetition i. */
void eb_rma_preset_put(eb_ctx *c, long i, int bidir);
void eb_rma_preset_get(eb_ctx *c, long i, int bidir);
long eb_rma_check_put(eb_ctx *c, long i, int bidir);
long eb_rma_check_get(eb_ctx *c, long i, int bidir);

#endif
