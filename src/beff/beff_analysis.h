/* b_eff averaging (docs/beff.md "Averaging"): pure functions of the
 * measured values, shared by the protocol, the JSON summary and the unit
 * tests.  Values are accumulated MB/s. */
#ifndef EB_BEFF_ANALYSIS_H
#define EB_BEFF_ANALYSIS_H

#include "beff/beff_run.h"

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

#endif
