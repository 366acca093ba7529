/* The runner: how one table's rows are measured (google/benchmark's
 * benchmark_runner.cc is the model).  Per message length: buffers and the
 * benchmark's state, the warm-up before a process set's first length, the
 * repetition count of the iteration policy, the timed loops of the loop
 * mode, the checked pass of -check, then the row (row.c).
 *
 * Loop modes: IMB's one timed loop or -repeat's N loops, quick mode's loops
 * until the accuracy rule is met, and -sync window's series (window.c). */
#ifndef EB_RUNNER_H
#define EB_RUNNER_H

#include "imb/driver/bench.h"
#include "imb/driver/options.h"
#include "imb/driver/row.h"

typedef struct eb_loop_mode eb_loop_mode;

/* One table on one active rank. */
typedef struct eb_runner {
    const eb_imb_options *o;
    const eb_bench *b;
    eb_ctx ctx;               /* the benchmark's state on this rank */
    eb_table table;           /* what the rows share, for the row code */
    int aggregate;            /* repetition counts of aggregate mode */
    size_t max_size;          /* the table's longest length (multiple_np) */
    long prev_n;              /* dynamic policy: counts never grow with the length */
    int warmed;               /* the process set's warm-up ran */
    const eb_loop_mode *mode; /* how a row is timed */
    void *mode_state;         /* the mode's own state */
} eb_runner;

/* Set up R for table T on an active rank (T's communicators and group
 * set); the loop mode follows from the options and the benchmark. */
void eb_runner_init(eb_runner *R, const eb_imb_options *o, const eb_table *T, int aggregate,
                    int ngroups, size_t max_size);
/* Collective over the active ranks: measure and report length x. */
void eb_runner_measure(eb_runner *R, size_t x);
void eb_runner_free(eb_runner *R);

#endif
