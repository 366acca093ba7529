#include "imb/driver/row.h"

#include "core/error.h"
#include "core/nodemap.h"
#include "core/own_coll.h"
#include "core/stats.h"
#include "imb/driver/imb2021_defaults.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-group figures of each timed loop, gathered to rank 0 of the active
 * communicator: [group][loop][field], then the group's defects, then each
 * loop's extras. */
enum { F_MIN, F_MAX, F_AVG, F_N };

static size_t per_group_of(int N) { return (size_t)N * F_N + 1 + (size_t)N * EB_MAX_EXTRA; }

/* Noise warnings, at most one of each kind per table.  Quick mode already
 * runs as many loops as its accuracy rule asks and reports medians: its
 * advice is about the machine, never a mode it is already in. */
static void warn_noise(eb_table *T, const char *name, size_t x, const double *loop_tmax, int N)
{
    eb_noise z = eb_noise_of(loop_tmax, N);
    int quick = T->run->o->quick;
    if (z.noisy && !T->warned_spread) {
        T->warned_spread = 1;
        eb_warn("%s, %zu bytes: the %d timed loops spread %.2fx (slowest/fastest): the machine is "
                "noisy. Stop other work, pin ranks to cores (mpirun --bind-to core), and %s", name,
                x, N, z.spread,
                quick ? "look at rel_err[%]: a row whose loops did not reach -epsilon stopped "
                        "when its -time budget was spent (a longer -time gives it more loops)."
                      : "compare medians (more -repeat loops, or `effbench quick`).");
    }
    if (quick)
        return; /* the median over the loops leaves a warming-up first loop out */
    if (z.warming_up && !T->warned_warmup) {
        T->warned_warmup = 1;
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

/* Collective over the active ranks: every group's figures (see F_*), summed
 * into the returned array on the active communicator's rank 0. */
static double *gather_groups(const eb_table *T, const eb_row_times *m)
{
    int N = m->loops, G = T->groups, rank;
    MPI_Comm_rank(T->comm, &rank);
    size_t per_group = per_group_of(N);
    double *mine = eb_calloc((size_t)G * per_group, sizeof(double));
    double *all = eb_calloc((size_t)G * per_group, sizeof(double));
    double *f = mine + (size_t)T->group * per_group;
    for (int k = 0; k < N; k++) {
        eb_mma g = eb_reduce_mma(m->t_us[k], T->comm);
        f[k * F_N + F_MIN] = g.min;
        f[k * F_N + F_MAX] = g.max;
        f[k * F_N + F_AVG] = g.avg;
    }
    long gdef = 0;
    eb_own_allreduce(&m->defects, &gdef, 1, MPI_LONG, MPI_SUM, T->comm);
    if (rank == 0)
        f[(size_t)N * F_N] = (double)gdef;
    else
        memset(f, 0, ((size_t)N * F_N + 1) * sizeof *f);
    /* each loop's extras come from the group's slowest rank in that loop
     * (the one rank that adds them to the sum below) */
    for (int k = 0; k < N; k++) {
        double *fx = f + (size_t)N * F_N + 1 + (size_t)k * EB_MAX_EXTRA;
        if (eb_rank_of_max(m->t_us[k], T->comm, NULL) == rank)
            memcpy(fx, m->extra + (size_t)k * EB_MAX_EXTRA, EB_MAX_EXTRA * sizeof *fx);
    }
    eb_own_reduce(mine, all, (int)((size_t)G * per_group), MPI_DOUBLE, MPI_SUM, 0, T->active);
    free(mine);
    return all;
}

/* Collective: transfers say whether their ranks shared a node (collectives
 * span both); each group's code (group_link) on the active rank 0. */
static int *gather_links(const eb_table *T)
{
    int G = T->groups, rank;
    int *link_mine = eb_calloc((size_t)G, sizeof(int)), *links = eb_calloc((size_t)G, sizeof(int));
    if (T->info.bench->cls != EB_COLLECTIVE) {
        int code = group_link(T->comm);
        MPI_Comm_rank(T->comm, &rank);
        if (rank == 0)
            link_mine[T->group] = code;
        eb_own_reduce(link_mine, links, G, MPI_INT, MPI_SUM, 0, T->active);
    }
    free(link_mine);
    return links;
}

/* Each loop's figures over groups g0..g1-1: the fastest minimum, the
 * slowest maximum, the mean of the averages. */
static void loop_figures(const double *all, int N, int g0, int g1, double *lmin, double *lmax,
                         double *lavg)
{
    size_t per_group = per_group_of(N);
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
}

/* Row r of the length (group r under -multi 1, else every group), on the
 * active rank 0; the loops' figures go to lmin / lmax / lavg. */
static eb_row assemble(const eb_table *T, const eb_row_times *m, const double *all,
                       const int *links, int r, double *lmin, double *lmax, double *lavg)
{
    const eb_bench *b = T->info.bench;
    int N = m->loops, multi = T->info.multi;
    int check = T->run->o->check && eb_bench_checked(b);
    size_t per_group = per_group_of(N);
    int g0 = multi == 1 ? r : 0, g1 = multi == 1 ? r + 1 : T->groups;
    eb_row row = {.bench = b, .name = T->info.name, .mode = T->info.mode, .procs = T->info.procs,
                  .bytes = m->x, .reps = m->n, .defects = check ? 0 : -1,
                  .checked = T->run->o->check ? check : -1, .loops = N,
                  .loop_t_min = lmin, .loop_t_max = lmax, .loop_t_avg = lavg};
    row.group = multi == 1 ? r : -1;
    row.link = b->cls != EB_COLLECTIVE ? link_label(links, g0, g1) : NULL;
    loop_figures(all, N, g0, g1, lmin, lmax, lavg);
    /* a table of the benchmark's own columns shows one loop's figures,
     * which belong together (t_ovrl, t_pure, overlap): the median loop's,
     * from its slowest group */
    int kmed = median_loop(lmax, N), slowest = g0;
    for (int gi = g0; gi < g1; gi++)
        if (all[(size_t)gi * per_group + (size_t)kmed * F_N + F_MAX] >
            all[(size_t)slowest * per_group + (size_t)kmed * F_N + F_MAX])
            slowest = gi;
    for (int gi = g0; gi < g1 && check; gi++)
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
    if (m->mode_figures)
        m->mode_figures(m->mode_state, &row);
    memcpy(row.extra,
           all + (size_t)slowest * per_group + (size_t)N * F_N + 1 + (size_t)kmed * EB_MAX_EXTRA,
           sizeof row.extra);
    double t_tp = row.sync_window ? row.t_avg : row.t_max; /* docs/imb.md */
    int nmsg = b->nmsg_of ? b->nmsg_of(T->info.procs) : b->nmsg;
    row.mbps = nmsg > 0 && t_tp > 0 ? (double)nmsg * (double)m->x
                                                     / eb_imb_mbyte_per_us(T->run->o) / t_tp
                                    : (nmsg > 0 ? 0.0 : NAN);
    return row;
}

/* The table's rows for the benchmark's after_table hook. */
static void keep_row(eb_table *T, const eb_row *row)
{
    T->rows = eb_realloc(T->rows, (size_t)(T->nrows + 1) * sizeof *T->rows);
    eb_row *kept = &T->rows[T->nrows++];
    *kept = *row;
    /* the loop times live in the caller's frame */
    kept->name = T->info.bench->name;
    kept->loop_t_min = kept->loop_t_avg = kept->loop_t_max = NULL;
}

void eb_emit_row(eb_table *T, const eb_row_times *m)
{
    int arank, N = m->loops;
    MPI_Comm_rank(T->active, &arank);
    double *all = gather_groups(T, m);
    int *links = gather_links(T);
    if (arank == 0) {
        int rows = T->info.multi == 1 ? T->groups : 1;
        double *lmin = eb_malloc((size_t)N * sizeof(double));
        double *lmax = eb_malloc((size_t)N * sizeof(double));
        double *lavg = eb_malloc((size_t)N * sizeof(double));
        for (int r = 0; r < rows; r++) {
            eb_row row = assemble(T, m, all, links, r, lmin, lmax, lavg);
            eb_report_row(T->run, &T->info, &row);
            warn_noise(T, T->info.name, m->x, lmax, N);
            if (T->info.bench->after_table)
                keep_row(T, &row);
        }
        free(lmin);
        free(lmax);
        free(lavg);
    }
    free(all);
    free(links);
}

void eb_table_free(eb_table *T)
{
    free(T->rows);
    T->rows = NULL;
    T->nrows = 0;
}
