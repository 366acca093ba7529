/* The datatype layer of SKaMPI (paper, section 3.2): base types from the
 * preamble (@BASETYPEn) and the datatype pattern over a base type that a
 * suite sends and receives (Send_Datatype_Number, Receive_Datatype_Number).
 *
 * Supported now: built-in base types MPI_CHAR, MPI_INT, MPI_FLOAT,
 * MPI_DOUBLE and datatype pattern 0 (a contiguous run of the base type).
 * Simple structures and the other datatype patterns are issue 9; they get
 * a "not supported yet" error. */
#ifndef SK_DATATYPES_H
#define SK_DATATYPES_H

#include <mpi.h>
#include <stddef.h>

/* 0 if the @BASETYPE text names a supported base type, else -1 and why. */
int sk_basetype_check(const char *text, char *err, size_t errlen);
/* 1 if MPI_SUM is defined for it (not MPI_CHAR), else 0 and why. */
int sk_basetype_reducible(const char *text, char *err, size_t errlen);
/* Size in bytes of a supported base type (0 if unknown). */
int sk_basetype_size(const char *text);
/* The MPI datatype of a supported base type (MPI_DATATYPE_NULL if unknown). */
MPI_Datatype sk_basetype_mpi(const char *text);

/* 0 if datatype pattern `number` is supported, else -1 and why. */
int sk_datatype_check(int number, char *err, size_t errlen);

/* The datatype a suite communicates with: pattern `number` over the base
 * type; `count` of them make a message.  With pattern 0 it is the base type
 * itself (no MPI_Type_free needed: sk_datatype_free handles both). */
typedef struct {
    MPI_Datatype type;
    int size;    /* bytes of data in one element */
    int derived; /* needs MPI_Type_free */
} sk_datatype;

int sk_datatype_make(const char *basetype, int number, sk_datatype *d, char *err, size_t errlen);
void sk_datatype_free(sk_datatype *d);

#endif
