#include "core/buffers.h"

#include "core/error.h"
#include "core/simulate.h"

#include <stdlib.h>
#include <string.h>

void eb_buf_geometry(size_t len, long n, const eb_cache *cache, size_t *stride, long *slots)
{
    if (!cache || cache->cache_mb <= 0 || n <= 1) {
        *stride = len;
        *slots = 1;
        return;
    }
    size_t line = cache->line ? cache->line : EB_DEFAULT_CACHE_LINE;
    size_t ofs = ((len + line - 1) / line + 1) * line;
    double two_caches = 2.0 * cache->cache_mb * 1048576.0;
    double k = (two_caches + (double)ofs - 1) / (double)ofs; /* compared before the cast: */
    *stride = ofs;                                            /* -off_cache 1e300 is a value */
    *slots = k >= (double)n ? n : k < 1 ? 1 : (long)k;
}

size_t eb_buf_layout(eb_buf *b, size_t len, long n, const eb_cache *cache)
{
    size_t stride;
    long slots;
    eb_buf_geometry(len, n, cache, &stride, &slots);
    size_t need = stride * (size_t)(slots - 1) + len;
    b->len = len;
    b->stride = stride ? stride : 1;
    b->slots = slots;
    return ((need ? need : 1) + 4095) / 4096 * 4096;
}

void eb_buf_setup(eb_buf *b, size_t len, long n, const eb_cache *cache)
{
    size_t a = eb_buf_layout(b, len, n, cache);
    if (!b->base || b->alloc < a) {
        eb_msgbuf_free(b->base);
        b->base = eb_msgbuf_alloc(a);
        b->alloc = a;
    }
}

void eb_buf_free(eb_buf *b)
{
    eb_msgbuf_free(b->base);
    memset(b, 0, sizeof *b);
}

/* The pattern runs in blocks of 256 offsets: within one, byte j is the
 * block's base plus 13 * (j % 256) (eb_pattern_byte), so a fill or a check
 * is a table added to a constant, which the compiler vectorises: 2 GiB
 * messages are filled and checked in about a second. */
static void block_table(unsigned char t[256])
{
    for (unsigned k = 0; k < 256; k++)
        t[k] = (unsigned char)(k * 13u);
}

/* Bytes [j, end) of the block holding offset off + j: from j to the lesser
 * of n and the next multiple of 256 of the pattern offset. */
static size_t block_end(size_t off, size_t j, size_t n)
{
    size_t left = 256 - (off + j) % 256;
    return n - j < left ? n : j + left;
}

/* In a simulation the buffers are shared and carry no payload: nothing to
 * fill (and filling them would cost wall time only). */
void eb_fill_pattern(void *p, size_t n, int rank, size_t off)
{
    if (eb_sim_active())
        return;
    unsigned char *c = p, t[256];
    block_table(t);
    for (size_t j = 0; j < n;) {
        size_t end = block_end(off, j, n), k0 = (off + j) % 256;
        unsigned char base = (unsigned char)(eb_pattern_byte(rank, off + j) - t[k0]);
        for (size_t k = 0; k < end - j; k++)
            c[j + k] = (unsigned char)(t[k0 + k] + base);
        j = end;
    }
}

long eb_check_pattern(const void *p, size_t n, int rank, size_t off)
{
    const unsigned char *c = p;
    unsigned char t[256];
    block_table(t);
    long bad = 0;
    for (size_t j = 0; j < n;) {
        size_t end = block_end(off, j, n), k0 = (off + j) % 256;
        unsigned char base = (unsigned char)(eb_pattern_byte(rank, off + j) - t[k0]);
        unsigned block_bad = 0;
        for (size_t k = 0; k < end - j; k++)
            block_bad += c[j + k] != (unsigned char)(t[k0 + k] + base);
        bad += block_bad;
        j = end;
    }
    return bad;
}

void eb_poison(void *p, size_t n)
{
    if (!eb_sim_active())
        memset(p, EB_POISON_BYTE, n);
}

void eb_fill_floats(float *p, size_t count, int rank, size_t off)
{
    if (eb_sim_active())
        return;
    for (size_t i = 0; i < count; i++)
        p[i] = eb_pattern_float(rank, off + i);
}

long eb_check_float_sum(const float *p, size_t count, int nranks, size_t off)
{
    long bad = 0;
    for (size_t i = 0; i < count; i++) {
        float want = 0;
        for (int r = 0; r < nranks; r++)
            want += eb_pattern_float(r, off + i);
        bad += p[i] != want;
    }
    return bad;
}
