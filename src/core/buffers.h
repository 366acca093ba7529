/* Message buffers: aligned allocation, IMB's -off_cache cycling, and the
 * deterministic data patterns that -check verifies. */
#ifndef EB_BUFFERS_H
#define EB_BUFFERS_H

#include <stddef.h>

/* A buffer holding `slots` copies of a message extent of `len` bytes,
 * `stride` bytes apart.  Iteration i uses slot i % slots, so with -off_cache
 * consecutive messages come from different cache lines (IMB 3.1 rule). */
typedef struct {
    char *base;
    size_t len;    /* bytes of one message extent */
    size_t stride; /* distance between slots */
    long slots;
    size_t alloc;  /* bytes allocated */
} eb_buf;

typedef struct {
    double cache_mb;   /* <= 0: off-cache cycling off */
    size_t line;       /* cache line size in bytes */
} eb_cache;

/* IMB_mem_info.h defaults used for "-off_cache -1". */
#define EB_DEFAULT_CACHE_MB 32.0
#define EB_DEFAULT_CACHE_LINE 64

/* Slot geometry for a message extent of `len` bytes and up to n repetitions:
 * stride = len rounded up to whole lines plus one line; slots =
 * min(n, ceil(2 * cache / stride)). */
void eb_buf_geometry(size_t len, long n, const eb_cache *cache, size_t *stride, long *slots);

/* b's len, stride and slots for `len` bytes and `n` repetitions; returns the
 * bytes the buffer needs, in whole pages (an allocator of another memory kind
 * allocates them: imb/driver/membuf.c). */
size_t eb_buf_layout(eb_buf *b, size_t len, long n, const eb_cache *cache);
/* (Re)allocate for `len` bytes, `n` repetitions; page aligned. */
void eb_buf_setup(eb_buf *b, size_t len, long n, const eb_cache *cache);
void eb_buf_free(eb_buf *b);

static inline char *eb_buf_slot(const eb_buf *b, long i)
{
    return b->slots == 1 ? b->base : b->base + (size_t)(i % b->slots) * b->stride;
}

/* Byte j of data sent by rank `rank` (at extent offset j).  Every bit of the
 * 64-bit offset counts (the terms past bit 15 are 0 below 64 KiB), so a block
 * of a message of 2 GiB or more that lands 64 KiB, 16 MiB or 4 GiB away from
 * its place differs from the pattern there. */
static inline unsigned char eb_pattern_byte(int rank, size_t j)
{
    return (unsigned char)((unsigned)(rank + 1) * 37u + (unsigned)j * 13u + (unsigned)(j >> 8) +
                           7u * (unsigned)(j >> 16) + 11u * (unsigned)(j >> 24) +
                           5u * (unsigned)(j >> 32));
}

/* Fill n bytes at p with rank's pattern starting at pattern offset off. */
void eb_fill_pattern(void *p, size_t n, int rank, size_t off);
/* Count the bytes of p[0..n) that differ from rank's pattern at offset off. */
long eb_check_pattern(const void *p, size_t n, int rank, size_t off);

/* The value written into received buffers before a checked repetition, so a
 * message that never arrives cannot pass as correct. */
#define EB_POISON_BYTE 0xA5
void eb_poison(void *p, size_t n);

/* Float data for reductions: small integers, so sums over up to 2^20 ranks
 * are exact in single precision. */
static inline float eb_pattern_float(int rank, size_t i)
{
    return (float)((rank % 7) + 1 + (int)(i % 13));
}
void eb_fill_floats(float *p, size_t count, int rank, size_t off);
/* Count elements of p differing from the sum over ranks 0..nranks-1. */
long eb_check_float_sum(const float *p, size_t count, int nranks, size_t off);

#endif
