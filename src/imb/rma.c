/* IMB-RMA: the MPI-3 one-sided benchmarks of the IMB user guide in passive
 * target mode (MPI_Win_lock / lock_all, completion by the flush calls of the
 * guide's table).  Classes as the guide's "Classification of IMB-RMA
 * Benchmarks": single transfer (2 processes, t and Mbytes/sec), multiple
 * transfer (one origin, N = np-1 targets, Mbytes/sec times N), parallel
 * transfer (every process an origin, bare t_min/t_max/t_avg).
 *
 * Timing follows the real IMB-RMA: only the origin times its transfers and
 * their completion (the lock is taken before, released after the timed
 * loop); a process that is only a target waits in MPI_Barrier and reports 0.
 * Aggregate mode (where the table says "Supported") issues the M transfers
 * and completes them with one flush; the non-aggregate table (printed first,
 * as IMB-RMA does) flushes each.  As in IMB's code, every transfer of both
 * modes goes to the window's one section (-off_cache: IMB's cycling
 * sections; rma_win.h).
 *
 * Here: the measured patterns, their descriptors and the family; the
 * windows of a length and -check's presets are rma_state.c's,
 * Truly_passive_put is rma_passive.c. */
#include "core/buffers.h"
#include "core/component_names.h"
#include "core/registry.h"
#include "imb/driver/bench.h"
#include "imb/driver/driver.h"
#include "imb/driver/imb2021_defaults.h"
#include "imb/rma_state.h"
#include "imb/rma_win.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the measured patterns --------------------------------------------- */

typedef enum { FLUSH, FLUSH_LOCAL } completion;

static void flush_one(int target, completion f, MPI_Win w)
{
    if (f == FLUSH)
        MPI_Win_flush(target, w);
    else
        MPI_Win_flush_local(target, w);
}

static void flush_all(completion f, MPI_Win w)
{
    if (f == FLUSH)
        MPI_Win_flush_all(w);
    else
        MPI_Win_flush_local_all(w);
}

typedef enum { PUT, GET } direction;

static void transfer(eb_ctx *c, direction d, void *local, int target, MPI_Aint at, int x)
{
    if (d == PUT)
        MPI_Put(local, x, MPI_BYTE, target, at, x, MPI_BYTE, rma_window(c));
    else
        MPI_Get(local, x, MPI_BYTE, target, at, x, MPI_BYTE, rma_window(c));
}

/* Unidir / Bidir / Put_local / Get_local: rank 0 (and rank 1 if
 * bidirectional) locks its peer, transfers, completes, unlocks; both barrier. */
static double single(eb_ctx *c, long first, long n, direction d, completion f, int bidir)
{
    int origin = c->rank == 0 || bidir, target = 1 - c->rank, x = (int)c->x;
    double t = 0;
    if (origin) {
        MPI_Win_lock(MPI_LOCK_SHARED, target, 0, rma_window(c));
        double t0 = MPI_Wtime();
        for (long i = first; i < first + n; i++) {
            transfer(c, d, rma_loc_sec(c, i), target, rma_disp(c, i), x);
            if (!c->aggregate)
                flush_one(target, f, rma_window(c));
        }
        if (c->aggregate)
            flush_one(target, f, rma_window(c));
        t = MPI_Wtime() - t0;
        MPI_Win_unlock(target, rma_window(c));
    }
    MPI_Barrier(c->comm);
    return t;
}

/* One_put_all / One_get_all / Put_all_local / Get_all_local (rank 0 is the
 * only origin) and All_put_all / All_get_all (every rank): N transfers a
 * repetition, one to each other process.  The guide's measured pattern,
 * (N*MPI_Put)/MPI_Win_flush_all, completes each repetition with a flush_all;
 * IMB 2021.11's code (IMB_rma_put_all, IMB_rma_get_all) issues every
 * repetition's transfers and completes them with one flush_all at the end,
 * which --imb-defaults 2021 follows (an order of magnitude apart here: the
 * side-by-side table in docs/imb.md).  Targets are visited from rank+1 on, so
 * different origins start at different targets (the guide's congestion
 * avoidance). */
