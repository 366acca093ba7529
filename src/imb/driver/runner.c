#include "imb/driver/runner.h"

#include "core/accuracy.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/own_coll.h"
#include "core/simulate.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/membuf.h"
#include "imb/driver/msg_layout.h"
#include "imb/driver/window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This rank's timed loops of one length. */
typedef struct {
    int n, cap;
    double *t_us;  /* [cap] time per repetition, microseconds */
    double *extra; /* [cap * EB_MAX_EXTRA] */
} eb_loops;

/* A loop mode: how the runner times one length. */
struct eb_loop_mode {
    const char *name;
    /* Optional: repetitions per loop where the dynamic policy would probe
     * (base: the policy's count, under any cap) */
    long (*reps)(eb_runner *R, long base);
    /* Time the current length at n repetitions per loop into L; returns the
     * repetitions per loop used */
    long (*time_row)(eb_runner *R, long n, eb_loops *L);
    /* Optional: the mode's figures of the last length into a row */
    void (*figures)(const void *state, eb_row *row);
    size_t state_size; /* the mode's own state, zeroed at the table's start */
};

static double max_over(double v, MPI_Comm comm)
{
    double r;
    eb_own_allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, comm);
    return r;
}

static void loops_reserve(eb_loops *L, int cap)
{
    if (cap <= L->cap)
        return;
    L->t_us = eb_realloc(L->t_us, (size_t)cap * sizeof *L->t_us);
    L->extra = eb_realloc(L->extra, (size_t)cap * EB_MAX_EXTRA * sizeof *L->extra);
    memset(L->extra + (size_t)L->cap * EB_MAX_EXTRA, 0,
           (size_t)(cap - L->cap) * EB_MAX_EXTRA * sizeof *L->extra);
    L->cap = cap;
}

static double timed(eb_runner *R, long first, long n)
{
    eb_ctx *c = &R->ctx;
    MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    R->b->kernel(c, first, n);
    return MPI_Wtime() - t0;
}

/* One timed loop of n repetitions after the barriers: this rank's time per
 * repetition in microseconds; the benchmark's extras into extra_k. */
static double timed_loop(eb_runner *R, long n, double *extra_k)
{
    eb_ctx *c = &R->ctx;
    const eb_bench *b = R->b;
    eb_imb_barriers(R->o, c->comm, EB_N_BARR);
    double t;
    if (b->measure) {
        t = b->measure(c, n);
    } else if (eb_imb2021_per_rep(R->o, b)) {
        t = eb_imb2021_rep_loop(c, n);
    } else {
        double t0 = MPI_Wtime();
        b->kernel(c, 0, n);
        t = (MPI_Wtime() - t0) / (double)n;
    }
    memcpy(extra_k, c->extra, sizeof c->extra);
    return t / (b->time_divisor > 0 ? b->time_divisor : 1) * 1e6;
}

/* ---- loop mode: IMB's one timed loop, or -repeat N loops ---------------- */

static long fixed_time_row(eb_runner *R, long n, eb_loops *L)
{
    int N = R->o->repeat > 0 ? R->o->repeat : 1;
    loops_reserve(L, N);
    for (int k = 0; k < N; k++)
        L->t_us[k] = timed_loop(R, n, L->extra + (size_t)k * EB_MAX_EXTRA);
    L->n = N;
    return n;
}

static const eb_loop_mode fixed_mode = {.name = "loops", .time_row = fixed_time_row};

/* ---- loop mode: quick (`effbench quick`) ---------------------------------- */

typedef struct {
    double rel_error; /* achieved std error / mean of the kept loops */
    int converged;    /* reached -epsilon (else the budget ran out) */
} quick_state;

/* One repetition sizes the loops: about 1/50 of the row's budget each, so
 * the accuracy rule has loops to work with. */
static long quick_reps(eb_runner *R, long base)
{
    const eb_iter_settings *it = &R->o->iter;
    double per_loop = it->secs / 50 > 1e-3 ? it->secs / 50 : 1e-3;
    long n = 1;
    for (int probe = 0; probe < 2; probe++) { /* 1 repetition, then a loop's worth */
        double t = max_over(timed(R, 0, n), R->table.active) / (double)n;
        n = eb_reps_within(per_loop, t, base);
    }
    eb_own_bcast(&n, 1, MPI_LONG, 0, R->table.active);
    return n;
}

