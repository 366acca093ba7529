/* The OSU Micro-Benchmarks 7.4 personality (docs/osu.md): every OSU MPI
 * program name (osu_latency, osu_allreduce, ...) is a symlink to effbench and
 * a descriptor here.  A program is data around the one measurement core:
 *
 *   name (argv[0]) -> osu_prog: OSU's option string, defaults, kind
 *                     -> osu_run.c: OSU's loop over message sizes (the runner)
 *                     -> prog->measure: skip + iterations of one size, OSU's
 *                        timing and reductions, into an osu_row on rank 0
 *                     -> osu_text.c (OSU's text) and osu_json.c (JSON Lines)
 *
 * A family file (osu_pt2pt.c, osu_coll.c, ...) defines its programs' measure
 * (and check) functions and registers its descriptors from a constructor. */
#ifndef EB_OSU_H
#define EB_OSU_H

#include "core/device.h"
#include "osu/osu_optsets.h"

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#define OSU_VERSION "7.4"
#define OSU_FIELD_WIDTH 18 /* configure.ac sets 18 (osu_util.h falls back to 20) */
#define OSU_FLOAT_PRECISION 2
#define OSU_LARGE_MESSAGE_SIZE 8192 /* iterations_large / skip_large above this */
#define OSU_MAX_PERCENTILES 5
#define OSU_MAX_DTYPES 3
#define OSU_MAX_WINDOWS 8 /* osu_mbw_mr -V: OSU's window sizes 1, 2, 4, ..., 128 */
#define OSU_MAX_NAMING 4

/* OSU's benchmark type (options.bench): decides the defaults and help text. */
typedef enum { OSU_PT2PT, OSU_COLLECTIVE, OSU_ONE_SIDED, OSU_MBW_MR, OSU_STARTUP } osu_bench;

/* How a program's rows look (osu_text.c prints each kind as OSU does). */
typedef enum {
    OSU_ROW_LATENCY,   /* "Avg Latency(us)"; -f adds min, max, iterations (collectives) */
    OSU_ROW_BANDWIDTH, /* "Bandwidth (MB/s)" */
    OSU_ROW_MBW_MR,    /* "MB/s" and, with -R 1 (default), "Messages/s" */
    OSU_ROW_NBC,       /* "Overall(us)" "Compute(us)" "Pure Comm.(us)" "Overlap(%)" (-f: more) */
    OSU_ROW_STARTUP,   /* osu_init / osu_hello: their own lines */
} osu_row_kind;

/* Defaults: OSU's iterations and warm-up (skip) for small and large sizes. */
typedef struct {
    long iterations, skip, iterations_large, skip_large;
} osu_loops;

/* One-sided window creation (-w) and synchronisation (-s). */
typedef enum { OSU_WIN_CREATE, OSU_WIN_ALLOCATE, OSU_WIN_DYNAMIC } osu_win;
typedef enum {
    OSU_SYNC_LOCK, OSU_SYNC_PSCW, OSU_SYNC_FENCE, OSU_SYNC_FLUSH, OSU_SYNC_FLUSH_LOCAL,
    OSU_SYNC_LOCK_ALL
} osu_sync;

