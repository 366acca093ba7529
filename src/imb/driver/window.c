#include "imb/driver/window.h"

#include "core/error.h"
#include "core/own_coll.h"

#include <math.h>
#include <stdlib.h>

static double max_over(double v, MPI_Comm comm)
{
    double r;
    eb_own_allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, comm);
    return r;
}

/* The figures of a series of m repetitions: worst[i] its slowest rank's
 * seconds, any_late[i] whether some rank started it late. */
static eb_window_figures figures_of(const double *worst, const int *any_late, long m, long valid,
                                    double W)
{
    eb_window_figures f = {.t_min = INFINITY, .t_max = -INFINITY, .reps = m};
    double sum = 0;
    for (long i = 0; i < m; i++)
        if (!any_late[i]) {
            f.t_min = fmin(f.t_min, worst[i]);
            f.t_max = fmax(f.t_max, worst[i]);
            sum += worst[i];
        }
    f.t_avg = valid ? sum / (double)valid : NAN;
    if (!valid)
        f.t_min = f.t_max = NAN;
    f.t_min *= 1e6;
    f.t_max *= 1e6;
    f.t_avg *= 1e6;
    f.valid_fraction = (double)valid / (double)m;
    f.invalid = m - valid;
    f.width_us = W * 1e6;
    return f;
}

eb_window_figures eb_window_series(MPI_Comm A, eb_clock_model *clock, long n, double budget_s,
                                   eb_window_op op, void *arg)
{
    eb_clock_sync(A, 10, clock);
    MPI_Barrier(A);
    double t0 = MPI_Wtime();
    op(arg, 0);
    double t_op = max_over(MPI_Wtime() - t0, A);
    double W = 2.0 * t_op + 4.0 * clock->error + 5e-6;
    double *dur = eb_malloc((size_t)n * sizeof *dur);
    double *worst = eb_malloc((size_t)n * sizeof *worst);
    int *late = eb_malloc((size_t)n * sizeof *late);
    int *any_late = eb_malloc((size_t)n * sizeof *any_late);
    long m = n, valid = 0;
    for (int attempt = 0; attempt < 8; attempt++, W *= 2) {
        /* keep a series within the -time budget */
        m = n;
        if ((double)m * W > budget_s)
            m = (long)(budget_s / W) > 1 ? (long)(budget_s / W) : 1;
        double T0 = MPI_Wtime() + (10.0 * W > 1e-3 ? 10.0 * W : 1e-3);
        eb_own_bcast(&T0, 1, MPI_DOUBLE, 0, A); /* rank 0's clock is the global one */
        for (long i = 0; i < m; i++) {
            double start = T0 + (double)i * W;
            late[i] = eb_wait_until(eb_clock_to_local(clock, start));
            op(arg, i);
            dur[i] = eb_clock_to_global(clock, MPI_Wtime()) - start;
        }
        eb_own_allreduce(dur, worst, (int)m, MPI_DOUBLE, MPI_MAX, A);
        eb_own_allreduce(late, any_late, (int)m, MPI_INT, MPI_MAX, A);
        valid = 0;
        for (long i = 0; i < m; i++)
            valid += !any_late[i];
        if (2 * valid >= m)
            break;
    }
    /* W as the loop leaves it: after 8 failed attempts, doubled once past the last series */
    eb_window_figures f = figures_of(worst, any_late, m, valid, W);
    free(dur);
    free(worst);
    free(late);
    free(any_late);
    return f;
}
