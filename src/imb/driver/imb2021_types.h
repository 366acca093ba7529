/* IMB 2021's -contig_type words and -data_type / -red_data_type types: their
 * names, layouts and the reduction data a checked run verifies
 * (imb2021_types.c; imb2021_options.h includes this for its users). */
#ifndef EB_IMB2021_TYPES_H
#define EB_IMB2021_TYPES_H

#include "imb/driver/bench.h"
#include "imb/driver/imb_option_types.h"

#include <mpi.h>
#include <stddef.h>

/* -data_type / -red_data_type names. */
int eb_dtype_parse(const char *s, eb_dtype *out);
const char *eb_dtype_word(eb_dtype t);     /* "int" */
const char *eb_dtype_mpi_name(eb_dtype t); /* "MPI_INT" */
MPI_Datatype eb_dtype_mpi(eb_dtype t);
size_t eb_dtype_size(eb_dtype t);

/* -contig_type's words ("base" ...): 0 and *out, or -1 for another word. */
int eb_contig_parse(const char *word, eb_contig *out);
const char *eb_contig_word(eb_contig ct);
/* Buffer bytes per message byte of ct: 1, or 2 for resize and resize_vec. */
int eb_contig_scale(eb_contig ct);
/* The layout of benchmark b under options o (base outside IMB-MPI1). */
eb_contig eb_contig_of(const eb_imb_options *o, const eb_bench *b);

/* Typed reduction data: the send pattern and the check of a sum. */
void eb_fill_reduction(void *p, size_t bytes, eb_dtype t, int rank);
long eb_check_reduction(const void *p, size_t count, eb_dtype t, int nranks, size_t off);

#endif