static double to_all(eb_ctx *c, long first, long n, direction d, completion f, int all)
{
    int x = (int)c->x;
    int flush_each = !eb_imb2021_method(c->opt);
    double t = 0;
    if (all || c->rank == 0) {
        MPI_Win_lock_all(0, rma_window(c));
        double t0 = MPI_Wtime();
        for (long i = first; i < first + n; i++) {
            for (int p = 1; p < c->size; p++) {
                int target = (c->rank + p) % c->size;
                if (d == PUT)
                    transfer(c, d, rma_st(c)->w.local, target, (MPI_Aint)c->rank * x, x);
                else
                    transfer(c, d, rma_st(c)->w.local + (size_t)target * c->x, target, 0, x);
            }
            if (flush_each)
                flush_all(f, rma_window(c));
        }
        if (!flush_each)
            flush_all(f, rma_window(c));
        t = MPI_Wtime() - t0;
        MPI_Win_unlock_all(rma_window(c));
    }
    MPI_Barrier(c->comm);
    return t;
}

static void preset_to_all(eb_ctx *c, long i, direction d, int all)
{
    (void)i;
    if (d == PUT)
        eb_rma_poison_own(c, rma_st(c)->w.mem, rma_st(c)->w.bytes);
    else if (all || c->rank == 0)
        eb_poison(rma_st(c)->w.local, rma_st(c)->w.local_bytes);
}

static long check_to_all(eb_ctx *c, long i, direction d, int all)
{
    (void)i;
    long bad = 0;
    for (int r = 0; r < c->size; r++) {
        if (r == c->rank)
            continue;
        if (d == PUT && (all || r == 0))
            bad += eb_rma_check_own(c, rma_st(c)->w.mem + (size_t)r * c->x, c->x, r, 0);
        if (d == GET && (all || c->rank == 0))
            bad += eb_check_pattern(rma_st(c)->w.local + (size_t)r * c->x, c->x, r, 0);
    }
    return bad;
}

/* Exchange_put / Exchange_get: every rank transfers with its left and right
 * neighbours, (2 transfers) / (2 flushes) per repetition.  A put sends the
 * first local half to the left neighbour's first half and the second to the
 * right neighbour's second half; a get fetches the left neighbour's first
 * half and the right neighbour's second half. */
static double exchange(eb_ctx *c, long first, long n, direction d)
{
    int x = (int)c->x;
    int left = (c->rank - 1 + c->size) % c->size, right = (c->rank + 1) % c->size;
    MPI_Win w = rma_window(c);
    MPI_Win_lock(MPI_LOCK_SHARED, left, 0, w);
    if (right != left)
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
    double t0 = MPI_Wtime();
    for (long i = first; i < first + n; i++) {
        transfer(c, d, rma_st(c)->w.local, left, 0, x);
        transfer(c, d, rma_st(c)->w.local + c->x, right, (MPI_Aint)c->x, x);
        MPI_Win_flush(left, w);
        if (right != left)
            MPI_Win_flush(right, w);
    }
    double t = MPI_Wtime() - t0;
    MPI_Win_unlock(left, w);
    if (right != left)
        MPI_Win_unlock(right, w);
    MPI_Barrier(c->comm);
    return t;
}

static void preset_exchange(eb_ctx *c, long i, direction d)
{
    (void)i;
    if (d == PUT)
        eb_rma_poison_own(c, rma_st(c)->w.mem, 2 * c->x);
    else
        eb_poison(rma_st(c)->w.local, 2 * c->x);
}

/* The first half comes from the right neighbour, the second from the left
 * (put); a get holds the left neighbour's first and the right one's second. */
static long check_exchange(eb_ctx *c, long i, direction d)
{
    (void)i;
    int left = (c->rank - 1 + c->size) % c->size, right = (c->rank + 1) % c->size;
    if (d == PUT)
        return eb_rma_check_own(c, rma_st(c)->w.mem, c->x, right, 0) +
               eb_rma_check_own(c, rma_st(c)->w.mem + c->x, c->x, left, c->x);
    return eb_check_pattern(rma_st(c)->w.local, c->x, left, 0) +
           eb_check_pattern(rma_st(c)->w.local + c->x, c->x, right, c->x);
}

/* Accumulate / Get_accumulate / Fetch_and_op / Compare_and_swap: rank 0 is
 * the origin, rank 1 the target waiting in MPI_Barrier. */
typedef enum { ACC, GET_ACC, FETCH_OP, CAS } atomic_kind;

