#include "imb/driver/large_rows.h"

#include "core/mpi_features.h"
#include "imb/driver/imb2021_options.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A benchmark without _c calls may count bytes whatever its unit (IMB-EXT's
 * puts are MPI_BYTE though its lengths are floats'): its span is x. */
size_t eb_count_span(const eb_imb_options *o, const eb_bench *b, size_t x, int np)
{
    if (!b->large_counts)
        return x;
    size_t elems = x / eb_imb_unit(o, b);
    return b->count_span ? b->count_span(elems, np) : elems;
}

/* EFFBENCH_LARGE_COUNT_CALLS=always: every row of a benchmark with _c calls
 * the library has takes them, so tests exercise each one at small lengths
 * (docs/imb.md).  The launcher gives every rank the same environment. */
static int forced(void)
{
    static int f = -1;
    if (f < 0) {
        const char *e = getenv("EFFBENCH_LARGE_COUNT_CALLS");
        f = e && strcmp(e, "always") == 0;
    }
    return f;
}

int eb_row_large(const eb_ctx *c)
{
    if (eb_count_span(c->opt, c->bench, c->x, c->size) > (size_t)INT_MAX)
        return 1;
    /* -contig_type's layouts stay with IMB's int-count calls (refused past INT_MAX) */
    return forced() && c->bench->large_counts && !eb_mpi_missing(c->bench->large_counts) &&
           eb_contig_of(c->opt, c->bench) == EB_CONTIG_BASE;
}

int eb_large_count_refusal(const eb_imb_options *o, const eb_bench *b, size_t x, int np,
                           char *msg, size_t n)
{
    size_t span = eb_count_span(o, b, x, np);
    eb_contig ct = eb_contig_of(o, b);
    if (span > (size_t)INT_MAX && ct != EB_CONTIG_BASE) {
        /* the vector's length and the user-defined sum's are ints (IMB's calls) */
        snprintf(msg, n,
                 "%s on %d processes at #bytes = %zu: -contig_type %s makes IMB's int-count "
                 "datatypes and calls, and this length needs %zu elements, past MPI's int "
                 "limit of %d (2^31-1): use lengths up to %d elements or -contig_type base",
                 b->name, np, x, eb_contig_word(ct), span, INT_MAX, INT_MAX);
        return -1;
    }
    if (span <= (size_t)INT_MAX || (b->large_counts && !eb_mpi_missing(b->large_counts)))
        return 0;
    eb_dtype t = b->large_counts ? eb_imb_dtype(o, b) : EB_DT_BYTE;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n,")] = '\0';
    int k = snprintf(msg, n,
                     "%s on %d processes at #bytes = %zu: its MPI calls need a count of %zu "
                     "elements (%s), past MPI's int limit of %d (2^31-1) elements; ",
                     b->name, np, x, span, eb_dtype_mpi_name(t), INT_MAX);
    if (k < 0 || (size_t)k >= n)
        return -1;
    if (b->large_counts)
        snprintf(msg + k, n - (size_t)k,
                 "that needs %s, which this MPI library (%s) does not have: "
                 "use lengths up to %d elements",
                 eb_mpi_feature_call((eb_mpi_feature)eb_mpi_missing(b->large_counts)), lib,
                 INT_MAX);
    else
        snprintf(msg + k, n - (size_t)k,
                 "effbench's %s makes int-count calls only (MPI library: %s): "
                 "use lengths up to %d elements",
                 b->name, lib, INT_MAX);
    return -1;
}
