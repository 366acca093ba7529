/* Statistics: reductions across ranks, means, quantiles, standard errors. */
#ifndef EB_STATS_H
#define EB_STATS_H

#include <mpi.h>

typedef struct {
    double min, max, avg;
} eb_mma;

/* min / max / average of one value per rank over comm (all ranks get it). */
eb_mma eb_reduce_mma(double v, MPI_Comm comm);

/* The rank of comm holding the largest v, and that value (all ranks get it). */
int eb_rank_of_max(double v, MPI_Comm comm, double *vmax);

double eb_mean(const double *v, int n);
/* Geometric mean ("logarithmic average" of b_eff); 0 if any value <= 0. */
double eb_logavg(const double *v, int n);
/* Standard error of the mean (sample standard deviation / sqrt(n)). */
double eb_std_error(const double *v, int n);
/* Median of v (v is sorted in place). */
double eb_median(double *v, int n);
/* Quantile q in [0,1] of sorted data, linear interpolation. */
double eb_quantile_sorted(const double *sorted, int n, double q);
void eb_sort_doubles(double *v, int n);
/* Median of n values, v left as it is. */
double eb_median_copy(const double *v, int n);

/* Noise in a row's timed loops (loop times in loop order): the slowest
 * over the fastest loop, and the first loop over the median of the others
 * (warm-up).  Judged from 3 loops on; a flag is set beyond EB_NOISE_LIMIT. */
#define EB_NOISE_LIMIT 1.5
typedef struct {
    double spread, first_vs_rest;
    int noisy, warming_up;
} eb_noise;
eb_noise eb_noise_of(const double *loop_time, int n);

#endif
