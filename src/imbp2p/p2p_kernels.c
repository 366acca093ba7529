/* IMB-P2P's eight benchmarks: who talks to whom in one step, the stencils'
 * process grids, and the data each step touches or (under -check) fills and
 * verifies.  The timing loop around a step is p2p_run.c's. */
#include "imbp2p/p2p.h"

#include "core/buffers.h"
#include "core/error.h"
#include "core/registry.h"

#include <stdio.h>
#include <strings.h>

/* ---- what a step does to its data ---- */

/* Before a send: -msgwr's write of one byte per cache line, or under -check
 * the sender's pattern in every byte. */
void p2p_before_send(p2p_ctx *c, char *buf)
{
    if (c->checking) {
        eb_fill_pattern(buf, c->bytes, c->rank, 0);
    } else if (c->o->touch_send) {
        for (size_t i = 0; i < c->bytes; i += P2P_TOUCH_STRIDE)
            buf[i] = (char)c->dummy++;
    }
}

/* Before a receive is posted: under -check a value no sender writes, so a
 * message that never arrives cannot pass. */
void p2p_before_recv(p2p_ctx *c, char *buf)
{
    if (c->checking)
        eb_poison(buf, c->bytes);
}

/* After a receive: -msgrd's read of one byte per cache line, or under
 * -check every byte compared with the sender's pattern. */
void p2p_after_recv(p2p_ctx *c, const char *buf, int src)
{
    if (c->checking) {
        c->defects += eb_check_pattern(buf, c->bytes, src, 0);
    } else if (c->o->touch_recv) {
        for (size_t i = 0; i < c->bytes; i += P2P_TOUCH_STRIDE)
            c->dummy += (size_t)buf[i];
    }
}

static int count(const p2p_ctx *c) { return (int)c->bytes; }

/* ---- the steps ---- */

