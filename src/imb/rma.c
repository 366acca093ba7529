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
 * Aggregate mode (where the table says "Supported") issues the M transfers to
 * M disjoint window sections and completes them with one flush; the
 * non-aggregate table (printed first, as IMB-RMA does) flushes each. */
#include "core/bench.h"
#include "core/buffers.h"
#include "core/cpu_exploit.h"
#include "core/driver.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/report/imb_text.h"
#include "core/report/jsonl.h"
#include "imb/rma.h"
#include "imb/rma_win.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- state and layout ---------------------------------------------------- */

typedef struct {
    eb_rma_win w;
    size_t sec;   /* bytes of one window / local section */
} rma_state;

static rma_state *st(const eb_ctx *c) { return c->priv; }
static MPI_Win win(const eb_ctx *c) { return st(c)->w.win; }
static long sec(const eb_ctx *c, long i) { return i % st(c)->w.nsec; }
static size_t off(const eb_ctx *c, long i)
{
    return eb_rma_section_offset(i, st(c)->w.nsec, st(c)->sec);
}
static char *win_sec(const eb_ctx *c, long i) { return st(c)->w.mem + off(c, i); }
static char *loc_sec(const eb_ctx *c, long i) { return st(c)->w.local + off(c, i); }
static MPI_Aint disp(const eb_ctx *c, long i) { return (MPI_Aint)off(c, i); }
/* A second local area of the same geometry (results of get_accumulate,
 * fetch_and_op, compare_and_swap). */
static char *res_sec(const eb_ctx *c, long i)
{
    return st(c)->w.local + st(c)->w.local_bytes / 2 + off(c, i);
}

/* The driver's send / receive buffers are unused: windows hold the data. */
static void no_extents(size_t x, int np, size_t *s_len, size_t *r_len)
{
    (void)x;
    (void)np;
    *s_len = 0;
    *r_len = 0;
}

static void release(eb_ctx *c)
{
    eb_rma_win_free(&st(c)->w);
    free(c->priv);
    c->priv = NULL;
}

static rma_state *create(eb_ctx *c, long nsec, size_t sec_bytes, size_t win_bytes,
                         size_t local_bytes)
{
    rma_state *s = eb_calloc(1, sizeof *s);
    c->priv = s;
    s->sec = sec_bytes;
    eb_rma_win_create(&s->w, c, win_bytes, local_bytes);
    s->w.nsec = nsec;
    return s;
}

/* Single transfer: M sections of x bytes on both sides, the window and the
 * local sections holding this rank's byte pattern. */
static int prepare_single(eb_ctx *c)
{
    long nsec = eb_rma_prepare_sections(c, c->x);
    rma_state *s = create(c, nsec, c->x, (size_t)nsec * c->x, (size_t)nsec * c->x);
    for (long k = 0; k < nsec; k++) {
        eb_fill_pattern(s->w.mem + (size_t)k * c->x, c->x, c->rank, 0);
        eb_fill_pattern(s->w.local + (size_t)k * c->x, c->x, c->rank, 0);
    }
    return 0;
}

/* Reductions (MPI_FLOAT): window sections and origin values are BUF_VALUE
 * floats; a second local area receives fetched values. */
static int prepare_float(eb_ctx *c)
{
    long nsec = eb_rma_prepare_sections(c, c->x);
    size_t area = (size_t)nsec * c->x;
    rma_state *s = create(c, nsec, c->x, area, 2 * area);
    for (long k = 0; k < nsec; k++) {
        eb_fill_buf_values(s->w.mem + (size_t)k * c->x, c->x, c->rank);
        eb_fill_buf_values(s->w.local + (size_t)k * c->x, c->x, c->rank);
    }
    return 0;
}

/* Compare_and_swap (MPI_INT): local areas origin value | compare | result;
 * the window holds this rank's value, the compare value is the peer's. */
/* Open MPI 4.1's osc/pt2pt hangs when more than about 100
 * MPI_Compare_and_swap are outstanding in one passive-target epoch (a
 * 20-line reproducer in docs/imb-rma.md; MPICH and other operations are
 * fine), which is what the aggregate mode does.  There the repetitions are
 * capped, which the #repetitions column shows, rather than hang the run. */
