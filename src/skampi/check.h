/* `effbench skampi --check` (docs/skampi.md): before a point is measured,
 * one run of its operation with patterned buffers, and what that run must
 * leave in them.  Pure: the images of the buffers before and after one
 * correct run of an instance, on one process; measure.c runs the operation
 * and compares.
 *
 * A message's bytes, in the order of its type signature, are a function of
 * the sending rank and a message number, laid out along the suite's send
 * layout; a correct run puts them along the receive layout at the block for
 * that sender.  Send buffers hold SK_CHECK_GAP outside the send layout
 * (must never arrive), receive buffers SK_CHECK_GUARD (must stay where no
 * data lands).  Reductions (pattern 0 on built-in types) hold small
 * integers whose sums are exact. */
#ifndef SK_CHECK_H
#define SK_CHECK_H

#include "skampi/datatypes.h"

#define SK_CHECK_GUARD 0xA5
#define SK_CHECK_GAP 0xEE
#define SK_CHECK_PAD 64 /* bytes after the last block that must stay too */

/* One process's view of a checked run. */
typedef struct {
    int type;                 /* the instance */
    int rank, size;           /* in the communicator of the point */
    long chunks;              /* master-worker */
    const sk_basetype *base;
    const sk_block *sbl, *rbl; /* one message along the send / receive pattern */
    long nsb, nrb;
    long sspan, rspan;        /* bytes from one message to the next in a buffer */
    long count;               /* reductions: elements per block */
} sk_check_case;

/* 1 if the instance moves data that --check verifies (all but Barrier,
 * Comm_split and the simple pattern). */
int sk_check_applies(int type);

/* Byte k of message `msg` from rank `src`: never GUARD or GAP. */
unsigned char sk_check_byte(int src, long msg, long k);

/* Write message (src, msg) into img (len bytes) from byte `at` along the
 * layout bl; bytes beyond len are left out. */
void sk_check_put(unsigned char *img, long len, long at, const sk_block *bl, long n, int src,
                  long msg);

/* The send and receive buffers (ls, lr bytes) before the run. */
void sk_check_before(const sk_check_case *k, unsigned char *s, long ls, unsigned char *r, long lr);

/* Turn the before images into the after images: what the run delivers.
 * `last`: master-worker types 12-16 keep only the last result at the master,
 * from this worker (sk_check_last_worker). */
void sk_check_deliver(const sk_check_case *k, int last, unsigned char *s, long ls,
                      unsigned char *r, long lr);

/* The worker whose result the master of types 13-16 receives last; 0 for
 * type 12 (MPI_ANY_SOURCE: any worker that got a chunk may be last). */
int sk_check_last_worker(int type, long chunks, int workers);

/* Bytes where a and b differ. */
long sk_check_diff(const unsigned char *a, const unsigned char *b, long len);

#endif
