/* The datatype patterns over a base type (skampi/datatypes.h): each
 * pattern's layout, the copy loops over layouts, and the MPI datatypes
 * built with each pattern's constructor. */
#include "skampi/datatypes.h"

#include "core/error.h"

#include <string.h>

/* ---------------- pattern layouts ---------------- */

/* A run: n consecutive base elements from byte off. */
typedef struct {
    long off;
    int n;
} run;

#define MAX_RUNS 16

typedef struct {
    int number;
    const char *name; /* the MPI constructor(s) it uses follow each entry */
} pattern_info;

static const pattern_info patterns[] = {
    {0, "base type"}, /* the base type itself */
    {1, "contiguous"}, /* MPI_Type_contiguous */
    {2, "vector"}, /* MPI_Type_vector */
    {3, "hvector"}, /* MPI_Type_create_hvector */
    {4, "indexed"}, /* MPI_Type_indexed */
    {5, "hindexed"}, /* MPI_Type_create_hindexed */
    {6, "indexed_block"}, /* MPI_Type_create_indexed_block */
    {7, "struct"}, /* MPI_Type_create_struct */
    {8, "subarray"}, /* MPI_Type_create_subarray */
    {9, "darray"}, /* MPI_Type_create_darray */
    {10, "resized"}, /* MPI_Type_create_resized (of MPI_Type_contiguous) */
    {11, "vector of vectors"}, /* MPI_Type_vector of MPI_Type_vector */
    {12, "struct of vectors"}, /* MPI_Type_create_struct of two MPI_Type_vector */
    {13, "indexed of structs"}, /* MPI_Type_indexed of MPI_Type_create_struct */
    {SK_DYNAMIC_VECTOR, "dynamic vector"}, /* MPI_Type_vector over the whole message */
};
#define NPATTERNS ((int)(sizeof patterns / sizeof patterns[0]))

static const pattern_info *find_pattern(int number)
{
    for (int i = 0; i < NPATTERNS; i++)
        if (patterns[i].number == number)
            return &patterns[i];
    return NULL;
}

int sk_dt_check(int number, char *err, size_t errlen)
{
    if (find_pattern(number))
        return 0;
    return eb_err(err, errlen,
                  "unknown datatype pattern %d (0-13 and 50; see docs/skampi-datatypes.md)", number);
}

const char *sk_dt_name(int number)
{
    const pattern_info *p = find_pattern(number);
    return p ? p->name : "?";
}

int sk_dt_numbers(const int **numbers)
{
    static int nums[NPATTERNS];
    for (int i = 0; i < NPATTERNS; i++)
        nums[i] = patterns[i].number;
    *numbers = nums;
    return NPATTERNS;
}

/* One element of static pattern `number` as runs of base elements, E the
 * base extent; returns the number of runs and the element's extent.  This
 * is the specification of each layout (docs/skampi-datatypes.md draws
 * them); make_static() builds the same with the MPI constructor. */
static int unit_runs(int number, long E, run *r, long *extent)
{
    int n = 0;
#define RUN(o, k) (r[n].off = (o), r[n].n = (k), n++)
    switch (number) {
    case 1: RUN(0, 12); *extent = 12 * E; break;
    case 2: for (int k = 0; k < 4; k++) RUN(5 * k * E, 3); *extent = 18 * E; break;
    case 3: for (int k = 0; k < 6; k++) RUN(k * (2 * E + 8), 2); *extent = 12 * E + 40; break;
    case 4:
        RUN(0, 1); RUN(2 * E, 2); RUN(5 * E, 3); RUN(10 * E, 6);
        *extent = 16 * E;
        break;
    case 5: RUN(7 * E + 16, 5); RUN(0, 7); *extent = 12 * E + 16; break;
    case 6:
        RUN(0, 3); RUN(4 * E, 3); RUN(9 * E, 3); RUN(13 * E, 3);
        *extent = 16 * E;
        break;
    case 7: RUN(0, 2); RUN(2 * E + 8, 4); RUN(6 * E + 24, 6); *extent = 12 * E + 24; break;
    case 8: for (int row = 1; row <= 3; row++) RUN((row * 6 + 1) * E, 4); *extent = 24 * E; break;
    case 9:
        for (int row = 0; row < 3; row++) {
            RUN(row * 8 * E, 2);
            RUN((row * 8 + 4) * E, 2);
        }
        *extent = 24 * E;
        break;
    case 10: RUN(0, 12); *extent = 16 * E; break;
    case 11:
        for (int o = 0; o < 2; o++) {
            RUN(o * 21 * E, 3);
            RUN((o * 21 + 4) * E, 3);
        }
        *extent = 28 * E;
        break;
    case 12:
        RUN(0, 3); RUN(5 * E, 3);
        RUN(10 * E, 2); RUN(13 * E, 2); RUN(16 * E, 2);
        *extent = 18 * E;
        break;
    case 13: {
        static const int at[4] = {0, 8, 12, 20};
        for (int k = 0; k < 4; k++) {
            RUN(at[k] * E, 1);
            RUN((at[k] + 2) * E, 2);
        }
        *extent = 24 * E;
        break;
    }
    default: return -1;
    }
#undef RUN
    return n;
}