static void atomic_op(eb_ctx *c, atomic_kind k, long i)
{
    int count = (int)(c->x / sizeof(float));
    MPI_Win w = rma_window(c);
    switch (k) {
    case ACC:
        MPI_Accumulate(rma_loc_sec(c, i), count, MPI_FLOAT, 1, rma_disp(c, i), count, MPI_FLOAT,
                       MPI_SUM, w);
        break;
    case GET_ACC:
        MPI_Get_accumulate(rma_loc_sec(c, i), count, MPI_FLOAT, rma_res_sec(c, i), count,
                           MPI_FLOAT, 1, rma_disp(c, i), count, MPI_FLOAT, MPI_SUM, w);
        break;
    case FETCH_OP:
        MPI_Fetch_and_op(rma_loc_sec(c, i), rma_res_sec(c, i), MPI_FLOAT, 1, rma_disp(c, i),
                         MPI_SUM, w);
        break;
    case CAS: {
        long nsec = rma_st(c)->w.nsec;
        int *lo = (int *)rma_st(c)->w.local;
        long s = rma_sec(c, i);
        MPI_Compare_and_swap(&lo[s], &lo[nsec + s], &lo[2 * nsec + s], MPI_INT, 1, rma_disp(c, i),
                             w);
        break;
    }
    }
}

static double atomic(eb_ctx *c, long first, long n, atomic_kind k)
{
    double t = 0;
    if (c->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, rma_window(c));
        double t0 = MPI_Wtime();
        for (long i = first; i < first + n; i++) {
            atomic_op(c, k, i);
            if (!c->aggregate)
                MPI_Win_flush(1, rma_window(c));
        }
        if (c->aggregate)
            MPI_Win_flush(1, rma_window(c));
        t = MPI_Wtime() - t0;
        MPI_Win_unlock(1, rma_window(c));
    }
    MPI_Barrier(c->comm);
    return t;
}

/* The target section is reset to the target's own values, fetched results
 * are poisoned: afterwards target = old + origin (one float addition, exact
 * to compare) and result = old; compare_and_swap: result = old = compare
 * value, target = origin's value. */
static void preset_atomic(eb_ctx *c, long i, atomic_kind k)
{
    if (c->rank == 1) {
        eb_rma_self_begin(&rma_st(c)->w, c->rank);
        if (k == CAS)
            *(int *)rma_win_sec(c, i) = eb_buf_value_int(1, 0);
        else
            eb_fill_buf_values(rma_win_sec(c, i), c->x, 1);
        eb_rma_self_end(&rma_st(c)->w, c->rank);
    } else if (k == CAS) {
        long nsec = rma_st(c)->w.nsec;
        ((int *)rma_st(c)->w.local)[2 * nsec + rma_sec(c, i)] = -1;
    } else if (k != ACC) {
        eb_poison(rma_res_sec(c, i), c->x);
    }
}

static long check_atomic(eb_ctx *c, long i, atomic_kind k)
{
    size_t count = c->x / sizeof(float);
    long bad = 0;
    if (c->rank == 1) {
        eb_rma_self_begin(&rma_st(c)->w, c->rank);
        if (k == CAS)
            bad = *(int *)rma_win_sec(c, i) != eb_buf_value_int(0, 0);
        else
            bad = eb_check_float_accumulate((const float *)rma_win_sec(c, i), count, 1, 1, 1);
        eb_rma_self_end(&rma_st(c)->w, c->rank);
    } else if (k == CAS) {
        long nsec = rma_st(c)->w.nsec;
        bad = ((int *)rma_st(c)->w.local)[2 * nsec + rma_sec(c, i)] != eb_buf_value_int(1, 0);
    } else if (k != ACC) {
        bad = eb_check_buf_values(rma_res_sec(c, i), c->x, 1);
    }
    return bad;
}

/* ---- descriptors ---------------------------------------------------------- */

#define WRAP(nm, op, preset, chk)                                                               \
    static void nm##_kernel(eb_ctx *c, long first, long n)                                      \
    {                                                                                           \
        if (c->checking) {                                                                      \
            eb_rma_host_begin(&rma_st(c)->w);                                                   \
            preset;                                                                             \
            eb_rma_host_end(&rma_st(c)->w, 1);                                                  \
            MPI_Barrier(c->comm);                                                               \
        }                                                                                       \
        op;                                                                                     \
    }                                                                                           \
    static double nm##_measure(eb_ctx *c, long n)                                               \
    {                                                                                           \
        long first = 0;                                                                         \
        return (op) / (double)n;                                                                \
    }                                                                                           \
    static long nm##_check(eb_ctx *c, long first)                                              \
    {                                                                                           \
        eb_rma_host_begin(&rma_st(c)->w);                                                       \
        long bad = chk;                                                                         \
        eb_rma_host_end(&rma_st(c)->w, 0);                                                      \
        return bad;                                                                             \
    }

WRAP(unidir_put, single(c, first, n, PUT, FLUSH, 0), eb_rma_preset_put(c, first, 0),
     eb_rma_check_put(c, first, 0))
