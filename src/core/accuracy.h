/* Accuracy control for one measurement (SKaMPI paper, section 4.1): repeat
 * single timed runs until the standard error of the mean over the kept runs
 * falls below rel_error * mean, within min_reps..max_reps, with the total
 * measured time at least min_total (MPI_Wtick / epsilon: clock resolution);
 * the Cut_Quantile fastest and slowest runs are dropped before averaging.
 *
 * Pure: the caller feeds it samples (seconds or any unit) and asks whether
 * to stop; no MPI, no clock.  Shared by `effbench skampi` and `quick`. */
#ifndef EB_ACCURACY_H
#define EB_ACCURACY_H

typedef struct {
    double rel_error;    /* epsilon: stop when std_error < rel_error * mean */
    long min_reps;       /* at least this many runs (>= 1) */
    long max_reps;       /* at most this many runs */
    double cut_quantile; /* fraction in [0, 0.5) dropped at each end */
    double min_total;    /* the runs' times must add up to at least this */
} eb_acc_params;

typedef struct {
    eb_acc_params p;
    double *x;    /* samples in arrival order */
    long n, cap;
    double total; /* sum of all samples */
} eb_acc;

typedef struct {
    long n;           /* runs measured */
    long kept;        /* runs left after the cut */
    double mean;      /* mean of the kept runs */
    double std_error; /* sigma / sqrt(kept), sigma with divisor kept (paper's formula) */
    double min, max;  /* fastest and slowest of all runs (before the cut) */
} eb_acc_stats;

void eb_acc_init(eb_acc *a, const eb_acc_params *p);
void eb_acc_free(eb_acc *a);
void eb_acc_add(eb_acc *a, double sample);

/* Runs dropped at each end for n runs: floor(q * n), leaving at least one. */
long eb_acc_cut_count(long n, double q);
/* Statistics over the kept runs (NaN mean/std_error when n == 0, std_error
 * NaN when fewer than 2 are kept). */
eb_acc_stats eb_acc_summary(const eb_acc *a);
/* 1 when the measurement may stop: max_reps reached, or min_reps reached,
 * total >= min_total and std_error < rel_error * |mean|. */
int eb_acc_done(const eb_acc *a);
/* The accuracy rule is met: enough samples, enough measured time and a small
 * enough standard error (eb_acc_done also stops at max_reps, met or not). */
int eb_acc_converged(const eb_acc *a);

#endif
