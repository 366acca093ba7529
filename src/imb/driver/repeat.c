#include "imb/driver/repeat.h"

#include <string.h>

static const char *names[] = {"off", "dynamic", "multiple_np", "auto"};

const char *eb_iter_policy_name(eb_iter_policy p) { return names[p]; }

int eb_iter_policy_parse(const char *s, eb_iter_policy *p)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) {
            *p = (eb_iter_policy)i;
            return 0;
        }
    return -1;
}

static long lmin(long a, long b) { return a < b ? a : b; }
static long lmax(long a, long b) { return a > b ? a : b; }

long eb_n_sample_base(const eb_iter_settings *it, size_t x, int aggregate)
{
    long xs = aggregate ? it->msgspersample : it->msgs_nonaggr;
    if (x == 0)
        return xs;
    return lmax(1, lmin(xs, (long)((size_t)it->overall_vol / x)));
}

long eb_n_sample_off(const eb_iter_settings *it, int aggregate)
{
    return aggregate ? it->msgspersample : it->msgs_nonaggr;
}

eb_iter_policy eb_effective_policy(eb_iter_policy p, int root_based)
{
    if (p == EB_ITER_AUTO)
        return root_based ? EB_ITER_MULTIPLE_NP : EB_ITER_DYNAMIC;
    return p;
}

long eb_n_sample_multiple_np(long msgspersample, size_t x, size_t max_size, int np)
{
    double m = (double)max_size;
    long t = (long)((double)msgspersample * m / ((double)np * (double)x + m) + 0.5);
    return lmax(t - t % np, np);
}

long eb_probe_reps(double t_one, long msgspersample)
{
    if (t_one < 1.0 / (double)msgspersample)
        return msgspersample;
    if (t_one < 1.0)
        return (long)(1.0 / t_one + 0.5);
    return 1;
}

long eb_n_sample_dynamic(long base, long prev, double t_per_rep, double secs)
{
    long t_sample = base;
    if (t_per_rep > 1e-8) {
        double v = 1.0 + secs / t_per_rep;
        if (v < 2147483647.0)
            t_sample = (long)v;
    }
    return lmax(1, lmin(base, lmin(prev, t_sample)));
}

long eb_reps_within(double budget_s, double t_per_rep, long base)
{
    double k = t_per_rep > 0 ? budget_s / t_per_rep : (double)base;
    return k >= (double)base ? base : k < 1 ? 1 : (long)k;
}

long eb_n_sample_multiple_np_timed(long count, int np, double t_per_rep, double secs)
{
    long n = eb_n_sample_dynamic(count, count, t_per_rep, secs);
    return lmax(n - n % np, np);
}
