/* SKaMPI's base types (paper, section 3.2): what a @BASETYPEn line of the
 * preamble names, a built-in MPI type or a simple structure of triples
 * (count, byte offset, built-in type).  The datatype patterns
 * (skampi/datatypes.h) are built over a base type. */
#ifndef SK_BASETYPE_H
#define SK_BASETYPE_H

#include <mpi.h>
#include <stddef.h>

#define SK_BASE_MAX_TRIPLES 8
/* The largest byte offset of a triple: keeps a base type's extent, and the
 * datatype patterns' multiples of it, far inside a long. */
#define SK_BASE_MAX_OFFSET (1L << 20)

/* A base type: a built-in MPI type, or a simple structure of triples
 * (count, byte offset, built-in type). */
typedef struct {
    int n;                        /* triples; a built-in type is one (1, 0, t) */
    int structured;               /* written as triples */
    int count[SK_BASE_MAX_TRIPLES];
    long offset[SK_BASE_MAX_TRIPLES];
    int builtin[SK_BASE_MAX_TRIPLES]; /* index into the built-in table */
    long size;                    /* bytes of data */
    long extent;                  /* bytes from one element to the next */
} sk_basetype;

/* Parse a @BASETYPE value; 0, or -1 and why. */
int sk_basetype_parse(const char *text, sk_basetype *b, char *err, size_t errlen);
/* 1 if MPI_SUM is defined for it (a numeric built-in type), else 0 and why. */
int sk_basetype_reducible(const char *text, char *err, size_t errlen);

/* Store the integer v as one element of a numeric built-in base type at p
 * (the values --check reduces; small integers are exact in every type). */
void sk_base_store(const sk_basetype *b, void *p, long v);

/* Bytes of triple i's built-in type (b->builtin[i]). */
int sk_base_builtin_size(const sk_basetype *b, int i);

/* MPI: the base type as a datatype, not committed; *derived is 1 when it
 * was built (a structure, MPI_Type_free it), 0 for a built-in type. */
MPI_Datatype sk_basetype_mpi(const sk_basetype *b, int *derived);

#endif
