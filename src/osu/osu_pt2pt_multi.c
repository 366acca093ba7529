/* osu_multi_lat: OSU's multi-pair latency test.  Pairs by block order, rank
 * r < np/2 with r + np/2, all ping-pong at once; each iteration starts with
 * a barrier of all ranks (untimed).  The row: the senders' average of their
 * one-way latency (half the round trip).  OSU runs any process count, but
 * with an odd one its last receiver waits for a message nobody sends: effbench
 * asks for an even count.  With -z OSU prints the percentiles' column titles
 * and no values: so does effbench's text (its JSON has rank 0's). */
#include "osu/osu.h"
#include "osu/osu_p2p.h"
#include "osu/osu_text.h"

#include "core/own_coll.h"
#include "core/registry.h"

#define TAG_DATA 1

static int pairs_of(const osu_ctx *c) { return c->size / 2; }
static int partner(const osu_ctx *c)
{
    return c->rank < pairs_of(c) ? c->rank + pairs_of(c) : c->rank - pairs_of(c);
}

static double pair_round_trip(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    int peer = partner(c);
    MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    if (c->rank < pairs_of(c)) {
        MPI_Send(m->s[0], m->count, m->type, peer, TAG_DATA, c->comm);
        MPI_Recv(m->r[0], m->count, m->type, peer, TAG_DATA, c->comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(m->r[0], m->count, m->type, peer, TAG_DATA, c->comm, MPI_STATUS_IGNORE);
        MPI_Send(m->s[0], m->count, m->type, peer, TAG_DATA, c->comm);
    }
    return MPI_Wtime() - t0;
}

static void multi_lat_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p_size(c, row);
    double t = osu_p2p_loop(c, pair_round_trip, 0, 0), sum = 0;
    if (c->rank >= pairs_of(c))
        t = 0; /* OSU reduces over the senders only */
    eb_own_reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    if (c->rank == 0)
        row->avg_us = sum / pairs_of(c) * 1e6 / (2.0 * (double)c->iterations);
    osu_percentiles(c, 0, row); /* -z: rank 0's own round trips */
}

static long multi_lat_check(osu_ctx *c)
{
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, 1, i);
        pair_round_trip(c);
        defects += osu_p2p_verify(c, 1, partner(c), i);
    }
    return defects;
}

/* OSU's row: no -z values under its -z titles. */
static void multi_lat_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    fprintf(f, "%-*zu%*.*f", 10, row->bytes, OSU_FIELD_WIDTH, OSU_FLOAT_PRECISION, row->avg_us);
    if (c->o->validate)
        osu_text_validation(row, f);
    if (c->o->ddt)
        fprintf(f, "%*zu", OSU_FIELD_WIDTH, row->transmit_size);
    fputc('\n', f);
}

/* -d: OSU's allocate_memory_pt2pt_mul, the first half of the ranks SRC's letter */
static int multi_lat_setup(osu_ctx *c, char *err, size_t n)
{
    c->side = c->rank >= c->size / 2;
    return osu_p2p_setup(c, 1, err, n);
}

static const osu_prog osu_multi_lat = {
    .name = "osu_multi_lat",
    .title = "OSU MPI Multi Latency Test",
    .bench = OSU_PT2PT,
    .row = OSU_ROW_LATENCY,
    .optstring = OSU_OPTS_PT2PT_LAT,
    .loops = {10000, 100, 1000, 10},
    .default_min_size = 0,
    .min_procs = 2,
    .even_procs = 1,
    .datatype_lines = 1,
    .setup = multi_lat_setup,
    .measure = multi_lat_measure,
    .check = multi_lat_check,
    .teardown = osu_p2p_teardown,
    .row_text = multi_lat_row,
};

EB_CONSTRUCTOR(register_osu_pt2pt_multi)
{
    osu_register(&osu_multi_lat);
}
