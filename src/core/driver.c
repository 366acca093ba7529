#include "core/guard.h"
#include "core/nodemap.h"
#include "core/driver.h"

#include "core/accuracy.h"
#include "core/clock.h"

#include "core/error.h"
#include "core/procsets.h"
#include "core/simulate.h"
#include "core/report/imb_text.h"
#include "core/report/jsonl.h"
#include "core/stats.h"
#include "core/sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define EB_MAX_PROCSETS 64

/* --resume: rows of the earlier file, not measured again */
static char **resume_keys;
static int n_resume_keys;

static int already_measured(const char *name, const char *mode, int q, size_t x, int last_group)
{
    char key[256];
    eb_row_key(key, sizeof key, name, mode, q, x, last_group);
    for (int i = 0; i < n_resume_keys; i++)
        if (strcmp(resume_keys[i], key) == 0)
            return 1;
    return 0;
}

const eb_bench *eb_find_bench(const char *component, const char *name, int *multi)
{
    *multi = 0;
    if (strncasecmp(name, "Multi-", 6) == 0) {
        *multi = 1;
        name += 6;
    }
    int n = eb_bench_count(component);
    for (int i = 0; i < n; i++) {
        const eb_bench *b = eb_bench_at(component, i);
        if (strcasecmp(b->name, name) == 0)
            return (*multi && (b->flags & EB_F_NO_MULTI)) ? NULL : b;
    }
    return NULL;
}

/* ---- the plan: which benchmarks, in which mode ------------------------- */

typedef struct {
    const eb_bench **list;
    int *multi; /* -1: standard mode; 0/1: multiple mode with that outflag */
    int n;
} plan_t;

static int in_list(char **names, int n, const char *component, const eb_bench *b)
{
    for (int i = 0; i < n; i++) {
        int m;
        if (eb_find_bench(component, names[i], &m) == b)
            return 1;
    }
    return 0;
}

static void unknown_name(const eb_imb_options *o, const char *name)
{
    char msg[EB_ERRLEN];
    int n = eb_bench_count(o->family->component), len;
    len = snprintf(msg, sizeof msg, "unknown benchmark '%s' for %s; known:", name, o->family->program);
    for (int i = 0; i < n && len < (int)sizeof msg; i++)
        len += snprintf(msg + len, sizeof msg - (size_t)len, " %s",
                        eb_bench_at(o->family->component, i)->name);
    eb_exit_all(EB_EXIT_USAGE, msg);
}

static plan_t make_plan(const eb_imb_options *o)
{
    const char *comp = o->family->component;
    int total = eb_bench_count(comp);
    plan_t p = {eb_calloc((size_t)total, sizeof *p.list), eb_calloc((size_t)total, sizeof *p.multi), 0};
    int m;
    for (int i = 0; i < o->nnames; i++)
        if (!eb_find_bench(comp, o->names[i], &m))
            unknown_name(o, o->names[i]);
    for (int i = 0; i < o->ninclude; i++)
        if (!eb_find_bench(comp, o->include[i], &m))
            unknown_name(o, o->include[i]);
    for (int i = 0; i < o->nexclude; i++)
        if (!eb_find_bench(comp, o->exclude[i], &m))
            unknown_name(o, o->exclude[i]);
    /* named benchmarks run in command-line order, as IMB runs them; then
     * the component's list order for the default set and -include */
    const eb_bench **candidates = eb_calloc((size_t)(o->nnames + total), sizeof *candidates);
    int nc = 0;
    for (int k = 0; k < o->nnames; k++)
        candidates[nc++] = eb_find_bench(comp, o->names[k], &m);
    for (int i = 0; i < total; i++)
        candidates[nc++] = eb_bench_at(comp, i);
    for (int c = 0; c < nc; c++) {
        const eb_bench *b = candidates[c];
        int named = 0, named_multi = 0, planned = 0;
        for (int k = 0; k < o->nnames; k++)
            if (eb_find_bench(comp, o->names[k], &m) == b) {
                named = 1;
                named_multi |= m;
            }
        for (int i = 0; i < p.n; i++)
            planned |= p.list[i] == b;
        int take = o->nnames > 0 ? named : !(b->flags & EB_F_EXPLICIT_ONLY);
        take |= in_list(o->include, o->ninclude, comp, b);
        if (in_list(o->exclude, o->nexclude, comp, b) || planned)
            take = 0;
        if (!take)
            continue;
        p.list[p.n] = b;
        if (b->flags & EB_F_NO_MULTI)
            p.multi[p.n] = -1;
        else
            p.multi[p.n] = o->multi >= 0 ? o->multi : named_multi ? 0 : -1;
        p.n++;
    }
    free(candidates);
    if (p.n == 0)
        eb_exit_all(EB_EXIT_USAGE, "no benchmark left to run after -include/-exclude");
    return p;
}

/* ---- one row ----------------------------------------------------------- */

typedef struct {
    const eb_imb_options *o;
    const eb_bench *b;
    eb_ctx ctx;
    MPI_Comm active;     /* all ranks of all groups */
    int multi;           /* -1 standard, else outflag */
    int q, ngroups;
    size_t max_size;
    long prev_n;         /* dynamic policy: counts never grow with the length */
    int warmed;
    int warned_spread, warned_warmup;
    /* -sync window: the clock model and the last series' figures */
    int window;
    double quick_rel_error;
    int quick_converged;
    eb_clock_model clock;
    double win_min, win_max, win_avg, win_valid, win_width;
    long win_invalid;
    const char *mode;
    int aggregate;
    eb_row *rows;        /* the table so far (printing rank), for after_table */
    int nrows;
} runner_t;