WRAP(unidir_get, single(c, first, n, GET, FLUSH, 0), eb_rma_preset_get(c, first, 0),
     eb_rma_check_get(c, first, 0))
WRAP(bidir_put, single(c, first, n, PUT, FLUSH, 1), eb_rma_preset_put(c, first, 1),
     eb_rma_check_put(c, first, 1))
WRAP(bidir_get, single(c, first, n, GET, FLUSH, 1), eb_rma_preset_get(c, first, 1),
     eb_rma_check_get(c, first, 1))
WRAP(put_local, single(c, first, n, PUT, FLUSH_LOCAL, 0), eb_rma_preset_put(c, first, 0),
     eb_rma_check_put(c, first, 0))
WRAP(get_local, single(c, first, n, GET, FLUSH_LOCAL, 0), eb_rma_preset_get(c, first, 0),
     eb_rma_check_get(c, first, 0))
WRAP(one_put_all, to_all(c, first, n, PUT, FLUSH, 0), preset_to_all(c, first, PUT, 0),
     check_to_all(c, first, PUT, 0))
WRAP(one_get_all, to_all(c, first, n, GET, FLUSH, 0), preset_to_all(c, first, GET, 0),
     check_to_all(c, first, GET, 0))
WRAP(put_all_local, to_all(c, first, n, PUT, FLUSH_LOCAL, 0), preset_to_all(c, first, PUT, 0),
     check_to_all(c, first, PUT, 0))
WRAP(get_all_local, to_all(c, first, n, GET, FLUSH_LOCAL, 0), preset_to_all(c, first, GET, 0),
     check_to_all(c, first, GET, 0))
WRAP(all_put_all, to_all(c, first, n, PUT, FLUSH, 1), preset_to_all(c, first, PUT, 1),
     check_to_all(c, first, PUT, 1))
WRAP(all_get_all, to_all(c, first, n, GET, FLUSH, 1), preset_to_all(c, first, GET, 1),
     check_to_all(c, first, GET, 1))
WRAP(exchange_put, exchange(c, first, n, PUT), preset_exchange(c, first, PUT),
     check_exchange(c, first, PUT))
WRAP(exchange_get, exchange(c, first, n, GET), preset_exchange(c, first, GET),
     check_exchange(c, first, GET))
WRAP(accumulate, atomic(c, first, n, ACC), preset_atomic(c, first, ACC),
     check_atomic(c, first, ACC))
WRAP(get_accumulate, atomic(c, first, n, GET_ACC), preset_atomic(c, first, GET_ACC),
     check_atomic(c, first, GET_ACC))
WRAP(fetch_and_op, atomic(c, first, n, FETCH_OP), preset_atomic(c, first, FETCH_OP),
     check_atomic(c, first, FETCH_OP))
WRAP(compare_and_swap, atomic(c, first, n, CAS), preset_atomic(c, first, CAS),
     check_atomic(c, first, CAS))

static int n_targets(int np) { return np > 1 ? np - 1 : 1; }

#define MODES (EB_F_MODES | EB_F_NONAGGR_FIRST)

