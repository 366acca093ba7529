/* -sync window (docs/imb.md): a series of repetitions each started at an
 * agreed global time, on the clock model of clock.h. */
#ifndef EB_WINDOW_H
#define EB_WINDOW_H

#include "core/clock.h"

#include <mpi.h>

/* What a series measured.  Times in microseconds over the valid repetitions
 * (those no rank started late), each repetition's time being its slowest
 * rank's; NaN when none was valid. */
typedef struct {
    double t_min, t_max, t_avg;
    double valid_fraction;
    long invalid;      /* repetitions some rank started late */
    double width_us;   /* the window W the series ended with */
    long reps;         /* repetitions run */
} eb_window_figures;

/* One timed operation of the series: repetition i. */
typedef void (*eb_window_op)(void *arg, long i);

/* Collective over comm: every repetition starts at an agreed global time
 * T0 + i*W; a rank's time is from that start to its completion.  W starts
 * from the operation's time and the clock error and doubles (at most 8
 * times) while fewer than half the repetitions are valid, so oversubscribed
 * ranks still give numbers; a series stays within budget_s seconds.  clock
 * is (re)estimated first and kept for the next series. */
eb_window_figures eb_window_series(MPI_Comm comm, eb_clock_model *clock, long n, double budget_s,
                                   eb_window_op op, void *arg);

#endif
