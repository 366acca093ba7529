/* SsendPingPong: IMB-P2P's PingPong with synchronous sends (MPI_Ssend), the
 * IMB-P2P worked example of docs/extending.md.  Rank i and i + P/2 make a
 * pair; the first half sends first.  One step is one round trip. */
#include "core/registry.h"
#include "imbp2p/p2p.h"

static void ssend_to(p2p_ctx *c, int peer)
{
    p2p_before_send(c, c->sbuf[0]); /* -msgwr, or -check's pattern */
    MPI_Ssend(c->sbuf[0], (int)c->bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
}

static void recv_from(p2p_ctx *c, int peer)
{
    p2p_before_recv(c, c->rbuf[0]);
    MPI_Recv(c->rbuf[0], (int)c->bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    p2p_after_recv(c, c->rbuf[0], peer); /* -msgrd, or -check's defects */
}

static void ssend_pingpong_step(p2p_ctx *c)
{
    int half = c->nranks / 2, peer = (c->rank + half) % c->nranks;
    if (c->rank < half) {
        ssend_to(c, peer);
        recv_from(c, peer);
    } else {
        recv_from(c, peer);
        ssend_to(c, peer);
    }
    c->messages += 2; /* IMB counts every rank's sends and receives, then halves */
}

static const p2p_bench ssend_pingpong = {
    .name = "SsendPingPong", .invalid_text = "# !! Benchmark %s is invalid for %d processes !!",
    .even_procs = 1, .nbufs = 1, .latency_factor = 2, /* t: half a round trip */
    .barrier_after_warm_up = 1, .step = ssend_pingpong_step,
};

EB_CONSTRUCTOR(register_ssend_pingpong_p2p) { p2p_register_bench(&ssend_pingpong); }
