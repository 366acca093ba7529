/* Repetition counts: IMB's MSGSPERSAMPLE / OVERALL_VOL / MSGS_NONAGGR rules
 * and its iteration policies.  Pure functions; the driver does the probing. */
#ifndef EB_REPEAT_H
#define EB_REPEAT_H

#include <stddef.h>

typedef enum {
    EB_ITER_OFF,
    EB_ITER_DYNAMIC,
    EB_ITER_MULTIPLE_NP,
    EB_ITER_AUTO
} eb_iter_policy;

typedef struct {
    long msgspersample;   /* MSGSPERSAMPLE */
    long overall_vol;     /* OVERALL_VOL, bytes */
    long msgs_nonaggr;    /* MSGS_NONAGGR */
    eb_iter_policy policy;
    double secs;          /* -time: seconds per sample (dynamic policy) */
} eb_iter_settings;

const char *eb_iter_policy_name(eb_iter_policy p);
int eb_iter_policy_parse(const char *s, eb_iter_policy *p);

/* n_sample = x_sample for X = 0, else max(1, min(x_sample, OVERALL_VOL/X)),
 * x_sample = MSGSPERSAMPLE (aggregate) or MSGS_NONAGGR (non-aggregate). */
long eb_n_sample_base(const eb_iter_settings *it, size_t x, int aggregate);

/* off: the fixed count, whatever the length (x_sample as above). */
long eb_n_sample_off(const eb_iter_settings *it, int aggregate);

/* Which rule applies to a benchmark: off, dynamic or multiple_np (auto
 * resolves to multiple_np for rooted collectives, dynamic otherwise). */
eb_iter_policy eb_effective_policy(eb_iter_policy p, int root_based);

/* multiple_np: a hyperbola in the message size scaled to the largest size,
 * rounded down to a multiple of the process count, at least the count. */
long eb_n_sample_multiple_np(long msgspersample, size_t x, size_t max_size, int np);

/* multiple_np under -time (the guide: "You can control the execution time
 * through the -time option"): the count above, cut to what fits `secs` at
 * the probe's time per repetition, still a multiple of np and at least np. */
long eb_n_sample_multiple_np_timed(long count, int np, double t_per_rep, double secs);

/* dynamic, step 1: repetitions for a ~1 s probe given the time of one
 * repetition (the maximum over the group). */
long eb_probe_reps(double t_one, long msgspersample);

/* dynamic, step 2: the final count from the probe's time per repetition
 * (maximum over the group): enough for `secs`, never more than `base`, and
 * never more than the previous size's count (`prev`), so counts only fall. */
long eb_n_sample_dynamic(long base, long prev, double t_per_rep, double secs);

/* effbench quick: the repetitions of t_per_rep seconds that fill budget_s,
 * 1..base (compared as doubles: a -time of 1e300 gives base). */
long eb_reps_within(double budget_s, double t_per_rep, long base);

#endif
