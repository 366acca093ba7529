/* The message layout of a length (imb/driver/msg_layout.h): the type alone, so that
 * eb_ctx (imb/driver/bench.h) holds one without depending on the functions. */
#ifndef EB_MSG_LAYOUT_TYPES_H
#define EB_MSG_LAYOUT_TYPES_H

#include "imb/driver/imb_option_types.h"

#include <mpi.h>
#include <stddef.h>

typedef struct {
    MPI_Datatype type; /* the calls' datatype */
    MPI_Count count;   /* how many of `type` carry the x bytes */
    MPI_Op op;         /* reductions: MPI_SUM (base), else the strided sum */
    eb_dtype base;     /* the element type */
    size_t per_item;   /* base elements in one item of `type` (the vector's length, or 1) */
    int scale;         /* buffer bytes per message byte: 2 with the resized types */
    MPI_Datatype made[2]; /* types made for this length (MPI_DATATYPE_NULL: none) */
    int op_made;
} eb_layout;

/* Buffer bytes taken by `bytes` message bytes (where block j starts). */
static inline size_t eb_layout_span(const eb_layout *l, size_t bytes)
{
    return bytes * (size_t)l->scale;
}

#endif
