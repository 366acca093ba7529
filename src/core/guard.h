/* The run's guard: how a run on a real cluster ends when it cannot finish.
 *
 * - A hang (a rank stopped, a link that drops every packet): every row is
 *   armed with a deadline (--row-timeout SECONDS, or a default scaled from
 *   the row's expected time).  At the end of a row every rank reports its
 *   arrival to rank 0, which waits for the reports only until the deadline;
 *   if rank 0 itself cannot leave the row, a thread of its own notices.
 *   Either way one message names the row, the ranks that did not arrive and
 *   their hosts, the JSON file gets its `end` record (status "timeout"), and
 *   the job is aborted instead of burning its allocation.
 * - SIGTERM (Slurm's time limit, scancel) and SIGINT: the end record and a
 *   last text line say which signal ended the run and after how many rows.
 *
 * Signals are taken by the guard's thread (sigwait), never in a handler, so
 * what it writes goes through the ordinary, locked stdio streams. */
#ifndef EB_GUARD_H
#define EB_GUARD_H

#include <mpi.h>
#include <stddef.h>

/* Exit statuses of runs the guard ends (docs/json-lines.md, `end`). */
#define EB_EXIT_TIMEOUT 3
#define EB_EXIT_SIGNAL_BASE 128 /* + the signal number, as a shell reports it */

/* Least default deadline of a row, and its factor over the expected time. */
#define EB_GUARD_MIN_TIMEOUT_S 120.0
#define EB_GUARD_FACTOR 20.0

/* main, before MPI_Init: block SIGTERM and SIGINT so that every thread the
 * MPI library starts inherits the mask and only the guard takes them. */
void eb_guard_block_signals(void);

/* main: take `--row-timeout SECONDS` (anywhere in argv; 0 turns the
 * watchdog off) out of argv.  0, or -1 with a message. */
int eb_guard_take_option(int *argc, char **argv, char *err, size_t errlen);

/* main, after MPI_Init (every rank): start the guard's thread. */
void eb_guard_start(void);

/* A row begins on this rank, run by the ranks of comm: `what` names it in
 * messages ("PingPong, 2 processes, 4194304 bytes"); expected_s is the
 * component's estimate of its time (the default deadline is
 * max(EB_GUARD_MIN_TIMEOUT_S, EB_GUARD_FACTOR * expected_s)). */
void eb_guard_row(const char *what, double expected_s, MPI_Comm comm);

/* The row ends on this rank (every rank of the row's comm calls it).  When
 * world rank 0 is comm's rank 0, the others report to it and it waits for
 * the reports until the row's deadline, or else ends the run as above. */
void eb_guard_row_end(void);

/* Results written so far and planned (for "how far the run came"). */
void eb_guard_count_row(void);
void eb_guard_plan_rows(long planned);
long eb_guard_rows_done(void);
long eb_guard_rows_planned(void);

#endif
