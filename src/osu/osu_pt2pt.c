/* OSU's point-to-point programs between two processes: osu_latency
 * (ping-pong, half the round trip of each iteration) and osu_bw (a window of
 * non-blocking sends, one acknowledgement, MB/s = bytes * window *
 * iterations / 10^6 / time).  The checked pass sends each iteration's own
 * pattern and verifies every byte on arrival, outside the timed loop. */
#include "osu/osu.h"

#include "core/buffers.h"
#include "core/error.h"
#include "core/registry.h"

#include <stdlib.h>

#define TAG_DATA 1
#define TAG_ACK 101

typedef struct {
    char *s, *r;
    MPI_Request *req;
} pt2pt_bufs;

static int pt2pt_setup(osu_ctx *c, char *err, size_t n)
{
    (void)err, (void)n;
    pt2pt_bufs *b = eb_calloc(1, sizeof *b);
    b->s = osu_alloc(c->o->max_size);
    b->r = osu_alloc(c->o->max_size);
    b->req = eb_calloc((size_t)c->o->window_size, sizeof *b->req);
    c->priv = b;
    return 0;
}

static void pt2pt_teardown(osu_ctx *c)
{
    pt2pt_bufs *b = c->priv;
    free(b->s);
    free(b->r);
    free(b->req);
    free(b);
}

/* ---- osu_latency ----------------------------------------------------- */

/* One round trip from rank 0; its time on rank 0. */
static double round_trip(osu_ctx *c, pt2pt_bufs *b)
{
    int n = (int)c->count;
    double t0 = MPI_Wtime();
    if (c->rank == 0) {
        MPI_Send(b->s, n, c->dtype, 1, TAG_DATA, c->comm);
        MPI_Recv(b->r, n, c->dtype, 1, TAG_DATA, c->comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(b->r, n, c->dtype, 0, TAG_DATA, c->comm, MPI_STATUS_IGNORE);
        MPI_Send(b->s, n, c->dtype, 0, TAG_DATA, c->comm);
    }
    return MPI_Wtime() - t0;
}

static void latency_measure(osu_ctx *c, osu_row *row)
{
    pt2pt_bufs *b = c->priv;
    double total = 0;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        double t = round_trip(c, b);
        if (i < c->skip)
            continue;
        total += t;
        if (c->lat)
            c->lat[i - c->skip] = t * 1e6 / 2;
    }
    if (c->rank == 0)
        row->avg_us = total * 1e6 / (2.0 * (double)c->iterations);
    osu_percentiles(c, 0, row);
}

/* Both directions carry the sender's pattern for iteration i. */
static long latency_check(osu_ctx *c)
{
    pt2pt_bufs *b = c->priv;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_fill(b->s, c->bytes, c->rank, i);
        eb_poison(b->r, c->bytes);
        MPI_Barrier(c->comm);
        round_trip(c, b);
        defects += osu_verify(b->r, c->bytes, 1 - c->rank, i);
    }
    return defects;
}

static const osu_prog osu_latency = {
    .name = "osu_latency",
    .title = "OSU MPI%s Latency Test",
    .bench = OSU_PT2PT,
    .row = OSU_ROW_LATENCY,
    .optstring = "+:hvm:x:i:b:c::u:G:D:P:T:Iz::",
    .loops = {10000, 100, 1000, 10},
    .default_min_size = 0,
    .exact_procs = 2,
    .datatype_lines = 1,
    .setup = pt2pt_setup,
    .measure = latency_measure,
    .check = latency_check,
    .teardown = pt2pt_teardown,
};

/* ---- osu_bw ------------------------------------------------------------ */

/* One window: rank 0 sends W messages, rank 1 receives them and acknowledges. */
static double window(osu_ctx *c, pt2pt_bufs *b)
{
    int n = (int)c->count, w = c->o->window_size;
    double t0 = MPI_Wtime();
    if (c->rank == 0) {
        for (int j = 0; j < w; j++)
            MPI_Isend(b->s, n, c->dtype, 1, TAG_DATA, c->comm, &b->req[j]);
        MPI_Waitall(w, b->req, MPI_STATUSES_IGNORE);
        MPI_Recv(b->r, 1, MPI_CHAR, 1, TAG_ACK, c->comm, MPI_STATUS_IGNORE);
    } else {
        for (int j = 0; j < w; j++)
            MPI_Irecv(b->r, n, c->dtype, 0, TAG_DATA, c->comm, &b->req[j]);
        MPI_Waitall(w, b->req, MPI_STATUSES_IGNORE);
        MPI_Send(b->s, 1, MPI_CHAR, 0, TAG_ACK, c->comm);
    }
    return MPI_Wtime() - t0;
}

static void bw_measure(osu_ctx *c, osu_row *row)
{
    pt2pt_bufs *b = c->priv;
    double total = 0, mb = (double)c->bytes / 1e6 * c->o->window_size;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        double t = window(c, b);
        if (i < c->skip)
            continue;
        total += t;
        if (c->lat)
            c->lat[i - c->skip] = mb / t;
    }
    if (c->rank == 0)
        row->mb_per_s = mb * (double)c->iterations / total;
    osu_percentiles(c, 0, row);
}

/* Every message of a window is the iteration's pattern of rank 0. */
static long bw_check(osu_ctx *c)
{
    pt2pt_bufs *b = c->priv;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        if (c->rank == 0)
            osu_fill(b->s, c->bytes, 0, i);
        eb_poison(b->r, c->bytes);
        MPI_Barrier(c->comm);
        window(c, b);
        if (c->rank == 1)
            defects += osu_verify(b->r, c->bytes, 0, i);
    }
    return defects;
}

static const osu_prog osu_bw = {
    .name = "osu_bw",
    .title = "OSU MPI%s Bandwidth Test",
    .bench = OSU_PT2PT,
    .row = OSU_ROW_BANDWIDTH,
    .optstring = "+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::",
    .loops = {100, 10, 20, 2},
    .default_min_size = 1,
    .exact_procs = 2,
    .datatype_lines = 1,
    .setup = pt2pt_setup,
    .measure = bw_measure,
    .check = bw_check,
    .teardown = pt2pt_teardown,
};

EB_CONSTRUCTOR(register_osu_pt2pt)
{
    osu_register(&osu_latency);
    osu_register(&osu_bw);
}