/* Loops until the kept loops' relative standard error is below epsilon or
 * the budget is spent; the samples are each loop's maximum over ranks,
 * identical everywhere, so every rank stops at the same loop without a
 * broadcast. */
static long quick_time_row(eb_runner *R, long n, eb_loops *L)
{
    const eb_imb_options *o = R->o;
    int divisor = R->b->time_divisor > 0 ? R->b->time_divisor : 1;
    eb_acc_params p = {.rel_error = o->epsilon, .min_reps = EB_QUICK_MIN_LOOPS,
                       .max_reps = 100000, .cut_quantile = EB_QUICK_CUT,
                       .min_total = MPI_Wtick() * 1e6 / o->epsilon};
    eb_acc acc;
    eb_acc_init(&acc, &p);
    loops_reserve(L, 64);
    double spent_us = 0;
    for (int k = 0;; k++) {
        loops_reserve(L, k + 1 > L->cap ? 2 * L->cap : L->cap);
        L->t_us[k] = timed_loop(R, n, L->extra + (size_t)k * EB_MAX_EXTRA);
        double loop_max = max_over(L->t_us[k], R->table.active);
        eb_acc_add(&acc, loop_max);
        spent_us += loop_max * (double)n * divisor;
        if (eb_acc_done(&acc) || spent_us >= o->iter.secs * 1e6) {
            L->n = k + 1;
            break;
        }
    }
    quick_state *q = R->mode_state;
    eb_acc_stats st = eb_acc_summary(&acc);
    q->rel_error = st.std_error / st.mean;
    q->converged = eb_acc_converged(&acc); /* not when the budget ended it early */
    eb_acc_free(&acc);
    return n;
}

static void quick_figures(const void *state, eb_row *row)
{
    const quick_state *q = state;
    row->quick = 1;
    row->quick_rel_error = q->rel_error;
    row->quick_converged = q->converged;
}

static const eb_loop_mode quick_mode = {.name = "quick", .reps = quick_reps,
                                        .time_row = quick_time_row, .figures = quick_figures,
                                        .state_size = sizeof(quick_state)};

/* ---- loop mode: -sync window ----------------------------------------------- */

typedef struct {
    eb_clock_model clock;  /* kept from one length to the next (drift) */
    eb_window_figures fig; /* of the last length */
} window_state;

static void window_op(void *arg, long i)
{
    eb_runner *R = arg;
    R->b->kernel(&R->ctx, i, 1);
}

/* No plain loop: the series' average stands in for the one loop. */
static long window_time_row(eb_runner *R, long n, eb_loops *L)
{
    window_state *w = R->mode_state;
    w->clock.method = R->o->clock_sync;
    w->fig = eb_window_series(R->table.active, &w->clock, n, R->o->iter.secs, window_op, R);
    loops_reserve(L, 1);
    L->t_us[0] = w->fig.t_avg;
    L->n = 1;
    return w->fig.reps;
}

/* Times over the valid repetitions of each one's slowest rank. */
static void window_figures(const void *state, eb_row *row)
{
    const eb_window_figures *f = &((const window_state *)state)->fig;
    row->t_min = f->t_min;
    row->t_max = f->t_max;
    row->t_avg = f->t_avg;
    row->sync_window = 1;
    row->valid_fraction = f->valid_fraction;
    row->invalid_reps = f->invalid;
    row->window_us = f->width_us;
    const eb_clock_model *c = &((const window_state *)state)->clock;
    row->clock_method = c->method;
    row->clock_sync_us = 1e6 * c->sync_s;
    row->clock_offset_max_us = 1e6 * c->check_max;
    row->clock_check_error_us = 1e6 * c->check_error;
    row->clock_drift_ppm = 1e6 * c->drift_max;
}

static const eb_loop_mode window_mode = {.name = "window", .time_row = window_time_row,
                                         .figures = window_figures,
                                         .state_size = sizeof(window_state)};

/* ---- repetitions ---------------------------------------------------------- */

