/* SKaMPI datatype patterns (docs/skampi-datatypes.md): the layouts, and that
 * MPI moves exactly the layout's bytes for every pair of patterns over every
 * kind of base type (MPI singleton, sending to itself). */
#include "skampi/datatypes.h"
#include "unit.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 0xA5 /* receive buffer outside the layout: must stay */
#define GAP 0xEE   /* send buffer outside the layout: must never arrive */
#define PAD 64     /* guard bytes before and after the receive span */

static char err[512];

static const char *const bases[] = {
    "(1,0,MPI_CHAR) (2,4,MPI_INT) (1,16,MPI_DOUBLE)", /* size 17, extent 24 */
    "(3,0,MPI_SHORT),(1,8,MPI_FLOAT)",                 /* size 10, extent 12 */
    /* every built-in base type the parser accepts */
    "MPI_CHAR", "MPI_BYTE", "MPI_SHORT", "MPI_INT", "MPI_LONG", "MPI_FLOAT", "MPI_DOUBLE",
};
#define NBASES ((int)(sizeof bases / sizeof bases[0]))

static unsigned char data_byte(long k)
{
    unsigned char v = (unsigned char)(1 + (k * 7) % 251);
    return v == GUARD ? 0x5A : v;
}

/* Exact blocks of a layout. */
static void expect_blocks(const char *base, int number, long bytes, const long *want, long nwant)
{
    sk_basetype b;
    CHECK_EQ_LONG(sk_basetype_parse(base, &b, err, sizeof err), 0);
    sk_block *bl;
    long n = sk_layout(&b, number, bytes, &bl);
    CHECK_EQ_LONG(n, nwant);
    for (long i = 0; i < n && i < nwant; i++) {
        CHECK_EQ_LONG(bl[i].off, want[2 * i]);
        CHECK_EQ_LONG(bl[i].len, want[2 * i + 1]);
    }
    free(bl);
}

static void test_base_types(void)
{
    sk_basetype b;
    CHECK_EQ_LONG(sk_basetype_parse("mpi_double", &b, err, sizeof err), 0);
    CHECK_EQ_LONG(b.size, 8);
    CHECK_EQ_LONG(b.extent, 8);
    CHECK_EQ_LONG(b.structured, 0);
    CHECK_EQ_LONG(sk_basetype_parse(bases[0], &b, err, sizeof err), 0);
    CHECK_EQ_LONG(b.n, 3);
    CHECK_EQ_LONG(b.size, 1 + 8 + 8);
    CHECK_EQ_LONG(b.extent, 24); /* 24 = end of the double, already a multiple of 8 */
    CHECK_EQ_LONG(sk_basetype_parse(bases[1], &b, err, sizeof err), 0);
    CHECK_EQ_LONG(b.size, 10);
    CHECK_EQ_LONG(b.extent, 12);
    CHECK_EQ_LONG(sk_basetype_parse("(1,0,MPI_DOUBLE) (1,8,MPI_CHAR)", &b, err, sizeof err), 0);
    CHECK_EQ_LONG(b.extent, 16); /* padded to the double's 8 bytes */
    /* the parser's list of built-in types is the list tested here */
    CHECK_EQ_LONG(sk_basetype_parse("MPI_X", &b, err, sizeof err), -1);
    char *list = strchr(err, '('), *end = list ? strchr(list, ')') : NULL;
    CHECK(list && end);
    int listed = 0;
    for (char *tok = list ? strtok(list + 1, ", )") : NULL; tok && tok < end;
         tok = strtok(NULL, ", )")) {
        int found = 0;
        for (int i = 0; i < NBASES; i++)
            found |= !strcmp(bases[i], tok);
        if (!found)
            fprintf(stderr, "built-in %s is not among the tested base types\n", tok);
        CHECK(found);
        listed++;
    }
    CHECK_EQ_LONG(listed, 7);
    CHECK(sk_basetype_reducible("MPI_SHORT", err, sizeof err));
    CHECK(!sk_basetype_reducible("MPI_BYTE", err, sizeof err));
    CHECK_STR(err, "MPI_SUM is not defined for base type MPI_BYTE");
}

