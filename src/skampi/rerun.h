/* Runs that survive crashes (docs/skampi.md): running the same command
 * again after a crash resumes the run.  The @LOGFILE says which suites
 * finished (they are skipped) and which were running (they go last); the
 * output file is the crashed run's, without its unfinished block, or for a
 * new run the next free name of the series @OUTFILE, @OUTFILE.1, ...  whose
 * medians @POSTPROC writes.  Collective over MPI_COMM_WORLD but
 * sk_postprocess_series. */
#ifndef SK_RERUN_H
#define SK_RERUN_H

#include "core/sysinfo.h"
#include "skampi/config.h"

#include <stdio.h>

/* The suites this run measures, the same on every rank. */
typedef struct {
    int resume;          /* continues the unfinished run of the @LOGFILE */
    int *order, norder;  /* the suites to run (indices into cfg->suites), in order */
    int *retried;        /* retried[k]: order[k] was running when an earlier run crashed */
    char outfile[512];   /* this run's output file */
} sk_rerun;

/* Rank 0 reads the @LOGFILE and opens it again (sk_log), to append when
 * the run resumes; every rank gets the plan.  Exits 2 if the log cannot be
 * written. */
void sk_rerun_plan(sk_rerun *rr, const sk_config *cfg);
void sk_rerun_free(sk_rerun *rr);

/* Rank 0 opens the output file (NULL on the other ranks): a resumed run
 * loses the block of the suite that crashed and appends; a new one begins
 * with the header, which names cfgpath and the MPI library.  Exits 2 if it
 * cannot be written. */
FILE *sk_outfile_open(const sk_rerun *rr, const sk_config *cfg, const char *cfgpath,
                      const eb_sysinfo *si);

/* @POSTPROC (rank 0): the medians over the output files of the series, in
 * @OUTFILE.median; a warning if they cannot be written. */
void sk_postprocess_series(const sk_config *cfg);

#endif