static double max_over(double v, MPI_Comm comm)
{
    double r;
    MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, comm);
    return r;
}

static double timed(runner_t *R, long first, long n)
{
    eb_ctx *c = &R->ctx;
    MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    R->b->kernel(c, first, n);
    return MPI_Wtime() - t0;
}

/* The probes of the dynamic and multiple_np policies: the time per
 * repetition (maximum over every active rank, so all ranks choose the same
 * count) of one repetition, then of a ~1 s loop of at most `base`. */
static double probe_time(runner_t *R, long base)
{
    const eb_iter_settings *it = &R->o->iter;
    double t1 = max_over(timed(R, 0, 1), R->active);
    long n = base < eb_probe_reps(t1, it->msgspersample) ? base : eb_probe_reps(t1, it->msgspersample);
    return n > 1 ? max_over(timed(R, 0, n), R->active) / (double)n : t1;
}

static long repetitions(runner_t *R, size_t x)
{
    const eb_iter_settings *it = &R->o->iter;
    long base = eb_n_sample_base(it, x, R->aggregate), cap = R->ctx.max_reps;
    if (cap > 0 && base > cap)
        base = cap; /* the probes below stay under the cap too */
    long n;
    switch (eb_effective_policy(it->policy, (R->b->flags & EB_F_ROOT) != 0)) {
    case EB_ITER_OFF:
        return eb_n_sample_off(it, R->aggregate);
    case EB_ITER_MULTIPLE_NP:
        base = eb_n_sample_multiple_np(it->msgspersample, x > 4 ? x : 4, R->max_size, R->q);
        n = eb_n_sample_multiple_np_timed(base, R->q, probe_time(R, base), it->secs);
        MPI_Bcast(&n, 1, MPI_LONG, 0, R->active);
        return n;
    default:
        break;
    }
    if (R->o->quick) {
        /* one repetition sizes the loops: about 1/50 of the row's budget
         * each, so the accuracy rule has loops to work with */
        double per_loop = it->secs / 50 > 1e-3 ? it->secs / 50 : 1e-3;
        n = 1;
        for (int probe = 0; probe < 2; probe++) { /* 1 repetition, then a loop's worth */
            double t = max_over(timed(R, 0, n), R->active) / (double)n;
            n = t > 0 ? (long)(per_loop / t) : base;
            n = n < 1 ? 1 : n > base ? base : n;
        }
        MPI_Bcast(&n, 1, MPI_LONG, 0, R->active);
        return n;
    }
    n = eb_n_sample_dynamic(base, R->prev_n, probe_time(R, base), it->secs);
    MPI_Bcast(&n, 1, MPI_LONG, 0, R->active);
    R->prev_n = n;
    return n;
}

static void fill_send(eb_ctx *c)
{
    for (long s = 0; s < c->s.slots; s++) {
        char *p = eb_sbuf(c, s);
        if (c->bench->flags & EB_F_REDUCTION)
            eb_fill_floats((float *)p, c->s.len / sizeof(float), c->rank, 0);
        else
            eb_fill_pattern(p, c->s.len, c->rank, 0);
    }
}

/* Per-group figures of each timed loop, gathered to rank 0 of the active
 * communicator: [group][loop][field]. */
enum { F_MIN, F_MAX, F_AVG, F_N };

/* Noise warnings, at most one of each kind per benchmark block. */
static void warn_noise(runner_t *R, const char *name, size_t x, const double *loop_tmax, int N)
{
    eb_noise z = eb_noise_of(loop_tmax, N);
    if (z.noisy && !R->warned_spread) {
        R->warned_spread = 1;
        eb_warn("%s, %zu bytes: the %d timed loops spread %.2fx (slowest/fastest): the machine is "
                "noisy. Stop other work, pin ranks to cores (mpirun --bind-to core), and compare "
                "medians (more -repeat loops, or `effbench quick`).", name, x, N, z.spread);
    }
    if (z.warming_up && !R->warned_warmup) {
        R->warned_warmup = 1;
        eb_warn("%s, %zu bytes: the first timed loop took %.2fx the median of the others: "
                "something was still warming up (page faults, connection set-up). This row's "
                "median leaves it out, but a single loop (-repeat 1, IMB's default) would "
                "have reported it: keep -repeat 3 or more for numbers you publish.",
                name, x, z.first_vs_rest);
    }
}

/* Index of the median loop of N by time (the lower one for even N; ties in
 * loop order). */
static int median_loop(const double *loop_time, int N)
{
    for (int k = 0; k < N; k++) {
        int place = 0; /* k's place in a stable sort */
        for (int j = 0; j < N; j++)
            place += loop_time[j] < loop_time[k] || (j < k && loop_time[j] == loop_time[k]);
        if (place == (N - 1) / 2)
            return k;
    }
    return 0;
}

/* t_us[k]: this rank's time per repetition in loop k of N; extra[k *
 * EB_MAX_EXTRA ..]: the extra values the benchmark's measure left in loop k. */
