/* b_eff: the measured values of one run and the figures derived from them.
 * beff.c measures and fills a beff_run; beff_analysis.c derives the
 * averages (pure); beff_protocol.c prints them (the reporter). */
#ifndef EB_BEFF_H
#define EB_BEFF_H

#include "beff/beff_patterns.h"
#include "core/sysinfo.h"

#include <stdint.h>
#include <stdio.h>

#define BEFF_REPS 3
#define BEFF_MAX_METHODS 5

enum beff_method {
    BEFF_SENDRECV,    /* MPI_Sendrecv per step */
    BEFF_ALLTOALLV,   /* one MPI_Alltoallv per iteration */
    BEFF_NONBLOCKING, /* MPI_Irecv, MPI_Isend, MPI_Waitall */
    BEFF_IRECV_SEND,  /* --split-nonblocking: MPI_Irecv, MPI_Send, MPI_Waitall */
    BEFF_ISEND_RECV,  /* --split-nonblocking: MPI_Isend, MPI_Recv, MPI_Waitall */
};

/* Short names as the original's tables ("Sndrcv" ...) and JSON names. */
extern const char *const beff_method_short[BEFF_MAX_METHODS];
extern const char *const beff_method_json[BEFF_MAX_METHODS];

typedef struct {
    long mem_mib;        /* memory per process M in MiB */
    int mem_detected;    /* M came from the node's memory */
    int nrandom;         /* random patterns */
    uint64_t seed;       /* seed of the random patterns */
    int seed_given;
    int split_nonblocking;
    double rmax_gflops;  /* 0: not given */
    double loop_ms;      /* loop time window [loop_ms, 2 * loop_ms] */
    int check;           /* -check: verify every byte */
    const char *json_path;
    int resume;          /* --resume: json_path is a file to continue */
    const char *protocol_path;
    int progress;        /* --progress: the progress line also off a terminal */
    int help;
} beff_options;

/* Everything measured, indexed [pattern][length][method][rep]. */
typedef struct {
    beff_options opt;
    int P;
    long lmax;
    double a;
    long len[BEFF_NLEN];
    int nmeth;
    int npat, nring, nrandom; /* rings 0..nring-1, random next, analysis after */
    beff_pattern *pat;
    long *messages;           /* per pattern, all processes, per iteration */
    int *random_order;        /* [k * P + i]: i-th rank around random ring k */
    int pingpong;             /* index of the ping-pong pair, -1 if none */
    int pingpong_other;       /* a pair on the other kind of link than (0,1), or -1 */
    int dims2[3], dims3[3], q2, q3;
    double *b;                /* accumulated MB/s (1e6 B/s); NaN: not measured */
    double *tmin, *tavg, *tmax; /* loop time per iteration over active processes, s */
    long *loop;               /* loop length */
    long *defects;            /* -check: wrong bytes; cheap check otherwise */
    char *resumed;            /* --resume: 1 where the value came from the file */
    long nresumed;            /* values read back */
    double elapsed_s;         /* wall time of the measurement loop (this run's part) */
    double sum_loop_s;        /* sum of the max loop times (loops of this run) */
    double sum_fastest_s;     /* sum over (pattern, L, method) of the fastest repetition
                                 measured in this run */
    eb_sysinfo si;
} beff_run;

static inline size_t beff_idx(const beff_run *r, int p, int l, int m, int rep)
{
    return (((size_t)p * BEFF_NLEN + (size_t)l) * (size_t)r->nmeth + (size_t)m) * BEFF_REPS + (size_t)rep;
}

/* The loop length after a loop of n iterations that took t_loop seconds
 * (the slowest process): kept inside [loop_ms, 2 loop_ms], else scaled to
 * 1.5 loop_ms, at least 1. */
long beff_next_looplength(long n, double t_loop, double loop_ms);

/* Derived figures (beff_analysis.c); values are accumulated MB/s. */
typedef struct {
    double b_eff, b_rings, b_random;
    double lmax_all, lmax_rings;   /* b_eff at L_max, rings & random / rings only */
    double latency_us, latency_rings_us;
    double pingpong_latency_us, pingpong_bw; /* NaN without a ping-pong pair */
    /* [0] intra-node, [1] inter-node pair: NaN where no pair of that kind ran */
    double link_latency_us[2], link_bw[2];
} beff_summary;

/* max over reps (and methods when m < 0) of b(p, l, m, rep). */
double beff_best(const beff_run *r, int p, int l, int m);
/* avg over L of beff_best(p, l, m). */
double beff_avg_len(const beff_run *r, int p, int m);
/* Per-pattern values v[npat]; logavg over rings and randoms and of both. */
void beff_logavg_groups(const beff_run *r, const double *v, double *rings, double *random, double *both);
void beff_summarize(const beff_run *r, beff_summary *s);

/* The protocol (beff_protocol.c): every section, last line last. */
void beff_write_protocol(FILE *f, const beff_run *r, const beff_summary *s);
/* The same in two parts: the head section (known before measuring) and the
 * rest, so stdout can show the head while the run goes on. */
void beff_protocol_head(FILE *f, const beff_run *r);
void beff_protocol_rest(FILE *f, const beff_run *r, const beff_summary *s);
/* The protocol file while measuring: the head section, the start of the
 * measurements section, then the rows of each (repetition, length) as it
 * ends; the whole protocol replaces it at the end. */
void beff_protocol_live_begin(FILE *f, const beff_run *r);
void beff_protocol_rows(FILE *f, const beff_run *r, int rep, int l);
/* The last line without its newline. */
void beff_result_line(char *buf, size_t n, const beff_run *r, const beff_summary *s);

#endif
