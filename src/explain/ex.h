/* `effbench explain`: one operation measured under every tool's method in
 * one run, and the differences between the methods explained by rows that
 * change one factor at a time (docs/methods.md).
 *
 * A method is a parameter set (ex_config) of one measurement kernel
 * (ex_kernel.c): how processes are synchronised before each timed region,
 * whether a region is one call or the whole loop, how the processes' times
 * form one time, the statistic over regions, in which order the two
 * reductions go, the warm-up, the buffers, the root, the unit.  The files,
 * arrows one way: ex_opts (command line) <- ex_methods (the methods and the
 * chains of factor rows) <- ex_kernel (one row of one round) <- ex_report
 * (values, shares, text, JSON) <- ex_run (the steps, the rounds). */
#ifndef EB_EXPLAIN_H
#define EB_EXPLAIN_H

#include <mpi.h>
#include <stdio.h>

#define EX_METHODOLOGY "explain"
#define EX_MAX_SIZES 16
#define EX_MAX_METHODS 8
#define EX_NFACTORS 11
#define EX_BW_WINDOW 64 /* osu_bw's window of messages in flight */
#define EX_BEFF_LOOPS 3 /* b_eff's repetitions of a measurement, the fastest counts */
#define EX_BEFF_NMETHODS 3 /* b_eff's MPI methods: Sendrecv, nonblocking, Alltoallv */
#define EX_BEFF_MIN_LMAX 8192 /* b_eff's smallest L_max (1 MiB per process / 128) */
/* rows of one size: the methods and at most EX_NFACTORS chain rows each */
#define EX_MAX_ROWS (EX_MAX_METHODS * (EX_NFACTORS + 1))

typedef enum { EX_OP_PINGPONG, EX_OP_BCAST, EX_OP_ALLREDUCE, EX_OP_BARRIER, EX_OP_REDUCE,
               EX_OP_ALLGATHER, EX_OP_ALLTOALL, EX_OP_BW, EX_OP_PINGPING, EX_OP_SENDRECV,
               EX_OP_EXCHANGE, EX_NOPS } ex_op;

/* ranks 0 and 1 only (the others wait) */
#define EX_PAIR_OP(op) ((op) == EX_OP_PINGPONG || (op) == EX_OP_BW || (op) == EX_OP_PINGPING)

/* the factors, in the order a chain changes them */
typedef enum { EX_F_SYNC, EX_F_FORM, EX_F_STAT, EX_F_ORDER, EX_F_REGION, EX_F_WARMUP,
               EX_F_BUFFERS, EX_F_ROOT, EX_F_UNIT, EX_F_INFLIGHT, EX_F_CALLS } ex_factor;

typedef enum { EX_SYNC_NONE, EX_SYNC_BARRIER, EX_SYNC_DOUBLE, EX_SYNC_WINDOW } ex_sync;
/* how the processes' times of a region form one time */
typedef enum { EX_FORM_MEAN, EX_FORM_MAX, EX_FORM_RANK0, EX_FORM_GLOBAL,
               EX_FORM_FROM_START } ex_form;
typedef enum { EX_STAT_MEAN, EX_STAT_MEDIAN, EX_STAT_MIN } ex_stat;
/* region first: form over processes per region, then the statistic over
 * regions; process first: each process's statistic, then the form */
typedef enum { EX_ORDER_REGION, EX_ORDER_PROCESS } ex_order;
/* loops-3: b_eff's three repetitions, each a loop of reps / 3 calls timed as a whole */
typedef enum { EX_REGION_EACH, EX_REGION_LOOP, EX_REGION_LOOPS3 } ex_region;
/* b_eff: one untimed call before every timed loop, none at its three largest lengths */
typedef enum { EX_WARM_NONE, EX_WARM_IMB4, EX_WARM_IMB2021, EX_WARM_OSU, EX_WARM_OSU_BW,
               EX_WARM_BEFF } ex_warm;
/* buffers: reused, IMB's -off_cache slots, b_eff's running offset over 6 * L_max */
typedef enum { EX_BUF_REUSED, EX_BUF_COLD, EX_BUF_BEFF } ex_buffers;