/* Where a group's ranks ran: 0 one node, 1 a node each, 2 mixed (collective
 * over the group's communicator). */
static int group_link(MPI_Comm comm)
{
    int q, me;
    MPI_Comm_size(comm, &q);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const eb_nodemap *m = eb_world_nodes();
    int *nodes = eb_malloc((size_t)q * sizeof *nodes);
    MPI_Allgather(&m->node_of[me], 1, MPI_INT, nodes, 1, MPI_INT, comm);
    int distinct = 0;
    for (int i = 0; i < q; i++) {
        int first = 1;
        for (int k = 0; k < i; k++)
            first &= nodes[k] != nodes[i];
        distinct += first;
    }
    free(nodes);
    return distinct == 1 ? 0 : distinct == q ? 1 : 2;
}

/* The link labels of a row's groups g0..g1-1: one label if they agree. */
static const char *link_label(const int *codes, int g0, int g1)
{
    static const char *const names[] = {"intra", "inter", "mixed"};
    int code = codes[g0];
    for (int g = g0 + 1; g < g1; g++)
        if (codes[g] != code)
            code = 2;
    return names[code];
}

static void emit_row(runner_t *R, size_t x, long n, const double *t_us, const double *extra, int N,
                     long defects)
{
    eb_ctx *c = &R->ctx;
    const eb_bench *b = R->b;
    int arank;
    MPI_Comm_rank(R->active, &arank);
    int G = R->ngroups;
    /* per group: each loop's figures, the defects, each loop's extras */
    size_t per_group = (size_t)N * F_N + 1 + (size_t)N * EB_MAX_EXTRA;
    double *mine = eb_calloc((size_t)G * per_group, sizeof(double));
    double *all = eb_calloc((size_t)G * per_group, sizeof(double));
    double *f = mine + (size_t)c->group * per_group;
    for (int k = 0; k < N; k++) {
        eb_mma g = eb_reduce_mma(t_us[k], c->comm);
        f[k * F_N + F_MIN] = g.min;
        f[k * F_N + F_MAX] = g.max;
        f[k * F_N + F_AVG] = g.avg;
    }
    long gdef = 0;
    MPI_Allreduce(&defects, &gdef, 1, MPI_LONG, MPI_SUM, c->comm);
    if (c->rank == 0)
        f[(size_t)N * F_N] = (double)gdef;
    else
        memset(f, 0, ((size_t)N * F_N + 1) * sizeof *f);
    /* each loop's extras come from the group's slowest rank in that loop
     * (the one rank that adds them to the sum below) */
    for (int k = 0; k < N; k++) {
        double *fx = f + (size_t)N * F_N + 1 + (size_t)k * EB_MAX_EXTRA;
        if (eb_rank_of_max(t_us[k], c->comm, NULL) == c->rank)
            memcpy(fx, extra + (size_t)k * EB_MAX_EXTRA, EB_MAX_EXTRA * sizeof *fx);
    }
    MPI_Reduce(mine, all, (int)((size_t)G * per_group), MPI_DOUBLE, MPI_SUM, 0, R->active);
    /* transfers say whether their ranks shared a node (collectives span both) */
    int transfer = b->cls != EB_COLLECTIVE;
    int *link_mine = eb_calloc((size_t)G, sizeof(int)), *links = eb_calloc((size_t)G, sizeof(int));
    if (transfer) {
        int code = group_link(c->comm);
        if (c->rank == 0)
            link_mine[c->group] = code;
        MPI_Reduce(link_mine, links, G, MPI_INT, MPI_SUM, 0, R->active);
    }
    if (arank == 0) {
        char name[128];
        snprintf(name, sizeof name, "%s%s", R->multi >= 0 ? "Multi-" : "", b->name);
        int rows = R->multi == 1 ? G : 1;
        double *lmin = eb_malloc((size_t)N * sizeof(double));
        double *lmax = eb_malloc((size_t)N * sizeof(double));
        double *lavg = eb_malloc((size_t)N * sizeof(double));
        for (int r = 0; r < rows; r++) {
            int g0 = R->multi == 1 ? r : 0, g1 = R->multi == 1 ? r + 1 : G;
            eb_row row = {.bench = b, .name = name, .mode = R->mode, .procs = R->q, .bytes = x,
                          .reps = n, .defects = R->o->check ? 0 : -1, .loops = N,
                          .loop_t_min = lmin, .loop_t_max = lmax, .loop_t_avg = lavg};
            row.group = R->multi == 1 ? r : -1;
            row.link = transfer ? link_label(links, g0, g1) : NULL;
            for (int k = 0; k < N; k++) {
                lmin[k] = INFINITY;
                lmax[k] = -INFINITY;
                lavg[k] = 0;
                for (int gi = g0; gi < g1; gi++) {
                    const double *fk = all + (size_t)gi * per_group + (size_t)k * F_N;
                    lmin[k] = fmin(lmin[k], fk[F_MIN]);
                    lmax[k] = fmax(lmax[k], fk[F_MAX]);
                    lavg[k] += fk[F_AVG] / (g1 - g0);
                }
            }
            /* a table of the benchmark's own columns shows one loop's
             * figures, which belong together (t_ovrl, t_pure, overlap):
             * the median loop's, from its slowest group */
            int kmed = median_loop(lmax, N), slowest = g0;
            for (int gi = g0; gi < g1; gi++)
                if (all[(size_t)gi * per_group + (size_t)kmed * F_N + F_MAX] >
                    all[(size_t)slowest * per_group + (size_t)kmed * F_N + F_MAX])
                    slowest = gi;
            for (int gi = g0; gi < g1 && R->o->check; gi++)
                row.defects += (long)all[(size_t)gi * per_group + (size_t)N * F_N];
            /* one loop: IMB's numbers; several: the median of each over the loops */
            row.t_min = N == 1 ? lmin[0] : eb_median_copy(lmin, N);
            row.t_max = N == 1 ? lmax[0] : eb_median_copy(lmax, N);
            row.t_avg = N == 1 ? lavg[0] : eb_median_copy(lavg, N);
            row.rep_min = INFINITY;
            row.rep_max = -INFINITY;
            for (int k = 0; k < N; k++) {
                row.rep_min = fmin(row.rep_min, lmax[k]);
                row.rep_max = fmax(row.rep_max, lmax[k]);
            }
            row.spread = row.rep_min > 0 ? row.rep_max / row.rep_min : NAN;
            if (R->o->quick) {
                row.quick = 1;
                row.quick_rel_error = R->quick_rel_error;
                row.quick_converged = R->quick_converged;
            }
            if (R->window) {
                /* over the valid repetitions of each one's slowest rank */
                row.t_min = R->win_min;
                row.t_max = R->win_max;
                row.t_avg = R->win_avg;
                row.sync_window = 1;
                row.valid_fraction = R->win_valid;
                row.invalid_reps = R->win_invalid;
                row.window_us = R->win_width;
            }
            memcpy(row.extra,
                   all + (size_t)slowest * per_group + (size_t)N * F_N + 1 +
                       (size_t)kmed * EB_MAX_EXTRA,
                   sizeof row.extra);
            double t_tp = R->window ? row.t_avg : row.t_max; /* docs/imb.md */
            int nmsg = b->nmsg_of ? b->nmsg_of(R->q) : b->nmsg;
            row.mbps = nmsg > 0 && t_tp > 0 ? (double)nmsg * (double)x / 1.048576 / t_tp
                                            : (nmsg > 0 ? 0.0 : NAN);
            eb_imb_print_row(&row, R->o, R->multi);
            eb_jsonl_result(&row, R->o->family->component);
            warn_noise(R, name, x, lmax, N);
            if (b->after_table) {
                R->rows = realloc(R->rows, (size_t)(R->nrows + 1) * sizeof *R->rows);
                if (!R->rows)
                    eb_abort("out of memory keeping table rows");
                R->rows[R->nrows] = row;
                /* `name` and the loop times live in this frame */
                R->rows[R->nrows].name = b->name;
                R->rows[R->nrows].loop_t_min = R->rows[R->nrows].loop_t_avg = NULL;
                R->rows[R->nrows++].loop_t_max = NULL;
            }
        }
        free(lmin);
        free(lmax);
        free(lavg);
    }
    free(mine);
    free(all);
    free(link_mine);
    free(links);
}