long sk_dt_unit(const sk_basetype *b, int number)
{
    return number == 0 ? b->size : SK_PATTERN_ELEMS * b->size;
}

/* Dynamic vector: blocks of 3 base elements, stride 6, as many as the
 * message needs. */
#define DV_BLOCK 3
#define DV_STRIDE 6

long sk_dt_span(const sk_basetype *b, int number, long bytes)
{
    long elems = bytes / b->size;
    if (number == 0)
        return elems * b->extent;
    if (number == SK_DYNAMIC_VECTOR) {
        long nb = elems / DV_BLOCK;
        return nb ? ((nb - 1) * DV_STRIDE + DV_BLOCK) * b->extent : 0;
    }
    run r[MAX_RUNS];
    long ext = 0;
    unit_runs(number, b->extent, r, &ext);
    return elems / SK_PATTERN_ELEMS * ext;
}

double sk_dt_spread(const sk_basetype *b, int number)
{
    double per_elem = (double)b->extent / (double)b->size;
    if (number == 0)
        return per_elem;
    if (number == SK_DYNAMIC_VECTOR)
        return per_elem * DV_STRIDE / DV_BLOCK;
    run r[MAX_RUNS];
    long ext = 0;
    unit_runs(number, b->extent, r, &ext);
    return (double)ext / (double)sk_dt_unit(b, number);
}

typedef struct {
    sk_block *b;
    long n, cap;
} blocks;

static void add_block(blocks *bs, long off, long len)
{
    if (bs->n && bs->b[bs->n - 1].off + bs->b[bs->n - 1].len == off) {
        bs->b[bs->n - 1].len += len; /* adjacent: one copy */
        return;
    }
    if (bs->n == bs->cap) {
        bs->cap = bs->cap ? 2 * bs->cap : 64;
        bs->b = eb_realloc(bs->b, (size_t)bs->cap * sizeof *bs->b);
    }
    bs->b[bs->n].off = off;
    bs->b[bs->n].len = len;
    bs->n++;
}

/* n base elements from byte off */
static void add_run(blocks *bs, const sk_basetype *b, long off, long n)
{
    for (long k = 0; k < n; k++)
        for (int i = 0; i < b->n; i++)
            add_block(bs, off + k * b->extent + b->offset[i],
                      (long)b->count[i] * sk_base_builtin_size(b, i));
}

long sk_layout(const sk_basetype *b, int number, long bytes, sk_block **out)
{
    blocks bs = {0};
    long elems = bytes / b->size;
    if (number == 0) {
        add_run(&bs, b, 0, elems);
    } else if (number == SK_DYNAMIC_VECTOR) {
        for (long k = 0; k < elems / DV_BLOCK; k++)
            add_run(&bs, b, k * DV_STRIDE * b->extent, DV_BLOCK);
    } else {
        run r[MAX_RUNS];
        long ext;
        int nr = unit_runs(number, b->extent, r, &ext);
        for (long u = 0; u < elems / SK_PATTERN_ELEMS; u++)
            for (int i = 0; i < nr; i++)
                add_run(&bs, b, u * ext + r[i].off, r[i].n);
    }
    *out = bs.b;
    return bs.n;
}

void sk_layout_gather(char *dst, const char *src, const sk_block *bl, long n)
{
    for (long i = 0; i < n; i++) {
        memcpy(dst, src + bl[i].off, (size_t)bl[i].len);
        dst += bl[i].len;
    }
}

void sk_layout_scatter(char *dst, const char *src, const sk_block *bl, long n)
{
    for (long i = 0; i < n; i++) {
        memcpy(dst + bl[i].off, src, (size_t)bl[i].len);
        src += bl[i].len;
    }
}

void sk_layout_copy(char *dst, const sk_block *dbl, long dn, const char *src, const sk_block *sbl,
                    long sn)
{
    /* walk both block lists; each memcpy is the overlap of the current pair */
    long i = 0, j = 0, di = 0, sj = 0;
    while (i < dn && j < sn) {
        long a = dbl[i].len - di, b = sbl[j].len - sj, k = a < b ? a : b;
        memcpy(dst + dbl[i].off + di, src + sbl[j].off + sj, (size_t)k);
        di += k;
        sj += k;
        if (di == dbl[i].len)
            i++, di = 0;
        if (sj == sbl[j].len)
            j++, sj = 0;
    }
}

/* ---------------- MPI datatypes ---------------- */

static MPI_Datatype commit(MPI_Datatype t)
{
    MPI_Type_commit(&t);
    return t;
}

/* One element of static pattern `number` over base type t (extent E),
 * built with the pattern's constructor; the layout is unit_runs(). */
