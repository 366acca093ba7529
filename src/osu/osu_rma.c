/* OSU's MPI_Put and MPI_Get programs between two processes:
 *   osu_put_latency, osu_get_latency  one call per iteration; microseconds
 *   osu_put_bw, osu_get_bw            -W calls per iteration from rank 0; MB/s
 *   osu_put_bibw                      -W calls from both ranks (fence, pscw); MB/s * 2
 * The checked pass (-check) sends each iteration's own pattern through one
 * epoch of the same synchronisation and verifies every byte where it lands:
 * a put's in the target's window, a get's in the origin's buffer. */
#include "osu/osu_rma.h"

#include "osu/osu_accel.h"
#include "core/buffers.h"
#include "core/registry.h"

/* OSU's one-sided letters: the bandwidth programs add -W */
#define OPTS_LATENCY OSU_OPTS_ONE_SIDED OSU_OPT_PAPI
#define OPTS_BANDWIDTH OSU_OPTS_ONE_SIDED OSU_OPT_WINDOW OSU_OPT_PAPI
#define ALL_SYNCS 0x3fu /* lock, pscw, fence, flush, flush_local, lock_all */
#define ACTIVE_SYNCS ((1u << OSU_SYNC_PSCW) | (1u << OSU_SYNC_FENCE))

static void put_call(const osu_ctx *c, osu_rma *r, int target, size_t k)
{
    int n = (int)c->bytes;
    MPI_Put(r->origin + k * c->bytes, n, MPI_CHAR, target, r->disp + (MPI_Aint)(k * c->bytes), n,
            MPI_CHAR, r->win);
}

static void get_call(const osu_ctx *c, osu_rma *r, int target, size_t k)
{
    int n = (int)c->bytes;
    MPI_Get(r->origin + k * c->bytes, n, MPI_CHAR, target, r->disp + (MPI_Aint)(k * c->bytes), n,
            MPI_CHAR, r->win);
}

/* OSU's allocate_memory_one_sided: origin and window memory all 'a' */
#define FILL .fill = {.origin = 'a', .window = 'a'}

static const rma_kind PUT_LATENCY = {.call = put_call, .shape = RMA_LATENCY, FILL};
static const rma_kind GET_LATENCY = {.call = get_call, .shape = RMA_LATENCY, FILL};
static const rma_kind PUT_BW = {.call = put_call, .shape = RMA_UNI, FILL};
static const rma_kind GET_BW = {.call = get_call, .shape = RMA_UNI, FILL};
static const rma_kind PUT_BIBW = {.call = put_call, .shape = RMA_BI, FILL};

static int put_latency_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &PUT_LATENCY, e, n); }
static int get_latency_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &GET_LATENCY, e, n); }
static int put_bw_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &PUT_BW, e, n); }
static int get_bw_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &GET_BW, e, n); }
static int put_bibw_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &PUT_BIBW, e, n); }

static int ops_of(const osu_ctx *c)
{
    const osu_rma *r = c->priv;
    return r->kind->shape == RMA_LATENCY ? 1 : c->o->window_size;
}

static void latency_measure(osu_ctx *c, osu_row *row)
{
    osu_rma_open(c, c->bytes);
    osu_rma_latency_row(c, osu_rma_loop(c, 1, c->lat), row);
}

/* MB/s = bytes * W * iterations / 10^6 / time (twice that both ways). */
static void bw_measure(osu_ctx *c, osu_row *row)
{
    const osu_rma *r = c->priv;
    int w = c->o->window_size;
    osu_rma_open(c, c->bytes * (size_t)w);
    double t = osu_rma_loop(c, w, c->lat);
    double mb = (double)c->bytes / 1e6 * w * (r->kind->shape == RMA_BI ? 2 : 1);
    if (c->lat)
        for (long i = 0; i < c->iterations; i++)
            c->lat[i] = mb / c->lat[i];
    if (c->rank == 0)
        row->mb_per_s = mb * (double)c->iterations / t;
    osu_percentiles(c, 0, row);
}

