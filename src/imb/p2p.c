/* IMB-MPI1 point-to-point benchmarks: PingPong, PingPing (and their
 * SpecificSource and AnySource variants), Sendrecv, Exchange, as the IMB user
 * guide defines them.  MPI_BYTE data (IMB 2021's -data_type and -contig_type change it);
 * the receiving side of PingPong and PingPing uses MPI_ANY_SOURCE (the
 * guide's), the SpecificSource variants the partner's rank, the AnySource
 * variants (IMB 2021's names for the guide's kernels) MPI_ANY_SOURCE. */
#include "core/component_names.h"
#include "core/large_count.h"
#include "core/mpi_features.h"
#include "core/registry.h"
#include "imb/driver/bench.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/large_rows.h"
#include "imb/driver/msg_layout.h"

#define TAG 1000

static int partner(const eb_ctx *c) { return 1 - c->rank; }
static int left(const eb_ctx *c) { return (c->rank - 1 + c->size) % c->size; }
static int right(const eb_ctx *c) { return (c->rank + 1) % c->size; }

/* The message: x bytes as elements of -data_type (MPI_BYTE by default) in
 * -contig_type's layout (imb/driver/msg_layout.h), counted in eb_count; past
 * INT_MAX elements the calls are MPI-4's _c ones. */
static MPI_Datatype dtype(const eb_ctx *c) { return c->lay.type; }
static eb_count count(const eb_ctx *c) { return c->lay.count; }

static void pingpong(eb_ctx *c, long first, long n, int source)
{
    int peer = partner(c), big = eb_row_large(c);
    eb_count x = count(c);
    MPI_Datatype dt = dtype(c);
    for (long i = first; i < first + n; i++) {
        if (c->rank == 0) {
            EB_P2P_CALL(big, MPI_Send, eb_sbuf(c, i), x, dt, peer, TAG, c->comm);
            EB_P2P_CALL(big, MPI_Recv, eb_rbuf(c, i), x, dt, source, TAG, c->comm,
                        MPI_STATUS_IGNORE);
        } else {
            EB_P2P_CALL(big, MPI_Recv, eb_rbuf(c, i), x, dt, source, TAG, c->comm,
                        MPI_STATUS_IGNORE);
            EB_P2P_CALL(big, MPI_Send, eb_sbuf(c, i), x, dt, peer, TAG, c->comm);
        }
    }
}

static void pingpong_any(eb_ctx *c, long first, long n) { pingpong(c, first, n, MPI_ANY_SOURCE); }
static void pingpong_specific(eb_ctx *c, long first, long n) { pingpong(c, first, n, partner(c)); }