#define CAS_PT2PT_MAX_OUTSTANDING 100

static int osc_is_pt2pt(void)
{
#ifdef OPEN_MPI
    const char *osc = getenv("OMPI_MCA_osc");
    return osc && strstr(osc, "pt2pt") && !strstr(osc, "^");
#else
    return 0;
#endif
}

static int prepare_cas(eb_ctx *c)
{
    static int warned;
    if (c->aggregate && osc_is_pt2pt()) {
        c->max_reps = CAS_PT2PT_MAX_OUTSTANDING;
        if (!warned)
            eb_warn("Compare_and_swap, aggregate mode: at most %d repetitions, because Open MPI's "
                    "osc/pt2pt (OMPI_MCA_osc=pt2pt) hangs with more outstanding compare-and-swaps "
                    "in one epoch (docs/imb-rma.md)", CAS_PT2PT_MAX_OUTSTANDING);
        warned = 1;
    }
    long nsec = eb_rma_prepare_sections(c, sizeof(int));
    size_t area = (size_t)nsec * sizeof(int);
    rma_state *s = create(c, nsec, sizeof(int), area, 3 * area);
    int *wm = (int *)s->w.mem, *lo = (int *)s->w.local;
    for (long k = 0; k < nsec; k++) {
        wm[k] = eb_buf_value_int(c->rank, 0);
        lo[k] = eb_buf_value_int(c->rank, 0);
        lo[nsec + k] = eb_buf_value_int(1 - c->rank, 0);
    }
    return 0;
}

/* One / all to all puts: one slot of x bytes per origin rank in every
 * window, so concurrent origins never write the same bytes. */
static int prepare_put_all(eb_ctx *c)
{
    rma_state *s = create(c, 1, c->x, (size_t)c->size * c->x, c->x);
    eb_fill_pattern(s->w.local, c->x, c->rank, 0);
    return 0;
}

/* One / all to all gets: the window holds x bytes of the rank's pattern,
 * the origin one slot per target. */
static int prepare_get_all(eb_ctx *c)
{
    rma_state *s = create(c, 1, c->x, c->x, (size_t)c->size * c->x);
    eb_fill_pattern(s->w.mem, c->x, c->rank, 0);
    return 0;
}

/* Exchange: 2x bytes on both sides (one half per neighbour), the pattern
 * running on over both halves. */
static int prepare_exchange(eb_ctx *c)
{
    rma_state *s = create(c, 1, 2 * c->x, 2 * c->x, 2 * c->x);
    eb_fill_pattern(s->w.mem, 2 * c->x, c->rank, 0);
    eb_fill_pattern(s->w.local, 2 * c->x, c->rank, 0);
    return 0;
}

/* ---- -check: presets before, verification after a checked repetition ---- */

/* Local stores into the own window under an exclusive self-lock, so they
 * are ordered before any origin's access (the kernel barriers next). */
static void poison_own_window(eb_ctx *c, void *p, size_t n)
{
    eb_rma_self_begin(&st(c)->w, c->rank);
    eb_poison(p, n);
    eb_rma_self_end(&st(c)->w, c->rank);
}

static long check_own_window(eb_ctx *c, const void *p, size_t n, int from, size_t off)
{
    eb_rma_self_begin(&st(c)->w, c->rank);
    long bad = eb_check_pattern(p, n, from, off);
    eb_rma_self_end(&st(c)->w, c->rank);
    return bad;
}

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
        MPI_Put(local, x, MPI_BYTE, target, at, x, MPI_BYTE, win(c));
    else
        MPI_Get(local, x, MPI_BYTE, target, at, x, MPI_BYTE, win(c));
}

/* Unidir / Bidir / Put_local / Get_local: rank 0 (and rank 1 if
 * bidirectional) locks its peer, transfers, completes, unlocks; both barrier. */