static void test_layouts(void)
{
    /* one element of each pattern over MPI_INT (E = 4), offsets in bytes */
    long contiguous[] = {0, 48};
    expect_blocks("MPI_INT", 1, 48, contiguous, 1);
    long vector[] = {0, 12, 20, 12, 40, 12, 60, 12};
    expect_blocks("MPI_INT", 2, 48, vector, 4);
    long hvector[] = {0, 8, 16, 8, 32, 8, 48, 8, 64, 8, 80, 8};
    expect_blocks("MPI_INT", 3, 48, hvector, 6);
    long indexed[] = {0, 4, 8, 8, 20, 12, 40, 24};
    expect_blocks("MPI_INT", 4, 48, indexed, 4);
    long hindexed[] = {44, 20, 0, 28}; /* the second block comes first in memory */
    expect_blocks("MPI_INT", 5, 48, hindexed, 2);
    long iblock[] = {0, 12, 16, 12, 36, 12, 52, 12};
    expect_blocks("MPI_INT", 6, 48, iblock, 4);
    long strct[] = {0, 8, 16, 16, 48, 24};
    expect_blocks("MPI_INT", 7, 48, strct, 3);
    long subarray[] = {28, 16, 52, 16, 76, 16};
    expect_blocks("MPI_INT", 8, 48, subarray, 3);
    long darray[] = {0, 8, 16, 8, 32, 8, 48, 8, 64, 8, 80, 8};
    expect_blocks("MPI_INT", 9, 48, darray, 6);
    /* resized: two elements leave a gap of 4 ints between them */
    long resized[] = {0, 48, 64, 48};
    expect_blocks("MPI_INT", 10, 96, resized, 2);
    long vv[] = {0, 12, 16, 12, 84, 12, 100, 12};
    expect_blocks("MPI_INT", 11, 48, vv, 4);
    long sv[] = {0, 12, 20, 12, 40, 8, 52, 8, 64, 8};
    expect_blocks("MPI_INT", 12, 48, sv, 5);
    long is[] = {0, 4, 8, 8, 32, 4, 40, 12, 56, 8, 80, 4, 88, 8};
    expect_blocks("MPI_INT", 13, 48, is, 7);
    long dv[] = {0, 12, 24, 12, 48, 12, 72, 12, 96, 12, 120, 12, 144, 12, 168, 12};
    expect_blocks("MPI_INT", SK_DYNAMIC_VECTOR, 96, dv, 8);
    /* the vector's next element starts right after its last block */
    long vector2[] = {0, 12, 20, 12, 40, 12, 60, 24, 92, 12, 112, 12, 132, 12};
    expect_blocks("MPI_INT", 2, 96, vector2, 7);
    /* a structured base type inside a pattern: each element's triples */
    long base0[] = {0, 1, 4, 8, 16, 9, 28, 8, 40, 8};
    expect_blocks(bases[0], 0, 34, base0, 5);

    /* every pattern over every base type: the same bytes per element,
     * blocks inside the span and disjoint */
    const int *nums;
    int np = sk_dt_numbers(&nums);
    CHECK_EQ_LONG(np, 15);
    for (int bi = 0; bi < NBASES; bi++) {
        sk_basetype b;
        CHECK_EQ_LONG(sk_basetype_parse(bases[bi], &b, err, sizeof err), 0);
        for (int i = 0; i < np; i++) {
            int p = nums[i];
            long unit = sk_dt_unit(&b, p);
            CHECK_EQ_LONG(unit, p == 0 ? b.size : 12 * b.size);
            long bytes = 3 * 12 * b.size;
            long span = sk_dt_span(&b, p, bytes);
            CHECK(span <= bytes * sk_dt_spread(&b, p) + 1e-9);
            sk_block *bl;
            long n = sk_layout(&b, p, bytes, &bl);
            long total = 0, hi = 0;
            char *used = calloc((size_t)span + 1, 1);
            int overlap = 0, outside = 0;
            for (long k = 0; k < n; k++) {
                total += bl[k].len;
                if (bl[k].off < 0 || bl[k].off + bl[k].len > span) {
                    outside = 1;
                    continue;
                }
                for (long x = bl[k].off; x < bl[k].off + bl[k].len; x++)
                    overlap |= used[x]++;
                if (bl[k].off + bl[k].len > hi)
                    hi = bl[k].off + bl[k].len;
            }
            CHECK_EQ_LONG(total, bytes);
            CHECK(!overlap && !outside);
            /* subarray, darray and resized end in padding: the rest of the
             * array, the other process's columns, the resized extent */
            long pad = p == 8 ? 1 : p == 9 ? 2 : p == 10 ? 4 : 0;
            CHECK_EQ_LONG(hi, span - pad * b.extent);
            free(used);
            free(bl);
        }
    }
}

