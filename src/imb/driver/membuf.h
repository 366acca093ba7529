/* The IMB driver's message buffers in any memory kind of core's device seam
 * (core/device.h): host memory as always, and under IMB-MPI1-GPU /
 * IMB-RMA-GPU device, managed or page-locked memory (-mem_alloc_type,
 * imb/driver/gpu.h).  What is written into a buffer is made on the host and
 * copied in (IMB's cuda_ass_buf does the same), what -check reads is a host
 * copy taken outside the timed loop; in host memory both are the plain
 * writes and reads they always were. */
#ifndef EB_IMB_MEMBUF_H
#define EB_IMB_MEMBUF_H

#include "core/buffers.h"
#include "core/device.h"
#include "imb/driver/bench.h"

#include <stddef.h>

/* eb_buf_setup in memory of kind k (the same slots and strides); a failed
 * device allocation ends the run with the seam's message. */
void eb_membuf_setup(eb_buf *b, eb_mem_kind k, size_t len, long n, const eb_cache *cache);
void eb_membuf_free(eb_buf *b, eb_mem_kind k);

/* A kernel's or the runner's writes into c's buffers, in c->mem's kind:
 * reduction data of -red_data_type t, the send pattern (eb_fill_pattern) of
 * every slot.  (-check's poison and zeros: core's eb_mem_poison, eb_mem_set.) */
void eb_ctx_fill_reduction(const eb_ctx *c, void *p, size_t n, int t);
void eb_ctx_fill_send(eb_ctx *c, int reduction, int t);

/* -check on memory a host cannot read: the receive buffer's slots copied
 * to a host buffer of the same geometry, which c->r then is while the
 * benchmark's check reads it (eb_membuf_host_end puts c->r back).  Host
 * memory: nothing copied, c->r unchanged. */
typedef struct {
    eb_buf device;    /* c->r as it was */
    eb_buf host;      /* the host copy, kept from one repetition to the next */
} eb_membuf_view;
void eb_membuf_host_begin(eb_ctx *c, eb_membuf_view *v);
void eb_membuf_host_end(eb_ctx *c, eb_membuf_view *v);
void eb_membuf_view_free(eb_membuf_view *v);

#endif