static double single(eb_ctx *c, long first, long n, direction d, completion f, int bidir)
{
    int origin = c->rank == 0 || bidir, target = 1 - c->rank, x = (int)c->x;
    double t = 0;
    if (origin) {
        MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win(c));
        double t0 = MPI_Wtime();
        for (long i = first; i < first + n; i++) {
            transfer(c, d, loc_sec(c, i), target, disp(c, i), x);
            if (!c->aggregate)
                flush_one(target, f, win(c));
        }
        if (c->aggregate)
            flush_one(target, f, win(c));
        t = MPI_Wtime() - t0;
        MPI_Win_unlock(target, win(c));
    }
    MPI_Barrier(c->comm);
    return t;
}

static void preset_put(eb_ctx *c, long i, int bidir)
{
    if (c->rank == 1 || bidir)
        poison_own_window(c, win_sec(c, i), c->x);
}
static void preset_get(eb_ctx *c, long i, int bidir)
{
    if (c->rank == 0 || bidir)
        eb_poison(loc_sec(c, i), c->x);
}
static long check_put(eb_ctx *c, long i, int bidir)
{
    return c->rank == 1 || bidir ? check_own_window(c, win_sec(c, i), c->x, 1 - c->rank, 0) : 0;
}
static long check_get(eb_ctx *c, long i, int bidir)
{
    return c->rank == 0 || bidir ? eb_check_pattern(loc_sec(c, i), c->x, 1 - c->rank, 0) : 0;
}

/* One_put_all / One_get_all / Put_all_local / Get_all_local (rank 0 is the
 * only origin) and All_put_all / All_get_all (every rank): per repetition N
 * transfers, one to each other process, then one flush_all.  Targets are
 * visited from rank+1 on, so different origins start at different targets
 * (the guide's congestion avoidance). */
static double to_all(eb_ctx *c, long first, long n, direction d, completion f, int all)
{
    int x = (int)c->x;
    double t = 0;
    if (all || c->rank == 0) {
        MPI_Win_lock_all(0, win(c));
        double t0 = MPI_Wtime();
        for (long i = first; i < first + n; i++) {
            for (int p = 1; p < c->size; p++) {
                int target = (c->rank + p) % c->size;
                if (d == PUT)
                    transfer(c, d, st(c)->w.local, target, (MPI_Aint)c->rank * x, x);
                else
                    transfer(c, d, st(c)->w.local + (size_t)target * c->x, target, 0, x);
            }
            flush_all(f, win(c));
        }
        t = MPI_Wtime() - t0;
        MPI_Win_unlock_all(win(c));
    }
    MPI_Barrier(c->comm);
    return t;
}

static void preset_to_all(eb_ctx *c, long i, direction d, int all)
{
    (void)i;
    if (d == PUT)
        poison_own_window(c, st(c)->w.mem, st(c)->w.bytes);
    else if (all || c->rank == 0)
        eb_poison(st(c)->w.local, st(c)->w.local_bytes);
}