/* The parsed command line (osu_options.c): OSU's options plus effbench's. */
typedef struct osu_options {
    size_t min_size, max_size;
    long iterations, skip, iterations_large, skip_large; /* in force (-i / -x set both) */
    int show_full;        /* -f */
    int validate;         /* -c or effbench's -check: the checked pass */
    int warmup_validation;/* -u */
    int window_size;      /* -W */
    int window_varied;    /* -V */
    int print_rate;       /* -R 0|1 */
    int pairs;            /* -p (osu_mbw_mr): 0 = numprocs / 2 */
    int num_probes;       /* -t (non-blocking collectives: MPI_Test calls) */
    int senders, receivers; /* -t [S:]R (osu_latency_mp, osu_latency_mt): processes or threads
                             * per side; senders -1: -t R alone */
    size_t mem_limit;     /* -M */
    int buf_multiple;     /* -b multiple */
    int in_place;         /* -l */
    int root;             /* -k fixed:N; -1 = rotate */
    int session;          /* -I */
    int npercentiles;     /* -z */
    int percentiles[OSU_MAX_PERCENTILES];
    int ndtypes;          /* -T: MPI_CHAR, MPI_INT, MPI_FLOAT (default MPI_CHAR) */
    MPI_Datatype dtypes[OSU_MAX_DTYPES];
    int ddt;              /* -D: 0 none, else the derived type kind */
    int ddt_kind;         /* 0 contiguous, 1 vector, 2 indexed */
    size_t ddt_block, ddt_stride;
    char ddt_file[1024];
    int nhbr_graph;       /* -N graph:FILE (else cart) */
    int nhbr_dim, nhbr_rad;
    char nhbr_file[1024];
    osu_win win;          /* -w */
    osu_sync sync;        /* -s */
    char buffers_asked[8];/* the buffer letters as typed ("D D"), "" if none: without -d
                           * effbench, like OSU 7.4 built without accelerators, uses host
                           * buffers for them */
    /* -d (osu_accel.c): the accelerator, OSU's MANAGED, and with it the buffer letters in
     * force, rank 0's (OSU's SRC) and rank 1's (DST): "H", "D", "M" or "MH" */
    eb_accel accel;       /* EB_ACCEL_NONE without -d */
    int managed;          /* -d managed, as OSU keeps it (a D or M letter of a
                           * point-to-point program makes it -d cuda, as OSU's setAccel) */
    char src[3], dst[3];
    int m_deprecated;     /* a bare M letter: OSU's warning, taken as MH */
    int stage;            /* --stage-through-host (effbench's) */
    /* effbench's own options */
    const char *json_path;
    int resume;
} osu_options;

typedef struct osu_ctx osu_ctx;
typedef struct osu_row osu_row;
typedef struct osu_prog osu_prog;

/* A program: one row of OSU's table of programs. */
struct osu_prog {
    const char *name;       /* "osu_latency": the program (symlink) name */
    const char *title;      /* OSU's BENCHMARK string, "%s" for the accelerator: "OSU MPI%s Latency Test" */
    osu_bench bench;
    osu_row_kind row;
    const char *optstring;  /* OSU 7.4's getopt string: a letter set of osu_optsets.h (+ its own) */
    osu_loops loops;
    size_t default_max_size;/* 0: OSU's default for the bench type */
    size_t default_min_size;/* OSU's: 0 for point-to-point latency, else 1 */
    int exact_procs;        /* > 0: exactly this many ("This test requires exactly two processes") */
    int min_procs;          /* > 0: at least this many */
    int even_procs;         /* an even number of processes */
    unsigned needs;         /* eb_mpi_feature bits (core/mpi_features.h) */
    int datatype_lines;     /* prints "# Datatype: MPI_CHAR." before each table */
    int reduction;          /* data is reduced (MPI_SUM): validation checks sums */
    int default_win, default_sync; /* one-sided: OSU's default -w / -s (OSU_WIN_* / OSU_SYNC_*) */
    unsigned syncs;         /* one-sided: the -s values this program allows (1u << OSU_SYNC_*) */
    /* Called once on every rank before the first size (buffers for
     * max_size, windows, communicators); 0, or -1 with a user error in err
     * (every rank agrees before the run goes on). */
    int (*setup)(osu_ctx *c, char *err, size_t errlen);
    /* One size on every rank: c->skip warm-up and c->iterations timed
     * iterations, OSU's reductions; fills *row on rank 0 (values in
     * microseconds / MB/s as OSU prints them), per-iteration times into
     * c->lat when it is not NULL (-z). */
    void (*measure)(osu_ctx *c, osu_row *row);
    /* Optional: the checked pass of -c / -check for the current size, outside
     * the timed loop; returns this rank's defects.  NULL: the program's data
     * is not checked (JSON "checked": false). */
    long (*check)(osu_ctx *c);
    void (*teardown)(osu_ctx *c);
    /* Optional, every rank, before the run record: where this build emulates
     * the program's MPI calls (core/coll_emulated.h, SMPI builds), say so. */
    void (*announce)(const osu_prog *p);
    int no_size;            /* rows without a size column (the barriers) */
    int lenient;            /* OSU never reads its parser's verdict (osu_init, osu_hello): a
                             * refused option is a warning, and the program runs */
    int one_row;            /* one row per -T datatype, of the datatype's size (fetch_and_op, compare_and_swap) */
    const char *usage;      /* -h's first line(s) when not "Usage: NAME [options]\nOptions:\n" */
    int mem_limit;          /* collectives: -M limits max_size (1) or max_size * procs (2) */
    int threads;            /* runs threads: MPI_Init_thread asks MPI_THREAD_MULTIPLE, -t counts threads */
    int stages;             /* --stage-through-host is built for it (osu_accel.h) */
    /* Optional printers for formats of their own (rank 0, stdout); NULL: the
     * kind's (osu_text.c).  preamble: what comes before the first table
     * (the title included); header: a table's column line; row: a row. */
    void (*preamble)(const osu_ctx *c, FILE *f);
    void (*header)(const osu_ctx *c, FILE *f);
    void (*row_text)(const osu_ctx *c, const osu_row *row, FILE *f);
};

