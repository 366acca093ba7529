/* IMB 2021.11's -contig_type layouts (imb/driver/msg_layout.h): the datatypes,
 * counts and buffer scale each value makes, where a message's bytes land
 * (a real MPI_Sendrecv to self, as a singleton), that -check reads them at
 * those places and that a message in another layout is caught. */
#include "imb/driver/imb2021_options.h"
#include "imb/driver/msg_layout.h"
#include "imb/driver/options.h"
#include "imb/driver/plan.h"
#include "unit.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static void words(void)
{
    static const char *const w[] = {"base", "base_vec", "resize", "resize_vec"};
    eb_contig ct;
    for (int k = 0; k < 4; k++) {
        CHECK_EQ_LONG(eb_contig_parse(w[k], &ct), 0);
        CHECK_EQ_LONG(ct, k);
        CHECK_STR(eb_contig_word(ct), w[k]);
        CHECK_EQ_LONG(eb_contig_scale(ct), k >= 2 ? 2 : 1);
    }
    CHECK_EQ_LONG(eb_contig_parse("resized", &ct), -1);
}

/* Datatype, count and op of 16 bytes of floats under each value. */
static void made(void)
{
    eb_layout l;
    int size;
    MPI_Aint lb, extent;
    eb_layout_make(&l, EB_CONTIG_BASE, EB_DT_FLOAT, 16, 1);
    CHECK(l.type == MPI_FLOAT && l.count == 4 && l.op == MPI_SUM && l.scale == 1);
    eb_layout_free(&l);
    eb_layout_make(&l, EB_CONTIG_BASE_VEC, EB_DT_FLOAT, 16, 1);
    MPI_Type_size(l.type, &size);
    MPI_Type_get_extent(l.type, &lb, &extent);
    CHECK(l.count == 1 && size == 16 && lb == 0 && extent == 16 && l.op != MPI_SUM);
    CHECK_EQ_LONG(l.per_item, 4);
    eb_layout_free(&l);
    eb_layout_make(&l, EB_CONTIG_RESIZE, EB_DT_FLOAT, 16, 0);
    MPI_Type_size(l.type, &size);
    MPI_Type_get_extent(l.type, &lb, &extent);
    CHECK(l.count == 4 && size == 4 && lb == 4 && extent == 8 && l.scale == 2);
    CHECK(l.op == MPI_SUM); /* no operation made for data movement */
    eb_layout_free(&l);
    eb_layout_make(&l, EB_CONTIG_RESIZE_VEC, EB_DT_FLOAT, 16, 1);
    MPI_Type_size(l.type, &size);
    MPI_Type_get_extent(l.type, &lb, &extent);
    CHECK(l.count == 1 && size == 16 && extent == 32 && l.scale == 2 && l.op != MPI_SUM);
    eb_layout_free(&l);
    eb_layout_make(&l, EB_CONTIG_BASE_VEC, EB_DT_FLOAT, 0, 1); /* 0 bytes: no vector */
    CHECK(l.type == MPI_FLOAT && l.count == 0);
    eb_layout_free(&l);
}

/* A message of `x` bytes sent to self in layout ct: received in layout
 * `as`, checked as ct.  Returns the defects. */
static long self_message(eb_contig ct, eb_contig as, size_t x)
{
    eb_layout l, r;
    eb_layout_make(&l, ct, EB_DT_BYTE, x, 0);
    eb_layout_make(&r, as, EB_DT_BYTE, x, 0);
    unsigned char *s = malloc(2 * x), *d = malloc(2 * x);
    eb_fill_pattern(s, 2 * x, 0, 0);
    eb_poison(d, 2 * x);
    MPI_Sendrecv(s, (int)l.count, l.type, 0, 1, d, (int)r.count, r.type, 0, 1, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
    long bad = eb_layout_check_pattern(&l, d, x, 0, 0);
    if (ct == EB_CONTIG_RESIZE) /* the bytes at the even places, the odd ones untouched */
        for (size_t k = 0; k < 2 * x; k++)
            bad += k % 2 ? d[k] != EB_POISON_BYTE : d[k] != eb_pattern_byte(0, k);
    eb_layout_free(&l);
    eb_layout_free(&r);
    free(s);
    free(d);
    return bad;
}

static void moved(void)
{
    for (int ct = 0; ct < 4; ct++)
        CHECK_EQ_LONG(self_message((eb_contig)ct, (eb_contig)ct, 64), 0);
    /* a message packed as base where resize was expected: its bytes sit at the
     * wrong places and the gaps hold data */
    CHECK(self_message(EB_CONTIG_RESIZE, EB_CONTIG_BASE, 64) > 32);
    CHECK(self_message(EB_CONTIG_RESIZE_VEC, EB_CONTIG_BASE_VEC, 64) > 32);
}

/* The strided sum of an Allreduce on MPI_COMM_SELF leaves the gaps alone;
 * the reduction check reads the sums and the gaps. */
static void reduced(void)
{
    for (int ct = 1; ct < 4; ct++) {
        eb_layout l;
        eb_layout_make(&l, (eb_contig)ct, EB_DT_INT, 32, 1);
        int in[16], out[16];
        eb_fill_reduction(in, sizeof in, EB_DT_INT, 0);
        eb_poison(out, sizeof out);
        MPI_Allreduce(in, out, (int)l.count, l.type, l.op, MPI_COMM_SELF);
        CHECK_EQ_LONG(eb_layout_check_reduction(&l, out, 8, 1, 0), 0);
        memcpy(out, in, sizeof out); /* every element written: the gaps too */
        CHECK_EQ_LONG(eb_layout_check_reduction(&l, out, 8, 1, 0), ct >= 2 ? 8 * 4 : 0);
        eb_layout_free(&l);
    }
}

/* -mem counts the doubled buffers: PingPong's extents at 1024 bytes. */
static void extents(void)
{
    eb_imb_options o;
    int m;
    const eb_bench *pp = eb_find_bench("mpi1", "PingPong", &m);
    const eb_bench *ex = eb_find_bench("mpi1", "Exchange", &m);
    CHECK(pp && ex);
    memset(&o, 0, sizeof o);
    eb_imb2021_init(&o.imb21);
    size_t s, r;
    eb_layout_extents(&o, pp, 1024, 2, &s, &r);
    CHECK(s == 1024 && r == 1024);
    o.imb21.contig_type = EB_CONTIG_RESIZE_VEC;
    eb_layout_extents(&o, pp, 1024, 2, &s, &r);
    CHECK(s == 2048 && r == 2048);
    eb_layout_extents(&o, ex, 1024, 2, &s, &r);
    CHECK(s == 4096 && r == 4096);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    words();
    made();
    moved();
    reduced();
    extents();
    MPI_Finalize();
    UNIT_DONE();
}