static long check_to_all(eb_ctx *c, long i, direction d, int all)
{
    (void)i;
    long bad = 0;
    for (int r = 0; r < c->size; r++) {
        if (r == c->rank)
            continue;
        if (d == PUT && (all || r == 0))
            bad += check_own_window(c, st(c)->w.mem + (size_t)r * c->x, c->x, r, 0);
        if (d == GET && (all || c->rank == 0))
            bad += eb_check_pattern(st(c)->w.local + (size_t)r * c->x, c->x, r, 0);
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
    MPI_Win w = win(c);
    MPI_Win_lock(MPI_LOCK_SHARED, left, 0, w);
    if (right != left)
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w);
    double t0 = MPI_Wtime();
    for (long i = first; i < first + n; i++) {
        transfer(c, d, st(c)->w.local, left, 0, x);
        transfer(c, d, st(c)->w.local + c->x, right, (MPI_Aint)c->x, x);
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
        poison_own_window(c, st(c)->w.mem, 2 * c->x);
    else
        eb_poison(st(c)->w.local, 2 * c->x);
}

/* The first half comes from the right neighbour, the second from the left
 * (put); a get holds the left neighbour's first and the right one's second. */
static long check_exchange(eb_ctx *c, long i, direction d)
{
    (void)i;
    int left = (c->rank - 1 + c->size) % c->size, right = (c->rank + 1) % c->size;
    if (d == PUT)
        return check_own_window(c, st(c)->w.mem, c->x, right, 0) +
               check_own_window(c, st(c)->w.mem + c->x, c->x, left, c->x);
    return eb_check_pattern(st(c)->w.local, c->x, left, 0) +
           eb_check_pattern(st(c)->w.local + c->x, c->x, right, c->x);
}

/* Accumulate / Get_accumulate / Fetch_and_op / Compare_and_swap: rank 0 is
 * the origin, rank 1 the target waiting in MPI_Barrier. */
typedef enum { ACC, GET_ACC, FETCH_OP, CAS } atomic_kind;

static void atomic_op(eb_ctx *c, atomic_kind k, long i)
{
    int count = (int)(c->x / sizeof(float));
    MPI_Win w = win(c);
    switch (k) {
    case ACC:
        MPI_Accumulate(loc_sec(c, i), count, MPI_FLOAT, 1, disp(c, i), count, MPI_FLOAT, MPI_SUM,
                       w);
        break;
    case GET_ACC:
        MPI_Get_accumulate(loc_sec(c, i), count, MPI_FLOAT, res_sec(c, i), count, MPI_FLOAT, 1,
                           disp(c, i), count, MPI_FLOAT, MPI_SUM, w);
        break;
    case FETCH_OP:
        MPI_Fetch_and_op(loc_sec(c, i), res_sec(c, i), MPI_FLOAT, 1, disp(c, i), MPI_SUM, w);
        break;
    case CAS: {
        long nsec = st(c)->w.nsec;
        int *lo = (int *)st(c)->w.local;
        long s = sec(c, i);
        MPI_Compare_and_swap(&lo[s], &lo[nsec + s], &lo[2 * nsec + s], MPI_INT, 1, disp(c, i), w);
        break;
    }
    }
}

static double atomic(eb_ctx *c, long first, long n, atomic_kind k)
{
    double t = 0;
    if (c->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win(c));
        double t0 = MPI_Wtime();
        for (long i = first; i < first + n; i++) {
            atomic_op(c, k, i);
            if (!c->aggregate)
                MPI_Win_flush(1, win(c));
        }
        if (c->aggregate)
            MPI_Win_flush(1, win(c));
        t = MPI_Wtime() - t0;
        MPI_Win_unlock(1, win(c));
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
        eb_rma_self_begin(&st(c)->w, c->rank);
        if (k == CAS)
            *(int *)win_sec(c, i) = eb_buf_value_int(1, 0);
        else
            eb_fill_buf_values(win_sec(c, i), c->x, 1);
        eb_rma_self_end(&st(c)->w, c->rank);
    } else if (k == CAS) {
        long nsec = st(c)->w.nsec;
        ((int *)st(c)->w.local)[2 * nsec + sec(c, i)] = -1;
    } else if (k != ACC) {
        eb_poison(res_sec(c, i), c->x);
    }
}

static long check_atomic(eb_ctx *c, long i, atomic_kind k)
{
    size_t count = c->x / sizeof(float);
    long bad = 0;
    if (c->rank == 1) {
        eb_rma_self_begin(&st(c)->w, c->rank);
        if (k == CAS)
            bad = *(int *)win_sec(c, i) != eb_buf_value_int(0, 0);
        else
            bad = eb_check_float_accumulate((const float *)win_sec(c, i), count, 1, 1, 1);
        eb_rma_self_end(&st(c)->w, c->rank);
    } else if (k == CAS) {
        long nsec = st(c)->w.nsec;
        bad = ((int *)st(c)->w.local)[2 * nsec + sec(c, i)] != eb_buf_value_int(1, 0);
    } else if (k != ACC) {
        bad = eb_check_buf_values(res_sec(c, i), c->x, 1);
    }
    return bad;
}

/* ---- Truly_passive_put --------------------------------------------------- */

/* Origin: n times MPI_Put / MPI_Win_flush / MPI_Barrier; target: n times
 * (optional computation outside MPI) / MPI_Barrier.  Seconds per repetition. */
static double passive_origin(eb_ctx *c, long first, long n)
{
    double t0 = MPI_Wtime();
    for (long i = first; i < first + n; i++) {
        MPI_Put(loc_sec(c, i), (int)c->x, MPI_BYTE, 1, disp(c, i), (int)c->x, MPI_BYTE, win(c));
        MPI_Win_flush(1, win(c));
        MPI_Barrier(c->comm);
    }
    return (MPI_Wtime() - t0) / (double)n;
}