typedef struct {
    int v[EX_NFACTORS]; /* indexed by ex_factor: the enums above; root 1 = rotating,
                           unit 1 = per message (half a round trip, or a window's share),
                           in-flight 1 = osu_bw's window (bw only), calls 1 = b_eff's
                           three MPI methods, one loop each (PingPing, Sendrecv, Exchange) */
} ex_config;

typedef struct {
    const char *name;  /* "imb-4.0" */
    const char *title; /* "IMB 4.0" */
    ex_config c;
} ex_method;

typedef struct {
    ex_op op;
    long sizes[EX_MAX_SIZES];
    int nsizes;
    int rounds;
    long reps;      /* calls per row and round; 0: by size (ex_reps) */
    unsigned seed;
    int reference;  /* index into the operation's methods */
    double window_s;
    const char *json;
    int help;
    int procs;      /* the processes of the run (the methods that apply depend on them) */
} ex_options;

/* The rows of one size: the methods first (row m is method m), then each
 * method's chain (chain[m][k] the row of its k-th factor change); rank 0
 * holds every row's value per round. */
typedef struct {
    const ex_method *methods;
    int nmethods, reference, nrows;
    ex_config cfg[EX_MAX_ROWS];
    int nchain[EX_MAX_METHODS];
    int chain[EX_MAX_METHODS][EX_NFACTORS];
    ex_factor which[EX_MAX_METHODS][EX_NFACTORS];
    long size, reps, lmax, regions[EX_MAX_ROWS], invalid[EX_MAX_ROWS];
    int rounds, procs;
    double window_s;
    double *vals; /* nrows * rounds, seconds; NaN: no valid region */
} ex_table;

/* ex_opts.c */
int ex_parse(ex_options *o, int argc, char **argv, int procs, char *err, size_t errlen);
void ex_usage(FILE *f);
const char *ex_op_name(ex_op op);
long ex_reps(const ex_options *o, long size);

/* ex_methods.c: the operation's methods on `procs` processes, reference first (b_eff's
 * only where its traffic is the operation's) */
int ex_methods(ex_op op, int procs, const ex_method **out);
int ex_method_find(ex_op op, int procs, const char *name);
const char *ex_factor_name(ex_factor f);
const char *ex_value_name(ex_factor f, int v);
/* the chain from `ref` to `m`: up to EX_NFACTORS configs, each changing one
 * more factor; which[k] the factor changed by row k; returns the count */
int ex_chain(const ex_config *ref, const ex_config *m, ex_config *rows, ex_factor *which);
/* untimed calls before the row (b_eff's: before each loop); lmax: b_eff's L_max */
long ex_warmup_calls(int warm, long size, long reps, long lmax);
/* b_eff's L_max for explain's sizes: the largest, at least EX_BEFF_MIN_LMAX */
long ex_beff_lmax(const long *sizes, int n);
/* the timed regions of a row per round and the calls in each */
void ex_regions_of(const ex_config *c, long reps, long *nreg, long *calls);

/* ex_kernel.c: one row of one round, collective over MPI_COMM_WORLD.  Rank 0
 * gets the row's value (seconds; NaN when no region was valid) and the count
 * of invalid regions (missed windows). */
typedef struct ex_kernel ex_kernel;
ex_kernel *ex_kernel_new(ex_op op, long size, long reps, long lmax, double window_s);
void ex_kernel_free(ex_kernel *k);
void ex_kernel_clock(ex_kernel *k, int exchanges);
void ex_kernel_window(ex_kernel *k, double window_s);
void ex_kernel_row(ex_kernel *k, const ex_config *c, double *value, long *invalid);
/* pure: the value of a row from every process's region times (rank-major:
 * p * nreg + r), flags per region (already reduced over processes); scale
 * turns a region's time into the reported one (per call, per message) */
double ex_form_value(const ex_config *c, int nproc, long nreg, double scale, const double *dur,
                     const double *gstart, const double *gend, const double *wstart,
                     const int *flags, long *invalid);
double ex_statistic(int stat, double *v, long n);

/* ex_report.c (rank 0): the value of a row (median over the rounds' finite
 * values) and its spread, the text table and the JSON records of a size */
double ex_row_value(const ex_table *t, int row, double *lo, double *hi);
void ex_report_text(FILE *f, const ex_table *t, const ex_options *o);
void ex_report_json(const ex_table *t, const ex_options *o);

#endif
