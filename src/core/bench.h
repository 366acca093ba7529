/* The IMB-style benchmark descriptor: a benchmark is a row in a table, not a
 * program.  The driver (driver.c) runs IMB's control flow for any
 * descriptor; a benchmark supplies buffer extents and one timed kernel. */
#ifndef EB_BENCH_H
#define EB_BENCH_H

#include "core/buffers.h"

#include <mpi.h>
#include <stddef.h>

typedef enum {
    EB_SINGLE_TRANSFER,   /* two processes; t and Mbytes/sec */
    EB_PARALLEL_TRANSFER, /* any count; t_min/t_max/t_avg and Mbytes/sec */
    EB_COLLECTIVE         /* any count; t_min/t_max/t_avg, bare times */
} eb_class;

enum {
    EB_F_EXPLICIT_ONLY = 1u << 0, /* not run by default: by name or -include only */
    EB_F_REDUCTION = 1u << 1,     /* MPI_FLOAT data: lengths in units of sizeof(float) */
    EB_F_ROOT = 1u << 2,          /* rooted collective: `auto` uses multiple_np */
    EB_F_NO_BYTES = 1u << 3,      /* no message length (Barrier): one row, no #bytes */
    EB_F_NO_MULTI = 1u << 4,      /* has no Multi- form */
    EB_F_MODES = 1u << 5,         /* runs in aggregate, then non-aggregate mode
                                     (ctx->aggregate; MSGS_NONAGGR repetitions) */
};

#define EB_MAX_EXTRA 8

typedef struct eb_ctx eb_ctx;

/* A table column: what the driver prints and writes for a row. */
typedef enum {
    EB_COL_BYTES, EB_COL_REPS, EB_COL_T, EB_COL_TMIN, EB_COL_TMAX, EB_COL_TAVG,
    EB_COL_MBPS, EB_COL_EXTRA /* + index */
} eb_col_id;

typedef struct {
    int id;              /* eb_col_id, or EB_COL_EXTRA + k */
    const char *header;  /* e.g. "t_ovrl[usec]" */
} eb_column;

typedef struct eb_bench {
    const char *component;  /* "mpi1", "nbc", ... */
    const char *name;       /* as printed after "Benchmarking" */
    int order;              /* position in the component's default list */
    eb_class cls;
    unsigned flags;         /* EB_F_* */
    int fixed_procs;        /* 0: IMB's Q list; n: exactly n processes */
    int nmsg;               /* throughput multiplicity; 0 = no Mbytes/sec */
    int time_divisor;       /* reported time = elapsed / n / time_divisor (PingPong: 2) */

    /* Bytes of one send / receive extent for message length x on `np`
     * processes (Alltoall: np*x ...).  NULL: x and x. */
    void (*extents)(size_t x, int np, size_t *s_len, size_t *r_len);
    /* Optional: set up state (ctx->priv) for the current x; 0 or -1. */
    int (*prepare)(eb_ctx *c);
    /* n repetitions with global iteration indices first..first+n-1. */
    void (*kernel)(eb_ctx *c, long first, long n);
    /* Optional under -check: defects in the received data of repetition
     * `iter` (the one kernel just ran), counted on this rank. */
    long (*check)(eb_ctx *c, long iter);
    void (*release)(eb_ctx *c);

    /* Optional custom table (NULL: the class's IMB columns), terminated by
     * a column with header NULL, and JSON names for the extra values. */
    const eb_column *columns;
    const char *extra_json[EB_MAX_EXTRA];
    /* Optional: replaces the driver's timed loop for this row.  Must time n
     * repetitions after the driver's barriers and return this rank's time
     * per repetition in seconds, filling c->extra[] if it has extras. */
    double (*measure)(eb_ctx *c, long n);
} eb_bench;

/* The state a kernel works on. */
struct eb_ctx {
    const eb_bench *bench;
    MPI_Comm comm;        /* this process's active group */
    int rank, size;       /* in comm */
    int group, ngroups;   /* multi mode: this group and how many */
    size_t x;             /* message length in bytes */
    eb_buf s, r;          /* send / receive buffers; slot i for iteration i */
    const struct eb_imb_options *opt;
    int checking;         /* 1 in the untimed checked pass */
    int aggregate;        /* EB_F_MODES: 1 aggregate, 0 non-aggregate */
    double extra[EB_MAX_EXTRA]; /* per-rank extra values of a row (seconds or plain) */
    void *priv;           /* benchmark state */
};

/* Send / receive area of iteration i. */
static inline char *eb_sbuf(const eb_ctx *c, long i) { return eb_buf_slot(&c->s, i); }
static inline char *eb_rbuf(const eb_ctx *c, long i) { return eb_buf_slot(&c->r, i); }

/* One table row as the reporters see it: times in microseconds. */
typedef struct {
    const eb_bench *bench;
    const char *name;     /* as printed: "PingPong" or "Multi-PingPong" */
    const char *mode;     /* "aggregate" / "non-aggregate" or NULL */
    int group;            /* -1, or the group of a -multi 1 row */
    int procs;            /* active processes (per group) */
    size_t bytes;
    long reps;
    double t_min, t_max, t_avg;
    double mbps;          /* NAN where the table has no throughput */
    double extra[EB_MAX_EXTRA];
    long defects;         /* -1 without -check */
    int loops;            /* -repeat: timed loops behind the row (1 = IMB) */
    const double *loop_t_max; /* t_max of each loop */
    double rep_min, rep_max, spread; /* over the loops' t_max (loops > 1) */
    int quick;            /* quick mode: loops chosen by the accuracy rule */
    double quick_rel_error; /* achieved std error / mean of the kept loops */
    int quick_converged;  /* reached -epsilon (else the budget ran out) */
    int sync_window;      /* -sync window: times are per-repetition maxima */
    double valid_fraction, window_us;
    long invalid_reps;
} eb_row;

void eb_register_bench(const eb_bench *b);
int eb_bench_count(const char *component);
const eb_bench *eb_bench_at(const char *component, int i); /* sorted by order */

#endif
