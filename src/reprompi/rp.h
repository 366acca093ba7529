/* ReproMPI's mpibenchmark (github:hunsa/reprompi-dev at d40429c) as an
 * effbench personality: its command line, its jobs (MPI call, message size,
 * repetitions), its process synchronisation methods, its run-time
 * computation per repetition and its text.  See docs/reprompi.md.
 *
 * rp_opts.c: the command line and the job list (-f input file).
 * rp_calls.c: the measured calls, their buffers and the data check.
 * rp_sync.c: process synchronisation (barriers, window) and clocks.
 * rp_text.c: the header, the tables, the summary; rp_run.c: the run. */
#ifndef EB_RP_H
#define EB_RP_H

#include "core/clock.h"
#include "core/mockups.h"

#include <mpi.h>
#include <stdio.h>

#define RP_PROGRAM "mpibenchmark"
#define RP_METHODOLOGY "reprompi"
#define RP_MAX_CALLS 32 /* at least the call table's length (rp_calls.c) */

/* Process synchronisation (--proc-sync): ReproMPI's names. */
typedef enum {
    RP_SYNC_MPI_BARRIER, RP_SYNC_DISSEM_BARRIER, RP_SYNC_DOUBLE_BARRIER, RP_SYNC_WINDOW,
    RP_SYNC_NONE
} rp_proc_sync;

/* Clock synchronisation (--clock-sync): None, or synchronised by one of core's methods
 * (core/clock_model.h: rp_options.clock_method). */
typedef enum { RP_CLOCK_NONE, RP_CLOCK_SYNCED } rp_clock_sync;

/* --runtime-type */
typedef enum { RP_RUNTIME_LOCAL, RP_RUNTIME_GLOBAL } rp_runtime;

/* --summary's methods, in ReproMPI's column order. */
enum { RP_SUM_MEAN = 1, RP_SUM_MEDIAN = 2, RP_SUM_MIN = 4, RP_SUM_MAX = 8, RP_SUM_VAR = 16,
       RP_SUM_STDDEV = 32, RP_NSUM = 6 };
extern const char *const rp_summary_names[RP_NSUM];

/* Window flags (ReproMPI's error codes; the row's code is the maximum over
 * the processes): 1 the window's start had passed when the process came to
 * it, 2 the call ended after the window closed, 3 both. */
enum { RP_WIN_START_PASSED = 1, RP_WIN_EXPIRED = 2 };

typedef struct {
    int call;      /* index into the call table (rp_calls.c) */
    long msize;    /* bytes */
    long count;    /* msize / datatype size: the element count ReproMPI prints */
    long nrep;
} rp_job;

typedef struct {
    int *calls;
    int ncalls;
    long *msizes;
    int nmsizes;
    long nrep;            /* 0: not given */
    int summary;          /* RP_SUM_* bits; 0: no summary */
    int verbose;          /* -v */
    int root;
    MPI_Op op;
    const char *op_name;  /* as given; the header prints ReproMPI's spelling */
    MPI_Datatype type;
    const char *type_name;
    int shuffle;
    int pingpong[2];      /* --pingpong-ranks, -1 -1 when not given */
    const char *input_file;
    const char *output_file;
    rp_proc_sync proc_sync;
    rp_clock_sync clock_sync;
    int clock_method;     /* eb_clock_method of a synchronised clock */
    rp_runtime runtime;
    double window_s, wait_s;
    int clock_rounds;     /* ping-pongs per rank for a clock synchronisation */
    /* --module=COLL=alg:NAME (PGMPI's): the call measured as a mock-up (core/mockups.h) */
    const eb_mockup *module[RP_MAX_CALLS];
    const char *json;
    int check;
    int help;
} rp_options;

typedef struct {
    rp_job *jobs;
    int njobs;
    int *order;           /* the run order (shuffled with --shuffle-jobs) */
} rp_jobs;

/* rp_opts.c: parse argv (every rank: same verdict); 0, or -1 with err. */
int rp_parse(rp_options *o, int argc, char **argv, int procs, char *err, size_t errlen);
void rp_options_free(rp_options *o);
void rp_usage(FILE *f);
/* The jobs: from -f (rank 0 reads, every rank gets them) or the lists.
 * Collective; exits 2 on every rank with a message on a bad file. */
void rp_make_jobs(const rp_options *o, rp_jobs *j);
/* The jobs of an input file (rank 0 reads it): 0, or -1 with err naming the file and line. */
int rp_read_job_file(const char *path, rp_jobs *j, char *err, size_t errlen);
void rp_jobs_free(rp_jobs *j);

/* rp_calls.c */
typedef struct rp_bufs rp_bufs;
int rp_call_count(void);
const char *rp_call_name(int call);
int rp_call_find(const char *name);              /* -1: unknown */
int rp_call_is_pingpong(int call);
/* Buffers and arguments of one job; rp_call_run issues the call once. */
rp_bufs *rp_bufs_make(int call, long count, const rp_options *o, MPI_Comm comm);
void rp_call_run(rp_bufs *b);
/* -check: one call on patterned data outside the timing; the defects this
 * rank found (bytes or elements that differ from what must arrive). */
long rp_call_check(rp_bufs *b);
void rp_bufs_free(rp_bufs *b);

/* rp_sync.c: one job's process synchronisation.  rp_sync_begin before the
 * first repetition (the clocks, the first window), rp_sync_start before
 * each call, rp_sync_stop after it (the window's flags for repetition i). */
typedef struct {
    const rp_options *o;
    eb_clock_model clock;
    int synced;           /* clock has a model */
    double window_start;  /* global time of the current window */
    int *flags;           /* per repetition (window only) */
    double sync_s;        /* seconds the last clock synchronisation took */
} rp_sync;

void rp_sync_init(rp_sync *s, const rp_options *o);
void rp_sync_begin(rp_sync *s, long nrep);
void rp_sync_start(rp_sync *s, long i);
void rp_sync_stop(rp_sync *s, long i);
double rp_sync_global(const rp_sync *s, double local);
void rp_sync_free(rp_sync *s);
const char *rp_proc_sync_name(rp_proc_sync p);
const char *rp_clock_sync_name(const rp_options *o);

/* rp_text.c: rank 0 writes; `out` is stdout or the --output-file. */
void rp_print_settings(FILE *f, const rp_options *o, int procs);
void rp_print_header(const rp_options *o, FILE *out);
/* Per repetition (root 0 of every rank's arrays): the run-times, the codes. */
void rp_runtimes(const rp_options *o, const rp_sync *s, const double *t0, const double *t1,
                 long nrep, double *runtime, int *codes);
void rp_print_reps(FILE *f, const rp_options *o, const rp_job *jb, const double *runtime,
                   const int *codes);
/* The summary's values for the valid repetitions (sorts `rt`); its line. */
long rp_valid(double *rt, const int *codes, long nrep, int window);
void rp_summary_values(double *rt, long n, double v[RP_NSUM]);
void rp_print_summary(FILE *f, const rp_options *o, const rp_job *jb, long valid,
                      const double v[RP_NSUM]);
/* -v: every process's start and end times (collective). */
void rp_print_verbose(FILE *f, const rp_options *o, const rp_sync *s, const rp_job *jb,
                      const double *t0, const double *t1);

#endif