/* -sync window: every repetition starts at an agreed global time T0 + i*W;
 * a rank's time is from that start to its completion, a repetition's time
 * the maximum over the ranks, and a repetition some rank started late is
 * invalid.  W starts from the operation's time and the clock error and
 * doubles (at most 8 times) while fewer than half the repetitions are valid,
 * so oversubscribed ranks still give numbers.  Returns the repetitions run. */
static long window_series(runner_t *R, long n)
{
    eb_ctx *c = &R->ctx;
    MPI_Comm A = R->active;
    int arank;
    MPI_Comm_rank(A, &arank);
    eb_clock_sync(A, 10, &R->clock);
    MPI_Barrier(A);
    double t0 = MPI_Wtime();
    R->b->kernel(c, 0, 1);
    double t_op = max_over(MPI_Wtime() - t0, A);
    double W = 2.0 * t_op + 4.0 * R->clock.error + 5e-6;
    double *dur = eb_malloc((size_t)n * sizeof *dur), *worst = eb_malloc((size_t)n * sizeof *worst);
    int *late = eb_malloc((size_t)n * sizeof *late), *any_late = eb_malloc((size_t)n * sizeof *any_late);
    long m = n, valid = 0;
    for (int attempt = 0; attempt < 8; attempt++, W *= 2) {
        /* keep a series within the -time budget */
        m = n;
        if ((double)m * W > R->o->iter.secs)
            m = (long)(R->o->iter.secs / W) > 1 ? (long)(R->o->iter.secs / W) : 1;
        double T0 = MPI_Wtime() + (10.0 * W > 1e-3 ? 10.0 * W : 1e-3);
        MPI_Bcast(&T0, 1, MPI_DOUBLE, 0, A); /* rank 0's clock is the global one */
        for (long i = 0; i < m; i++) {
            double start = T0 + (double)i * W;
            late[i] = eb_wait_until(eb_clock_to_local(&R->clock, start));
            R->b->kernel(c, i, 1);
            dur[i] = eb_clock_to_global(&R->clock, MPI_Wtime()) - start;
        }
        MPI_Allreduce(dur, worst, (int)m, MPI_DOUBLE, MPI_MAX, A);
        MPI_Allreduce(late, any_late, (int)m, MPI_INT, MPI_MAX, A);
        valid = 0;
        for (long i = 0; i < m; i++)
            valid += !any_late[i];
        if (2 * valid >= m)
            break;
    }
    R->win_min = INFINITY;
    R->win_max = -INFINITY;
    double sum = 0;
    for (long i = 0; i < m; i++)
        if (!any_late[i]) {
            R->win_min = fmin(R->win_min, worst[i]);
            R->win_max = fmax(R->win_max, worst[i]);
            sum += worst[i];
        }
    R->win_avg = valid ? sum / (double)valid : NAN;
    if (!valid)
        R->win_min = R->win_max = NAN;
    R->win_min *= 1e6;
    R->win_max *= 1e6;
    R->win_avg *= 1e6;
    R->win_valid = (double)valid / (double)m;
    R->win_invalid = m - valid;
    R->win_width = W * 1e6;
    free(dur);
    free(worst);
    free(late);
    free(any_late);
    return m;
}

