#include "core/stats.h"

#include "core/error.h"
#include "core/own_coll.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

eb_mma eb_reduce_mma(double v, MPI_Comm comm)
{
    eb_mma r;
    int n;
    double sum;
    MPI_Comm_size(comm, &n);
    eb_own_allreduce(&v, &r.min, 1, MPI_DOUBLE, MPI_MIN, comm);
    eb_own_allreduce(&v, &r.max, 1, MPI_DOUBLE, MPI_MAX, comm);
    eb_own_allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    r.avg = sum / n;
    return r;
}

int eb_rank_of_max(double v, MPI_Comm comm, double *vmax)
{
    struct {
        double v;
        int rank;
    } in, out;
    in.v = v;
    MPI_Comm_rank(comm, &in.rank);
    eb_own_allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    if (vmax)
        *vmax = out.v;
    return out.rank;
}

double eb_mean(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return n ? s / n : NAN;
}

double eb_logavg(const double *v, int n)
{
    double s = 0;
    if (n == 0)
        return NAN;
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0))
            return 0;
        s += log(v[i]);
    }
    return exp(s / n);
}

double eb_std_error(const double *v, int n)
{
    if (n < 2)
        return NAN;
    double m = eb_mean(v, n), ss = 0;
    for (int i = 0; i < n; i++)
        ss += (v[i] - m) * (v[i] - m);
    return sqrt(ss / (n - 1)) / sqrt((double)n);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void eb_sort_doubles(double *v, int n) { qsort(v, (size_t)n, sizeof *v, cmp_double); }

double eb_quantile_sorted(const double *s, int n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1)
        return s[n - 1];
    double f = pos - i;
    return s[i] + f * (s[i + 1] - s[i]);
}

double eb_median(double *v, int n)
{
    eb_sort_doubles(v, n);
    return eb_quantile_sorted(v, n, 0.5);
}

double eb_median_copy(const double *v, int n)
{
    double *s = eb_malloc((size_t)n * sizeof *s);
    memcpy(s, v, (size_t)n * sizeof *s);
    double m = eb_median(s, n);
    free(s);
    return m;
}

eb_noise eb_noise_of(const double *loop_time, int n)
{
    eb_noise r = {NAN, NAN, 0, 0};
    if (n < 3)
        return r;
    double lo = loop_time[0], hi = loop_time[0];
    for (int k = 1; k < n; k++) {
        lo = fmin(lo, loop_time[k]);
        hi = fmax(hi, loop_time[k]);
    }
    double rest = eb_median_copy(loop_time + 1, n - 1);
    r.spread = lo > 0 ? hi / lo : NAN;
    r.first_vs_rest = rest > 0 ? loop_time[0] / rest : NAN;
    r.noisy = r.spread > EB_NOISE_LIMIT;
    r.warming_up = r.first_vs_rest > EB_NOISE_LIMIT;
    return r;
}
