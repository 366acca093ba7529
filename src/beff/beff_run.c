/* b_eff's run model (beff_run.h): the method names and the value arrays. */
#include "beff/beff_run.h"

#include "core/error.h"

#include <math.h>
#include <stdlib.h>

const char *const beff_method_short[BEFF_MAX_METHODS] = {"Sndrcv", "Alltoal", "non-blk", "Irc+Snd",
                                                         "Isd+Rcv"};
const char *const beff_method_json[BEFF_MAX_METHODS] = {"sendrecv", "alltoallv", "nonblocking",
                                                        "irecv_send", "isend_recv"};

void beff_run_alloc_values(beff_run *r)
{
    size_t nval = (size_t)r->npat * BEFF_NLEN * (size_t)r->nmeth * BEFF_REPS;
    r->b = eb_malloc(nval * sizeof(double));
    r->tmin = eb_malloc(nval * sizeof(double));
    r->tmax = eb_malloc(nval * sizeof(double));
    r->tavg = eb_malloc(nval * sizeof(double));
    r->loop = eb_calloc(nval, sizeof(long));
    r->defects = eb_calloc(nval, sizeof(long));
    r->resumed = eb_calloc(nval, 1);
    for (size_t i = 0; i < nval; i++)
        r->b[i] = r->tmin[i] = r->tmax[i] = r->tavg[i] = NAN;
}

/* The launcher's progress bar (python/effbench/launcher.py) counts towards it. */
long long beff_planned_rows(const beff_run *r)
{
    long long per_length = 0;
    for (int p = 0; p < r->npat; p++)
        per_length += r->pat[p].sendrecv_only ? 1 : r->nmeth;
    return per_length * BEFF_NLEN * r->opt.repeat;
}

void beff_run_free(beff_run *r)
{
    for (int p = 0; p < r->npat; p++)
        beff_pattern_free(&r->pat[p]);
    free(r->pat);
    free(r->messages);
    free(r->random_order);
    free(r->b);
    free(r->tmin);
    free(r->tmax);
    free(r->tavg);
    free(r->loop);
    free(r->defects);
    free(r->resumed);
}
