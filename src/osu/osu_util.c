/* The OSU program registry and the helpers the families share. */
#include "osu/osu.h"

#include "core/buffers.h"
#include "core/error.h"
#include "core/own_coll.h"
#include "core/simulate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const osu_prog **progs;
static int nprogs, cap;

void osu_register(const osu_prog *p)
{
    if (osu_find(p->name)) { /* before main: no MPI yet, and a duplicate is a build bug */
        fprintf(stderr, "effbench: error: two OSU programs are called '%s'\n", p->name);
        abort();
    }
    if (nprogs == cap) {
        cap = cap ? 2 * cap : 64;
        progs = realloc(progs, (size_t)cap * sizeof *progs);
        if (!progs)
            abort();
    }
    int i = nprogs++;
    while (i > 0 && strcmp(progs[i - 1]->name, p->name) > 0) {
        progs[i] = progs[i - 1];
        i--;
    }
    progs[i] = p;
}

const osu_prog *osu_find(const char *name)
{
    for (int i = 0; i < nprogs; i++)
        if (!strcmp(progs[i]->name, name))
            return progs[i];
    return NULL;
}

int osu_prog_count(void) { return nprogs; }
const osu_prog *osu_prog_at(int i) { return progs[i]; }

void osu_reduce_times(const osu_ctx *c, double t_us, osu_row *row)
{
    double mn, mx, sum;
    eb_own_reduce(&t_us, &mn, 1, MPI_DOUBLE, MPI_MIN, 0, c->comm);
    eb_own_reduce(&t_us, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, c->comm);
    eb_own_reduce(&t_us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    if (c->rank == 0) {
        row->min_us = mn;
        row->max_us = mx;
        row->avg_us = sum / c->size;
    }
}

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void osu_percentiles(const osu_ctx *c, int over_ranks, osu_row *row)
{
    const osu_options *o = c->o;
    if (!o->npercentiles || !c->lat)
        return;
    long n = c->iterations;
    double *v = NULL;
    if (c->rank == 0)
        v = eb_malloc((size_t)n * sizeof *v);
    if (over_ranks) {
        eb_own_reduce(c->lat, v, (int)n, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    } else if (c->rank == 0) {
        memcpy(v, c->lat, (size_t)n * sizeof *v);
    }
    if (c->rank != 0)
        return;
    qsort(v, (size_t)n, sizeof *v, ascending);
    for (int k = 0; k < o->npercentiles; k++) {
        /* nearest rank: the smallest value with at least p % at or below it
         * (OSU's integer arithmetic picks index -1 below 100/n %) */
        long idx = (long)ceil((double)n * o->percentiles[k] / 100.0) - 1;
        idx = idx < 0 ? 0 : idx >= n ? n - 1 : idx;
        row->percentiles[k] = v[idx] / (over_ranks ? c->size : 1);
    }
    free(v);
}

/* Through the message-buffer allocator (core/simulate.h): in a simulation the buffers are
 * SMPI's shared ones, which hold no data (nothing to zero), and outside simulation mode an
 * SMPI build must not mix glibc's posix_memalign with the free() of SMPI's allocator. */
void *osu_alloc(size_t n)
{
    void *p = eb_msgbuf_alloc(n);
    if (!eb_sim_active())
        memset(p, 0, n ? n : 1);
    return p;
}

void osu_free(void *p) { eb_msgbuf_free(p); }

/* Iteration i's data differ from i-1's, so a stale buffer is a defect. */
void osu_fill(void *p, size_t n, int sender, long i)
{
    eb_fill_pattern(p, n, sender, (size_t)i * 7);
}

long osu_verify(const void *p, size_t n, int sender, long i)
{
    return eb_check_pattern(p, n, sender, (size_t)i * 7);
}

long osu_sum_defects(const osu_ctx *c, long mine)
{
    long all = 0;
    eb_own_allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, c->comm);
    return all;
}

void osu_row_name(osu_row *row, const char *key, long value)
{
    if (row->nnaming == OSU_MAX_NAMING)
        eb_abort("osu_row_name: more than %d naming fields", OSU_MAX_NAMING);
    row->naming_key[row->nnaming] = key;
    row->naming_value[row->nnaming++] = value;
}
