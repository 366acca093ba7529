/* The IMB-style benchmark descriptor: a benchmark is a row in a table, not a
 * program.  The driver (driver.c) runs IMB's control flow for any
 * descriptor; a benchmark supplies buffer extents and one timed kernel. */
#ifndef EB_BENCH_H
#define EB_BENCH_H

#include "core/buffers.h"
#include "core/device.h"
#include "imb/driver/msg_layout_types.h"

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
    EB_F_NONAGGR_FIRST = 1u << 6, /* EB_F_MODES: the non-aggregate table first (IMB-RMA) */
    EB_F_NONAGGR_COUNTS = 1u << 7,/* one table, no MODE line, MSGS_NONAGGR repetition
                                     counts, ctx->aggregate 0 (IMB-EXT Window) */
    EB_F_AGGR_ONLY = 1u << 8,     /* one table, labelled MODE: AGGREGATE */
    EB_F_NONAGGR_ONLY = 1u << 9,  /* one table, labelled MODE: NON-AGGREGATE */
    EB_F_NO_WARMUP = 1u << 10,    /* no warm-up repetitions (IMB-IO has none) */
    EB_F_REP_SYNC = 1u << 11,     /* IMB 2021's -sync 0|1 applies: each repetition timed on
                                     its own (IMB-MPI1 / IMB-NBC collectives but barriers) */
    EB_F_EVEN_PROCS = 1u << 12,   /* even process counts only (Uniband, Biband) */
    EB_F_DEFAULT_2021 = 1u << 13, /* EB_F_EXPLICIT_ONLY, but run by default under
                                     --imb-defaults 2021 (IMB 2021.11's default list) */
    EB_F_AGGR_IN_2021 = 1u << 14, /* EB_F_NONAGGR_ONLY, but one AGGREGATE table under
                                     --imb-defaults 2021 (IMB-IO's I-flavours: the guide's
                                     text says non-aggregate, IMB's code runs aggregate) */
    EB_F_LAST = EB_F_AGGR_IN_2021 /* a new flag: move this, name it in listing.c */
};

#define EB_MAX_EXTRA 8

#define EB_N_BARR 2   /* barriers before each timed loop */
#define EB_N_WARMUP 2 /* untimed repetitions at sizeof(assign_type) before a process set's first length */

typedef struct eb_ctx eb_ctx;
typedef struct eb_row eb_row;

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
    /* Optional: throughput multiplicity on np processes, replacing nmsg
     * (IMB-RMA multiple transfer: np - 1 targets). */
    int (*nmsg_of)(int np);
    int min_procs;          /* > 0: process sets smaller than this are not run
                               (fewer processes in all: a NOT RUN note) */
    size_t fixed_bytes;     /* > 0: this one message length only (single-element atomics) */
    /* Optional lines printed under the name in the header's benchmark list
     * ('\n' separated), as IMB's benchmark comments. */
    const char *list_comment;

    /* Counts past INT_MAX elements (messages of 2 GiB and more): the
     * eb_mpi_feature whose MPI-4 _c calls the kernel then makes (0: its
     * calls take int counts, such lengths are refused before the run; see
     * imb/driver/large_rows.h). */
    unsigned large_counts;
    /* Optional: the largest count or displacement of the kernel's calls,
     * in elements, at `elems` elements per message on np processes (the
     * v-variants' last displacement); NULL: elems. */
    size_t (*count_span)(size_t elems, int np);

    /* Bytes of one send / receive extent for message length x on `np`
     * processes (Alltoall: np*x ...).  NULL: x and x. */
    void (*extents)(size_t x, int np, size_t *s_len, size_t *r_len);
    /* Optional: the extents under IMB 2021.11's method where they differ
     * (eb_imb2021_method; Reduce_scatter: X for every rank); NULL: extents. */
    void (*extents_2021)(size_t x, int np, size_t *s_len, size_t *r_len);
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
    unsigned whole_2021;     /* bit k: extra column k printed without decimals under
                                --imb-defaults 2021 (IMB 2021.11's Msg/sec) */
    /* Optional: replaces the driver's timed loop for this row.  Must time n
     * repetitions after the driver's barriers and return this rank's time
     * per repetition in seconds, filling c->extra[] if it has extras. */
    double (*measure)(eb_ctx *c, long n);
    /* Optional reporter hook: called on the printing rank after a table
     * with its rows (notes under the table, extra JSON records). */
    void (*after_table)(const eb_row *rows, int nrows);
    /* Optional: once per process set (and mode) on its active ranks, before
     * the first length (ctx->x = 0) / after the last one.  open_set returns
     * -1 with a message in err on a user error (e.g. an unwritable file):
     * the driver agrees on it over all ranks, calls close_set where
     * open_set succeeded, and exits with status 2. */
    int (*open_set)(eb_ctx *c, char *err, size_t errlen);
    void (*close_set)(eb_ctx *c);
} eb_bench;

