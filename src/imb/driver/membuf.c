#include "imb/driver/membuf.h"

#include "core/error.h"
#include "imb/driver/imb2021_types.h"

#include <stdlib.h>
#include <string.h>

void eb_membuf_setup(eb_buf *b, eb_mem_kind k, size_t len, long n, const eb_cache *cache)
{
    if (k == EB_MEM_HOST) {
        eb_buf_setup(b, len, n, cache);
        return;
    }
    size_t a = eb_buf_layout(b, len, n, cache);
    if (!b->base || b->alloc < a) {
        if (b->base)
            eb_mem_free(k, b->base);
        char err[EB_ERRLEN];
        b->base = eb_mem_alloc(k, a, err, sizeof err);
        if (!b->base) /* one rank's failure, inside a table: the job ends with the reason */
            eb_abort("%s", err);
        b->alloc = a;
    }
}

void eb_membuf_free(eb_buf *b, eb_mem_kind k)
{
    if (k == EB_MEM_HOST) {
        eb_buf_free(b);
        return;
    }
    if (b->base)
        eb_mem_free(k, b->base);
    memset(b, 0, sizeof *b);
}

/* Reduction data of -red_data_type t, or the send pattern, at p in host memory. */
static void fill_host(const eb_ctx *c, void *p, size_t n, int reduction, int t)
{
    if (reduction)
        eb_fill_reduction(p, n, (eb_dtype)t, c->rank);
    else
        eb_fill_pattern(p, n, c->rank, 0);
}

void eb_ctx_fill_reduction(const eb_ctx *c, void *p, size_t n, int t)
{
    if (c->mem == EB_MEM_HOST) {
        fill_host(c, p, n, 1, t);
        return;
    }
    void *h = eb_malloc(n ? n : 1);
    fill_host(c, h, n, 1, t);
    eb_mem_from_host(c->mem, p, h, n);
    free(h);
}

/* The send data of every slot; in device memory made once on the host (every
 * slot holds the same) and copied into each, as IMB's cuda_ass_buf. */
void eb_ctx_fill_send(eb_ctx *c, int reduction, int t)
{
    size_t n = c->s.len;
    if (c->mem == EB_MEM_HOST) {
        for (long s = 0; s < c->s.slots; s++)
            fill_host(c, eb_sbuf(c, s), n, reduction, t);
        return;
    }
    char *h = eb_malloc(n ? n : 1);
    fill_host(c, h, n, reduction, t);
    for (long s = 0; s < c->s.slots; s++)
        eb_mem_from_host(c->mem, eb_sbuf(c, s), h, n);
    free(h);
}

/* The bytes of the slots in use: the first slot to the end of the last. */
static size_t used_bytes(const eb_buf *b)
{
    return b->slots > 1 ? b->stride * (size_t)(b->slots - 1) + b->len : b->len;
}

void eb_membuf_host_begin(eb_ctx *c, eb_membuf_view *v)
{
    if (c->mem == EB_MEM_HOST)
        return;
    size_t n = used_bytes(&c->r);
    if (v->host.alloc < (n ? n : 1)) {
        free(v->host.base);
        v->host.base = eb_malloc(n ? n : 1);
        v->host.alloc = n ? n : 1;
    }
    eb_mem_to_host(v->host.base, c->mem, c->r.base, n);
    v->device = c->r;
    v->host.len = c->r.len;
    v->host.stride = c->r.stride;
    v->host.slots = c->r.slots;
    c->r = v->host;
}

void eb_membuf_host_end(eb_ctx *c, eb_membuf_view *v)
{
    if (c->mem == EB_MEM_HOST)
        return;
    c->r = v->device;
}

void eb_membuf_view_free(eb_membuf_view *v)
{
    free(v->host.base);
    memset(v, 0, sizeof *v);
}
