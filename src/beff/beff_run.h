/* b_eff's run model: the options, the patterns and every measured value of
 * one run (indexed [pattern][length][method][rep]).  The plan fills it
 * (beff_plan.c), the loops measure into it (beff_measure.c), the analysis,
 * protocol and JSON read it. */
#ifndef EB_BEFF_RUN_H
#define EB_BEFF_RUN_H

#include "beff/beff_opts.h"
#include "beff/beff_patterns.h"
#include "core/sysinfo.h"

#include <stddef.h>

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

/* Whether method m runs on pattern p (ping-pong pairs: MPI_Sendrecv only). */
static inline int beff_measured(const beff_run *r, int p, int m)
{
    return !(r->pat[p].sendrecv_only && m != BEFF_SENDRECV);
}

/* The value arrays for npat patterns and nmeth methods: NaN (not measured). */
void beff_run_alloc_values(beff_run *r);
/* The result records of a whole run, one per b(pat, L, mthd, rep). */
long long beff_planned_rows(const beff_run *r);
void beff_run_free(beff_run *r);

#endif