static double passive_target(eb_ctx *c, long n, const eb_cpu_work *work)
{
    double cpu = 0;
    for (long i = 0; i < n; i++) {
        if (work)
            cpu += eb_cpu_run(work);
        MPI_Barrier(c->comm);
    }
    return cpu / (double)n;
}

/* The untimed uses (warm-up, repetition probes, -check): the t_pure loop. */
static double passive_put(eb_ctx *c, long first, long n)
{
    if (c->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win(c));
        passive_origin(c, first, n);
        MPI_Win_unlock(1, win(c));
    } else {
        passive_target(c, n, NULL);
    }
    MPI_Barrier(c->comm);
    return 0;
}

enum { X_PURE, X_OVRL, X_CPU, X_PASSIVE };

/* Per iteration the origin does put / flush / barrier, the target computes
 * (t_cpu) then barriers.  Without passive progress the flush waits for the
 * target to enter MPI: t_ovrl ~ t_cpu + t_pure.  With it the put overlaps the
 * computation and only the barrier remains: t_ovrl - t_cpu ~ t_pure minus the
 * transfer.  The midpoint decides. */
int eb_rma_passive_verdict(double t_pure, double t_ovrl, double t_cpu)
{
    return t_ovrl - t_cpu < 0.5 * t_pure;
}

/* The guide's two cases: (1) target waiting in MPI_Barrier -> t_pure;
 * t_pure is sent to the target, which calibrates a computation of that
 * length; (2) target computing, then MPI_Barrier -> t_ovrl.  The target
 * returns its undisturbed computation time for the verdict. */
static double passive_measure(eb_ctx *c, long n)
{
    double t_pure = 0, t_ovrl = 0, t_cpu = 0;
    if (c->rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win(c));
        t_pure = passive_origin(c, 0, n);
        MPI_Send(&t_pure, 1, MPI_DOUBLE, 1, 1, c->comm);
        MPI_Barrier(c->comm);
        t_ovrl = passive_origin(c, 0, n);
        MPI_Win_unlock(1, win(c));
        MPI_Recv(&t_cpu, 1, MPI_DOUBLE, 1, 2, c->comm, MPI_STATUS_IGNORE);
        c->extra[X_PURE] = t_pure * 1e6;
        c->extra[X_OVRL] = t_ovrl * 1e6;
        c->extra[X_CPU] = t_cpu * 1e6;
        c->extra[X_PASSIVE] = eb_rma_passive_verdict(t_pure, t_ovrl, t_cpu);
    } else {
        passive_target(c, n, NULL);
        MPI_Recv(&t_pure, 1, MPI_DOUBLE, 0, 1, c->comm, MPI_STATUS_IGNORE);
        eb_cpu_work work = eb_cpu_calibrate(t_pure);
        MPI_Barrier(c->comm);
        t_cpu = passive_target(c, n, &work);
        MPI_Send(&t_cpu, 1, MPI_DOUBLE, 0, 2, c->comm);
    }
    MPI_Barrier(c->comm);
    return c->rank == 0 ? t_pure : 0;
}

/* After the table: the verdict over the longer half of the lengths, where
 * the transfer rather than the barrier dominates t_pure. */
static void passive_note(const eb_row *rows, int nrows)
{
    int from = nrows / 2, yes = 0, m = nrows - from;
    for (int k = from; k < nrows; k++)
        yes += rows[k].extra[X_PASSIVE] > 0.5;
    int passive = 2 * yes > m;
    eb_imb_print_note("Truly_passive_put: t_ovrl - t_cpu < t_pure / 2 (the put overlapped the "
                      "target's computation) in %d of the %d longest lengths:", yes, m);
    eb_imb_print_note("the MPI library %s passive-target progress (the origin completes while "
                      "the target computes outside MPI)", passive ? "HAS" : "does NOT have");
    if (eb_jsonl_active()) {
        eb_json j;
        eb_jsonl_begin(&j, "summary");
        eb_json_str(&j, "component", "rma");
        eb_json_str(&j, "benchmark", "Truly_passive_put");
        eb_json_int(&j, "procs", rows[0].procs);
        eb_json_bool(&j, "passive_progress", passive);
        eb_json_int(&j, "rows_passive", yes);
        eb_json_int(&j, "rows_judged", m);
        eb_jsonl_emit(&j);
    }
}

