/* A progress line with the time left, for long runs (b_eff, b_eff_io).
 *
 * Rank 0 only, on stderr, and only where a person watches: stderr is a
 * terminal, or the user asked with --progress (mpirun hands the ranks a pipe
 * for stderr, so a terminal behind mpirun cannot be seen from here).  Stdout
 * is never touched, so output piped or written to a file is the same with or
 * without the line.  The line is drawn as "\r" LINE "\033[K" "\r" (the
 * cursor waits at its start) and erased by eb_progress_end ("\033[K")
 * before the final output. */
#ifndef EB_PROGRESS_H
#define EB_PROGRESS_H

#include <stdio.h>

typedef struct {
    int on;             /* this process draws the line */
    const char *name;   /* "b_eff" */
    double total, done; /* units of work: planned and finished */
    double t0;          /* MPI_Wtime at the start */
    double shown;       /* MPI_Wtime of the last line drawn */
    FILE *out;          /* stderr */
    int width;          /* the terminal's columns - 1 (0: unknown): longer lines are cut */
} eb_progress;

/* Whether rank 0 draws: stderr is a terminal, or forced (--progress). */
int eb_progress_wanted(int force);

/* Start counting total units of work (collective-free; call on every rank). */
void eb_progress_start(eb_progress *p, const char *name, double total, int force);

/* units more are done; `where` says what ran last ("repetition 1/3, 4096
 * bytes").  Redraws at most 4 times a second, and always the first time. */
void eb_progress_add(eb_progress *p, double units, const char *where);

/* The line, without "\r": "NAME: 37% done, 12 s elapsed, about 20 s left
 * (WHERE)".  Times as "N s" below 100 s, else "M min S s" / "H h M min". */
void eb_progress_format(char *buf, size_t n, const char *name, double done, double total,
                        double elapsed_s, const char *where);

/* Erase the line (when drawn) so the final output starts on a clean line. */
void eb_progress_end(eb_progress *p);

#endif