/* The state a kernel works on. */
struct eb_ctx {
    const eb_bench *bench;
    MPI_Comm comm;        /* this process's active group */
    int rank, size;       /* in comm */
    int group, ngroups;   /* multi mode: this group and how many */
    int multi;            /* -1 standard mode, else the -multi outflag */
    size_t x;             /* message length in bytes */
    eb_buf s, r;          /* send / receive buffers; slot i for iteration i */
    eb_mem_kind mem;      /* their memory (IMB-MPI1-GPU's -mem_alloc_type; host by default):
                             a kernel writes into them through imb/driver/membuf.h */
    eb_layout lay;        /* x's datatype, count, reduction op and buffer scale */
    const struct eb_imb_options *opt;
    int checking;         /* 1 in the untimed checked pass */
    int aggregate;        /* EB_F_MODES: 1 aggregate, 0 non-aggregate */
    double extra[EB_MAX_EXTRA]; /* per-rank extra values of a row (seconds or plain) */
    long max_reps;        /* set by prepare (same on all ranks): cap on the timed
                             repetitions, 0 = none; the row shows the count used */
    void *priv;           /* benchmark state */
};

/* Send / receive area of iteration i. */
static inline char *eb_sbuf(const eb_ctx *c, long i) { return eb_buf_slot(&c->s, i); }
static inline char *eb_rbuf(const eb_ctx *c, long i) { return eb_buf_slot(&c->r, i); }

/* One table row as the reporters see it: times in microseconds. */
struct eb_row {
    const eb_bench *bench;
    const char *name;     /* as printed: "PingPong" or "Multi-PingPong" */
    const char *link;     /* transfers: "intra" (one node), "inter" (every rank on its own
                             node) or "mixed"; NULL for collectives */
    const char *mode;     /* "aggregate" / "non-aggregate" or NULL */
    int group;            /* -1, or the group of a -multi 1 row */
    int procs;            /* active processes (per group) */
    size_t bytes;
    long reps;
    double t_min, t_max, t_avg;
    double mbps;          /* NAN where the table has no throughput */
    double extra[EB_MAX_EXTRA];
    long defects;         /* -1 without -check, or when not checked */
    int checked;          /* -check: 1 the data were verified, 0 the benchmark has no
                             data check ("not checked"); -1 without -check */
    int loops;            /* -repeat: timed loops behind the row (1 = IMB) */
    const double *loop_t_min, *loop_t_max, *loop_t_avg; /* each loop's t_min / t_max / t_avg */
    double rep_min, rep_max, spread; /* over the loops' t_max (loops > 1) */
    int quick;            /* quick mode: loops chosen by the accuracy rule */
    double quick_rel_error; /* achieved std error / mean of the kept loops */
    int quick_converged;  /* reached -epsilon (else the budget ran out) */
    int sync_window;      /* -sync window: times are per-repetition maxima */
    double valid_fraction, window_us;
    long invalid_reps;
    int clock_method;     /* -sync window: the clocks' eb_clock_method and what it achieved */
    double clock_sync_us, clock_offset_max_us, clock_check_error_us, clock_drift_ppm;
};

/* Does b verify the data it moves under -check?  Rows of one that does
 * not say "not checked" (never "0 defects"). */
static inline int eb_bench_checked(const eb_bench *b) { return b->check != NULL; }

/* The registry of descriptors (bench_registry.c): a duplicate name in a
 * component is refused (core/registry.h, eb_registry_error). */
void eb_register_bench(const eb_bench *b);
int eb_bench_count(const char *component);
const eb_bench *eb_bench_at(const char *component, int i); /* sorted by order */

struct eb_component;
struct eb_json;
/* A family's list_json hook (core/registry.h): an entry of `effbench
 * --list-json` for each of its component's descriptors (bench_listing.c). */
void eb_bench_list_json(const struct eb_component *self, struct eb_json *benchmarks);

#endif
