/* b_eff's measurement: the loops of every (repetition, length), their times
 * reduced once per (repetition, length) so no collective sits between loops
 * other than the barrier that starts each one (docs/beff.md "Loops"). */
#include "beff/beff_measure.h"

#include "beff/beff_json.h"
#include "beff/beff_loops.h"
#include "beff/beff_protocol.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/own_coll.h"
#include "core/simulate.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BEFF_FIRST_LOOP 300 /* iterations for the shortest message */
#define BEFF_NVAL 5         /* per loop: time, -time, time (sum), active, defects */

/* This process's state for the loops of a run. */
typedef struct {
    int rank;
    beff_comm_cache cc;
    beff_rank_plan *rp; /* [pattern] */
    beff_bufs cb;
    /* per (pattern, method) of one (rep, length): local values, then the
     * maxima (time, -time) and the sums (time, active, defects) */
    double *loc, *mx, *sm;
    long cheap_bad; /* wrong first/last bytes seen by this process */
} workspace;

static void workspace_init(const beff_run *r, workspace *w)
{
    memset(w, 0, sizeof *w);
    MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
    beff_comm_cache_init(&w->cc, r->P);
    w->rp = eb_malloc((size_t)r->npat * sizeof *w->rp);
    for (int p = 0; p < r->npat; p++)
        beff_rank_plan_build(&w->rp[p], &r->pat[p], w->rank, &w->cc);
    w->cb.cap = (size_t)BEFF_BUF_FACTOR * (size_t)r->lmax;
    w->cb.sbuf = eb_msgbuf_alloc(w->cb.cap);
    w->cb.rbuf = eb_msgbuf_alloc(w->cb.cap);
    if (!eb_sim_active())
        memset(w->cb.rbuf, 0, w->cb.cap);
    size_t batch = (size_t)r->npat * (size_t)r->nmeth;
    w->loc = eb_malloc(batch * BEFF_NVAL * sizeof(double));
    w->mx = eb_malloc(batch * 2 * sizeof(double));
    w->sm = eb_malloc(batch * 3 * sizeof(double));
}

static void workspace_free(const beff_run *r, workspace *w)
{
    free(w->loc);
    free(w->mx);
    free(w->sm);
    eb_msgbuf_free(w->cb.sbuf);
    eb_msgbuf_free(w->cb.rbuf);
    for (int p = 0; p < r->npat; p++)
        beff_rank_plan_free(&w->rp[p]);
    free(w->rp);
    beff_comm_cache_free(&w->cc);
}

