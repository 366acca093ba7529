/* The reporters of an IMB run, one interface (google/benchmark's reporter.cc
 * is the model): the IMB text on stdout and the JSON Lines file are two
 * members of one list (reporters.h), which the driver and the row code
 * call.
 * Measurement never prints; reporters never measure. */
#ifndef EB_REPORT_REPORTER_H
#define EB_REPORT_REPORTER_H

#include "core/sysinfo.h"
#include "imb/driver/bench.h"
#include "imb/driver/options.h"

/* The run as every reporter sees it. */
typedef struct eb_report_run {
    const eb_imb_options *o;
    const eb_sysinfo *si;
    const eb_bench **list; /* the plan: benchmarks in run order */
    const int *multi;      /* of each: -1 standard mode, else the -multi outflag */
    int n;
    long planned_rows;
    /* Set by begin (--resume): keys (eb_row_key) of the rows an earlier
     * file already holds, not measured again. */
    char **resume_keys;
    int n_resume_keys;
} eb_report_run;

/* One table: a benchmark on one process set in one mode. */
typedef struct eb_report_table {
    const eb_bench *bench;
    const char *name;  /* as printed: "PingPong" or "Multi-PingPong" */
    const char *mode;  /* "aggregate", "non-aggregate" or NULL */
    int multi;         /* -1 standard mode, else the -multi outflag */
    int procs;         /* processes per group (the run's size when not run) */
    int ngroups;       /* groups of multiple mode; 0 in standard mode */
    const int *ranks;  /* world ranks by position, groups one after another */
    int waiting;       /* processes outside every group */
    int need_procs;    /* > 0: not run, it needs this many processes */
} eb_report_table;

/* A member of the list.  Every hook is optional (NULL). */
typedef struct eb_reporter {
    const char *name;
    /* Collective (every rank), before the header: open the output.  A user
     * error (an unwritable file) ends the run on every rank with status 2. */
    void (*begin)(eb_report_run *run);
    /* The others run on the printing rank only. */
    void (*header)(const eb_report_run *run);
    void (*table_start)(const eb_report_run *run, const eb_report_table *t);
    void (*row)(const eb_report_run *run, const eb_report_table *t, const eb_row *row);
    void (*note)(const eb_report_run *run, const char *text); /* a remark on the table */
    /* The table stopped at length `bytes` for the reason `text`, in the place of
     * its row (IMB 2021's time-out under --imb-defaults 2021). */
    void (*stopped)(const eb_report_run *run, size_t bytes, const char *text);
    void (*table_end)(const eb_report_run *run, const eb_report_table *t);
    void (*footer)(const eb_report_run *run);
} eb_reporter;

#endif
