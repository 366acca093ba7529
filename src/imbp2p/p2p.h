/* IMB-P2P (IMB 2021.11's point-to-point part) as an effbench personality:
 * its command line, its eight benchmarks, its text.  docs/imb-p2p.md.
 *
 * Files, arrows one way: p2p_options (the command line) <- p2p_kernels (the
 * benchmarks: process rules, grids, one step of each) <- p2p_text (IMB-P2P's
 * text) <- p2p_run (the component: the run skeleton's steps, the loop over
 * lengths, the JSON records). */
#ifndef EB_IMBP2P_H
#define EB_IMBP2P_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#define P2P_METHODOLOGY "imb-p2p-2021.11"
#define P2P_VERSION "2021.11"
#define P2P_PROGRAM "IMB-P2P"
/* IMB-P2P's limits and defaults */
#define P2P_MAX_MSG_LOG 47
#define P2P_DEFAULT_MAX_LOG 22          /* lengths 0, 1, 2, ..., 4 MiB */
#define P2P_DEFAULT_ITER_MAX 100000
#define P2P_DEFAULT_NUMERATOR (100L * 8 * 1024 * 1024)
#define P2P_DEFAULT_PAUSE_US 100000
#define P2P_TOUCH_STRIDE 64             /* a cache line: the bytes -msgwr/-msgrd touch */
#define P2P_MAX_NEIGHBOURS 6

/* ---- the command line (p2p_options.c) ---- */

enum { P2P_RUN, P2P_HELP, P2P_LIST };

typedef struct {
    int action;             /* P2P_RUN, P2P_HELP (help_topic), P2P_LIST */
    const char *help_topic; /* -help OPTION: the word after -help, or NULL */
    size_t *sizes;          /* message lengths in run order (duplicates kept) */
    int nsizes, cap_sizes;
    size_t min_size, max_size;
    int *benchmarks;        /* indices of p2p_benches(), in run order */
    int nbenchmarks;
    long iter_max;          /* -iter max[,numerator] */
    long numerator;         /* bytes: IMB's numerator * 2^20 */
    int pause_us;           /* -pause: < 0 means no pause */
    int touch_send, touch_recv; /* -msgwr, -msgrd */
    int check;              /* effbench's -check */
    const char *json_path;  /* effbench's --json FILE or --resume FILE */
    int resume;             /* --resume: continue the run of json_path */
} p2p_options;

/* Reads a -msglen file on every rank (collective: rank 0 reads, every rank
 * gets the text); NULL with a message in err. */
typedef char *(*p2p_read_fn)(const char *path, char *err, size_t errlen);

/* The whole command line (argv[0] the program) with IMB-P2P's meaning;
 * 0, or -1 with a message in err. */
int p2p_parse(int argc, char **argv, p2p_options *o, p2p_read_fn read, char *err,
              size_t errlen);
void p2p_options_free(p2p_options *o);

/* IMB-P2P's repetitions of a length: n = round(numerator / bytes), at most
 * iter_max, at least 1 (iter_max for 0 bytes); warm-up n / 10, at least 1
 * when n > 1. */
void p2p_iterations(const p2p_options *o, size_t bytes, long *n, long *warm_up);

/* ---- the benchmarks (p2p_kernels.c) ---- */

typedef struct {
    int rank, nranks;
    const p2p_options *o;
    size_t bytes;
    char *sbuf[P2P_MAX_NEIGHBOURS], *rbuf[P2P_MAX_NEIGHBOURS];
    int nbufs;
    int grid[3], ndims;     /* stencils: the process grid, slowest dimension first */
    int nbr[P2P_MAX_NEIGHBOURS], nnbr;
    uint64_t seed;          /* the random benchmarks' generator */
    int *ring;              /* Corandom's permutation */
    size_t dummy;           /* what -msgwr / -msgrd's touches accumulate */
    int checking;           /* the checked pass of -check */
    long defects;
    long long messages;     /* this rank's messages, as IMB counts them */
} p2p_ctx;

typedef struct {
    const char *name;
    const char *invalid_text; /* "# !! Benchmark %s ... %d process(es) !!" as IMB words it */
    int even_procs;         /* PingPong, PingPing: pairs rank i, i + P/2 */
    int ndims;              /* stencils: 2 or 3, else 0 */
    int nbufs;              /* send and receive buffers of each kind */
    int steps_per_iteration_per_rank; /* Unirandom, Birandom: P steps make a repetition */
    int latency_factor;     /* PingPong: a round trip is two messages */
    int barrier_after_warm_up; /* all but SendRecv_Replace */
    void (*reset)(p2p_ctx *c); /* before the warm-up and the timed loop */
    void (*step)(p2p_ctx *c);
    void (*after_loop)(p2p_ctx *c); /* SendRecv_Replace: its one read touch */
} p2p_bench;

int p2p_bench_count(void);
const p2p_bench *p2p_bench_at(int i);
/* Case-insensitive, as IMB-P2P matches names; -1 if none. */
int p2p_bench_find(const char *name);
/* A benchmark of another file (docs/extending.md), from its EB_CONSTRUCTOR:
 * it comes after IMB-P2P's eight and runs by name only; a name taken is
 * refused. */
void p2p_register_bench(const p2p_bench *b);
/* IMB-P2P's own eight, the first ones: its default run and -list. */
int p2p_bench_default_count(void);

/* What a step does to the data of a message of c->bytes: before a send
 * (-msgwr's touches, or under -check the sender's pattern), before a receive
 * is posted (under -check the poison) and after it (-msgrd's touches, or
 * under -check the defects against `src`'s pattern into c->defects). */
void p2p_before_send(p2p_ctx *c, char *buf);
void p2p_before_recv(p2p_ctx *c, char *buf);
void p2p_after_recv(p2p_ctx *c, const char *buf, int src);

/* The process grid of a stencil as IMB-P2P chooses it (grid[0] slowest);
 * 0, or -1 when the benchmark is invalid for nranks. */
int p2p_grid(int ndims, int nranks, int grid[3]);

/* Whether b runs on nranks; sets up the context's grid and neighbours. */
int p2p_prepare(const p2p_bench *b, p2p_ctx *c);

#endif
