#include "imb/io_util.h"

#include "core/error.h"
#include "core/text.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned eb_io_value(int rank, size_t i)
{
    return 10000000u * (unsigned)(1 + rank) + (unsigned)(i % 10000000u);
}

unsigned char eb_io_byte(int rank, size_t k)
{
    uint32_t v = (uint32_t)eb_io_value(rank, k / EB_IO_UNIT);
    unsigned char b[EB_IO_UNIT];
    memcpy(b, &v, sizeof b);
    return b[k % EB_IO_UNIT];
}

void eb_io_fill(void *p, size_t n, int rank, size_t off)
{
    unsigned char *q = p;
    size_t k = 0;
    /* the ragged start byte by byte, then whole ints */
    for (; k < n && (off + k) % EB_IO_UNIT; k++)
        q[k] = eb_io_byte(rank, off + k);
    for (; k + EB_IO_UNIT <= n; k += EB_IO_UNIT) {
        uint32_t v = (uint32_t)eb_io_value(rank, (off + k) / EB_IO_UNIT);
        memcpy(q + k, &v, EB_IO_UNIT);
    }
    for (; k < n; k++)
        q[k] = eb_io_byte(rank, off + k);
}

long eb_io_check(const void *p, size_t n, int rank, size_t off)
{
    const unsigned char *q = p;
    long bad = 0;
    for (size_t k = 0; k < n; k++)
        bad += q[k] != eb_io_byte(rank, off + k);
    return bad;
}

void eb_io_portion(size_t x, int np, int rank, size_t *off, size_t *len)
{
    size_t units = (x + EB_IO_UNIT - 1) / EB_IO_UNIT;
    size_t base = units / (size_t)np, extra = units % (size_t)np, r = (size_t)rank;
    size_t first = r < extra ? r * (base + 1) : r * base + extra;
    size_t count = r < extra ? base + 1 : base;
    size_t lo = first * EB_IO_UNIT, hi = (first + count) * EB_IO_UNIT;
    if (lo > x)
        lo = x;
    if (hi > x)
        hi = x;
    *off = lo;
    *len = hi - lo;
}

size_t eb_io_section(size_t x, int np, int rank, int own_file, long b, size_t *len)
{
    size_t off;
    eb_io_portion(x, np, rank, &off, len);
    return own_file ? (size_t)b * *len : (size_t)b * x + off;
}

int eb_io_file_name(char *out, size_t outlen, const char *base, int group, int rank)
{
    int n;
    if (group >= 0 && rank >= 0)
        n = snprintf(out, outlen, "%s_g%d_%d", base, group, rank);
    else if (group >= 0)
        n = snprintf(out, outlen, "%s_g%d", base, group);
    else if (rank >= 0)
        n = snprintf(out, outlen, "%s_%d", base, rank);
    else
        n = snprintf(out, outlen, "%s", base);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int eb_io_parse_hints(const char *text, const char *fname, eb_io_hints *h, char *err,
                      size_t errlen)
{
    memset(h, 0, sizeof *h);
    int line = 0, got;
    const char *p = text;
    char s[1024];
    while ((got = eb_text_line(&p, &line, s, sizeof s)) != 0) {
        if (got < 0) {
            eb_io_hints_free(h);
            return eb_err(err, errlen, "%s:%d: line too long", fname, line);
        }
        if (*s == '\0' || *s == '#')
            continue;
        char *sep = s;
        while (*sep && !isspace((unsigned char)*sep))
            sep++;
        char *value = eb_trim(sep);
        if (*sep)
            *sep = '\0';
        if (*value == '\0') {
            eb_io_hints_free(h);
            return eb_err(err, errlen, "%s:%d: hint '%s' has no value (expected 'key value')",
                          fname, line, s);
        }
        h->key = realloc(h->key, (size_t)(h->n + 1) * sizeof *h->key);
        h->value = realloc(h->value, (size_t)(h->n + 1) * sizeof *h->value);
        if (!h->key || !h->value)
            eb_abort("out of memory");
        h->key[h->n] = eb_strdup(s);
        h->value[h->n] = eb_strdup(value);
        h->n++;
    }
    return 0;
}

void eb_io_hints_free(eb_io_hints *h)
{
    for (int i = 0; i < h->n; i++) {
        free(h->key[i]);
        free(h->value[i]);
    }
    free(h->key);
    free(h->value);
    memset(h, 0, sizeof *h);
}

/* Depth-first over the unused pieces that match at pos, backing up on a
 * dead end (tiny ragged pieces can match at more than one place).  Returns
 * the furthest position reached. */
static size_t tile_from(const unsigned char *block, size_t x, size_t pos, int np,
                        const unsigned char *const *piece, const size_t *len, char *used)
{
    size_t best = pos;
    for (int r = 0; r < np && best < x; r++) {
        if (used[r] || len[r] == 0 || len[r] > x - pos || memcmp(block + pos, piece[r], len[r]))
            continue;
        used[r] = 1;
        size_t got = tile_from(block, x, pos + len[r], np, piece, len, used);
        used[r] = 0;
        best = got > best ? got : best;
    }
    return best;
}

long eb_io_check_tiling(const unsigned char *block, size_t x, int np,
                        const unsigned char *const *piece, const size_t *len)
{
    char *used = eb_calloc((size_t)np, 1);
    size_t reached = tile_from(block, x, 0, np, piece, len, used);
    free(used);
    return (long)(x - reached);
}

long eb_io_check_shuffled(const unsigned char *block, size_t x, int np, const size_t *len)
{
    unsigned char *data = eb_malloc(x ? x : 1);
    const unsigned char **piece = eb_malloc((size_t)np * sizeof *piece);
    size_t at = 0;
    for (int r = 0; r < np; r++) {
        piece[r] = data + at;
        eb_io_fill(data + at, len[r], r, 0);
        at += len[r];
    }
    long bad = eb_io_check_tiling(block, x, np, piece, len);
    free(piece);
    free(data);
    return bad;
}