/* The probes of the dynamic and multiple_np policies: the time per
 * repetition (maximum over every active rank, so all ranks choose the same
 * count) of one repetition, then of a ~1 s loop of at most `base`. */
static double probe_time(eb_runner *R, long base)
{
    const eb_iter_settings *it = &R->o->iter;
    double t1 = max_over(timed(R, 0, 1), R->table.active);
    long probe = eb_probe_reps(t1, it->msgspersample), n = base < probe ? base : probe;
    if (eb_sim_active())
        n = 1; /* a simulated network has no noise: t1 is the time per repetition */
    return n > 1 ? max_over(timed(R, 0, n), R->table.active) / (double)n : t1;
}

static long repetitions(eb_runner *R, size_t x)
{
    const eb_iter_settings *it = &R->o->iter;
    MPI_Comm A = R->table.active;
    long base = eb_n_sample_base(it, x, R->aggregate), cap = R->ctx.max_reps;
    if (cap > 0 && base > cap)
        base = cap; /* the probes below stay under the cap too */
    long n;
    int q = R->table.info.procs;
    switch (eb_effective_policy(it->policy, (R->b->flags & EB_F_ROOT) != 0)) {
    case EB_ITER_OFF:
        return eb_n_sample_off(it, R->aggregate);
    case EB_ITER_MULTIPLE_NP:
        base = eb_n_sample_multiple_np(it->msgspersample, x > 4 ? x : 4, R->max_size, q);
        n = eb_n_sample_multiple_np_timed(base, q, probe_time(R, base), it->secs);
        eb_own_bcast(&n, 1, MPI_LONG, 0, A);
        return n;
    default:
        break;
    }
    if (R->mode->reps)
        return R->mode->reps(R, base);
    /* a simulation capped at one repetition has nothing to probe (elsewhere the probe
     * also warms the length up) */
    if (eb_sim_active() && base <= 1)
        return 1;
    n = eb_n_sample_dynamic(base, R->prev_n, probe_time(R, base), it->secs);
    eb_own_bcast(&n, 1, MPI_LONG, 0, A);
    R->prev_n = n;
    return n;
}

/* ---- one length --------------------------------------------------------- */

/* Buffers, send data and the benchmark's state for message length x. */
static void setup_length(eb_runner *R, size_t x)
{
    eb_ctx *c = &R->ctx;
    const eb_bench *b = R->b;
    const eb_imb_options *o = R->o;
    c->x = x;
    eb_layout_make(&c->lay, eb_contig_of(o, b), eb_imb_dtype(o, b), x,
                   (b->flags & EB_F_REDUCTION) != 0);
    size_t s_len, r_len;
    eb_layout_extents(o, b, x, c->size, &s_len, &r_len);
    long base = eb_n_sample_base(&o->iter, x, R->aggregate);
    eb_membuf_setup(&c->s, c->mem, s_len, base, &o->cache);
    eb_membuf_setup(&c->r, c->mem, r_len, base, &o->cache);
    eb_ctx_fill_send(c, (b->flags & EB_F_REDUCTION) != 0, o->imb21.red_data_type);
    eb_mem_poison(c->mem, c->r.base, c->r.alloc);
    memset(c->extra, 0, sizeof c->extra);
    c->max_reps = eb_sim_max_reps(); /* 0: no cap, except in a simulation */
    if (b->prepare && b->prepare(c) != 0)
        eb_abort("%s: preparing %zu bytes failed", b->name, x);
}

/* The guide's warm-up phase: N_WARMUP untimed calls with a
 * sizeof(assign_type) message length (one float for reductions, one byte
 * otherwise, one element of -data_type / -red_data_type; a benchmark with one
 * fixed length uses that), once per process set, before its first measured
 * length. */
static void warm_up(eb_runner *R)
{
    const eb_bench *b = R->b;
    size_t x = (b->flags & EB_F_NO_BYTES) ? 0
               : b->fixed_bytes > 0       ? b->fixed_bytes
               : eb_imb_unit(R->o, b); /* one element: float for reductions, else a byte */
    setup_length(R, x);
    b->kernel(&R->ctx, 0, EB_N_WARMUP);
    if (b->release)
        b->release(&R->ctx);
    eb_layout_free(&R->ctx.lay);
}

