/* Ssend_PingPong: IMB's PingPong with synchronous sends (MPI_Ssend), the
 * worked example of docs/extending.md.  An MPI_Ssend completes only once the
 * matching receive has started, so short messages pay for the handshake an
 * eager protocol skips: compare its small-message times with PingPong's. */
#include "core/registry.h"
#include "imb/driver/bench.h"

#define TAG 2000

static int partner(const eb_ctx *c) { return 1 - c->rank; }

/* n round trips; repetition i uses send and receive slot i (-off_cache). */
static void ssend_pingpong(eb_ctx *c, long first, long n)
{
    int peer = partner(c), x = (int)c->x;
    for (long i = first; i < first + n; i++) {
        if (c->rank == 0) {
            MPI_Ssend(eb_sbuf(c, i), x, MPI_BYTE, peer, TAG, c->comm);
            MPI_Recv(eb_rbuf(c, i), x, MPI_BYTE, peer, TAG, c->comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(eb_rbuf(c, i), x, MPI_BYTE, peer, TAG, c->comm, MPI_STATUS_IGNORE);
            MPI_Ssend(eb_sbuf(c, i), x, MPI_BYTE, peer, TAG, c->comm);
        }
    }
}

/* -check, outside the timing: bytes that differ from the partner's pattern. */
static long check_from_partner(eb_ctx *c, long i)
{
    return eb_check_pattern(eb_rbuf(c, i), c->x, partner(c), 0);
}

static const eb_bench ssend_pingpong_bench = {
    .component = "mpi1", .name = "Ssend_PingPong", .order = 105,
    .cls = EB_SINGLE_TRANSFER, .flags = EB_F_EXPLICIT_ONLY, /* by name only */
    .fixed_procs = 2, .nmsg = 1, .time_divisor = 2,          /* half a round trip */
    .kernel = ssend_pingpong, .check = check_from_partner,
};

EB_CONSTRUCTOR(register_ssend_pingpong) { eb_register_bench(&ssend_pingpong_bench); }
