/* b_eff command line (pure: unit-testable). */
#ifndef EB_BEFF_OPTS_H
#define EB_BEFF_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* b_eff's repetitions of every measurement (the fastest counts), and the most
 * --repeat allows: the value arrays' stride. */
#define BEFF_REPS 3

typedef struct {
    long mem_mib;        /* memory per process M in MiB */
    int mem_detected;    /* M came from the node's memory */
    int nrandom;         /* random patterns */
    uint64_t seed;       /* seed of the random patterns */
    int seed_given;
    int split_nonblocking;
    double rmax_gflops;  /* 0: not given */
    double loop_ms;      /* loop time window [loop_ms, 2 * loop_ms] */
    int repeat;          /* repetitions of every measurement, 1..BEFF_REPS */
    int check;           /* -check: verify every byte */
    const char *json_path;
    int resume;          /* --resume: json_path is a file to continue */
    const char *protocol_path;
    int progress;        /* --progress: the progress line also off a terminal */
    int help;
} beff_options;

/* Fills o with the defaults and the options of argv[1..]; returns 0, or -1
 * with "<option>: <problem>" in err.  mem_mib = 0 means "detect". */
int beff_parse_options(beff_options *o, int argc, char **argv, char *err, size_t errlen);
void beff_print_help(FILE *f);

#endif
