/* `effbench guidelines` (docs/guidelines.md): the rounds, the statistics and
 * the component.  A round times, for each (collective, size), the library
 * call and each of its mock-ups once, in an order shuffled with --seed; one
 * time is the largest over the processes of the mean of --reps repetitions,
 * each started after an MPI_Barrier. */
#include "core/component_names.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/mockups.h"
#include "core/registry.h"
#include "guidelines/gl_report.h"

#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    gl_options o;
    gl_table t;
} gl_state;

/* splitmix64: the same sequence on every rank from --seed. */
static unsigned long long next_rand(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void shuffle(int *v, int n, unsigned long long *s)
{
    for (int i = 0; i < n; i++)
        v[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next_rand(s) % (unsigned long long)(i + 1)), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* One time of variant v: the largest over the ranks of the mean of reps. */
static double time_variant(gl_bufs *b, int v, int reps)
{
    double sum = 0, mean, max;
    for (int i = 0; i < reps; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        gl_variant_run(b, v);
        sum += MPI_Wtime() - t0;
    }
    mean = sum / reps;
    MPI_Allreduce(&mean, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return max;
}

static void measure_rounds(gl_state *g, gl_bufs **bufs)
{
    gl_table *t = &g->t;
    unsigned long long seed = g->o.seed;
    int order[GL_MAX_VARIANTS];
    for (int k = 0; k < t->ncells; k++) /* warm-up: each variant once */
        for (int v = 0; v < t->cells[k].nvar; v++)
            gl_variant_run(bufs[k], v);
    int procs;
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    for (int r = 0; r < g->o.rounds; r++)
        for (int k = 0; k < t->ncells; k++) {
            gl_cell *c = &t->cells[k];
            char what[160];
            /* the guard's row (--row-timeout): one (collective, size) in one round, expected
             * 10 us plus P blocks at 100 MB/s per call, as ReproMPI's personality estimates */
            snprintf(what, sizeof what, "%s, %ld bytes, round %d", gl_coll_name(c->coll),
                     c->bytes, r + 1);
            double per_call = 1e-5 + (double)c->bytes * procs / 1e8;
            eb_guard_row(what, per_call * c->nvar * (g->o.reps + 1), MPI_COMM_WORLD);
            shuffle(order, c->nvar, &seed);
            for (int i = 0; i < c->nvar; i++)
                c->times[order[i]][r] = time_variant(bufs[k], order[i], g->o.reps);
            for (int v = 0; v < c->nvar && g->o.check; v++) {
                long mine = gl_variant_check(bufs[k], v), all = 0;
                MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                c->defects[v] += all;
            }
            eb_guard_row_end();
        }
}

static int gl_options_step(void *state, eb_run *run, int argc, char **argv)
{
    gl_state *g = state;
    char err[EB_ERRLEN];
    int rc = gl_parse(&g->o, argc, argv, err, sizeof err);
    if (rc)
        eb_exit_all(EB_EXIT_USAGE, err);
    if (g->o.help) {
        if (run->rank == 0)
            gl_usage(stdout);
        return 1;
    }
    for (int k = 0; k < g->o.nsizes; k++)
        if (g->o.sizes[k] / 4 * run->procs > INT_MAX) {
            snprintf(err, sizeof err, "--sizes: %ld bytes on %d processes: a buffer of P blocks "
                     "passes the int counts of the calls", g->o.sizes[k], run->procs);
            eb_exit_all(EB_EXIT_USAGE, err);
        }
    run->json_path = g->o.json;
    run->check = g->o.check;
    return 0;
}

static void gl_record(void *state, eb_run *run)
{
    gl_options *o = &((gl_state *)state)->o;
    eb_json *a = eb_run_opt_array(run, "collectives", EB_DECIDES);
    for (int k = 0; k < o->ncolls; k++)
        eb_json_str(a, NULL, gl_coll_name(o->colls[k]));
    eb_json_close(a);
    a = eb_run_opt_array(run, "sizes", EB_DECIDES);
    for (int k = 0; k < o->nsizes; k++)
        eb_json_int(a, NULL, o->sizes[k]);
    eb_json_close(a);
    eb_run_opt_int(run, "rounds", o->rounds, EB_DECIDES);
    eb_run_opt_int(run, "repetitions", o->reps, EB_DECIDES);
    eb_run_opt_num(run, "alpha", o->alpha, EB_DECIDES);
    eb_run_opt_int(run, "seed", (long long)o->seed, EB_DECIDES);
}

static int gl_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    gl_state *g = state;
    gl_table *t = &g->t;
    gl_table_make(t, &g->o);
    gl_bufs **bufs = eb_calloc((size_t)t->ncells, sizeof *bufs);
    for (int k = 0; k < t->ncells; k++) {
        bufs[k] = gl_bufs_make(t->cells[k].coll, t->cells[k].bytes, &g->o, MPI_COMM_WORLD);
        gl_cell_set_variants(&t->cells[k], bufs[k], g->o.rounds);
    }
    measure_rounds(g, bufs);
    for (int k = 0; k < t->ncells; k++)
        gl_bufs_free(bufs[k]);
    free(bufs);
    gl_table_stats(t, g->o.alpha);
    if (run->rank == 0)
        gl_report(t, &g->o, run->procs);
    long defects = gl_table_defects(t);
    if (defects) {
        snprintf(msg, msglen, "-check: %ld defects", defects);
        return EB_EXIT_FAILURE;
    }
    if (t->violated) {
        snprintf(msg, msglen, "%d of %d guidelines violated", t->violated, t->ncmp);
        return EB_EXIT_FAILURE;
    }
    return EB_EXIT_OK;
}

static void gl_release(void *state)
{
    gl_state *g = state;
    gl_table_free(&g->t);
    eb_mockup_release();
    gl_options_free(&g->o);
}

static const eb_component_steps gl_steps = {
    .component = EB_COMPONENT_GUIDELINES,
    .methodology = GL_METHODOLOGY,
    .options = gl_options_step,
    .record = gl_record,
    .measure = gl_measure,
    .release = gl_release,
};

static int gl_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    gl_state g;
    memset(&g, 0, sizeof g);
    return eb_component_run(&gl_steps, &g, argc, argv);
}

static const eb_component gl_component = {
    .name = EB_COMPONENT_GUIDELINES,
    .aliases = {NULL, NULL, NULL},
    .summary = "self-consistent performance guidelines: each collective against its mock-ups, "
               "rank-sum tested",
    .order = 46,
    .main = gl_main,
};

EB_CONSTRUCTOR(register_guidelines) { eb_register_component(&gl_component); }
