/* OSU's blocking collectives: each iteration times one call and ends with a
 * barrier outside the timing; a rank's latency is its average, the row
 * OSU's average over ranks with min and max (-f).  The checked pass runs the
 * call again with each iteration's data and verifies every element. */
#include "osu/osu.h"

#include "core/buffers.h"
#include "core/error.h"
#include "core/registry.h"

#include <stdlib.h>

typedef struct {
    char *s, *r;
} coll_bufs;

/* Buffers for the largest size (times the process count where the call
 * gathers or scatters). */
static int coll_setup(osu_ctx *c, char *err, size_t n)
{
    (void)err, (void)n;
    coll_bufs *b = eb_calloc(1, sizeof *b);
    b->s = osu_alloc(c->o->max_size);
    b->r = osu_alloc(c->o->max_size);
    c->priv = b;
    return 0;
}

static void coll_teardown(osu_ctx *c)
{
    coll_bufs *b = c->priv;
    free(b->s);
    free(b->r);
    free(b);
}

/* OSU's loop around one call: the rank's average time per call in us. */
static double timed_calls(osu_ctx *c, void (*call)(osu_ctx *c))
{
    double timer = 0;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        double t0 = MPI_Wtime();
        call(c);
        double t = MPI_Wtime() - t0;
        MPI_Barrier(c->comm);
        if (i < c->skip)
            continue;
        timer += t;
        if (c->lat)
            c->lat[i - c->skip] = t * 1e6;
    }
    return timer * 1e6 / (double)c->iterations;
}

/* ---- osu_allreduce --------------------------------------------------- */

static void allreduce_call(osu_ctx *c)
{
    coll_bufs *b = c->priv;
    MPI_Allreduce(c->o->in_place ? MPI_IN_PLACE : b->s, b->r, (int)c->count, c->dtype, MPI_SUM,
                  c->comm);
}

static void allreduce_measure(osu_ctx *c, osu_row *row)
{
    osu_reduce_times(c, timed_calls(c, allreduce_call), row);
    osu_percentiles(c, 1, row);
}

/* Element k of rank r's data in iteration i: small integers, so the sum over
 * the ranks is exact in every -T type. */
static int element(int r, long i, size_t k) { return (int)((r + i + (long)k) % 5); }

static void fill_elements(void *p, MPI_Datatype t, size_t count, int r, long i)
{
    for (size_t k = 0; k < count; k++) {
        int v = element(r, i, k);
        if (t == MPI_INT)
            ((int *)p)[k] = v;
        else if (t == MPI_FLOAT)
            ((float *)p)[k] = (float)v;
        else
            ((signed char *)p)[k] = (signed char)v;
    }
}

static long check_sum(const void *p, MPI_Datatype t, size_t count, int np, long i)
{
    long bad = 0;
    for (size_t k = 0; k < count; k++) {
        long want = 0;
        for (int r = 0; r < np; r++)
            want += element(r, i, k);
        double got = t == MPI_INT     ? ((const int *)p)[k]
                     : t == MPI_FLOAT ? ((const float *)p)[k]
                                      : ((const signed char *)p)[k];
        bad += got != (double)(signed char)want && t == MPI_CHAR ? 1
               : t != MPI_CHAR && got != (double)want           ? 1
                                                                : 0;
    }
    return bad;
}

static long allreduce_check(osu_ctx *c)
{
    coll_bufs *b = c->priv;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        fill_elements(c->o->in_place ? b->r : b->s, c->dtype, c->count, c->rank, i);
        if (!c->o->in_place)
            eb_poison(b->r, c->bytes);
        MPI_Barrier(c->comm);
        allreduce_call(c);
        defects += check_sum(b->r, c->dtype, c->count, c->size, i);
    }
    return defects;
}

static const osu_prog osu_allreduce = {
    .name = "osu_allreduce",
    .title = "OSU MPI%s Allreduce Latency Test",
    .bench = OSU_COLLECTIVE,
    .row = OSU_ROW_LATENCY,
    .optstring = "+:hvfm:i:x:M:a:c::u:G:P:T:Ilz::",
    .loops = {1000, 100, 100, 10},
    .default_min_size = 1,
    .min_procs = 2,
    .datatype_lines = 1,
    .reduction = 1,
    .mem_limit = 1,
    .setup = coll_setup,
    .measure = allreduce_measure,
    .check = allreduce_check,
    .teardown = coll_teardown,
};

EB_CONSTRUCTOR(register_osu_coll)
{
    osu_register(&osu_allreduce);
}