/* The copy loop from one layout to another equals gather then scatter. */
static void test_copy_loops(void)
{
    sk_basetype b;
    sk_basetype_parse("MPI_SHORT", &b, err, sizeof err);
    long bytes = 2 * 12 * 2;
    sk_block *sb, *rb;
    long ns = sk_layout(&b, 5, bytes, &sb), nr = sk_layout(&b, 13, bytes, &rb);
    char src[256], mid[256], a[256], c[256];
    for (int i = 0; i < 256; i++)
        src[i] = (char)i;
    memset(a, 0, sizeof a);
    memset(c, 0, sizeof c);
    sk_layout_gather(mid, src, sb, ns);
    sk_layout_scatter(a, mid, rb, nr);
    sk_layout_copy(c, rb, nr, src, sb, ns);
    CHECK(memcmp(a, c, sizeof a) == 0);
    CHECK_EQ_LONG((unsigned char)mid[0], 7 * 2 + 16); /* hindexed starts at byte 7E+16 */
    free(sb);
    free(rb);
}

/* Send with pattern ps, receive with pattern pr: every data byte in its
 * place, no byte outside the receive layout touched, nothing of the send
 * buffer's gaps arriving.  Returns the number of wrong bytes. */
static long exchange(const sk_basetype *b, int ps, int pr, long bytes)
{
    sk_msgtype st, rt;
    CHECK_EQ_LONG(sk_msgtype_make(b, ps, bytes, &st, err, sizeof err), 0);
    CHECK_EQ_LONG(sk_msgtype_make(b, pr, bytes, &rt, err, sizeof err), 0);
    /* a type larger than its layout would write past the buffers: check first */
    const sk_msgtype *both[2] = {&st, &rt};
    for (int i = 0; i < 2; i++) {
        MPI_Aint lb = 0, ext = both[i]->extent, tlb = 0, text = 0;
        if (both[i]->count) {
            MPI_Type_get_extent(both[i]->type, &lb, &ext);
            MPI_Type_get_true_extent(both[i]->type, &tlb, &text);
        }
        CHECK_EQ_LONG(lb, 0);
        CHECK_EQ_LONG(ext, both[i]->extent);
        if (lb != 0 || ext != both[i]->extent || tlb < 0 || tlb + text > ext) {
            fprintf(stderr, "pattern %d: MPI's extent differs from the layout's\n", i ? pr : ps);
            sk_msgtype_free(&st);
            sk_msgtype_free(&rt);
            return 1;
        }
    }
    sk_block *sbl, *rbl;
    long ns = sk_layout(b, ps, bytes, &sbl), nr = sk_layout(b, pr, bytes, &rbl);
    unsigned char *s = malloc((size_t)st.span + 1), *r = malloc((size_t)rt.span + 2 * PAD);
    unsigned char *want = malloc((size_t)rt.span + 2 * PAD);
    memset(s, GAP, (size_t)st.span + 1);
    memset(r, GUARD, (size_t)rt.span + 2 * PAD);
    memset(want, GUARD, (size_t)rt.span + 2 * PAD);
    long k = 0;
    for (long i = 0; i < ns; i++)
        for (long x = 0; x < sbl[i].len; x++)
            s[sbl[i].off + x] = data_byte(k++);
    k = 0;
    for (long i = 0; i < nr; i++)
        for (long x = 0; x < rbl[i].len; x++)
            want[PAD + rbl[i].off + x] = data_byte(k++);
    MPI_Sendrecv(s, st.count, st.type, 0, 5, r + PAD, rt.count, rt.type, 0, 5, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
    long bad = 0;
    for (long i = 0; i < rt.span + 2 * PAD; i++)
        bad += r[i] != want[i];
    if (bad)
        fprintf(stderr, "send pattern %d, receive pattern %d, %ld bytes: %ld wrong bytes\n", ps, pr,
                bytes, bad);
    /* MPI's view of the types: size, extent, packed order */
    if (st.count) {
        int size;
        MPI_Type_size(st.type, &size);
        CHECK_EQ_LONG((long)size * st.count, bytes);
        int psize, pos = 0;
        MPI_Pack_size(st.count, st.type, MPI_COMM_SELF, &psize);
        char *packed = malloc((size_t)psize), *gathered = malloc((size_t)bytes);
        MPI_Pack(s, st.count, st.type, packed, psize, &pos, MPI_COMM_SELF);
        sk_layout_gather(gathered, (char *)s, sbl, ns);
        CHECK_EQ_LONG(pos, bytes);
        CHECK(memcmp(packed, gathered, (size_t)bytes) == 0);
        free(packed);
        free(gathered);
    }
    free(s);
    free(r);
    free(want);
    free(sbl);
    free(rbl);
    sk_msgtype_free(&st);
    sk_msgtype_free(&rt);
    return bad;
}

static void test_exchanges(void)
{
    const int *nums;
    int np = sk_dt_numbers(&nums);
    long pairs = 0;
    for (int bi = 0; bi < NBASES; bi++) {
        sk_basetype b;
        CHECK_EQ_LONG(sk_basetype_parse(bases[bi], &b, err, sizeof err), 0);
        for (int i = 0; i < np; i++)
            for (int j = 0; j < np; j++) {
                /* two elements: the step from one element to the next counts */
                CHECK_EQ_LONG(exchange(&b, nums[i], nums[j], 2 * 12 * b.size), 0);
                pairs++;
            }
        /* longer dynamic vectors, and the empty message */
        CHECK_EQ_LONG(exchange(&b, SK_DYNAMIC_VECTOR, 9, 10 * 12 * b.size), 0);
        CHECK_EQ_LONG(exchange(&b, 0, SK_DYNAMIC_VECTOR, 7 * 12 * b.size), 0);
        CHECK_EQ_LONG(exchange(&b, SK_DYNAMIC_VECTOR, 3, 0), 0);
    }
    CHECK_EQ_LONG(pairs, NBASES * 15 * 15);
    sk_basetype b;
    sk_basetype_parse("MPI_INT", &b, err, sizeof err);
    sk_msgtype t;
    CHECK_EQ_LONG(sk_msgtype_make(&b, 4, 40, &t, err, sizeof err), -1);
    CHECK_STR(err, "40 bytes are not a whole number of 48-byte elements of datatype pattern 4");
}

int main(int argc, char **argv)
{
    test_base_types();
    test_layouts();
    test_copy_loops();
    MPI_Init(&argc, &argv);
    test_exchanges();
    MPI_Finalize();
    UNIT_DONE();
}
