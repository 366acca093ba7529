/* OSU's persistent point-to-point programs: osu_latency_persistent,
 * osu_bw_persistent, osu_bibw_persistent.  The loops of osu_latency, osu_bw
 * and osu_bibw, but every message is a persistent request (MPI_Send_init /
 * MPI_Recv_init before the size's first iteration, MPI_Start(all) and
 * MPI_Wait(all) in it, MPI_Request_free after the size).  These are MPI-1
 * calls: OSU 7.4 builds the three programs without --enable-mpi4, and so
 * does effbench (no .needs).  The checked pass starts the same requests. */
#include "osu/osu.h"
#include "osu/osu_p2p.h"

#include "core/registry.h"

#define TAG_DATA 1
#define TAG_BW 100
#define TAG_BIBW_BACK 10
#define TAG_ACK 101

/* The previous size's requests go before its buffers can (-b multiple). */
static void free_persistent(osu_p2p *m)
{
    for (int k = 0; k < m->npersistent; k++)
        MPI_Request_free(&m->req[k]);
    m->npersistent = 0;
}

/* ---- osu_latency_persistent: req[0] sends, req[1] receives ------------- */

static void latency_requests(osu_ctx *c, osu_p2p *m)
{
    int peer = 1 - c->rank;
    MPI_Send_init(m->s[0], m->count, m->type, peer, TAG_DATA, c->comm, &m->req[0]);
    MPI_Recv_init(m->r[0], m->count, m->type, peer, TAG_DATA, c->comm, &m->req[1]);
    m->npersistent = 2;
}

static double persistent_round_trip(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    int first = c->rank == 0 ? 0 : 1; /* rank 0 sends first */
    double t0 = MPI_Wtime();
    MPI_Start(&m->req[first]);
    MPI_Wait(&m->req[first], MPI_STATUS_IGNORE);
    MPI_Start(&m->req[1 - first]);
    MPI_Wait(&m->req[1 - first], MPI_STATUS_IGNORE);
    return MPI_Wtime() - t0;
}

static void latency_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p *m = osu_p2p_of(c);
    free_persistent(m);
    osu_p2p_size(c, row);
    latency_requests(c, m);
    osu_p2p_latency_row(c, row, persistent_round_trip);
}

static long latency_check(osu_ctx *c)
{
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, 1, i);
        MPI_Barrier(c->comm);
        persistent_round_trip(c);
        defects += osu_p2p_verify(c, 1, 1 - c->rank, i);
    }
    return defects;
}

static int latency_setup(osu_ctx *c, char *err, size_t n) { return osu_p2p_setup(c, 1, err, n); }

static const osu_prog osu_latency_persistent = {
    .name = "osu_latency_persistent",
    .title = "OSU MPI%s Latency Persistent Test",
    OSU_P2P_PAIR,
    .row = OSU_ROW_LATENCY,
    .optstring = OSU_OPTS_PT2PT_LAT,
    .loops = {10000, 100, 1000, 10},
    .default_min_size = 0,
    .setup = latency_setup,
    .measure = latency_measure,
    .check = latency_check,
    .teardown = osu_p2p_teardown,
};

/* ---- osu_bw_persistent: rank 0's W sends or rank 1's W receives -------- */

static void bw_requests(osu_ctx *c, osu_p2p *m)
{
    int w = c->o->window_size;
    for (int j = 0; j < w; j++) {
        if (c->rank == 0)
            MPI_Send_init(osu_p2p_s(m, j), m->count, m->type, 1, TAG_BW, c->comm, &m->req[j]);
        else
            MPI_Recv_init(osu_p2p_r(m, j), m->count, m->type, 0, TAG_BW, c->comm, &m->req[j]);
    }
    m->npersistent = w;
}

static double bw_window(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    int w = c->o->window_size;
    double t0 = MPI_Wtime();
    MPI_Startall(w, m->req);
    MPI_Waitall(w, m->req, MPI_STATUSES_IGNORE);
    if (c->rank == 0)
        MPI_Recv(m->r[0], 1, MPI_CHAR, 1, TAG_ACK, c->comm, MPI_STATUS_IGNORE);
    else
        MPI_Send(m->s[0], 1, MPI_CHAR, 0, TAG_ACK, c->comm);
    return MPI_Wtime() - t0;
}

static void bw_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p *m = osu_p2p_of(c);
    free_persistent(m);
    osu_p2p_size(c, row);
    bw_requests(c, m);
    osu_p2p_bandwidth_row(c, row, bw_window, 1);
}

static long bw_check(osu_ctx *c) { return osu_p2p_windows_checked(c, bw_window, 1); }

static int window_setup(osu_ctx *c, char *err, size_t n)
{
    return osu_p2p_setup(c, c->o->window_size, err, n);
}

static const osu_prog osu_bw_persistent = {
    .name = "osu_bw_persistent",
    .title = "OSU MPI%s Bandwidth Persistent Test",
    OSU_P2P_PAIR,
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OSU_OPTS_PT2PT_BW,
    .loops = {100, 10, 20, 2},
    .default_min_size = 1,
    .setup = window_setup,
    .measure = bw_measure,
    .check = bw_check,
    .teardown = osu_p2p_teardown,
};

/* ---- osu_bibw_persistent: req[0..W) receive, req[W..2W) send ----------- */

static void bibw_requests(osu_ctx *c, osu_p2p *m)
{
    int w = c->o->window_size, peer = 1 - c->rank;
    int tag_in = c->rank == 0 ? TAG_BIBW_BACK : TAG_BW;
    int tag_out = c->rank == 0 ? TAG_BW : TAG_BIBW_BACK;
    for (int j = 0; j < w; j++) {
        MPI_Recv_init(osu_p2p_r(m, j), m->count, m->type, peer, tag_in, c->comm, &m->req[j]);
        MPI_Send_init(osu_p2p_s(m, j), m->count, m->type, peer, tag_out, c->comm,
                      &m->req[w + j]);
    }
    m->npersistent = 2 * w;
}

/* OSU: both ranks start the receives, then the sends, wait for the sends,
 * then the receives. */
static double bibw_window(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    int w = c->o->window_size;
    double t0 = MPI_Wtime();
    MPI_Startall(w, m->req);
    MPI_Startall(w, m->req + w);
    MPI_Waitall(w, m->req + w, MPI_STATUSES_IGNORE);
    MPI_Waitall(w, m->req, MPI_STATUSES_IGNORE);
    return MPI_Wtime() - t0;
}

static void bibw_measure(osu_ctx *c, osu_row *row)
{
    osu_p2p *m = osu_p2p_of(c);
    free_persistent(m);
    osu_p2p_size(c, row);
    bibw_requests(c, m);
    osu_p2p_bandwidth_row(c, row, bibw_window, 2);
}

static long bibw_check(osu_ctx *c) { return osu_p2p_windows_checked(c, bibw_window, 2); }

static const osu_prog osu_bibw_persistent = {
    .name = "osu_bibw_persistent",
    .title = "OSU MPI%s Bi-Directional Bandwidth Persistent Test",
    OSU_P2P_PAIR,
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OSU_OPTS_PT2PT_BW,
    .loops = {100, 10, 20, 2},
    .default_min_size = 1,
    .setup = window_setup,
    .measure = bibw_measure,
    .check = bibw_check,
    .teardown = osu_p2p_teardown,
};

EB_CONSTRUCTOR(register_osu_pt2pt_persistent)
{
    osu_register(&osu_latency_persistent);
    osu_register(&osu_bw_persistent);
    osu_register(&osu_bibw_persistent);
}