/* Buffers, send data and the benchmark's state for message length x. */
static void setup_length(runner_t *R, size_t x)
{
    eb_ctx *c = &R->ctx;
    const eb_bench *b = R->b;
    const eb_imb_options *o = R->o;
    c->x = x;
    size_t s_len = x, r_len = x;
    if (b->extents)
        b->extents(x, c->size, &s_len, &r_len);
    long base = eb_n_sample_base(&o->iter, x, R->aggregate);
    eb_buf_setup(&c->s, s_len, base, &o->cache);
    eb_buf_setup(&c->r, r_len, base, &o->cache);
    fill_send(c);
    eb_poison(c->r.base, c->r.alloc);
    memset(c->extra, 0, sizeof c->extra);
    c->max_reps = eb_sim_max_reps(); /* 0: no cap, except in a simulation */
    if (b->prepare && b->prepare(c) != 0)
        eb_abort("%s: preparing %zu bytes failed", b->name, x);
}

/* The guide's warm-up phase: N_WARMUP untimed calls with a
 * sizeof(assign_type) message length (one float for reductions, one byte
 * otherwise; a benchmark with one fixed length uses that), once per process
 * set, before its first measured length. */
static void warm_up(runner_t *R)
{
    const eb_bench *b = R->b;
    size_t x = (b->flags & EB_F_NO_BYTES) ? 0
               : b->fixed_bytes > 0       ? b->fixed_bytes
               : (b->flags & EB_F_REDUCTION) ? sizeof(float) : 1;
    setup_length(R, x);
    b->kernel(&R->ctx, 0, EB_N_WARMUP);
    if (b->release)
        b->release(&R->ctx);
}

static void measure_size(runner_t *R, size_t x)
{
    eb_ctx *c = &R->ctx;
    const eb_bench *b = R->b;
    const eb_imb_options *o = R->o;
    if (!R->warmed && !(b->flags & EB_F_NO_WARMUP)) {
        warm_up(R);
        R->warmed = 1;
    }
    setup_length(R, x);
    char what[160];
    snprintf(what, sizeof what, "%s%s, %d processes, %zu bytes", R->multi >= 0 ? "Multi-" : "",
             b->name, R->q, x);
    /* -time bounds a loop; -repeat and -check multiply the loops */
    eb_guard_row(what, o->iter.secs * (o->repeat > 1 ? o->repeat : 1) * (o->check ? 2 : 1),
                 R->active);
    long n = repetitions(R, x);
    if (c->max_reps > 0 && n > c->max_reps)
        n = c->max_reps;
    int N = o->repeat > 0 ? o->repeat : 1;
    double *t_us = eb_malloc((size_t)N * sizeof *t_us);
    double *extra = eb_calloc((size_t)N * EB_MAX_EXTRA, sizeof *extra);
    if (R->window) {
        n = window_series(R, n);
        t_us[0] = R->win_avg;
        N = 0; /* no plain loop */
    }
    eb_acc acc;
    if (o->quick) {
        /* loops until the kept loops' relative standard error is below
         * epsilon or the budget is spent; the samples are each loop's
         * maximum over ranks, identical everywhere, so every rank stops
         * at the same loop without a broadcast */
        eb_acc_params p = {.rel_error = o->epsilon, .min_reps = EB_QUICK_MIN_LOOPS,
                           .max_reps = 100000, .cut_quantile = EB_QUICK_CUT,
                           .min_total = MPI_Wtick() * 1e6 / o->epsilon};
        eb_acc_init(&acc, &p);
        N = 64;
        t_us = eb_realloc(t_us, (size_t)N * sizeof *t_us);
        extra = eb_realloc(extra, (size_t)N * EB_MAX_EXTRA * sizeof *extra);
    }
    double spent_us = 0;
    for (int k = 0; k < N; k++) {
        for (int i = 0; i < EB_N_BARR; i++)
            MPI_Barrier(c->comm);
        double t;
        if (b->measure) {
            t = b->measure(c, n);
        } else {
            double t0 = MPI_Wtime();
            b->kernel(c, 0, n);
            t = (MPI_Wtime() - t0) / (double)n;
        }
        t_us[k] = t / (b->time_divisor > 0 ? b->time_divisor : 1) * 1e6;
        memcpy(extra + (size_t)k * EB_MAX_EXTRA, c->extra, sizeof c->extra);
        if (o->quick) {
            double loop_max = max_over(t_us[k], R->active);
            eb_acc_add(&acc, loop_max);
            spent_us += loop_max * (double)n * (b->time_divisor > 0 ? b->time_divisor : 1);
            if (eb_acc_done(&acc) || spent_us >= o->iter.secs * 1e6) {
                N = k + 1;
                break;
            }
            if (k + 1 == N) {
                N *= 2;
                t_us = eb_realloc(t_us, (size_t)N * sizeof *t_us);
                extra = eb_realloc(extra, (size_t)N * EB_MAX_EXTRA * sizeof *extra);
            }
        }
    }
    if (o->quick) {
        eb_acc_stats st = eb_acc_summary(&acc);
        R->quick_rel_error = st.std_error / st.mean;
        R->quick_converged = st.std_error < o->epsilon * st.mean;
        eb_acc_free(&acc);
    }
    long defects = 0;
    if (o->check && b->check) {
        /* untimed: every repetition again, each verified on arrival */
        c->checking = 1;
        for (long i = 0; i < n; i++) {
            eb_poison(eb_rbuf(c, i), c->r.len);
            MPI_Barrier(c->comm);
            b->kernel(c, i, 1);
            defects += b->check(c, i);
        }
        c->checking = 0;
    }
    emit_row(R, x, n, t_us, extra, N > 0 ? N : 1, defects);
    eb_guard_row_end();
    free(t_us);
    free(extra);
    if (b->release)
        b->release(c);
}