static MPI_Datatype make_static(int number, MPI_Datatype t, long E)
{
    MPI_Datatype r = MPI_DATATYPE_NULL, a, b2;
    switch (number) {
    case 1: MPI_Type_contiguous(12, t, &r); break;
    case 2: MPI_Type_vector(4, 3, 5, t, &r); break;
    case 3: MPI_Type_create_hvector(6, 2, 2 * E + 8, t, &r); break;
    case 4: {
        int bl[4] = {1, 2, 3, 6}, d[4] = {0, 2, 5, 10};
        MPI_Type_indexed(4, bl, d, t, &r);
        break;
    }
    case 5: {
        int bl[2] = {5, 7};
        MPI_Aint d[2] = {7 * E + 16, 0};
        MPI_Type_create_hindexed(2, bl, d, t, &r);
        break;
    }
    case 6: {
        int d[4] = {0, 4, 9, 13};
        MPI_Type_create_indexed_block(4, 3, d, t, &r);
        break;
    }
    case 7: {
        int bl[3] = {2, 4, 6};
        MPI_Aint d[3] = {0, 2 * E + 8, 6 * E + 24};
        MPI_Datatype ty[3] = {t, t, t};
        MPI_Type_create_struct(3, bl, d, ty, &r);
        break;
    }
    case 8: {
        int sizes[2] = {4, 6}, sub[2] = {3, 4}, start[2] = {1, 1};
        MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, t, &r);
        break;
    }
    case 9: {
        /* what process 0 of a 1 x 2 process grid owns of a 3 x 8 array:
         * rows by block (all of them), columns cyclic in pairs */
        int g[2] = {3, 8}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {1, 2};
        MPI_Type_create_darray(2, 0, 2, g, dist, darg, ps, MPI_ORDER_C, t, &r);
        break;
    }
    case 10:
        MPI_Type_contiguous(12, t, &a);
        MPI_Type_create_resized(a, 0, 16 * E, &r);
        MPI_Type_free(&a);
        break;
    case 11:
        MPI_Type_vector(2, 3, 4, t, &a);
        MPI_Type_vector(2, 1, 3, a, &r);
        MPI_Type_free(&a);
        break;
    case 12: {
        MPI_Type_vector(2, 3, 5, t, &a);
        MPI_Type_vector(3, 2, 3, t, &b2);
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 10 * E};
        MPI_Datatype ty[2] = {a, b2};
        MPI_Type_create_struct(2, bl, d, ty, &r);
        MPI_Type_free(&a);
        MPI_Type_free(&b2);
        break;
    }
    case 13: {
        int sbl[2] = {1, 2};
        MPI_Aint sd[2] = {0, 2 * E};
        MPI_Datatype sty[2] = {t, t};
        MPI_Type_create_struct(2, sbl, sd, sty, &a);
        int bl[3] = {1, 2, 1}, d[3] = {0, 2, 5};
        MPI_Type_indexed(3, bl, d, a, &r);
        MPI_Type_free(&a);
        break;
    }
    }
    return r;
}

int sk_msgtype_make(const sk_basetype *b, int number, long bytes, sk_msgtype *t, char *err,
                    size_t errlen)
{
    if (sk_dt_check(number, err, errlen))
        return -1;
    long unit = sk_dt_unit(b, number);
    if (bytes % unit)
        return eb_err(err, errlen, "%ld bytes are not a whole number of %ld-byte elements of "
                      "datatype pattern %d", bytes, unit, number);
    memset(t, 0, sizeof *t);
    t->bytes = bytes;
    int base_derived;
    MPI_Datatype base = sk_basetype_mpi(b, &base_derived);
    if (number == 0) {
        t->type = base_derived ? commit(base) : base;
        t->derived = base_derived;
        t->count = (int)(bytes / b->size);
        t->extent = b->extent;
    } else if (number == SK_DYNAMIC_VECTOR) {
        long nb = bytes / b->size / DV_BLOCK;
        if (nb == 0) { /* an empty message: nothing to describe */
            t->type = base_derived ? commit(base) : base;
            t->derived = base_derived;
            t->extent = b->extent;
            return 0;
        }
        MPI_Type_vector((int)nb, DV_BLOCK, DV_STRIDE, base, &t->type);
        t->type = commit(t->type);
        t->derived = 1;
        t->count = 1;
        t->extent = sk_dt_span(b, number, bytes);
    } else {
        t->type = commit(make_static(number, base, b->extent));
        t->derived = 1;
        t->count = (int)(bytes / unit);
        run r[MAX_RUNS];
        unit_runs(number, b->extent, r, &t->extent);
    }
    if (base_derived && t->type != base)
        MPI_Type_free(&base);
    t->span = t->count * t->extent;
    return 0;
}

void sk_msgtype_free(sk_msgtype *t)
{
    if (t->derived)
        MPI_Type_free(&t->type);
    t->derived = 0;
}
