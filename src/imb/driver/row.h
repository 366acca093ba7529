/* Row assembly: one table row from every rank's timing of a message length
 * (reductions over each group and over the groups, the median loop, the
 * links, throughput), handed to the reporter list, with the noise warnings
 * of -repeat. */
#ifndef EB_ROW_H
#define EB_ROW_H

#include "imb/driver/bench.h"
#include "imb/driver/report/reporters.h"

#include <mpi.h>

/* A table being measured: what its rows share, and its rows so far. */
typedef struct eb_table {
    const eb_report_run *run;
    eb_report_table info;    /* the table as the reporters see it */
    MPI_Comm active;         /* every rank of every group */
    MPI_Comm comm;           /* this rank's group */
    int group;               /* this rank's group */
    int groups;              /* groups measuring at once (1 in standard mode) */
    int warned_spread, warned_warmup; /* one noise warning of each kind per table */
    eb_row *rows;            /* printing rank: the rows so far, for after_table */
    int nrows;
} eb_table;

/* One length as this rank timed it. */
typedef struct {
    size_t x;
    long n;               /* repetitions per loop */
    int loops;            /* timed loops, >= 1 */
    const double *t_us;   /* [loops]: time per repetition in microseconds */
    const double *extra;  /* [loops * EB_MAX_EXTRA]: the extras measure left in each loop */
    long defects;         /* -check: defects this rank found */
    /* Optional: the loop mode's own figures into each row (quick, window) */
    void (*mode_figures)(const void *state, eb_row *row);
    const void *mode_state;
} eb_row_times;

/* Collective over the table's active ranks: reduce, assemble the row(s) of
 * length m->x (one per group under -multi 1) and report them on the active
 * communicator's rank 0. */
void eb_emit_row(eb_table *T, const eb_row_times *m);

/* The rows kept for after_table. */
void eb_table_free(eb_table *T);

#endif