/* ---- descriptors ---------------------------------------------------------- */

#define WRAP(nm, op, preset, chk)                                                               \
    static void nm##_kernel(eb_ctx *c, long first, long n)                                      \
    {                                                                                           \
        if (c->checking) {                                                                      \
            preset;                                                                             \
            MPI_Barrier(c->comm);                                                               \
        }                                                                                       \
        op;                                                                                     \
    }                                                                                           \
    static double nm##_measure(eb_ctx *c, long n)                                               \
    {                                                                                           \
        long first = 0;                                                                         \
        return (op) / (double)n;                                                                \
    }                                                                                           \
    static long nm##_check(eb_ctx *c, long first) { return chk; }

WRAP(unidir_put, single(c, first, n, PUT, FLUSH, 0), preset_put(c, first, 0), check_put(c, first, 0))
WRAP(unidir_get, single(c, first, n, GET, FLUSH, 0), preset_get(c, first, 0), check_get(c, first, 0))
WRAP(bidir_put, single(c, first, n, PUT, FLUSH, 1), preset_put(c, first, 1), check_put(c, first, 1))
WRAP(bidir_get, single(c, first, n, GET, FLUSH, 1), preset_get(c, first, 1), check_get(c, first, 1))
WRAP(put_local, single(c, first, n, PUT, FLUSH_LOCAL, 0), preset_put(c, first, 0),
     check_put(c, first, 0))
WRAP(get_local, single(c, first, n, GET, FLUSH_LOCAL, 0), preset_get(c, first, 0),
     check_get(c, first, 0))
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

static void passive_kernel(eb_ctx *c, long first, long n)
{
    if (c->checking) {
        preset_put(c, first, 0);
        MPI_Barrier(c->comm);
    }
    passive_put(c, first, n);
}
static long passive_check(eb_ctx *c, long i) { return check_put(c, i, 0); }

static int n_targets(int np) { return np > 1 ? np - 1 : 1; }

#define MODES (EB_F_MODES | EB_F_NONAGGR_FIRST)