/* Rank i and i + P/2: the first half sends first. */
static void pingpong_step(p2p_ctx *c)
{
    int half = c->nranks / 2, partner = (c->rank + half) % c->nranks;
    if (c->rank < half) {
        p2p_before_send(c, c->sbuf[0]);
        MPI_Send(c->sbuf[0], count(c), MPI_BYTE, partner, 0, MPI_COMM_WORLD);
        p2p_before_recv(c, c->rbuf[0]);
        MPI_Recv(c->rbuf[0], count(c), MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        p2p_after_recv(c, c->rbuf[0], partner);
    } else {
        p2p_before_recv(c, c->rbuf[0]);
        MPI_Recv(c->rbuf[0], count(c), MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        p2p_after_recv(c, c->rbuf[0], partner);
        p2p_before_send(c, c->sbuf[0]);
        MPI_Send(c->sbuf[0], count(c), MPI_BYTE, partner, 0, MPI_COMM_WORLD);
    }
    c->messages += 2;
}

/* A message to `to` and one from `from` at once: a posted receive, a send,
 * the wait. */
static void shift(p2p_ctx *c, int to, int from)
{
    MPI_Request req;
    p2p_before_recv(c, c->rbuf[0]);
    MPI_Irecv(c->rbuf[0], count(c), MPI_BYTE, from, 0, MPI_COMM_WORLD, &req);
    p2p_before_send(c, c->sbuf[0]);
    MPI_Send(c->sbuf[0], count(c), MPI_BYTE, to, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    p2p_after_recv(c, c->rbuf[0], from);
    c->messages += 2;
}

/* Both partners send at once. */
static void exchange(p2p_ctx *c, int partner) { shift(c, partner, partner); }

static void pingping_step(p2p_ctx *c) { exchange(c, (c->rank + c->nranks / 2) % c->nranks); }

/* IMB-P2P's generator (a 64-bit linear congruential one, bits 24..55), the
 * same on every rank, so all ranks draw the same pairs and rings. */
static unsigned next_random(uint64_t *seed)
{
    *seed = *seed * 7560690468208412377ull + 4343336064253945357ull;
    return (unsigned)(uint32_t)(*seed >> 24);
}

static void random_pair(p2p_ctx *c, int *from, int *to)
{
    unsigned n = (unsigned)c->nranks;
    *from = (int)(next_random(&c->seed) % n);
    do
        *to = (int)(next_random(&c->seed) % n);
    while (*to == *from);
}

static void reset_seed(p2p_ctx *c) { c->seed = 0; }

/* A random pair: one message from the first to the second. */
static void unirandom_step(p2p_ctx *c)
{
    int from, to;
    random_pair(c, &from, &to);
    if (c->rank == from) {
        p2p_before_send(c, c->sbuf[0]);
        MPI_Send(c->sbuf[0], count(c), MPI_BYTE, to, 0, MPI_COMM_WORLD);
        c->messages++;
    } else if (c->rank == to) {
        p2p_before_recv(c, c->rbuf[0]);
        MPI_Recv(c->rbuf[0], count(c), MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        p2p_after_recv(c, c->rbuf[0], from);
        c->messages++;
    }
}

/* A random pair exchanges a message each way. */
static void birandom_step(p2p_ctx *c)
{
    int a, b;
    random_pair(c, &a, &b);
    if (c->rank == a || c->rank == b)
        exchange(c, c->rank == a ? b : a);
}

static void reset_ring(p2p_ctx *c)
{
    c->seed = 0;
    for (int i = 0; i < c->nranks; i++)
        c->ring[i] = i;
}

/* Every rank in a ring of IMB's random permutation (each position swapped
 * with a random one): a message to the next, one from the previous. */
static void corandom_step(p2p_ctx *c)
{
    int n = c->nranks, i = 0;
    for (int k = 0; k < n; k++) {
        int j = (int)(next_random(&c->seed) % (unsigned)n), r = c->ring[k];
        c->ring[k] = c->ring[j];
        c->ring[j] = r;
    }
    while (c->ring[i] != c->rank)
        i++;
    shift(c, c->ring[(i + 1) % n], c->ring[(i + n - 1) % n]);
}

/* A message to and from every grid neighbour, all at once. */
static void stencil_step(p2p_ctx *c)
{
    MPI_Request req[2 * P2P_MAX_NEIGHBOURS];
    int k = c->nnbr;
    for (int i = 0; i < k; i++)
        p2p_before_send(c, c->sbuf[i]);
    for (int i = 0; i < k; i++) {
        p2p_before_recv(c, c->rbuf[i]);
        MPI_Irecv(c->rbuf[i], count(c), MPI_BYTE, c->nbr[i], 0, MPI_COMM_WORLD, &req[i]);
    }
    for (int i = 0; i < k; i++)
        MPI_Isend(c->sbuf[i], count(c), MPI_BYTE, c->nbr[i], 0, MPI_COMM_WORLD, &req[k + i]);
    MPI_Waitall(2 * k, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < k; i++)
        p2p_after_recv(c, c->rbuf[i], c->nbr[i]);
    c->messages += 2 * k;
}

/* A ring: one buffer sent to the next rank and replaced by the previous
 * rank's.  IMB reads (-msgrd) it once after the loop, not after each step. */
static void sendrecv_replace_step(p2p_ctx *c)
{
    int dst = (c->rank + 1) % c->nranks, src = (c->rank + c->nranks - 1) % c->nranks;
    p2p_before_send(c, c->sbuf[0]);
    MPI_Sendrecv_replace(c->sbuf[0], count(c), MPI_BYTE, dst, 0, src, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    if (c->checking)
        p2p_after_recv(c, c->sbuf[0], src);
    c->messages += 2;
}

static void sendrecv_replace_after(p2p_ctx *c)
{
    if (!c->checking)
        p2p_after_recv(c, c->sbuf[0], 0);
}

/* ---- the table ---- */

#define INVALID "# !! Benchmark %s is invalid for %d processes !!"

static const p2p_bench BENCHES[] = {
    {.name = "PingPong", .invalid_text = INVALID, .even_procs = 1, .nbufs = 1,
     .latency_factor = 2, .barrier_after_warm_up = 1, .step = pingpong_step},
    {.name = "PingPing", .invalid_text = INVALID, .even_procs = 1, .nbufs = 1,
     .latency_factor = 1, .barrier_after_warm_up = 1, .step = pingping_step},
    {.name = "Unirandom", .invalid_text = "# !! Benchmark %s invalid for %d processes !!",
     .nbufs = 1, .steps_per_iteration_per_rank = 1, .latency_factor = 1,
     .barrier_after_warm_up = 1, .reset = reset_seed, .step = unirandom_step},
    {.name = "Birandom", .invalid_text = INVALID, .nbufs = 1,
     .steps_per_iteration_per_rank = 1, .latency_factor = 1, .barrier_after_warm_up = 1,
     .reset = reset_seed, .step = birandom_step},
    {.name = "Corandom", .invalid_text = INVALID, .nbufs = 1, .latency_factor = 1,
     .barrier_after_warm_up = 1, .reset = reset_ring, .step = corandom_step},
    {.name = "Stencil2D", .invalid_text = INVALID, .ndims = 2, .nbufs = 4,
     .latency_factor = 1, .barrier_after_warm_up = 1, .step = stencil_step},
    {.name = "Stencil3D", .invalid_text = INVALID, .ndims = 3, .nbufs = 6,
     .latency_factor = 1, .barrier_after_warm_up = 1, .step = stencil_step},
    {.name = "SendRecv_Replace", .invalid_text = "# !! Benchmark %s is invalid for %d process !!",
     .nbufs = 1, .latency_factor = 1, .step = sendrecv_replace_step,
     .after_loop = sendrecv_replace_after},
};

enum { NBUILTIN = (int)(sizeof BENCHES / sizeof BENCHES[0]) };

/* Benchmarks of other files (p2p_register_bench), after IMB-P2P's own. */
static const p2p_bench **added;
static int nadded;

void p2p_register_bench(const p2p_bench *b)
{
    if (p2p_bench_find(b->name) >= 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "IMB-P2P has two benchmarks called '%s' (the second one is "
                 "refused)", b->name);
        eb_registry_refuse(msg);
        return;
    }
    added = eb_realloc(added, (size_t)(nadded + 1) * sizeof *added);
    added[nadded++] = b;
}

int p2p_bench_count(void) { return NBUILTIN + nadded; }
int p2p_bench_default_count(void) { return NBUILTIN; }

const p2p_bench *p2p_bench_at(int i) { return i < NBUILTIN ? &BENCHES[i] : added[i - NBUILTIN]; }

int p2p_bench_find(const char *name)
{
    for (int i = 0; i < p2p_bench_count(); i++)
        if (!strcasecmp(name, p2p_bench_at(i)->name))
            return i;
    return -1;
}

/* ---- the stencils' grids ---- */

/* IMB's two-dimensional choice: the smallest square n x n holding the
 * ranks, then rows cut down to a divisor of the rank count. */
static void grid2(int nranks, int *rows, int *cols)
{
    int x = 2, y = 2;
    while (x * y < nranks)
        x++, y++;
    if (x * y > nranks) {
        while (y > 1 && nranks % y)
            y--;
        x = nranks / y;
    }
    *rows = y;
    *cols = x;
}

/* IMB's three-dimensional choice: the smallest cube, then planes cut down to
 * a divisor and each plane's grid chosen as above (kept when its rows are
 * not fewer than the planes). */
static void grid3(int nranks, int *planes, int *rows, int *cols)
{
    int x = 2, y = 2, z = 2;
    while (x * y * z < nranks)
        x++, y++, z++;
    while (x * y * z > nranks) {
        z--;
        while (z > 1 && nranks % z)
            z--;
        int ly, lx;
        grid2(z > 0 ? nranks / z : 0, &ly, &lx);
        if (ly >= z)
            x = lx, y = ly;
    }
    *planes = z;
    *rows = y;
    *cols = x;
}

int p2p_grid(int ndims, int nranks, int grid[3])
{
    int product = 1;
    if (ndims == 2)
        grid2(nranks, &grid[0], &grid[1]);
    else
        grid3(nranks, &grid[0], &grid[1], &grid[2]);
    for (int d = 0; d < ndims; d++) {
        if (grid[d] < 2)
            return -1;
        product *= grid[d];
    }
    return product == nranks ? 0 : -1;
}

/* The rank at grid coordinates (slowest first), each taken periodically. */
static int rank_at(const int grid[3], int ndims, const int at[3])
{
    int r = 0;
    for (int d = 0; d < ndims; d++)
        r = r * grid[d] + (at[d] + grid[d]) % grid[d];
    return r;
}

/* Neighbours in IMB's order: x-1, x+1, y-1, y+1 (then z-1, z+1). */
static void neighbours(p2p_ctx *c)
{
    int at[3], r = c->rank;
    for (int d = c->ndims - 1; d >= 0; d--) {
        at[d] = r % c->grid[d];
        r /= c->grid[d];
    }
    c->nnbr = 0;
    for (int d = c->ndims - 1; d >= 0; d--)
        for (int s = -1; s <= 1; s += 2) {
            at[d] += s;
            c->nbr[c->nnbr++] = rank_at(c->grid, c->ndims, at);
            at[d] -= s;
        }
}

int p2p_prepare(const p2p_bench *b, p2p_ctx *c)
{
    c->ndims = b->ndims;
    c->nnbr = 0;
    if (c->nranks < 2 || (b->even_procs && c->nranks % 2))
        return 0;
    if (b->ndims) {
        if (p2p_grid(b->ndims, c->nranks, c->grid))
            return 0;
        neighbours(c);
    }
    return 1;
}