/* Single transfer, aggregate mode supported. */
#define SINGLE(nm, ord, fn, flg, prep)                                                          \
    {.component = EB_COMPONENT_RMA, .name = nm, .order = ord, .cls = EB_SINGLE_TRANSFER,        \
     .flags = MODES | (flg), .fixed_procs = 2, .nmsg = 1,                                       \
     .extents = eb_rma_no_extents, .prepare = prep, .kernel = fn##_kernel, .check = fn##_check, \
     .release = eb_rma_release, .measure = fn##_measure}
/* Multiple transfer: one origin, N = np-1 targets, throughput times N. */
#define MULTIPLE(nm, ord, fn, flg, prep)                                                        \
    {.component = EB_COMPONENT_RMA, .name = nm, .order = ord, .cls = EB_SINGLE_TRANSFER,        \
     .flags = (flg), .min_procs = 2, .nmsg = 1, .nmsg_of = n_targets,                           \
     .extents = eb_rma_no_extents,                                                              \
     .prepare = prep, .kernel = fn##_kernel, .check = fn##_check, .release = eb_rma_release,    \
     .measure = fn##_measure}
/* Parallel transfer: bare t_min / t_max / t_avg. */
#define PARALLEL(nm, ord, fn, prep)                                                             \
    {.component = EB_COMPONENT_RMA, .name = nm, .order = ord, .cls = EB_COLLECTIVE,             \
     .min_procs = 2, .extents = eb_rma_no_extents, .prepare = prep, .kernel = fn##_kernel,      \
     .check = fn##_check, .release = eb_rma_release, .measure = fn##_measure}

static const eb_bench rma_benches[] = {
    SINGLE("Unidir_put", 100, unidir_put, 0, eb_rma_prepare_single),
    SINGLE("Unidir_get", 110, unidir_get, 0, eb_rma_prepare_single),
    SINGLE("Bidir_put", 120, bidir_put, 0, eb_rma_prepare_single),
    SINGLE("Bidir_get", 130, bidir_get, 0, eb_rma_prepare_single),
    MULTIPLE("One_put_all", 140, one_put_all, 0, eb_rma_prepare_put_all),
    MULTIPLE("One_get_all", 150, one_get_all, 0, eb_rma_prepare_get_all),
    PARALLEL("All_put_all", 160, all_put_all, eb_rma_prepare_put_all),
    PARALLEL("All_get_all", 170, all_get_all, eb_rma_prepare_get_all),
    /* Get_local / Get_all_local: by name or -include only, at their places
     * in IMB's full list (IMB_bnames_rma.h, ALLC) */
    SINGLE("Put_local", 180, put_local, 0, eb_rma_prepare_single),
    SINGLE("Get_local", 185, get_local, EB_F_EXPLICIT_ONLY, eb_rma_prepare_single),
    MULTIPLE("Put_all_local", 190, put_all_local, 0, eb_rma_prepare_put_all),
    MULTIPLE("Get_all_local", 195, get_all_local, EB_F_EXPLICIT_ONLY, eb_rma_prepare_get_all),
    PARALLEL("Exchange_put", 200, exchange_put, eb_rma_prepare_exchange),
    PARALLEL("Exchange_get", 210, exchange_get, eb_rma_prepare_exchange),
    SINGLE("Accumulate", 220, accumulate, EB_F_REDUCTION, eb_rma_prepare_float),
    SINGLE("Get_accumulate", 230, get_accumulate, EB_F_REDUCTION, eb_rma_prepare_float),
    {.component = EB_COMPONENT_RMA, .name = "Fetch_and_op", .order = 240, .cls = EB_SINGLE_TRANSFER,
     .flags = MODES | EB_F_REDUCTION, .fixed_procs = 2, .nmsg = 1, .fixed_bytes = sizeof(float),
     .extents = eb_rma_no_extents, .prepare = eb_rma_prepare_float, .kernel = fetch_and_op_kernel,
     .check = fetch_and_op_check, .release = eb_rma_release, .measure = fetch_and_op_measure},
    {.component = EB_COMPONENT_RMA, .name = "Compare_and_swap", .order = 250,
     .cls = EB_SINGLE_TRANSFER, .flags = MODES, .fixed_procs = 2, .nmsg = 1, .fixed_bytes = sizeof(int),
     .list_comment = "Uses MPI_INT data type", .extents = eb_rma_no_extents,
     .prepare = eb_rma_prepare_cas,
     .kernel = compare_and_swap_kernel, .check = compare_and_swap_check, .release = eb_rma_release,
     .measure = compare_and_swap_measure},
};

/* IMB-RMA-GPU (IMB 2021.9's technical preview): IMB-RMA built with GPU_ENABLE,
 * windows and origin buffers on a GPU (-mem_alloc_type; imb/driver/gpu.h),
 * without the two single-element atomics (IMB_parse_name_rma.c,
 * RMA_benchmark.cpp) */
static const char *const rma_gpu_without[] = {"Fetch_and_op", "Compare_and_swap", NULL};
static const eb_imb_gpu rma_gpu = {
    .program = "IMB-RMA-GPU",
    .part = "RMA part (GPU), Technical preview", /* src_c/IMB_g_info.c */
    .without = rma_gpu_without,
};

static const eb_imb_family rma_family = {
    .component = EB_COMPONENT_RMA,
    .program = "IMB-RMA",
    .part = "MPI-RMA part",
    .text2021 = {.cmd_space = 1, .close_space = 1},
    .iter = {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100,
             .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .minmsglog = 0,
    .maxmsglog = 22,
    .summary = "IMB-RMA: one-sided communication in passive target mode (MPI-3)",
    .order = 50,    .gpu = &rma_gpu,
};

EB_CONSTRUCTOR(register_rma)
{
    eb_register_imb_family(&rma_family);
    for (size_t i = 0; i < sizeof rma_benches / sizeof rma_benches[0]; i++)
        eb_register_bench(&rma_benches[i]);
}
