/* IMB-MPI1's Uniband and Biband (IMB 4.1 and later; not in the 4.0 guide):
 * the first half of the ranks pairs with the second half (rank r with
 * r + Q/2).  One repetition moves a window of -window_size messages
 * (default 256) per pair: Uniband from the first half to the second, Biband
 * both ways, each window closed by MPI_Waitall and a one-byte
 * acknowledgement from the second half.  Columns as IMB's: #bytes
 * #repetitions Mbytes/sec Msg/sec, from the slowest rank's time, with
 * Msg/sec = (1 or 2) * window * pairs / t.  Even process counts only, and
 * only by name or -include, as in IMB 2021.11. */
#include "core/component_names.h"
#include "core/error.h"
#include "core/large_count.h"
#include "core/mpi_features.h"
#include "core/registry.h"
#include "imb/driver/bench.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/large_rows.h"
#include "imb/driver/membuf.h"
#include "imb/driver/msg_layout.h"

#include <stdlib.h>

#define TAG 1
#define ACK_TAG 2

typedef struct {
    MPI_Request *req; /* 2 x window */
} band_state;

/* The window of the run (the options are the same on every row), for
 * nmsg_of, which the driver calls with the process count only. */
static int run_window = 256;

static int bi_nmsg(int np);
static int directions(const eb_ctx *c) { return c->bench->nmsg_of == bi_nmsg ? 2 : 1; }

static int band_prepare(eb_ctx *c)
{
    band_state *st = eb_calloc(1, sizeof *st);
    run_window = c->opt->imb21.window_size;
    st->req = eb_malloc(2 * (size_t)run_window * sizeof *st->req);
    c->priv = st;
    return 0;
}

static void band_release(eb_ctx *c)
{
    band_state *st = c->priv;
    if (st) {
        free(st->req);
        free(st);
    }
    c->priv = NULL;
}

static void band_kernel(eb_ctx *c, long first, long n)
{
    band_state *st = c->priv;
    int W = c->opt->imb21.window_size, peers = c->size / 2, me = c->rank;
    int sender = me < peers, both = directions(c) == 2;
    int other = sender ? me + peers : me - peers;
    MPI_Datatype dt = c->lay.type; /* -data_type in -contig_type's layout */
    eb_count count = c->lay.count;
    int big = eb_row_large(c); /* past INT_MAX elements: MPI-4's _c calls */
    char ack = 0;
    for (long i = first; i < first + n; i++) {
        int k = 0;
        if (both || !sender)
            for (int w = 0; w < W; w++) {
                if (c->checking)
                    eb_mem_poison(c->mem, eb_rbuf(c, w), c->r.len);
                EB_P2P_CALL(big, MPI_Irecv, eb_rbuf(c, w), count, dt, other, TAG, c->comm,
                            &st->req[k++]);
            }
        if (both || sender)
            for (int w = 0; w < W; w++)
                EB_P2P_CALL(big, MPI_Isend, eb_sbuf(c, w), count, dt, other, TAG, c->comm,
                            &st->req[k++]);
        MPI_Waitall(k, st->req, MPI_STATUSES_IGNORE);
        if (sender)
            MPI_Recv(&ack, 1, MPI_CHAR, other, ACK_TAG, c->comm, MPI_STATUS_IGNORE);
        else
            MPI_Send(&ack, 1, MPI_CHAR, other, ACK_TAG, c->comm);
    }
}

/* The time per repetition, and this rank's message rate from it (the
 * driver reports the slowest rank's, as IMB divides by t_max). */
static double band_measure(eb_ctx *c, long n)
{
    double t0 = MPI_Wtime();
    band_kernel(c, 0, n);
    double t = (MPI_Wtime() - t0) / (double)n;
    int W = c->opt->imb21.window_size;
    c->extra[0] = t > 0 ? (double)directions(c) * W * (c->size / 2) / t : 0;
    return t;
}

/* Every received message of the window carries the partner's pattern. */
static long band_check(eb_ctx *c, long i)
{
    (void)i;
    int peers = c->size / 2, me = c->rank;
    if (me < peers && directions(c) == 1)
        return 0;
    int other = me < peers ? me + peers : me - peers;
    long bad = 0;
    for (int w = 0; w < c->opt->imb21.window_size && w < c->r.slots; w++)
        bad += eb_layout_check_pattern(&c->lay, eb_rbuf(c, w), c->x, other, 0);
    return bad;
}

static int uni_nmsg(int np) { return run_window * (np / 2); }
static int bi_nmsg(int np) { return 2 * run_window * (np / 2); }

static const eb_column band_columns[] = {
    {EB_COL_BYTES, "#bytes"},
    {EB_COL_REPS, "#repetitions"},
    {EB_COL_MBPS, "Mbytes/sec"},
    {EB_COL_EXTRA + 0, "Msg/sec"},
    {0, NULL},
};

#define BAND(nm, ord, fl, nmsg)                                                               \
    {.component = EB_COMPONENT_MPI1, .name = nm, .order = ord, .cls = EB_PARALLEL_TRANSFER,  \
     .large_counts = EB_MPI_LARGE_COUNT,                                                     \
     .flags = EB_F_EXPLICIT_ONLY | EB_F_EVEN_PROCS | (fl), .min_procs = 2, .nmsg_of = nmsg,  \
     .prepare = band_prepare, .kernel = band_kernel, .measure = band_measure,              \
     .check = band_check, .release = band_release, .columns = band_columns,                \
     .extra_json = {"msg_per_sec"}, .whole_2021 = 1}

static const eb_bench band_benches[] = {
    BAND("Uniband", 400, 0, uni_nmsg),
    BAND("Biband", 410, 0, bi_nmsg),
};

EB_CONSTRUCTOR(register_band)
{
    for (size_t i = 0; i < sizeof band_benches / sizeof band_benches[0]; i++)
        eb_register_bench(&band_benches[i]);
}
