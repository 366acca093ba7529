/* `effbench explain OPERATION [SIZES]`: for each size, every method of the
 * operation and each method's chain of factor rows (ex_methods.c), measured
 * in --rounds rounds; in each round every row runs once, in an order drawn
 * from --seed (the same on every rank), after the clocks are synchronised
 * (core/clock.h), so that a drifting machine touches all rows alike.  Then
 * rank 0 prints the size's table and writes its records (ex_report.c).  The
 * run skeleton (core/component_run.h) gives --json its run and end records. */
#include "core/component_names.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/registry.h"
#include "explain/ex.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EX_CLOCK_EXCHANGES 10

typedef struct {
    ex_options o;
} ex_state;

static int ex_options_step(void *state, eb_run *run, int argc, char **argv)
{
    ex_state *s = state;
    char err[EB_ERRLEN];
    if (ex_parse(&s->o, argc, argv, run->procs, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    if (s->o.help) {
        if (run->rank == 0)
            ex_usage(stdout);
        return 1;
    }
    run->json_path = s->o.json;
    return 0;
}

static void ex_record(void *state, eb_run *run)
{
    const ex_options *o = &((ex_state *)state)->o;
    const ex_method *m;
    ex_methods(o->op, o->procs, &m);
    eb_run_opt_str(run, "operation", ex_op_name(o->op), EB_DECIDES);
    eb_json *sizes = eb_run_opt_array(run, "sizes", EB_DECIDES);
    for (int k = 0; k < o->nsizes; k++)
        eb_json_int(sizes, NULL, o->sizes[k]);
    eb_json_close(sizes);
    eb_run_opt_int(run, "rounds", o->rounds, EB_DECIDES);
    if (o->reps)
        eb_run_opt_int(run, "reps", o->reps, EB_DECIDES);
    else
        eb_run_opt_null(run, "reps", EB_DECIDES);
    eb_run_opt_int(run, "seed", o->seed, EB_DECIDES);
    eb_run_opt_str(run, "reference", m[o->reference].name, EB_DECIDES);
    eb_run_opt_num(run, "window_us", o->window_s ? o->window_s * 1e6 : NAN, EB_DECIDES);
}

/* a chain row: one already made for another method's chain if the same
 * (the chains share their first steps), else a new one; never a method's
 * own row, so that the remainder compares two measurements */
static int chain_row(ex_table *t, const ex_config *c)
{
    for (int row = t->nmethods; row < t->nrows; row++)
        if (!memcmp(&t->cfg[row], c, sizeof *c))
            return row;
    t->cfg[t->nrows] = *c;
    return t->nrows++;
}

/* the rows of a size: the methods, then each method's chain */
static void build(ex_table *t, const ex_options *o, long size, int procs)
{
    memset(t, 0, sizeof *t);
    t->nmethods = ex_methods(o->op, procs, &t->methods);
    t->lmax = ex_beff_lmax(o->sizes, o->nsizes);
    t->reference = o->reference;
    t->size = size;
    t->reps = ex_reps(o, size);
    t->rounds = o->rounds;
    t->procs = EX_PAIR_OP(o->op) ? 2 : procs;
    for (int m = 0; m < t->nmethods; m++)
        t->cfg[t->nrows++] = t->methods[m].c;
    const ex_config *ref = &t->methods[t->reference].c;
    for (int m = 0; m < t->nmethods; m++) {
        if (m == t->reference)
            continue;
        ex_config rows[EX_NFACTORS];
        t->nchain[m] = ex_chain(ref, &t->methods[m].c, rows, t->which[m]);
        for (int k = 0; k < t->nchain[m]; k++)
            t->chain[m][k] = chain_row(t, &rows[k]);
    }
    t->vals = eb_calloc((size_t)t->nrows * (size_t)t->rounds, sizeof *t->vals);
}

/* a seeded shuffle, the same on every rank (xorshift32, Fisher-Yates) */
static void shuffle(int *order, int n, unsigned seed, long round, long size)
{
    unsigned x = seed * 2654435761u ^ (unsigned)round * 40503u ^ (unsigned)size * 9973u;
    if (!x)
        x = 1;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        int j = (int)(x % (unsigned)(i + 1)), a = order[i];
        order[i] = order[j];
        order[j] = a;
    }
}

/* the window per call: --window-us, else 1 ms or four times the median of
 * barrier-synchronised calls (a pilot row, not reported), whichever is larger */
static double window_of(const ex_options *o, ex_kernel *k)
{
    if (o->window_s > 0)
        return o->window_s;
    static const ex_config pilot = {{EX_SYNC_BARRIER, EX_FORM_MAX, EX_STAT_MEDIAN,
                                     EX_ORDER_REGION, EX_REGION_EACH, EX_WARM_NONE, 0, 0, 0}};
    double v;
    long inv;
    ex_kernel_row(k, &pilot, &v, &inv);
    double w = isfinite(v) ? fmax(1e-3, 4 * v) : 1e-3;
    MPI_Bcast(&w, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return w;
}

/* the guard's row is a size: a generous estimate of its time (per call 10 us or the
 * window, plus P blocks at 100 MB/s; its default deadline is 20 times that, at least 120 s) */
static void guard_size(const ex_options *o, const ex_table *t, int procs)
{
    char what[120];
    snprintf(what, sizeof what, "explain %s, %ld bytes", ex_op_name(o->op), t->size);
    double per_call = (o->window_s > 0 ? o->window_s : 1e-3) + 1e-5 +
                      (double)t->size * procs * (o->op == EX_OP_BW ? EX_BW_WINDOW : 1) / 1e8;
    double calls = (double)t->nrows * t->rounds * (double)(t->reps + 100);
    eb_guard_row(what, per_call * calls, MPI_COMM_WORLD);
}

static void measure_size(const ex_options *o, long size, int rank, int procs)
{
    ex_table t;
    build(&t, o, size, procs);
    guard_size(o, &t, procs);
    ex_kernel *k = ex_kernel_new(o->op, size, t.reps, t.lmax, 0);
    ex_kernel_clock(k, EX_CLOCK_EXCHANGES);
    t.window_s = window_of(o, k);
    ex_kernel_window(k, t.window_s);
    int order[EX_MAX_ROWS];
    for (int row = 0; row < t.nrows; row++) {
        long nreg, calls;
        ex_regions_of(&t.cfg[row], t.reps, &nreg, &calls);
        t.regions[row] = (long)t.rounds * nreg;
    }
    for (int r = 0; r < t.rounds; r++) {
        ex_kernel_clock(k, EX_CLOCK_EXCHANGES);
        shuffle(order, t.nrows, o->seed, r, size);
        for (int i = 0; i < t.nrows; i++) {
            double v;
            long inv;
            ex_kernel_row(k, &t.cfg[order[i]], &v, &inv);
            t.vals[order[i] * t.rounds + r] = v;
            t.invalid[order[i]] += inv;
        }
    }
    ex_kernel_free(k);
    if (rank == 0) {
        ex_report_text(stdout, &t, o);
        ex_report_json(&t, o);
    }
    free(t.vals);
    eb_guard_row_end();
    eb_guard_count_row();
}

static int ex_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    const ex_options *o = &((ex_state *)state)->o;
    eb_guard_plan_rows(o->nsizes);
    for (int s = 0; s < o->nsizes; s++)
        measure_size(o, o->sizes[s], run->rank, run->procs);
    return EB_EXIT_OK;
}

static const eb_component_steps ex_steps = {
    .component = EB_COMPONENT_EXPLAIN,
    .methodology = EX_METHODOLOGY,
    .options = ex_options_step,
    .record = ex_record,
    .measure = ex_measure,
};

static int ex_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    ex_state s;
    memset(&s, 0, sizeof s);
    return eb_component_run(&ex_steps, &s, argc, argv);
}

static const eb_component ex_component = {
    .name = EB_COMPONENT_EXPLAIN,
    .aliases = {NULL, NULL, NULL},
    .summary = "one operation under every tool's method in one run, the differences explained "
               "factor by factor",
    .order = 90,
    .main = ex_main,
};

EB_CONSTRUCTOR(register_explain) { eb_register_component(&ex_component); }
