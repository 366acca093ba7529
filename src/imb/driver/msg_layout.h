/* How a message of x bytes lies in its buffer and which MPI datatype, count
 * and reduction operation carry it: IMB 2021.11's -contig_type of IMB-MPI1.
 *   base        x / size elements of the base type (-data_type or
 *               -red_data_type), MPI_SUM for reductions: the calls IMB has
 *               always made, and every other program's;
 *   base_vec    one MPI_Type_vector of those elements (count 1, stride 1);
 *   resize      the base type resized to twice its size (lower bound at its
 *               size, extent 2 * size): element k lies at byte 2 * k * size
 *               of buffers twice as long, every other element a gap;
 *   resize_vec  one vector of the resized elements, the same bytes.
 * Every value but base reduces with a user-defined sum of the elements at
 * the layout's stride instead of MPI_SUM (IMB's contig_sum).  A kernel takes
 * the type, count and operation of its length from here and places blocks
 * with eb_layout_span; -check reads the elements at their strided places
 * and the gaps, which no call may write. */
#ifndef EB_MSG_LAYOUT_H
#define EB_MSG_LAYOUT_H

#include "imb/driver/imb_option_types.h"
#include "imb/driver/msg_layout_types.h"

#include <mpi.h>
#include <stddef.h>

struct eb_bench;

/* The send and receive buffer extents of b at x bytes on np processes: the
 * benchmark's extents, times the layout's scale.  The runner allocates and
 * -mem counts these. */
void eb_layout_extents(const struct eb_imb_options *o, const struct eb_bench *b, size_t x, int np,
                       size_t *s_len, size_t *r_len);

/* The layout of x bytes of elements of t under ct, with the reduction
 * operation for a reduction; base makes nothing. */
void eb_layout_make(eb_layout *l, eb_contig ct, eb_dtype t, size_t x, int reduction);
void eb_layout_free(eb_layout *l);

/* Defects of x received message bytes at p that rank `rank` sent from its
 * buffer offset `off` (buffer bytes): every element against the pattern at
 * its place, and every gap still EB_POISON_BYTE. */
long eb_layout_check_pattern(const eb_layout *l, const void *p, size_t x, int rank, size_t off);
/* Defects of `count` reduced elements at p: the sum over nranks of the
 * reduction data at element `first` on (message elements), gaps untouched. */
long eb_layout_check_reduction(const eb_layout *l, const void *p, size_t count, int nranks,
                               size_t first);

#endif
