/* osu_ssend_latency: osu_latency with synchronous sends (MPI_Ssend), the OSU
 * worked example of docs/extending.md.  Rank 0 sends, rank 1 answers; the
 * row is half the average round trip, as osu_latency's. */
#include "core/registry.h"
#include "osu/osu.h"
#include "osu/osu_p2p.h"

/* One round trip of the current size (osu_p2p.h's message); its seconds. */
static double ssend_round_trip(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    int peer = 1 - c->rank;
    double t0 = MPI_Wtime();
    if (c->rank == 0)
        MPI_Ssend(m->s[0], m->count, m->type, peer, OSU_P2P_TAG_DATA, c->comm);
    MPI_Recv(m->r[0], m->count, m->type, peer, OSU_P2P_TAG_DATA, c->comm, MPI_STATUS_IGNORE);
    if (c->rank == 1)
        MPI_Ssend(m->s[0], m->count, m->type, peer, OSU_P2P_TAG_DATA, c->comm);
    return MPI_Wtime() - t0;
}

static int setup(osu_ctx *c, char *err, size_t n) { return osu_p2p_setup(c, 1, err, n); }

static void measure(osu_ctx *c, osu_row *row)
{
    osu_p2p_size(c, row);
    osu_p2p_latency_row(c, row, ssend_round_trip);
}

/* -c / -check, outside the timing: each iteration's pattern, both ways. */
static long check(osu_ctx *c)
{
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, 1, i);
        MPI_Barrier(c->comm);
        ssend_round_trip(c);
        defects += osu_p2p_verify(c, 1, 1 - c->rank, i);
    }
    return defects;
}

static const osu_prog osu_ssend_latency = {
    .name = "osu_ssend_latency",
    .title = "OSU MPI%s Ssend Latency Test",    /* %s: OSU's accelerator word, "" */
    OSU_P2P_PAIR,                                /* 2 processes, "# Datatype:" lines */
    .row = OSU_ROW_LATENCY,                      /* "Avg Latency(us)" */
    .optstring = OSU_OPTS_PT2PT_LAT,             /* osu_latency's options */
    .loops = {10000, 100, 1000, 10},             /* iterations, skip; above 8 KiB */
    .setup = setup, .measure = measure, .check = check, .teardown = osu_p2p_teardown,
};

EB_CONSTRUCTOR(register_osu_ssend_latency) { osu_register(&osu_ssend_latency); }