/* Put: the origin's pattern of iteration i must be in the target's window. */
static long put_check(osu_ctx *c)
{
    osu_rma *r = c->priv;
    int ops = ops_of(c);
    size_t n = c->bytes * (size_t)ops;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        if (osu_rma_is_origin(c))
            osu_buf_fill(r->mem, r->origin, n, c->rank, i);
        if (osu_rma_is_target(c))
            eb_mem_poison(r->mem, r->base, n);
        MPI_Barrier(c->comm);
        osu_rma_epoch(c, ops);
        MPI_Barrier(c->comm);
        if (osu_rma_is_target(c))
            defects += osu_buf_verify(r->mem, r->base, n, 1 - c->rank, i);
    }
    return defects;
}

/* Get: the target's pattern of iteration i must be in the origin's buffer. */
static long get_check(osu_ctx *c)
{
    osu_rma *r = c->priv;
    int ops = ops_of(c);
    size_t n = c->bytes * (size_t)ops;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        if (osu_rma_is_target(c))
            osu_buf_fill(r->mem, r->base, n, c->rank, i);
        if (osu_rma_is_origin(c))
            eb_mem_poison(r->mem, r->origin, n);
        MPI_Barrier(c->comm);
        osu_rma_epoch(c, ops);
        MPI_Barrier(c->comm);
        if (osu_rma_is_origin(c))
            defects += osu_buf_verify(r->mem, r->origin, n, 1 - c->rank, i);
    }
    return defects;
}

#define RMA_COMMON                                                                           \
    .bench = OSU_ONE_SIDED, .default_min_size = 1, .exact_procs = 2,                         \
    .teardown = osu_rma_teardown, .preamble = osu_rma_preamble, .header = osu_rma_header,    \
    .row_text = osu_rma_row

static const osu_prog osu_put_latency = {
    .name = "osu_put_latency",
    .title = "OSU MPI_Put%s Latency Test",
    .row = OSU_ROW_LATENCY,
    .optstring = OPTS_LATENCY,
    .loops = {10000, 100, 1000, 10},
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_FLUSH, .syncs = ALL_SYNCS,
    .setup = put_latency_setup, .measure = latency_measure, .check = put_check,
    RMA_COMMON,
};

static const osu_prog osu_get_latency = {
    .name = "osu_get_latency",
    .title = "OSU MPI_Get%s latency Test",
    .row = OSU_ROW_LATENCY,
    .optstring = OPTS_LATENCY,
    .loops = {10000, 100, 1000, 10},
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_FLUSH, .syncs = ALL_SYNCS,
    .setup = get_latency_setup, .measure = latency_measure, .check = get_check,
    RMA_COMMON,
};

static const osu_prog osu_put_bw = {
    .name = "osu_put_bw",
    .title = "OSU MPI_Put%s Bandwidth Test",
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OPTS_BANDWIDTH,
    .loops = {100, 10, 20, 2},
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_FLUSH, .syncs = ALL_SYNCS,
    .setup = put_bw_setup, .measure = bw_measure, .check = put_check,
    RMA_COMMON,
};

static const osu_prog osu_get_bw = {
    .name = "osu_get_bw",
    .title = "OSU MPI_Get%s Bandwidth Test",
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OPTS_BANDWIDTH,
    .loops = {100, 10, 20, 2},
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_FLUSH, .syncs = ALL_SYNCS,
    .setup = get_bw_setup, .measure = bw_measure, .check = get_check,
    RMA_COMMON,
};

static const osu_prog osu_put_bibw = {
    .name = "osu_put_bibw",
    .title = "OSU MPI_Put%s Bi-directional Bandwidth Test",
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OPTS_BANDWIDTH,
    .loops = {100, 10, 20, 2},
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_PSCW, .syncs = ACTIVE_SYNCS,
    .setup = put_bibw_setup, .measure = bw_measure, .check = put_check,
    RMA_COMMON,
};

EB_CONSTRUCTOR(register_osu_rma)
{
    osu_register(&osu_put_latency);
    osu_register(&osu_get_latency);
    osu_register(&osu_put_bw);
    osu_register(&osu_get_bw);
    osu_register(&osu_put_bibw);
}