FILE *beff_live_protocol(FILE *prot)
{
    struct stat st;
    if (!prot || fstat(fileno(prot), &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    return prot;
}

/* A (repetition, length) is complete: its rows go to the protocol file. */
static void batch_done(const beff_run *r, beff_live *live, int rep, int l)
{
    if (!live->prot)
        return;
    beff_protocol_rows(live->prot, r, rep, l);
    if (fflush(live->prot) != 0 || ferror(live->prot))
        live->prot = NULL; /* a full disk: the end writes the protocol (and says so) */
}

static void pattern_done(const beff_run *r, beff_live *live, int rep, int l, int p, int measured)
{
    if (!measured || !live->bar.on) {
        live->bar.done += measured;
        return;
    }
    char where[96];
    snprintf(where, sizeof where, "repetition %d/%d, %ld bytes, pattern %d/%d", rep + 1,
             r->opt.repeat, r->len[l], p + 1, r->npat);
    eb_progress_add(&live->bar, measured, where);
}

/* Loops of this (rep, length) still to measure (not read back by --resume). */
static int batch_todo(const beff_run *r, int rep, int l)
{
    int todo = 0;
    for (int p = 0; p < r->npat; p++)
        for (int m = 0; m < r->nmeth; m++)
            todo += beff_measured(r, p, m) && !r->resumed[beff_idx(r, p, l, m, rep)];
    return todo;
}

/* 300 for the first loop, then from the previous length (repetition 0) or
 * the same length in the previous repetition. */
static long loop_length(const beff_run *r, int p, int l, int m, int rep)
{
    if (rep == 0 && l == 0)
        return BEFF_FIRST_LOOP;
    size_t prev = rep > 0 ? beff_idx(r, p, l, m, rep - 1) : beff_idx(r, p, l - 1, m, 0);
    return beff_next_looplength(r->loop[prev], r->tmax[prev] * r->loop[prev], r->opt.loop_ms);
}

/* One timed loop (after the checked pass with -check); v[BEFF_NVAL]. */
static void measure_loop(beff_run *r, workspace *w, int p, int l, int m, int rep, double *v)
{
    long L = r->len[l];
    size_t L8 = ((size_t)L + 7) & ~(size_t)7;
    long n = eb_sim_cap_loop(loop_length(r, p, l, m, rep));
    r->loop[beff_idx(r, p, l, m, rep)] = n;
    long full_bad = 0, cheap_bad = 0;
    if (r->opt.check && rep == 0)
        full_bad = beff_checked_pass(&w->rp[p], m, L, L8, &w->cb);
    int active = w->rp[p].comm != MPI_COMM_NULL;
    double t = beff_timed_loop(&w->rp[p], m, L, L8, n, l < BEFF_NLEN - 3, &w->cb, &cheap_bad);
    w->cheap_bad += cheap_bad;
    v[0] = active ? t : -1;
    v[1] = active ? -t : -INFINITY;
    v[2] = active ? t : 0;
    v[3] = active;
    v[4] = (double)(full_bad + cheap_bad);
}

/* Every loop of one (rep, length), pattern after pattern. */
static void run_batch(beff_run *r, workspace *w, beff_live *live, int rep, int l)
{
    long L = r->len[l];
    size_t L8 = ((size_t)L + 7) & ~(size_t)7;
    beff_fill_send(&w->cb, w->rank, L8);
    w->cb.soff = w->cb.roff = 0; /* regions start at multiples of L8 */
    for (int p = 0; p < r->npat; p++)
        beff_set_alltoallv_counts(&w->rp[p], L, L8);
    for (int p = 0; p < r->npat; p++) {
        int measured = 0;
        for (int m = 0; m < r->nmeth; m++) {
            double *v = w->loc + (size_t)(p * r->nmeth + m) * BEFF_NVAL;
            v[0] = -1; /* not measured */
            if (!beff_measured(r, p, m) || r->resumed[beff_idx(r, p, l, m, rep)])
                continue;
            measure_loop(r, w, p, l, m, rep, v);
            measured++;
        }
        pattern_done(r, live, rep, l, p, measured);
    }
}

/* The times of one (rep, length) over all processes: the values, and on
 * rank 0 the result records. */
static void reduce_batch(beff_run *r, workspace *w, int rep, int l)
{
    int nm = r->nmeth, batch = r->npat * nm;
    for (int k = 0; k < batch; k++) {
        w->mx[2 * k] = w->loc[BEFF_NVAL * k];
        w->mx[2 * k + 1] = w->loc[BEFF_NVAL * k + 1];
        w->sm[3 * k] = w->loc[BEFF_NVAL * k + 2];
        w->sm[3 * k + 1] = w->loc[BEFF_NVAL * k + 3];
        w->sm[3 * k + 2] = w->loc[BEFF_NVAL * k + 4];
    }
    eb_own_allreduce(MPI_IN_PLACE, w->mx, 2 * batch, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    eb_own_allreduce(MPI_IN_PLACE, w->sm, 3 * batch, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int p = 0; p < r->npat; p++)
        for (int m = 0; m < nm; m++) {
            int k = p * nm + m;
            size_t i = beff_idx(r, p, l, m, rep);
            if (!beff_measured(r, p, m) || r->resumed[i])
                continue;
            long n = r->loop[i];
            double tmax = w->mx[2 * k] > 0 ? w->mx[2 * k] : 1e-9; /* clock granularity */
            r->tmax[i] = tmax / n;
            r->tmin[i] = -w->mx[2 * k + 1] / n;
            r->tavg[i] = w->sm[3 * k] / w->sm[3 * k + 1] / n;
            r->defects[i] = (long)w->sm[3 * k + 2];
            r->b[i] = (double)r->len[l] * r->messages[p] * n / tmax / 1e6;
            r->sum_loop_s += tmax;
            if (w->rank == 0)
                beff_json_result(r, p, l, m, rep);
        }
}

/* The fastest repetition of every (pattern, length, method), of the loops
 * of this run, as elapsed_s and sum_loop_s. */
static void sum_fastest(beff_run *r)
{
    for (int p = 0; p < r->npat; p++)
        for (int l = 0; l < BEFF_NLEN; l++)
            for (int m = 0; m < r->nmeth; m++) {
                double best = INFINITY;
                for (int rep = 0; rep < r->opt.repeat; rep++) {
                    size_t i = beff_idx(r, p, l, m, rep);
                    if (!r->resumed[i] && !isnan(r->tmax[i]) && r->tmax[i] * r->loop[i] < best)
                        best = r->tmax[i] * r->loop[i];
                }
                if (best < INFINITY)
                    r->sum_fastest_s += best;
            }
}

long beff_measure(beff_run *r, beff_live *live)
{
    workspace w;
    workspace_init(r, &w);
    MPI_Barrier(MPI_COMM_WORLD);
    double t_start = MPI_Wtime();
    for (int rep = 0; rep < r->opt.repeat; rep++)
        for (int l = 0; l < BEFF_NLEN; l++) {
            int todo = batch_todo(r, rep, l);
            if (todo) {
                char what[96];
                snprintf(what, sizeof what, "b_eff repetition %d, %ld bytes, every pattern", rep,
                         r->len[l]);
                /* each loop aims at loop_ms; the first ones and -check take longer */
                eb_guard_row(what, (double)todo * r->opt.loop_ms * 1e-3 * 10, MPI_COMM_WORLD);
                run_batch(r, &w, live, rep, l);
                reduce_batch(r, &w, rep, l);
            }
            /* (all of a batch may be in the --resume file) */
            if (w.rank == 0)
                batch_done(r, live, rep, l);
            if (todo)
                eb_guard_row_end();
        }
    r->elapsed_s = MPI_Wtime() - t_start;
    sum_fastest(r);
    long bad = w.cheap_bad;
    eb_own_allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    workspace_free(r, &w);
    return bad;
}