/* The state a program works on, on every rank. */
struct osu_ctx {
    const osu_prog *prog;
    const osu_options *o;
    MPI_Comm comm;          /* MPI_COMM_WORLD, or the session's communicator (-I) */
    int rank, size;
    size_t bytes;           /* the current message size */
    MPI_Datatype dtype;     /* the current -T datatype */
    int dtype_size;
    size_t count;           /* elements of dtype in bytes */
    long iterations, skip;  /* for the current size */
    double *lat;            /* -z: [iterations] per-iteration times (us), else NULL */
    void *priv;             /* the program's state */
    int side;               /* -d: this rank's buffer letter, 0 OSU's SRC, 1 DST, as the
                             * program's setup decides it; -1: by rank (osu_accel.c) */
};

/* One printed row; NAN where the row has no such value. */
struct osu_row {
    size_t bytes;
    long iterations;
    double avg_us, min_us, max_us;   /* latency rows */
    double mb_per_s;                 /* 10^6 bytes per second, as OSU */
    double messages_per_s;
    /* non-blocking collectives */
    double overall_us, compute_us, init_us, test_us, wait_us, pure_comm_us, min_comm_us,
        max_comm_us, overlap_pct;
    double percentiles[OSU_MAX_PERCENTILES]; /* -z, in the row's unit */
    long defects;                    /* -1: no checked pass; else over all ranks */
    size_t transmit_size;            /* -D: bytes of the derived type sent */
    /* The JSON record's naming fields (docs/json-lines.md, "OSU records"),
     * set by the program on rank 0 (osu_row_name): osu_mbw_mr's pairs and
     * window_size, osu_latency_mp's forked processes; and the processes the
     * numbers come from (osu_mbw_mr: 2 x pairs; 0: all). */
    int procs;
    int nnaming;
    const char *naming_key[OSU_MAX_NAMING];
    long naming_value[OSU_MAX_NAMING];
    /* osu_mbw_mr -V: one record per window size (window_size, MB/s, rate) */
    int nwindows;
    int windows[OSU_MAX_WINDOWS];
    double window_mb_per_s[OSU_MAX_WINDOWS], window_messages_per_s[OSU_MAX_WINDOWS];
};

void osu_register(const osu_prog *p);
const osu_prog *osu_find(const char *name);
int osu_prog_count(void);
const osu_prog *osu_prog_at(int i); /* sorted by name */

/* ---- helpers for the families (osu_util.c) ---------------------------- */

/* Rank 0 of c->comm gets OSU's figures of a per-rank time (us): avg over
 * ranks, min, max. */
void osu_reduce_times(const osu_ctx *c, double t_us, osu_row *row);
/* -z on rank 0: OSU's percentiles of c->lat (values in the row's unit: us,
 * or MB/s for bandwidth rows): the element-wise average over the ranks when
 * `over_ranks` (collectives), else rank 0's own, sorted, nearest rank. */
void osu_percentiles(const osu_ctx *c, int over_ranks, osu_row *row);
/* Page-aligned message buffer of n bytes (at least 1), zeroed; in a simulation SMPI's
 * shared buffer, which holds no data.  Free it with osu_free, never free(). */
void *osu_alloc(size_t n);
void osu_free(void *p);
/* The checked pass's pattern (core/buffers.h) of `sender` for iteration i. */
void osu_fill(void *p, size_t n, int sender, long i);
long osu_verify(const void *p, size_t n, int sender, long i);
/* A naming field of the row's JSON record (an integer, e.g. "pairs"). */
void osu_row_name(osu_row *row, const char *key, long value);
/* Sum of a per-rank count over c->comm, on every rank. */
long osu_sum_defects(const osu_ctx *c, long mine);

#endif
