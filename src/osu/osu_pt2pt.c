/* OSU's point-to-point programs between two processes: osu_latency
 * (ping-pong, half the round trip of each iteration), osu_bw (a window of
 * non-blocking sends, one acknowledgement, MB/s = bytes * window *
 * iterations / 10^6 / time) and osu_bibw (windows both ways at once, twice
 * the bytes).  The message is osu_p2p.h's: the -T type or the -D derived
 * type, one or -b multiple buffers.  The checked pass sends each
 * iteration's own pattern and verifies every byte on arrival, outside the
 * timed loop.  -d's buffers and --stage-through-host's copies: osu_p2p.h's
 * osu_p2p_out / osu_p2p_in / osu_p2p_landed. */
#include "osu/osu.h"
#include "osu/osu_p2p.h"

#include "core/registry.h"

#define TAG_BW 100
#define TAG_BIBW_BACK 10
#define TAG_ACK 101

/* Single-window programs (osu_latency: its buffers do not depend on -W). */
static int latency_setup(osu_ctx *c, char *err, size_t n) { return osu_p2p_setup(c, 1, err, n); }
static int window_setup(osu_ctx *c, char *err, size_t n)
{
    return osu_p2p_setup(c, c->o->window_size, err, n);
}

/* ---- osu_latency ----------------------------------------------------- */

static void latency_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p_size(c, row);
    osu_p2p_latency_row(c, row, osu_p2p_round_trip);
}

/* Both directions carry the sender's pattern for iteration i. */
static long latency_check(osu_ctx *c)
{
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, 1, i);
        MPI_Barrier(c->comm);
        osu_p2p_round_trip(c);
        defects += osu_p2p_verify(c, 1, 1 - c->rank, i);
    }
    return defects;
}

static const osu_prog osu_latency = {
    .name = "osu_latency",
    .title = "OSU MPI%s Latency Test",
    OSU_P2P_PAIR,
    .row = OSU_ROW_LATENCY,
    .optstring = OSU_OPTS_PT2PT_LAT,
    .loops = {10000, 100, 1000, 10},
    .default_min_size = 0,
    .setup = latency_setup,
    .measure = latency_measure,
    .check = latency_check,
    .teardown = osu_p2p_teardown,
    .stages = 1,
};

/* ---- osu_bw ------------------------------------------------------------ */

/* One window: rank 0 sends W messages, rank 1 receives them and acknowledges. */
static double bw_window(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    int w = c->o->window_size;
    double t0 = MPI_Wtime();
    if (c->rank == 0) {
        for (int j = 0; j < w; j++)
            MPI_Isend(osu_p2p_out(m, j), m->count, m->type, 1, TAG_BW, c->comm, &m->req[j]);
        MPI_Waitall(w, m->req, MPI_STATUSES_IGNORE);
        MPI_Recv(osu_p2p_ack_r(m), 1, MPI_CHAR, 1, TAG_ACK, c->comm, MPI_STATUS_IGNORE);
    } else {
        for (int j = 0; j < w; j++)
            MPI_Irecv(osu_p2p_in(m, j), m->count, m->type, 0, TAG_BW, c->comm, &m->req[j]);
        MPI_Waitall(w, m->req, MPI_STATUSES_IGNORE);
        for (int j = 0; j < w; j++)
            osu_p2p_landed(m, j);
        MPI_Send(osu_p2p_ack_s(m), 1, MPI_CHAR, 0, TAG_ACK, c->comm);
    }
    return MPI_Wtime() - t0;
}

static void bw_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p_size(c, row);
    osu_p2p_bandwidth_row(c, row, bw_window, 1);
}

static long bw_check(osu_ctx *c) { return osu_p2p_windows_checked(c, bw_window, 1); }

static const osu_prog osu_bw = {
    .name = "osu_bw",
    .title = "OSU MPI%s Bandwidth Test",
    OSU_P2P_PAIR,
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OSU_OPTS_PT2PT_BW,
    .loops = {100, 10, 20, 2},
    .default_min_size = 1,
    .setup = window_setup,
    .measure = bw_measure,
    .check = bw_check,
    .teardown = osu_p2p_teardown,
    .stages = 1,
};

/* ---- osu_bibw ---------------------------------------------------------- */

/* Both ranks post W receives and W sends; rank 0 waits for its sends first,
 * rank 1 for its receives (OSU's order). */
static double bibw_window(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    int w = c->o->window_size, peer = 1 - c->rank;
    int tag_in = c->rank == 0 ? TAG_BIBW_BACK : TAG_BW, tag_out = c->rank == 0 ? TAG_BW
                                                                               : TAG_BIBW_BACK;
    MPI_Request *recv = m->req, *send = m->req + w;
    double t0 = MPI_Wtime();
    for (int j = 0; j < w; j++)
        MPI_Irecv(osu_p2p_in(m, j), m->count, m->type, peer, tag_in, c->comm, &recv[j]);
    for (int j = 0; j < w; j++)
        MPI_Isend(osu_p2p_out(m, j), m->count, m->type, peer, tag_out, c->comm, &send[j]);
    MPI_Waitall(w, c->rank == 0 ? send : recv, MPI_STATUSES_IGNORE);
    MPI_Waitall(w, c->rank == 0 ? recv : send, MPI_STATUSES_IGNORE);
    for (int j = 0; j < w; j++)
        osu_p2p_landed(m, j);
    return MPI_Wtime() - t0;
}

static void bibw_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p_size(c, row);
    osu_p2p_bandwidth_row(c, row, bibw_window, 2);
}

static long bibw_check(osu_ctx *c) { return osu_p2p_windows_checked(c, bibw_window, 2); }

static const osu_prog osu_bibw = {
    .name = "osu_bibw",
    .title = "OSU MPI%s Bi-Directional Bandwidth Test",
    OSU_P2P_PAIR,
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OSU_OPTS_PT2PT_BW,
    .loops = {100, 10, 20, 2},
    .default_min_size = 1,
    .setup = window_setup,
    .measure = bibw_measure,
    .check = bibw_check,
    .teardown = osu_p2p_teardown,
    .stages = 1,
};

EB_CONSTRUCTOR(register_osu_pt2pt)
{
    osu_register(&osu_latency);
    osu_register(&osu_bw);
    osu_register(&osu_bibw);
}
