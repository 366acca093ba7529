/* The datatype layer of SKaMPI (paper, section 3.2): the datatype patterns
 * over a base type (skampi/basetype.h) that a suite sends and receives
 * (Send_Datatype_Number, Receive_Datatype_Number).
 * docs/skampi-datatypes.md has the numbering table and a picture of each
 * layout.
 *
 * Every pattern has two descriptions on purpose: the layout (pure: which
 * bytes of the buffer hold the message, in the order of its type signature)
 * and the MPI datatype built with the pattern's constructor.  The layout is
 * the specification: the hand-written copy loops use it, and the tests check
 * that MPI moves exactly the layout's bytes. */
#ifndef SK_DATATYPES_H
#define SK_DATATYPES_H

#include "skampi/basetype.h"

#include <mpi.h>
#include <stddef.h>

/* Base-type elements in one element of every datatype pattern but 0: all
 * patterns have the same size. */
#define SK_PATTERN_ELEMS 12
#define SK_DYNAMIC_VECTOR 50 /* the paper's number (Figure 1) */

/* 0 if datatype pattern `number` exists, else -1 and why. */
int sk_dt_check(int number, char *err, size_t errlen);
const char *sk_dt_name(int number);
/* Numbers of all patterns, ascending; returns how many. */
int sk_dt_numbers(const int **numbers);
/* Bytes of data in one element of the pattern (the base type's size for 0):
 * message lengths are whole multiples of it. */
long sk_dt_unit(const sk_basetype *b, int number);
/* Bytes of buffer a message of `bytes` data bytes occupies. */
long sk_dt_span(const sk_basetype *b, int number, long bytes);
/* An upper bound of span / bytes over all lengths (for @MEMORY). */
double sk_dt_spread(const sk_basetype *b, int number);

/* A piece of a message: `len` bytes at byte `off` of the buffer. */
typedef struct {
    long off, len;
} sk_block;

/* The layout of a message of `bytes` data bytes (a multiple of the unit):
 * its blocks in type-signature order, adjacent ones merged.  Returns the
 * number of blocks (*blocks is malloc'ed). */
long sk_layout(const sk_basetype *b, int number, long bytes, sk_block **blocks);

/* The hand-written copy loops: gather a layout's bytes into a contiguous
 * buffer, scatter them back, or copy from one layout to another (both of
 * the same number of data bytes). */
void sk_layout_gather(char *dst, const char *src, const sk_block *bl, long n);
void sk_layout_scatter(char *dst, const char *src, const sk_block *bl, long n);
void sk_layout_copy(char *dst, const sk_block *dbl, long dn, const char *src, const sk_block *sbl,
                    long sn);

/* How one side of a suite communicates a message: `count` elements of
 * `type` (pattern 50 is one vector built for the message's length). */
typedef struct {
    MPI_Datatype type;
    int count;
    long extent;  /* bytes from one element to the next */
    long span;    /* count * extent */
    long bytes;   /* data bytes */
    int derived;  /* needs MPI_Type_free */
} sk_msgtype;

/* MPI: the datatype of pattern `number` over `b` for a message of `bytes`. */
int sk_msgtype_make(const sk_basetype *b, int number, long bytes, sk_msgtype *t, char *err,
                    size_t errlen);
void sk_msgtype_free(sk_msgtype *t);

#endif
