/* Shared machinery of the one-sided families IMB-EXT (fence epochs) and
 * IMB-RMA (passive target): the window of one message length with its
 * disjoint sections, the origin-side local buffers, and IMB's BUF_VALUE data. */
#ifndef EB_IMB_RMA_WIN_H
#define EB_IMB_RMA_WIN_H

#include "core/device.h"
#include "imb/driver/bench.h"

#include <mpi.h>
#include <stddef.h>

typedef struct {
    MPI_Win win;
    char *mem;          /* window memory (MPI_Alloc_mem, or the seam's under IMB-RMA-GPU) */
    size_t bytes;       /* window size */
    char *local;        /* origin side: put sources, get / fetch results */
    size_t local_bytes;
    long nsec;          /* sections the repetitions cycle through */
    size_t stride;      /* bytes from one section to the next */
    /* IMB-RMA-GPU (-mem_alloc_type): mem and local in memory of this kind,
     * and their host copies, which mem and local are between
     * eb_rma_host_begin and eb_rma_host_end */
    eb_mem_kind kind;
    char *host_mem, *host_local, *dev_mem, *dev_local;
} eb_rma_win;

/* IMB's window geometry for transfers of x bytes (IMB_init_buffers_iter:
 * r_cache_iter sections r_offs apart; the window is acc_size bytes): one
 * section, which every repetition of both modes reuses, or with -off_cache
 * as many as IMB's cycling over twice the cache, min(n, ceil(2 * cache /
 * stride)) with stride = x rounded up to whole cache lines plus one line and
 * n the length's repetition base of c->aggregate's mode.  Sets *stride. */
long eb_rma_sections(const eb_ctx *c, size_t x, size_t *stride);

/* Bytes of nsec sections of x bytes `stride` apart: x for one section, else
 * nsec * stride (IMB's max(len, cache_iter * offs)). */
static inline size_t eb_rma_area(long nsec, size_t stride, size_t x)
{
    return nsec > 1 ? (size_t)nsec * stride : x;
}

/* Byte offset of the section transfer i uses: section i mod nsec. */
static inline size_t eb_rma_section_offset(long i, long nsec, size_t stride)
{
    return nsec > 1 ? (size_t)(i % nsec) * stride : 0;
}

/* Collective over c->comm: allocate and expose `bytes` of window memory
 * (MPI_Win_create, displacement unit 1) and `local_bytes` of local memory.
 * A library whose one-sided component cannot create the window gets a clear
 * message instead of MPI's stack dump. */
void eb_rma_win_create(eb_rma_win *w, const eb_ctx *c, size_t bytes, size_t local_bytes);
void eb_rma_win_free(eb_rma_win *w);

/* The set-ups and -check's presets and checks write and read the window
 * and local memory through mem and local, on the host.  In device memory
 * (IMB-RMA-GPU) those are host copies between these two calls: begin copies
 * both areas to the host, end copies them back when `written` (set-ups and
 * presets; a check reads only).  No rank's transfers may be under way (the
 * kernels end with a barrier, the presets come before one).  Host memory:
 * nothing is copied. */
void eb_rma_host_begin(eb_rma_win *w);
void eb_rma_host_end(eb_rma_win *w, int written);

/* Local stores to / loads from this process's own window memory, bracketed
 * by an exclusive lock on itself (passive target, any memory model). */
void eb_rma_self_begin(eb_rma_win *w, int rank);
void eb_rma_self_end(eb_rma_win *w, int rank);

/* IMB_settings.h: BUF_VALUE(rank,i) = 0.1*(rank+1) + (float)i, assigned to
 * float (IMB-EXT's assign_type), and the int flavour of Compare_and_swap. */
static inline float eb_buf_value(int rank, size_t i)
{
    return (float)(0.1 * (rank + 1) + (float)i);
}
static inline int eb_buf_value_int(int rank, size_t i)
{
    return 10000000 * (1 + rank) + (int)(i % 10000000);
}
/* Fill `bytes` at p with BUF_VALUE floats (a trailing partial float is
 * filled with the bytes of the next value). */
void eb_fill_buf_values(void *p, size_t bytes, int rank);
/* Bytes of p[0..bytes) differing from rank's BUF_VALUE fill. */
long eb_check_buf_values(const void *p, size_t bytes, int rank);

/* Defects of an MPI_SUM of float contributions: element j of got should be
 * sum over r in [0, nranks) of BUF_VALUE(r, j) plus init(j) (0 if !with_init,
 * else BUF_VALUE(init_rank, j)).  The order in which a library applies
 * concurrent accumulates is free, so the comparison allows the rounding
 * error bound of any summation order, nterms * FLT_EPSILON * sum |terms|;
 * with at most two terms the sum is exact in every order and so is the test. */
long eb_check_float_accumulate(const float *got, size_t count, int nranks, int with_init,
                               int init_rank);

#endif