/* Single transfer, aggregate mode supported. */
#define SINGLE(nm, ord, fn, flg, prep)                                                          \
    {.component = "rma", .name = nm, .order = ord, .cls = EB_SINGLE_TRANSFER,                  \
     .flags = MODES | (flg), .fixed_procs = 2, .nmsg = 1,                  \
     .extents = no_extents, .prepare = prep, .kernel = fn##_kernel, .check = fn##_check,       \
     .release = release, .measure = fn##_measure}
/* Multiple transfer: one origin, N = np-1 targets, throughput times N. */
#define MULTIPLE(nm, ord, fn, flg, prep)                                                        \
    {.component = "rma", .name = nm, .order = ord, .cls = EB_SINGLE_TRANSFER, .flags = (flg),  \
     .min_procs = 2, .nmsg = 1, .nmsg_of = n_targets, .extents = no_extents,                   \
     .prepare = prep, .kernel = fn##_kernel, .check = fn##_check, .release = release,          \
     .measure = fn##_measure}
/* Parallel transfer: bare t_min / t_max / t_avg. */
#define PARALLEL(nm, ord, fn, prep)                                                             \
    {.component = "rma", .name = nm, .order = ord, .cls = EB_COLLECTIVE, .min_procs = 2,       \
     .extents = no_extents, .prepare = prep, .kernel = fn##_kernel, .check = fn##_check,       \
     .release = release, .measure = fn##_measure}

static const eb_column passive_columns[] = {
    {EB_COL_BYTES, "#bytes"}, {EB_COL_REPS, "#repetitions"},
    {EB_COL_EXTRA + X_PURE, "t_pure[usec]"}, {EB_COL_EXTRA + X_OVRL, "t_ovrl[usec]"},
    {0, NULL}};

static const eb_bench rma_benches[] = {
    SINGLE("Unidir_put", 100, unidir_put, 0, prepare_single),
    SINGLE("Unidir_get", 110, unidir_get, 0, prepare_single),
    SINGLE("Bidir_put", 120, bidir_put, 0, prepare_single),
    SINGLE("Bidir_get", 130, bidir_get, 0, prepare_single),
    MULTIPLE("One_put_all", 140, one_put_all, 0, prepare_put_all),
    MULTIPLE("One_get_all", 150, one_get_all, 0, prepare_get_all),
    PARALLEL("All_put_all", 160, all_put_all, prepare_put_all),
    PARALLEL("All_get_all", 170, all_get_all, prepare_get_all),
    /* Get_local / Get_all_local: by name or -include only, at their places
     * in IMB's full list (IMB_bnames_rma.h, ALLC) */
    SINGLE("Put_local", 180, put_local, 0, prepare_single),
    SINGLE("Get_local", 185, get_local, EB_F_EXPLICIT_ONLY, prepare_single),
    MULTIPLE("Put_all_local", 190, put_all_local, 0, prepare_put_all),
    MULTIPLE("Get_all_local", 195, get_all_local, EB_F_EXPLICIT_ONLY, prepare_get_all),
    PARALLEL("Exchange_put", 200, exchange_put, prepare_exchange),
    PARALLEL("Exchange_get", 210, exchange_get, prepare_exchange),
    SINGLE("Accumulate", 220, accumulate, EB_F_REDUCTION, prepare_float),
    SINGLE("Get_accumulate", 230, get_accumulate, EB_F_REDUCTION, prepare_float),
    {.component = "rma", .name = "Fetch_and_op", .order = 240, .cls = EB_SINGLE_TRANSFER,
     .flags = MODES | EB_F_REDUCTION, .fixed_procs = 2, .nmsg = 1, .fixed_bytes = sizeof(float),
     .extents = no_extents, .prepare = prepare_float, .kernel = fetch_and_op_kernel,
     .check = fetch_and_op_check, .release = release, .measure = fetch_and_op_measure},
    {.component = "rma", .name = "Compare_and_swap", .order = 250, .cls = EB_SINGLE_TRANSFER,
     .flags = MODES, .fixed_procs = 2, .nmsg = 1, .fixed_bytes = sizeof(int),
     .list_comment = "Uses MPI_INT data type", .extents = no_extents, .prepare = prepare_cas,
     .kernel = compare_and_swap_kernel, .check = compare_and_swap_check, .release = release,
     .measure = compare_and_swap_measure},
    {.component = "rma", .name = "Truly_passive_put", .order = 260, .cls = EB_SINGLE_TRANSFER,
     .fixed_procs = 2,
     .list_comment = "The benchmark measures execution time of MPI_Put for 2 cases:\n"
                     "1) The target is waiting in MPI_Barrier call (t_pure value)\n"
                     "2) The target performs computation and then enters MPI_Barrier routine "
                     "(t_ovrl value)",
     .extents = no_extents, .prepare = prepare_single, .kernel = passive_kernel,
     .check = passive_check, .release = release, .columns = passive_columns,
     .extra_json = {"t_pure_us", "t_ovrl_us", "t_cpu_us", "passive_progress"},
     .measure = passive_measure, .after_table = passive_note},
};

static const eb_imb_family rma_family = {
    .component = "rma",
    .program = "IMB-RMA",
    .part = "MPI-RMA part",
    .iter = {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100,
             .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .minmsglog = 0,
    .maxmsglog = 22,
};

static int rma_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    return eb_imb_run(&rma_family, argc, argv);
}

static const eb_component rma_component = {
    .name = "rma",
    .aliases = {"IMB-RMA"},
    .summary = "IMB-RMA: one-sided communication in passive target mode (MPI-3)",
    .order = 50,
    .main = rma_main,
};

EB_CONSTRUCTOR(register_rma)
{
    eb_register_component(&rma_component);
    for (size_t i = 0; i < sizeof rma_benches / sizeof rma_benches[0]; i++)
        eb_register_bench(&rma_benches[i]);
}