static void pingping(eb_ctx *c, long first, long n, int source)
{
    int peer = partner(c), big = eb_row_large(c);
    eb_count x = count(c);
    MPI_Datatype dt = dtype(c);
    MPI_Request req;
    for (long i = first; i < first + n; i++) {
        EB_P2P_CALL(big, MPI_Isend, eb_sbuf(c, i), x, dt, peer, TAG, c->comm, &req);
        EB_P2P_CALL(big, MPI_Recv, eb_rbuf(c, i), x, dt, source, TAG, c->comm,
                    MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}

static void pingping_any(eb_ctx *c, long first, long n) { pingping(c, first, n, MPI_ANY_SOURCE); }
static void pingping_specific(eb_ctx *c, long first, long n) { pingping(c, first, n, partner(c)); }

static long check_from_partner(eb_ctx *c, long i)
{
    return eb_layout_check_pattern(&c->lay, eb_rbuf(c, i), c->x, partner(c), 0);
}

static void sendrecv(eb_ctx *c, long first, long n)
{
    int l = left(c), r = right(c), big = eb_row_large(c);
    eb_count x = count(c);
    MPI_Datatype dt = dtype(c);
    for (long i = first; i < first + n; i++)
        EB_P2P_CALL(big, MPI_Sendrecv, eb_sbuf(c, i), x, dt, r, TAG, eb_rbuf(c, i), x, dt, l,
                    TAG, c->comm, MPI_STATUS_IGNORE);
}

static long check_sendrecv(eb_ctx *c, long i)
{
    return eb_layout_check_pattern(&c->lay, eb_rbuf(c, i), c->x, left(c), 0);
}

/* Exchange sends from two separate buffers (the guide), so the send extent
 * is 2X; the receive extent is 2X too, so -check can see both messages (the
 * second one at the layout's span of X). */
static void exchange_extents(size_t x, int np, size_t *s_len, size_t *r_len)
{
    (void)np;
    *s_len = 2 * x;
    *r_len = 2 * x;
}

static void exchange(eb_ctx *c, long first, long n)
{
    int l = left(c), r = right(c), big = eb_row_large(c);
    eb_count x = count(c);
    MPI_Datatype dt = dtype(c);
    size_t half = eb_layout_span(&c->lay, c->x);
    MPI_Request req[2];
    for (long i = first; i < first + n; i++) {
        char *s = eb_sbuf(c, i), *rb = eb_rbuf(c, i);
        EB_P2P_CALL(big, MPI_Isend, s, x, dt, r, TAG, c->comm, &req[0]);
        EB_P2P_CALL(big, MPI_Isend, s + half, x, dt, l, TAG, c->comm, &req[1]);
        EB_P2P_CALL(big, MPI_Recv, rb, x, dt, l, TAG, c->comm, MPI_STATUS_IGNORE);
        EB_P2P_CALL(big, MPI_Recv, rb + half, x, dt, r, TAG, c->comm, MPI_STATUS_IGNORE);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
}

/* From the left neighbour comes what it sent to its right (its first half),
 * from the right neighbour what it sent to its left (its second half). */
static long check_exchange(eb_ctx *c, long i)
{
    const char *rb = eb_rbuf(c, i);
    size_t half = eb_layout_span(&c->lay, c->x);
    return eb_layout_check_pattern(&c->lay, rb, c->x, left(c), 0) +
           eb_layout_check_pattern(&c->lay, rb + half, c->x, right(c), half);
}

/* Past INT_MAX elements the kernels make MPI_Send_c and the other _c calls. */
#define MPI1_P2P .component = EB_COMPONENT_MPI1, .large_counts = EB_MPI_LARGE_COUNT

static const eb_bench p2p_benches[] = {
    {MPI1_P2P, .name = "PingPong", .order = 100, .cls = EB_SINGLE_TRANSFER,
     .fixed_procs = 2, .nmsg = 1, .time_divisor = 2, .kernel = pingpong_any,
     .check = check_from_partner},
    {MPI1_P2P, .name = "PingPongSpecificSource", .order = 110,
     .cls = EB_SINGLE_TRANSFER, .flags = EB_F_EXPLICIT_ONLY, .fixed_procs = 2, .nmsg = 1,
     .time_divisor = 2, .kernel = pingpong_specific, .check = check_from_partner},
    {MPI1_P2P, .name = "PingPongAnySource", .order = 115,
     .cls = EB_SINGLE_TRANSFER, .flags = EB_F_EXPLICIT_ONLY, .fixed_procs = 2, .nmsg = 1,
     .time_divisor = 2, .kernel = pingpong_any, .check = check_from_partner},
    {MPI1_P2P, .name = "PingPing", .order = 120, .cls = EB_SINGLE_TRANSFER,
     .fixed_procs = 2, .nmsg = 1, .kernel = pingping_any, .check = check_from_partner},
    {MPI1_P2P, .name = "PingPingSpecificSource", .order = 130,
     .cls = EB_SINGLE_TRANSFER, .flags = EB_F_EXPLICIT_ONLY, .fixed_procs = 2, .nmsg = 1,
     .kernel = pingping_specific, .check = check_from_partner},
    {MPI1_P2P, .name = "PingPingAnySource", .order = 135,
     .cls = EB_SINGLE_TRANSFER, .flags = EB_F_EXPLICIT_ONLY, .fixed_procs = 2, .nmsg = 1,
     .kernel = pingping_any, .check = check_from_partner},
    {MPI1_P2P, .name = "Sendrecv", .order = 140, .cls = EB_PARALLEL_TRANSFER,
     .nmsg = 2, .kernel = sendrecv, .check = check_sendrecv},
    {MPI1_P2P, .name = "Exchange", .order = 150, .cls = EB_PARALLEL_TRANSFER,
     .nmsg = 4, .extents = exchange_extents, .kernel = exchange, .check = check_exchange},
};

EB_CONSTRUCTOR(register_p2p)
{
    for (size_t i = 0; i < sizeof p2p_benches / sizeof p2p_benches[0]; i++)
        eb_register_bench(&p2p_benches[i]);
}
