/* Shared machinery of the one-sided families IMB-EXT (fence epochs) and
 * IMB-RMA (passive target): the window of one message length with its
 * disjoint sections, the origin-side local buffers, and IMB's BUF_VALUE data. */
#ifndef EB_IMB_RMA_WIN_H
#define EB_IMB_RMA_WIN_H

#include "imb/driver/bench.h"

#include <mpi.h>
#include <stddef.h>

typedef struct {
    MPI_Win win;
    char *mem;          /* window memory (MPI_Alloc_mem) */
    size_t bytes;       /* window size */
    char *local;        /* origin side: put sources, get / fetch results */
    size_t local_bytes;
    long nsec;          /* disjoint sections, one per aggregated transfer */
} eb_rma_win;

/* Disjoint sections for M transfers of x bytes: n_sample (the aggregate
 * repetition count, so M * x <= max(x, OVERALL_VOL)) in aggregate mode;
 * otherwise 1 (each transfer completes before the next one starts), or with
 * -off_cache the slot count of IMB's cycling over twice the cache size. */
long eb_rma_sections(const eb_ctx *c, size_t x, int aggregate);

/* eb_rma_sections for c->aggregate, and in aggregate mode a cap on the row's
 * repetitions (c->max_reps) at that count: -iter_policy off and multiple_np
 * count repetitions without OVERALL_VOL / x, and the M transfers under one
 * completion must still go to M disjoint sections of a window within the
 * guide's memory bound. */
long eb_rma_prepare_sections(eb_ctx *c, size_t x);

/* Byte offset of the section transfer i uses: section i mod nsec of x bytes,
 * so transfers i != j below nsec never overlap and all stay in nsec * x. */
static inline size_t eb_rma_section_offset(long i, long nsec, size_t x)
{
    return (size_t)(i % nsec) * x;
}

/* Collective over c->comm: allocate and expose `bytes` of window memory
 * (MPI_Win_create, displacement unit 1) and `local_bytes` of local memory.
 * A library whose one-sided component cannot create the window gets a clear
 * message instead of MPI's stack dump. */
void eb_rma_win_create(eb_rma_win *w, const eb_ctx *c, size_t bytes, size_t local_bytes);
void eb_rma_win_free(eb_rma_win *w);

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
