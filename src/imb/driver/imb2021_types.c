/* IMB 2021's -contig_type words, -data_type / -red_data_type: the types, their names, and the
 * reduction data a checked run verifies. */
#include "imb/driver/imb2021_types.h"

#include <string.h>

/* ---- -contig_type ------------------------------------------------------------ */

static const char *const contig_words[] = {"base", "base_vec", "resize", "resize_vec"};

int eb_contig_parse(const char *word, eb_contig *out)
{
    for (int k = 0; k < 4; k++)
        if (!strcmp(word, contig_words[k])) {
            *out = (eb_contig)k;
            return 0;
        }
    return -1;
}

const char *eb_contig_word(eb_contig ct) { return contig_words[ct]; }

int eb_contig_scale(eb_contig ct)
{
    return ct == EB_CONTIG_RESIZE || ct == EB_CONTIG_RESIZE_VEC ? 2 : 1;
}

/* Only IMB-MPI1 has the option (the parser refuses it elsewhere), so other
 * programs' options hold base. */
eb_contig eb_contig_of(const eb_imb_options *o, const eb_bench *b)
{
    (void)b;
    return o ? o->imb21.contig_type : EB_CONTIG_BASE;
}

/* ---- data types ------------------------------------------------------------ */

static const struct {
    const char *word, *mpi_name;
    size_t size;
} dtypes[EB_DT_N] = {
    [EB_DT_BYTE] = {"byte", "MPI_BYTE", 1},       [EB_DT_CHAR] = {"char", "MPI_CHAR", 1},
    [EB_DT_INT] = {"int", "MPI_INT", sizeof(int)}, [EB_DT_FLOAT] = {"float", "MPI_FLOAT", sizeof(float)},
    [EB_DT_DOUBLE] = {"double", "MPI_DOUBLE", sizeof(double)},
};

int eb_dtype_parse(const char *s, eb_dtype *out)
{
    for (int k = 0; k < EB_DT_N; k++)
        if (strcmp(s, dtypes[k].word) == 0) {
            *out = (eb_dtype)k;
            return 0;
        }
    return -1;
}

const char *eb_dtype_word(eb_dtype t) { return dtypes[t].word; }
const char *eb_dtype_mpi_name(eb_dtype t) { return dtypes[t].mpi_name; }
size_t eb_dtype_size(eb_dtype t) { return dtypes[t].size; }

MPI_Datatype eb_dtype_mpi(eb_dtype t)
{
    switch (t) {
    case EB_DT_CHAR: return MPI_CHAR;
    case EB_DT_INT: return MPI_INT;
    case EB_DT_FLOAT: return MPI_FLOAT;
    case EB_DT_DOUBLE: return MPI_DOUBLE;
    default: return MPI_BYTE;
    }
}

/* ---- typed reductions ---------------------------------------------------------- */

/* The reduction pattern (small integers, exact in every type) of element i. */
static int pattern_int(int rank, size_t i) { return (int)eb_pattern_float(rank, i); }

void eb_fill_reduction(void *p, size_t bytes, eb_dtype t, int rank)
{
    size_t n = bytes / eb_dtype_size(t);
    for (size_t i = 0; i < n; i++) {
        int v = pattern_int(rank, i);
        switch (t) {
        case EB_DT_CHAR: ((char *)p)[i] = (char)v; break;
        case EB_DT_INT: ((int *)p)[i] = v; break;
        case EB_DT_DOUBLE: ((double *)p)[i] = v; break;
        default: ((float *)p)[i] = (float)v; break;
        }
    }
}

long eb_check_reduction(const void *p, size_t count, eb_dtype t, int nranks, size_t off)
{
    if (t == EB_DT_FLOAT || t == EB_DT_BYTE)
        return eb_check_float_sum(p, count, nranks, off);
    long bad = 0;
    for (size_t i = 0; i < count; i++) {
        long want = 0;
        for (int r = 0; r < nranks; r++)
            want += pattern_int(r, off + i);
        switch (t) {
        case EB_DT_CHAR: /* a sum of chars wraps modulo 256 */
            bad += (unsigned char)((const char *)p)[i] != (unsigned char)want;
            break;
        case EB_DT_INT: bad += ((const int *)p)[i] != want; break;
        default: bad += ((const double *)p)[i] != (double)want; break;
        }
    }
    return bad;
}