/* -check: every repetition again, untimed, each verified on arrival (in a
 * host copy where the buffers are device memory). */
static long checked_pass(eb_runner *R, long n)
{
    eb_ctx *c = &R->ctx;
    const eb_bench *b = R->b;
    long defects = 0;
    if (!R->o->check || !b->check)
        return 0;
    c->checking = 1;
    eb_membuf_view view = {0};
    for (long i = 0; i < n; i++) {
        eb_mem_poison(c->mem, eb_rbuf(c, i), c->r.len);
        MPI_Barrier(c->comm);
        b->kernel(c, i, 1);
        eb_membuf_host_begin(c, &view);
        defects += b->check(c, i);
        eb_membuf_host_end(c, &view);
    }
    eb_membuf_view_free(&view);
    c->checking = 0;
    return defects;
}

void eb_runner_measure(eb_runner *R, size_t x)
{
    eb_ctx *c = &R->ctx;
    const eb_bench *b = R->b;
    const eb_imb_options *o = R->o;
    if (!R->warmed && !(b->flags & EB_F_NO_WARMUP) && o->imb21.warm_up < 0) {
        warm_up(R);
        R->warmed = 1;
    }
    setup_length(R, x);
    char what[160];
    snprintf(what, sizeof what, "%s, %d processes, %zu bytes", R->table.info.name,
             R->table.info.procs, x);
    /* -time bounds a loop; -repeat and -check multiply the loops */
    eb_guard_row(what, o->iter.secs * (o->repeat > 1 ? o->repeat : 1) * (o->check ? 2 : 1),
                 R->table.active);
    long n = repetitions(R, x);
    if (c->max_reps > 0 && n > c->max_reps)
        n = c->max_reps;
    eb_imb2021_warm_up(c, n);
    double row_t0 = MPI_Wtime();
    eb_loops L = {0};
    n = R->mode->time_row(R, n, &L);
    eb_row_times m = {.x = x, .n = n, .loops = L.n, .t_us = L.t_us, .extra = L.extra,
                      .mode_figures = R->mode->figures, .mode_state = R->mode_state};
    m.defects = checked_pass(R, n);
    eb_imb2021_pause(o, MPI_Wtime() - row_t0);
    eb_emit_row(&R->table, &m);
    eb_guard_row_end();
    free(L.t_us);
    free(L.extra);
    if (b->release)
        b->release(c);
    eb_layout_free(&c->lay);
}

/* ---- the table ------------------------------------------------------------ */

void eb_runner_init(eb_runner *R, const eb_imb_options *o, const eb_table *T, int aggregate,
                    int ngroups, size_t max_size)
{
    const eb_bench *b = T->info.bench;
    memset(R, 0, sizeof *R);
    R->o = o;
    R->b = b;
    R->table = *T;
    R->aggregate = aggregate;
    R->max_size = max_size;
    R->prev_n = o->iter.msgspersample;
    eb_ctx *c = &R->ctx;
    c->bench = b;
    c->comm = T->comm;
    c->opt = o;
    c->mem = o->mem;
    c->group = T->group;
    c->aggregate = aggregate;
    c->ngroups = ngroups;
    c->multi = T->info.multi;
    MPI_Comm_rank(T->comm, &c->rank);
    MPI_Comm_size(T->comm, &c->size);
    /* an aggregate table times M transfers under one completion: one
     * repetition per window would make it non-aggregate */
    int window = o->sync_window && b->cls != EB_SINGLE_TRANSFER && !b->measure &&
                 !(T->info.mode && aggregate);
    R->mode = window ? &window_mode : o->quick ? &quick_mode : &fixed_mode;
    R->mode_state = R->mode->state_size ? eb_calloc(1, R->mode->state_size) : NULL;
}

void eb_runner_free(eb_runner *R)
{
    free(R->mode_state);
    R->mode_state = NULL;
    eb_table_free(&R->table);
    eb_membuf_free(&R->ctx.s, R->ctx.mem);
    eb_membuf_free(&R->ctx.r, R->ctx.mem);
}
