/* IMB 2021.11's -contig_type layouts (imb/driver/msg_layout.h). */
#include "imb/driver/msg_layout.h"

#include "imb/driver/bench.h"
#include "imb/driver/imb2021_defaults.h"
#include "imb/driver/imb2021_options.h"

#include <stdint.h>
#include <string.h>

void eb_layout_extents(const eb_imb_options *o, const eb_bench *b, size_t x, int np,
                       size_t *s_len, size_t *r_len)
{
    size_t k = (size_t)eb_contig_scale(eb_contig_of(o, b));
    /* The benchmarks' extents are at most 2 x np messages, times the layout's scale: a
     * length past SIZE_MAX / that (a -msglen line of 2^63) would wrap to a small buffer
     * and slip under -mem, so it is as large as can be and -mem skips the row. */
    if (x > SIZE_MAX / (2 * (size_t)(np > 0 ? np : 1) * k)) {
        *s_len = *r_len = SIZE_MAX;
        return;
    }
    *s_len = *r_len = x;
    if (b->extents_2021 && eb_imb2021_method(o))
        b->extents_2021(x, np, s_len, r_len);
    else if (b->extents)
        b->extents(x, np, s_len, r_len);
    *s_len *= k;
    *r_len *= k;
}

/* The user-defined sum: the type's elements lie `extent / size` elements
 * apart (1 for a vector of the base type, 2 for the resized type and its
 * vector); only those are added, the gaps between them left alone. */
#define STRIDED_SUM(name, T)                                                                  \
    static void name(void *in, void *inout, int *len, MPI_Datatype *dt)                      \
    {                                                                                         \
        MPI_Aint lb, extent;                                                                  \
        int size;                                                                             \
        MPI_Type_get_extent(*dt, &lb, &extent);                                               \
        MPI_Type_size(*dt, &size);                                                            \
        size_t stride = (size_t)(extent / size), n = (size_t)*len * ((size_t)size / sizeof(T)); \
        const T *a = in;                                                                      \
        T *b = inout;                                                                         \
        for (size_t k = 0; k < n; k++)                                                        \
            b[k * stride] += a[k * stride];                                                   \
    }
STRIDED_SUM(sum_char, char)
STRIDED_SUM(sum_int, int)
STRIDED_SUM(sum_float, float)
STRIDED_SUM(sum_double, double)

static MPI_User_function *strided_sum(eb_dtype t)
{
    switch (t) {
    case EB_DT_CHAR: return sum_char;
    case EB_DT_INT: return sum_int;
    case EB_DT_DOUBLE: return sum_double;
    default: return sum_float; /* the reduction types are char, int, float, double */
    }
}

static MPI_Datatype keep(eb_layout *l, int k, MPI_Datatype t)
{
    MPI_Type_commit(&t);
    l->made[k] = t;
    return t;
}

void eb_layout_make(eb_layout *l, eb_contig ct, eb_dtype t, size_t x, int reduction)
{
    size_t e = eb_dtype_size(t), n = x / e;
    MPI_Datatype base = eb_dtype_mpi(t), t2;
    *l = (eb_layout){.type = base, .count = (MPI_Count)n, .op = MPI_SUM, .base = t,
                     .per_item = 1, .scale = eb_contig_scale(ct),
                     .made = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL}};
    if (ct == EB_CONTIG_BASE)
        return;
    if (reduction) { /* IMB's operation of the reduction type */
        MPI_Op_create(strided_sum(t), 1, &l->op);
        l->op_made = 1;
    }
    if (l->scale == 2) {
        /* lower bound at the element's size, extent twice it: the data stay at
         * displacement 0 of each element, the next element 2 * e bytes on */
        MPI_Type_create_resized(base, (MPI_Aint)e, (MPI_Aint)(2 * e), &t2);
        l->type = keep(l, 0, t2);
    }
    /* the vectors: one item of all n elements (none at 0 bytes, as IMB; the
     * plan refuses n past INT_MAX with these types) */
    if ((ct == EB_CONTIG_BASE_VEC || ct == EB_CONTIG_RESIZE_VEC) && n > 0) {
        MPI_Type_vector((int)n, 1, 1, l->type, &t2);
        l->type = keep(l, 1, t2);
        l->count = 1;
        l->per_item = n;
    }
}

void eb_layout_free(eb_layout *l)
{
    for (int k = 1; k >= 0; k--)
        if (l->made[k] != MPI_DATATYPE_NULL)
            MPI_Type_free(&l->made[k]);
    if (l->op_made)
        MPI_Op_free(&l->op);
    l->op_made = 0;
}

long eb_layout_check_pattern(const eb_layout *l, const void *p, size_t x, int rank, size_t off)
{
    if (l->scale == 1)
        return eb_check_pattern(p, x, rank, off);
    const unsigned char *b = p;
    size_t e = eb_dtype_size(l->base), step = e * (size_t)l->scale;
    long bad = 0;
    for (size_t at = 0; at < x * (size_t)l->scale; at += step) {
        bad += eb_check_pattern(b + at, e, rank, off + at);
        for (size_t g = e; g < step; g++)
            bad += b[at + g] != EB_POISON_BYTE;
    }
    return bad;
}

long eb_layout_check_reduction(const eb_layout *l, const void *p, size_t count, int nranks,
                               size_t first)
{
    if (l->scale == 1)
        return eb_check_reduction(p, count, l->base, nranks, first);
    const unsigned char *b = p;
    size_t e = eb_dtype_size(l->base), k2 = (size_t)l->scale;
    long bad = 0;
    for (size_t k = 0; k < count; k++) {
        const unsigned char *at = b + k * k2 * e;
        bad += eb_check_reduction(at, 1, l->base, nranks, (first + k) * k2);
        for (size_t g = e; g < k2 * e; g++)
            bad += at[g] != EB_POISON_BYTE;
    }
    return bad;
}
