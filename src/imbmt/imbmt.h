/* IMB-MT of IMB 2021.11 (docs/imb-mt.md): every benchmark runs on each of a
 * process's threads at once, each thread with a communicator of its own.
 *
 *   imbmt_options.c   the command line (IMB's args_parser rules), -help, -list
 *   imbmt_bench.c     the kernels, the descriptor table, mt_register_bench
 *   imbmt_run.c       the component: threads, the loops, the reductions
 *   imbmt_report.c    IMB-MT's text and the JSON records */
#ifndef EB_IMBMT_H
#define EB_IMBMT_H
#include "core/threads.h"

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#define MT_MAX_COUNTS 64
#define MT_MAX_BENCHES 32

typedef enum { MT_BARR_OFF, MT_BARR_ON, MT_BARR_SPECIAL } mt_barrier;
typedef enum { MT_MALLOC_SERIAL, MT_MALLOC_CONTINUOUS, MT_MALLOC_PARALLEL } mt_malloc;

typedef struct {
    int thread_level;        /* -thread_level (MPI_THREAD_*) */
    int multiple;            /* -thread_level multiple: OMP_NUM_THREADS threads */
    int stride, warmup, repeat, window_size, malloc_align;
    int ncounts;
    int counts[MT_MAX_COUNTS]; /* -count: elements of -datatype */
    mt_barrier barrier;
    mt_malloc malloc_algo;
    int check, noheader;
    MPI_Datatype datatype;   /* MPI_INT or MPI_CHAR */
    const char *datatype_name, *barrier_name, *malloc_name;
    int nbenches;
    int benches[MT_MAX_BENCHES]; /* indexes into the descriptor table, in run order */
    const char *json_path;
    int resume;
} mt_options;

/* Column and scaling flags of a benchmark (IMB-MT's own flags). */
enum {
    MT_COLLECTIVE = 1 << 0,  /* timed per iteration inside the kernel, barriers after each */
    MT_WINDOW = 1 << 1,      /* -window_size requests per iteration */
    MT_SEND_0 = 1 << 2,      /* no message: one row, no #bytes column */
    MT_RECV_FROM_2 = 1 << 3, /* receive buffer of two messages */
    MT_DIV_2 = 1 << 4,       /* time divided by 2 */
    MT_DIV_WINDOW = 1 << 5,  /* time divided by the window size */
    MT_BW_X2 = 1 << 6,       /* bandwidth counts the message twice */
    MT_BW_X4 = 1 << 7,       /* ... four times */
    MT_OUT_MINMAX = 1 << 8,  /* t_min, t_max columns */
    MT_OUT_BW = 1 << 9,      /* Mbytes/sec of one thread's data over t_max */
    MT_OUT_BW_CUM = 1 << 10, /* Mbytes/sec over all pairs, and Msg/sec */
};

typedef struct mt_thread mt_thread;
typedef struct mt_bench mt_bench;

/* One benchmark's run on this process: its threads and their buffers. */
typedef struct mt_run {
    const mt_options *o;
    const mt_bench *b;
    eb_team team;
    int nthreads;             /* 1 unless -thread_level multiple */
    mt_thread *th;            /* [nthreads] */
    MPI_Comm *comms;          /* [nthreads]: MPI_COMM_WORLD's duplicates, or WORLD itself */
    int world_rank, world_size;
    int dtsize;               /* bytes of -datatype */
    size_t size_a, size_b;    /* bytes of a thread's send and receive buffer */
    void *block_a, *block_b;  /* -malloc_algo continuous: the blocks to free */
} mt_run;

/* The state of one thread of one benchmark at one count. */
struct mt_thread {
    struct mt_run *run;
    int tid;
    MPI_Comm comm;
    int rank, size;
    void *in, *out;           /* this thread's buffers */
    void *base_in, *base_out; /* what to free (not -malloc_algo continuous) */
    MPI_Request *requests;    /* 2 x window_size */
    int count;                /* elements */
    double t;                 /* seconds of the timed iterations */
    int result;               /* 1: this thread took part */
    long failures;            /* -check: wrong elements */
};

/* A kernel: `repeat` iterations (+ `skip` untimed ones for the collectives,
 * which time themselves into th->t); returns 1, or 0 when this rank has no
 * partner at this stride. */
typedef int (*mt_kernel)(mt_thread *th, int repeat, int skip);

struct mt_bench {
    const char *name;
    unsigned flags;
    mt_kernel kernel;
};

int mt_bench_count(void);
const mt_bench *mt_bench_at(int i); /* IMB-MT's order (its default run order) */
int mt_bench_find(const char *name); /* ignoring case; -1 if none */
/* A kernel of another file (docs/extending.md), from its EB_CONSTRUCTOR: it
 * comes after IMB-MT's own and runs by name only; a name taken is refused. */
void mt_register_bench(const mt_bench *b);
/* IMB-MT's own benchmarks, the first ones: its default run and -list. */
int mt_bench_default_count(void);

/* IMB-MT's pairing for a thread's communicator: the partner `-stride` ranks
 * away (default half the ranks) and whether this rank is the first of the
 * pair; -1 when it has none at this stride. */
int mt_partner(const mt_thread *th, int *first);

/* imbmt_threads.c: buffers, the barrier of -barrier (on a thread), and a
 * thread's part of a row (eb_team_run's function, arg: the mt_run). */
void mt_alloc_buffers(mt_run *r);
void mt_free_buffers(mt_run *r);
void mt_sync(mt_thread *th);
void mt_thread_main(int tid, void *arg);

/* -check's pattern (IMB-MT's): element i of an int buffer is mul * i + add;
 * mt_check counts the elements of `buf` that are not mul * i.  Both do
 * nothing without -check. */
void mt_fill(const mt_thread *th, void *buf, long mul, long add);
void mt_check(mt_thread *th, const void *buf, long mul);

/* One row of a table, as rank 0 prints it (times in seconds per iteration,
 * after IMB-MT's dividers). */
typedef struct {
    int count;
    unsigned long bytes;     /* count x datatype size x threads */
    int nresults;            /* threads that took part, over all ranks */
    double t_min, t_max, t_avg;
    double mbytes_per_s, mbytes_per_s_cum; /* 10^6 bytes/s, as IMB-MT */
    int msg_per_s;           /* IMB-MT's int cast of pairs / t_avg */
    long failures;           /* -check: over every thread and rank */
    double *thread_t;        /* [world_size * nthreads]: each thread's seconds per iteration */
    int *thread_result;      /* [world_size * nthreads] */
} mt_row;

/* imbmt_report.c: the text on stdout (rank 0) and the JSON records. */
void mt_text_banner(void);
void mt_text_table(const mt_run *r, int nprocs);
void mt_text_no_success(const mt_run *r);
void mt_text_row(const mt_run *r, const mt_row *row);
void mt_json_row(const mt_run *r, const mt_row *row);
#define MT_METHODOLOGY "imb-mt-2021.11"

/* The command line (imbmt_options.c): 0 run, 1 -help/-list done (exit 0),
 * -1 error in err.  Prints -help and -list itself on `out` when rank0. */
int mt_parse(mt_options *o, int argc, char **argv, FILE *out, char *err, size_t errlen);
#endif