/* Buffer bytes per process a length needs (for -mem). */
static double buffer_bytes(const runner_t *R, size_t x)
{
    size_t s_len = x, r_len = x, st;
    long sl;
    if (R->b->extents)
        R->b->extents(x, R->q, &s_len, &r_len);
    long base = eb_n_sample_base(&R->o->iter, x, R->aggregate);
    double total = 0;
    eb_buf_geometry(s_len, base, &R->o->cache, &st, &sl);
    total += (double)st * (double)(sl - 1) + (double)s_len;
    eb_buf_geometry(r_len, base, &R->o->cache, &st, &sl);
    total += (double)st * (double)(sl - 1) + (double)r_len;
    return total;
}

static eb_sizes sizes_for(const eb_imb_options *o, const eb_bench *b)
{
    eb_sizes s = {0};
    size_t unit = (b->flags & EB_F_REDUCTION) ? sizeof(float) : 1;
    if (b->flags & EB_F_NO_BYTES || b->fixed_bytes > 0) {
        s.v = eb_malloc(sizeof *s.v);
        s.v[0] = b->fixed_bytes;
        s.n = 1;
    } else if (o->msglen.n > 0) {
        s.v = eb_malloc((size_t)o->msglen.n * sizeof *s.v);
        for (int i = 0; i < o->msglen.n; i++) {
            size_t x = o->msglen.v[i] - o->msglen.v[i] % unit;
            int dup = 0;
            for (int k = 0; k < s.n; k++)
                dup |= s.v[k] == x;
            if (!dup)
                s.v[s.n++] = x;
        }
    } else {
        eb_sizes_msglog(o->msglog_min, o->msglog_max, unit, &s);
    }
    return s;
}

