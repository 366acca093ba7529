/* b_eff averaging (docs/beff-spec.md "Values and averaging"): pure
 * functions of the measured values, shared by the protocol, the JSON
 * summary and the unit tests. */
#include "beff/beff_analysis.h"

#include "core/error.h"
#include "core/nodemap.h"
#include "core/stats.h"

#include <math.h>
#include <string.h>
#include <stdlib.h>

double beff_best(const beff_run *r, int p, int l, int m)
{
    double best = NAN;
    for (int mm = 0; mm < r->nmeth; mm++) {
        if (m >= 0 && mm != m)
            continue;
        for (int rep = 0; rep < BEFF_REPS; rep++) {
            double v = r->b[beff_idx(r, p, l, mm, rep)];
            if (!isnan(v) && (isnan(best) || v > best))
                best = v;
        }
    }
    return best;
}

double beff_avg_len(const beff_run *r, int p, int m)
{
    double s = 0;
    for (int l = 0; l < BEFF_NLEN; l++)
        s += beff_best(r, p, l, m);
    return s / BEFF_NLEN;
}

void beff_logavg_groups(const beff_run *r, const double *v, double *rings, double *random, double *both)
{
    *rings = eb_logavg(v, r->nring);
    *random = eb_logavg(v + r->nring, r->nrandom);
    double two[2] = {*rings, *random};
    *both = eb_logavg(two, 2);
}

void beff_summarize(const beff_run *r, beff_summary *s)
{
    double *v = eb_malloc((size_t)r->npat * sizeof *v);
    for (int p = 0; p < r->npat; p++)
        v[p] = beff_avg_len(r, p, -1);
    beff_logavg_groups(r, v, &s->b_rings, &s->b_random, &s->b_eff);

    double rnd;
    for (int p = 0; p < r->npat; p++)
        v[p] = beff_best(r, p, BEFF_NLEN - 1, -1);
    beff_logavg_groups(r, v, &s->lmax_rings, &rnd, &s->lmax_all);

    /* Latency: 1 / (per-process bandwidth at 1 byte), in microseconds. */
    double lat_rings, lat_all;
    for (int p = 0; p < r->npat; p++)
        v[p] = beff_best(r, p, 0, -1);
    beff_logavg_groups(r, v, &lat_rings, &rnd, &lat_all);
    s->latency_us = r->P / lat_all;
    s->latency_rings_us = r->P / lat_rings;

    s->pingpong_latency_us = s->pingpong_bw = NAN;
    s->link_latency_us[0] = s->link_latency_us[1] = s->link_bw[0] = s->link_bw[1] = NAN;
    if (r->pingpong >= 0) {
        /* Half round trip: one iteration moves 2 messages of 1 byte. */
        s->pingpong_latency_us = 1.0 / beff_best(r, r->pingpong, 0, BEFF_SENDRECV);
        s->pingpong_bw = beff_best(r, r->pingpong, BEFF_NLEN - 1, BEFF_SENDRECV);
        int inter01 = !strcmp(eb_link_label(0, 1), "inter");
        s->link_latency_us[inter01] = s->pingpong_latency_us;
        s->link_bw[inter01] = s->pingpong_bw;
        if (r->pingpong_other >= 0) {
            s->link_latency_us[!inter01] = 1.0 / beff_best(r, r->pingpong_other, 0, BEFF_SENDRECV);
            s->link_bw[!inter01] = beff_best(r, r->pingpong_other, BEFF_NLEN - 1, BEFF_SENDRECV);
        }
    }
    free(v);
}