static void run_procset(const eb_imb_options *o, const eb_bench *b, int multi, int q,
                        const int *order, const char *mode)
{
    int P, wrank;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int ngroups = multi >= 0 ? P / q : 1;
    int pos = 0;
    while (order[pos] != wrank)
        pos++;
    int active = pos < ngroups * q;
    MPI_Comm group_comm, active_comm;
    MPI_Comm_split(MPI_COMM_WORLD, active ? pos / q : MPI_UNDEFINED, pos, &group_comm);
    MPI_Comm_split(MPI_COMM_WORLD, active ? 0 : MPI_UNDEFINED, pos, &active_comm);

    char name[128];
    snprintf(name, sizeof name, "%s%s", multi >= 0 ? "Multi-" : "", b->name);
    if (wrank == 0) {
        eb_imb_print_block(b, name, o, q, multi >= 0 ? ngroups : 0, order,
                           P - ngroups * q, mode);
        eb_imb_print_table_head(b, o, multi);
    }
    runner_t R = {.o = o, .b = b, .active = active_comm, .multi = multi, .q = q,
                  .ngroups = ngroups, .mode = mode,
                  .aggregate = mode ? strcmp(mode, "aggregate") == 0
                                    : !(b->flags & EB_F_NONAGGR_COUNTS)};
    int set_open = 0;
    if (active) {
        R.ctx.bench = b;
        R.ctx.comm = group_comm;
        R.ctx.opt = o;
        R.ctx.group = pos / q;
        R.ctx.aggregate = R.aggregate;
        /* an aggregate table times M transfers under one completion: one
         * repetition per window would make it non-aggregate */
        R.window = o->sync_window && b->cls != EB_SINGLE_TRANSFER && !b->measure &&
                   !(mode && R.aggregate);
        R.ctx.ngroups = ngroups;
        R.ctx.multi = multi;
        MPI_Comm_rank(group_comm, &R.ctx.rank);
        MPI_Comm_size(group_comm, &R.ctx.size);
    }
    if (b->open_set) {
        /* set-up errors (an unwritable file ...) end the run on every rank */
        char err[EB_ERRLEN] = "", msg[EB_ERRLEN];
        int failed = active && b->open_set(&R.ctx, err, sizeof err) != 0;
        set_open = active && !failed;
        if (eb_any_error(failed ? err : NULL, msg, sizeof msg)) {
            if (set_open && b->close_set)
                b->close_set(&R.ctx);
            eb_exit_all(EB_EXIT_USAGE, msg);
        }
    }
    if (active) {
        R.prev_n = o->iter.msgspersample;
        eb_sizes sizes = sizes_for(o, b);
        R.max_size = 0;
        for (int i = 0; i < sizes.n; i++)
            if (sizes.v[i] > R.max_size)
                R.max_size = sizes.v[i];
        long resumed = 0;
        for (int i = 0; i < sizes.n; i++) {
            /* rows are written group by group, so the last group's row
             * means the whole length was measured */
            if (already_measured(name, mode, q, sizes.v[i], multi == 1 ? ngroups - 1 : -1)) {
                resumed++;
                continue;
            }
            double need = buffer_bytes(&R, sizes.v[i]);
            if (need > o->mem_gb * 1073741824.0) {
                if (wrank == 0)
                    eb_imb_print_note("#bytes = %zu and longer skipped: buffers need %.3f GB per "
                                      "process, -mem allows %g GB (raise -mem to run them)",
                                      sizes.v[i], need / 1073741824.0, o->mem_gb);
                break;
            }
            measure_size(&R, sizes.v[i]);
        }
        if (resumed && wrank == 0)
            eb_imb_print_note("%ld length%s already in %s: not measured again (--resume)", resumed,
                              resumed == 1 ? "" : "s", o->json_path);
        eb_sizes_free(&sizes);
        if (set_open && b->close_set)
            b->close_set(&R.ctx);
        if (b->after_table && R.nrows > 0)
            b->after_table(R.rows, R.nrows);
        free(R.rows);
        eb_buf_free(&R.ctx.s);
        eb_buf_free(&R.ctx.r);
        MPI_Comm_free(&group_comm);
        MPI_Comm_free(&active_comm);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the waiting processes */
}

static void skip_note(const eb_imb_options *o, const eb_bench *b, int need, int P)
{
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (wrank != 0)
        return;
    eb_imb_print_block(b, b->name, o, P, 0, NULL, 0, NULL);
    eb_imb_print_note("NOT RUN: %s needs %d processes; %d %s running", b->name, need, P,
                      P == 1 ? "process is" : "processes are");
    if (eb_jsonl_active()) {
        eb_json j;
        eb_jsonl_begin(&j, "skip");
        eb_json_str(&j, "component", o->family->component);
        eb_json_str(&j, "benchmark", b->name);
        eb_json_int(&j, "procs", P);
        char why[128];
        snprintf(why, sizeof why, "needs %d processes", need);
        eb_json_str(&j, "reason", why);
        eb_jsonl_emit(&j);
    }
}

static void run_bench(const eb_imb_options *o, const eb_bench *b, int multi, const int *order)
{
    int P;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    int qs[EB_MAX_PROCSETS], nq;
    if (b->fixed_procs > 0) {
        if (P < b->fixed_procs) {
            skip_note(o, b, b->fixed_procs, P);
            return;
        }
        qs[0] = b->fixed_procs;
        nq = 1;
    } else {
        if (P < b->min_procs) {
            skip_note(o, b, b->min_procs, P);
            return;
        }
        nq = eb_procs_list(P, o->npmin, qs, EB_MAX_PROCSETS);
        int k = 0;
        for (int i = 0; i < nq; i++)
            if (qs[i] >= b->min_procs)
                qs[k++] = qs[i];
        nq = k;
    }
    const char *modes[2] = {NULL, NULL};
    int nmodes = 1;
    if (b->flags & EB_F_MODES) {
        int nonaggr_first = (b->flags & EB_F_NONAGGR_FIRST) != 0;
        modes[nonaggr_first] = "aggregate";
        modes[!nonaggr_first] = "non-aggregate";
        nmodes = 2;
    } else if (b->flags & EB_F_AGGR_ONLY) {
        modes[0] = "aggregate";
    } else if (b->flags & EB_F_NONAGGR_ONLY) {
        modes[0] = "non-aggregate";
    }
    for (int k = 0; k < nq; k++)
        for (int m = 0; m < nmodes; m++)
            run_procset(o, b, multi, qs[k], order, modes[m]);
}

/* ---- the run ------------------------------------------------------------ */

/* Rows the plan will print (lengths skipped for -mem not foreseen), for
 * progress displays. */
static long planned_rows(const eb_imb_options *o, const plan_t *p, int P)
{
    long rows = 0;
    for (int i = 0; i < p->n; i++) {
        const eb_bench *b = p->list[i];
        int qs[EB_MAX_PROCSETS], nq = 1;
        if (b->fixed_procs > 0) {
            if (P < b->fixed_procs)
                continue;
            qs[0] = b->fixed_procs;
        } else {
            nq = eb_procs_list(P, o->npmin, qs, EB_MAX_PROCSETS);
        }
        eb_sizes s = sizes_for(o, b);
        long per_q = 0;
        for (int k = 0; k < nq; k++)
            per_q += p->multi[i] == 1 ? P / qs[k] : 1;
        rows += per_q * s.n * ((b->flags & EB_F_MODES) ? 2 : 1);
        eb_sizes_free(&s);
    }
    return rows;
}

static void options_json(eb_json *j, const eb_imb_options *o, const plan_t *p)
{
    int P;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    eb_json_object(j, "options");
    eb_guard_plan_rows(planned_rows(o, p, P));
    eb_json_int(j, "planned_rows", planned_rows(o, p, P));
    eb_json_array(j, "benchmarks");
    for (int i = 0; i < p->n; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s%s", p->multi[i] >= 0 ? "Multi-" : "", p->list[i]->name);
        eb_json_str(j, NULL, name);
    }
    eb_json_close(j);
    eb_json_array(j, "msglen");
    for (int i = 0; i < o->msglen.n; i++)
        eb_json_int(j, NULL, (long long)o->msglen.v[i]);
    eb_json_close(j);
    eb_json_int(j, "msglog_min", o->msglog_min);
    eb_json_int(j, "msglog_max", o->msglog_max);
    eb_json_int(j, "npmin", o->npmin);
    if (o->multi >= 0)
        eb_json_int(j, "multi", o->multi);
    else
        eb_json_null(j, "multi");
    eb_json_num(j, "off_cache_mb", o->cache.cache_mb > 0 ? o->cache.cache_mb : NAN);
    eb_json_int(j, "off_cache_line", (long long)o->cache.line);
    eb_json_int(j, "msgspersample", o->iter.msgspersample);
    eb_json_int(j, "overall_vol", o->iter.overall_vol);
    eb_json_int(j, "msgs_nonaggr", o->iter.msgs_nonaggr);
    eb_json_str(j, "iter_policy", eb_iter_policy_name(o->iter.policy));
    eb_json_num(j, "time_s", o->iter.secs);
    eb_json_num(j, "mem_gb", o->mem_gb);
    if (o->map_p > 0) {
        char m[32];
        snprintf(m, sizeof m, "%dx%d", o->map_p, o->map_q);
        eb_json_str(j, "map", m);
    } else {
        eb_json_null(j, "map");
    }
    eb_json_int(j, "n_barr", EB_N_BARR);
    eb_json_int(j, "n_warmup", EB_N_WARMUP);
    eb_json_int(j, "repeat", o->repeat);
    eb_json_str(j, "sync", o->sync_window ? "window" : "barrier");
    eb_json_bool(j, "quick", o->quick);
    if (o->quick)
        eb_json_num(j, "epsilon", o->epsilon);
    eb_json_close(j);
}

int eb_imb_run(const eb_imb_family *family, int argc, char **argv)
{
    int wrank, P, provided;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Query_thread(&provided);
    eb_imb_options o;
    eb_imb_options_init(&o, family);
    char err[EB_ERRLEN];
    if (eb_imb_parse(&o, argc, argv, err, sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    if (o.help) {
        if (wrank == 0) {
            eb_imb_print_help(family);
            printf("\nBenchmarks of %s (* = only by name or -include):\n", family->program);
            for (int i = 0; i < eb_bench_count(family->component); i++) {
                const eb_bench *b = eb_bench_at(family->component, i);
                printf("  %s%s\n", b->name, (b->flags & EB_F_EXPLICIT_ONLY) ? " *" : "");
            }
        }
        eb_imb_options_free(&o);
        return EB_EXIT_OK;
    }
    eb_imb_load_files(&o);
    int *order = eb_malloc((size_t)P * sizeof *order);
    if (eb_map_order(P, o.map_p, o.map_q, order, err, (int)sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    plan_t plan = make_plan(&o);

    eb_sysinfo si;
    eb_sysinfo_collect(&si, provided);
    eb_json run;
    eb_jsonl_run_begin(&run, family->component, &si, o.check);
    options_json(&run, &o, &plan);
    if (o.resume) {
        /* rows kept and rows measured now must come from the same method */
        static const char *const same[] = {
            "procs", "check", "options.benchmarks", "options.msglen", "options.msglog_min",
            "options.msglog_max", "options.npmin", "options.multi", "options.off_cache_mb",
            "options.off_cache_line", "options.msgspersample", "options.overall_vol",
            "options.msgs_nonaggr", "options.iter_policy", "options.time_s", "options.mem_gb",
            "options.map", "options.repeat", "options.sync", "options.quick", NULL};
        eb_jsonl_resume(o.json_path, family->component, eb_json_finish(&run), same, NULL,
                        &resume_keys, &n_resume_keys);
        eb_json_free(&run);
    } else {
        eb_jsonl_open(o.json_path);
        if (wrank == 0)
            eb_jsonl_emit(&run);
        else
            eb_json_free(&run);
    }

    eb_warn_oversubscription();
    if (wrank == 0)
        eb_imb_print_header(&o, &si, plan.list, plan.multi, plan.n);
    for (int i = 0; i < plan.n; i++)
        run_bench(&o, plan.list[i], plan.multi[i], order);
    if (wrank == 0)
        eb_imb_print_footer();
    eb_jsonl_end("ok", NULL);
    free(plan.list);
    free(plan.multi);
    free(order);
    for (int i = 0; i < n_resume_keys; i++)
        free(resume_keys[i]);
    free(resume_keys);
    eb_imb_options_free(&o);
    return EB_EXIT_OK;
}
