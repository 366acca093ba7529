/* OSU's accumulating and atomic one-sided programs between two processes:
 *   osu_acc_latency      MPI_Accumulate (MPI_SUM) of each size, -T types
 *   osu_get_acc_latency  MPI_Get_accumulate (MPI_SUM) of MPI_CHAR
 *   osu_fop_latency      MPI_Fetch_and_op (MPI_SUM): one element, one row per -T type
 *   osu_cas_latency      MPI_Compare_and_swap: one element, one row per -T type
 * The checked pass sets the target's window and the origin's values to
 * iteration i's small integers, runs one epoch of the same synchronisation
 * and verifies the sums in the target's window and, for the fetching calls,
 * the old values returned to the origin.  -c prints OSU's per-rank "Atomic
 * Data Validation results" after the last table. */
#include "osu/osu_rma.h"

#include "core/buffers.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/simulate.h"
#include "osu/osu_options.h"

#include <stdlib.h>
#include <string.h>

/* OSU's one-sided letters; the programs that show validation add -c and -T */
#define OPTS_LATENCY OSU_OPTS_ONE_SIDED OSU_OPT_PAPI
#define OPTS_VALIDATING OPTS_LATENCY OSU_OPT_VALIDATION
#define ALL_SYNCS 0x3fu

/* ---- typed element access: MPI_CHAR, MPI_INT, MPI_FLOAT --------------- */

static double get_elem(const void *p, MPI_Datatype t, size_t e)
{
    if (t == MPI_INT)
        return ((const int *)p)[e];
    if (t == MPI_FLOAT)
        return ((const float *)p)[e];
    return ((const signed char *)p)[e];
}

static void set_elem(void *p, MPI_Datatype t, size_t e, double v)
{
    if (t == MPI_INT)
        ((int *)p)[e] = (int)v;
    else if (t == MPI_FLOAT)
        ((float *)p)[e] = (float)v;
    else
        ((signed char *)p)[e] = (signed char)v;
}

/* Iteration i's values: the target's (1..47) and the origin's (1..46), so a
 * sum fits a signed char and is exact in a float. */
static double target_value(int rank, long i, size_t e) { return (double)((e * 3 + (size_t)i * 5) % 40 + 1 + (size_t)rank * 7); }
static double origin_value(int rank, long i, size_t e) { return (double)((e * 7 + (size_t)i * 3) % 40 + 1 + (size_t)rank * 5); }

/* ---- the calls ---------------------------------------------------------- */

static void acc_call(const osu_ctx *c, osu_rma *r, int target, size_t k)
{
    (void)k;
    int n = (int)c->count;
    MPI_Accumulate(r->origin, n, c->dtype, target, r->disp, n, c->dtype, MPI_SUM, r->win);
}

static void get_acc_call(const osu_ctx *c, osu_rma *r, int target, size_t k)
{
    (void)k;
    int n = (int)c->bytes;
    MPI_Get_accumulate(r->origin, n, MPI_CHAR, r->result, n, MPI_CHAR, target, r->disp, n,
                       MPI_CHAR, MPI_SUM, r->win);
}

static void fop_call(const osu_ctx *c, osu_rma *r, int target, size_t k)
{
    (void)k;
    MPI_Fetch_and_op(r->origin, r->result, c->dtype, target, r->disp, MPI_SUM, r->win);
}

static void cas_call(const osu_ctx *c, osu_rma *r, int target, size_t k)
{
    (void)k;
    MPI_Compare_and_swap(r->origin, r->compare, r->result, c->dtype, target, r->disp, r->win);
}

/* OSU's first bytes: accumulate's as put's (allocate_memory_one_sided);
 * get_accumulate's buffers zeroed; fetch_and_op's and compare_and_swap's as
 * allocate_atomic_memory sets them */
static const rma_kind ACC = {.call = acc_call, .shape = RMA_LATENCY, .atomic_summary = 1,
                             .fill = {.origin = 'a', .window = 'a'}};
static const rma_kind GET_ACC = {.call = get_acc_call, .shape = RMA_LATENCY, .lock_exclusive = 1,
                                 .flush_exclusive = 1, .no_datatype_line = 1, .result_buf = 1};
static const rma_kind FOP = {.call = fop_call, .shape = RMA_LATENCY, .lock_exclusive = 1,
                             .passive_barrier = 1, .window_per_max = 1, .atomic_summary = 1,
                             .result_buf = 1, .fill = {'a', 'b', 'c', 0}};
static const rma_kind CAS = {.call = cas_call, .shape = RMA_LATENCY, .lock_exclusive = 1,
                             .passive_barrier = 1, .window_per_max = 1, .atomic_summary = 1,
                             .result_buf = 1, .compare_buf = 1, .fill = {'a', 'b', 'c', 'a'}};

static int acc_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &ACC, e, n); }
static int get_acc_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &GET_ACC, e, n); }
static int fop_setup(osu_ctx *c, char *e, size_t n) { return osu_rma_setup(c, &FOP, e, n); }

/* MPI_Compare_and_swap takes integer types only: OSU's -T MPI_FLOAT ends in
 * an MPI error; effbench refuses it before the run. */
static int cas_setup(osu_ctx *c, char *e, size_t n)
{
    for (int d = 0; d < c->o->ndtypes; d++)
        if (c->o->dtypes[d] == MPI_FLOAT)
            return eb_err(e, n, "%s: -T MPI_FLOAT is not possible: MPI_Compare_and_swap takes "
                          "integer types only (use MPI_CHAR or MPI_INT)", c->prog->name);
    return osu_rma_setup(c, &CAS, e, n);
}

/* ---- measure ------------------------------------------------------------ */

static void dtype_index(osu_ctx *c)
{
    osu_rma *r = c->priv;
    for (int d = 0; d < c->o->ndtypes; d++)
        if (c->o->dtypes[d] == c->dtype)
            r->dtype_index = d;
}

static void acc_measure(osu_ctx *c, osu_row *row)
{
    dtype_index(c);
    /* OSU's lock loop of osu_acc_latency warms up with iterations_large
     * (not skip_large) above 8192 bytes: kept, so the loops are OSU's */
    if (c->o->sync == OSU_SYNC_LOCK && c->bytes > OSU_LARGE_MESSAGE_SIZE)
        c->skip = eb_sim_cap_loop(c->o->iterations_large);
    osu_rma_open(c, c->bytes);
    osu_rma_latency_row(c, osu_rma_loop(c, 1, c->lat), row);
}

static void get_acc_measure(osu_ctx *c, osu_row *row)
{
    osu_rma_open(c, c->bytes);
    osu_rma_latency_row(c, osu_rma_loop(c, 1, c->lat), row);
}

/* fetch_and_op, compare_and_swap: one element in a window of -m's maximum. */
static void one_element_measure(osu_ctx *c, osu_row *row)
{
    dtype_index(c);
    osu_rma_open(c, c->o->max_size);
    osu_rma_latency_row(c, osu_rma_loop(c, 1, c->lat), row);
}

/* ---- the checked passes ------------------------------------------------- */

/* What one iteration checks: set the values, run the epoch, count defects. */
typedef struct {
    size_t n;       /* elements */
    int fetches;    /* the origin gets the old target values back */
    int swaps;      /* compare_and_swap: even iterations match, odd ones do not */
} atomic_check;

static void set_values(osu_ctx *c, osu_rma *r, const atomic_check *k, long i)
{
    for (size_t e = 0; e < k->n; e++) {
        if (osu_rma_is_target(c))
            set_elem(r->base, c->dtype, e, target_value(c->rank, i, e));
        if (osu_rma_is_origin(c)) {
            set_elem(r->origin, c->dtype, e, origin_value(c->rank, i, e));
            double a = target_value(1 - c->rank, i, e);
            if (r->compare)
                set_elem(r->compare, c->dtype, e, i % 2 ? a + 1 : a);
        }
    }
    if (k->fetches && osu_rma_is_origin(c))
        eb_poison(r->result, k->n * (size_t)c->dtype_size);
}

static long count_defects(osu_ctx *c, osu_rma *r, const atomic_check *k, long i)
{
    long bad = 0;
    int other = 1 - c->rank;
    for (size_t e = 0; e < k->n; e++) {
        if (osu_rma_is_target(c)) {
            double a = target_value(c->rank, i, e), b = origin_value(other, i, e);
            double want = k->swaps ? (i % 2 ? a : b) : a + b;
            bad += get_elem(r->base, c->dtype, e) != want;
        }
        if (k->fetches && osu_rma_is_origin(c))
            bad += get_elem(r->result, c->dtype, e) != target_value(other, i, e);
    }
    return bad;
}

/* OSU's tally for its summary: one trial per row on each checking rank. */
static void tally(osu_ctx *c, osu_rma *r, long defects)
{
    rma_tally *t = &r->tally;
    int d = r->dtype_index;
    t->checked[d] = 1;
    t->trials[d]++;
    if (defects) {
        if (!t->failures[d]++)
            t->first[d] = t->trials[d];
        t->last[d] = t->trials[d];
    }
    (void)c;
}

/* Device buffers (-d): set_values and count_defects work on host copies of the bytes
 * they touch (eb_mem_to_host first, so the rest stays as it is), which set_values's
 * then go to the device; the device pointers wait in dev[] meanwhile. */
#define NBUFS 4
static char **buffer_at(osu_rma *r, int b)
{
    char **all[NBUFS] = {&r->base, &r->origin, &r->compare, &r->result};
    return all[b];
}

static void host_copies(osu_rma *r, char *dev[NBUFS], size_t bytes)
{
    for (int b = 0; b < NBUFS; b++) {
        char **p = buffer_at(r, b);
        dev[b] = *p;
        if (!*p)
            continue;
        *p = eb_malloc(bytes);
        eb_mem_to_host(*p, r->mem, dev[b], bytes);
    }
}

static void device_back(osu_rma *r, char *dev[NBUFS], size_t bytes, int push)
{
    for (int b = 0; b < NBUFS; b++) {
        char **p = buffer_at(r, b);
        if (!dev[b])
            continue;
        if (push)
            eb_mem_from_host(r->mem, dev[b], *p, bytes);
        free(*p);
        *p = dev[b];
    }
}

static long run_check(osu_ctx *c, const atomic_check *k)
{
    osu_rma *r = c->priv;
    long defects = 0;
    int device = r->mem != EB_MEM_HOST;
    size_t bytes = k->n * (size_t)c->dtype_size;
    bytes = bytes < r->win_bytes ? bytes : r->win_bytes;
    char *dev[NBUFS];
    for (long i = 0; i < c->iterations; i++) {
        if (device)
            host_copies(r, dev, bytes);
        set_values(c, r, k, i);
        if (device)
            device_back(r, dev, bytes, 1);
        MPI_Barrier(c->comm);
        osu_rma_epoch(c, 1);
        MPI_Barrier(c->comm);
        if (device)
            host_copies(r, dev, bytes);
        defects += count_defects(c, r, k, i);
        if (device)
            device_back(r, dev, bytes, 0);
    }
    if (osu_rma_is_target(c) || (k->fetches && osu_rma_is_origin(c)))
        tally(c, r, defects);
    return defects;
}

static long acc_check(osu_ctx *c) { return run_check(c, &(atomic_check){c->count, 0, 0}); }
static long get_acc_check(osu_ctx *c) { return run_check(c, &(atomic_check){c->bytes, 1, 0}); }
static long fop_check(osu_ctx *c) { return run_check(c, &(atomic_check){1, 1, 0}); }
static long cas_check(osu_ctx *c) { return run_check(c, &(atomic_check){1, 1, 1}); }

/* ---- OSU's summary after the last table (-c) ---------------------------- */

static void print_summary(const osu_ctx *c, int rank, const rma_tally *t)
{
    int combos = 0, failed = 0;
    printf("-------------------------------------------\n");
    printf("Atomic Data Validation results for Rank=%d:\n", rank);
    for (int d = c->o->ndtypes - 1; d >= 0; d--) { /* OSU lists the last datatype first */
        if (!t->checked[d])
            continue;
        combos++;
        if (!t->failures[d])
            continue;
        failed++;
        /* OSU's type field holds 8 characters: "MPI_FLOA" */
        printf("FAILED: MPI_SUM on %.8s had %ld of %ld tests fail data validation.\n",
               osu_dtype_name(c->o->dtypes[d]), t->failures[d], t->trials[d]);
        printf("\t\tFirst failure at trial %ld, last failure at trial %ld.\n", t->first[d],
               t->last[d]);
    }
    if (!combos)
        fprintf(stderr, "SKIPPED: No validations were performed!\n");
    else if (!failed)
        printf("PASSED: All %d combinations of ops and datatypes tested passed.\n", combos);
    else
        printf("FAILED: %d of the %d combinations of ops and datatypes tested failed.\n", failed,
               combos);
    printf("-------------------------------------------\n");
}

static void atomic_teardown(osu_ctx *c)
{
    osu_rma *r = c->priv;
    if (c->o->validate && r->kind->atomic_summary) {
        rma_tally all[2];
        int n = (int)(sizeof r->tally / sizeof(long));
        MPI_Gather(&r->tally, n, MPI_LONG, all, n, MPI_LONG, 0, c->comm);
        if (c->rank == 0) {
            print_summary(c, 0, &all[0]);
            print_summary(c, 1, &all[1]);
            fflush(stdout);
        }
    }
    osu_rma_teardown(c);
}

#define RMA_COMMON                                                                           \
    .bench = OSU_ONE_SIDED, .row = OSU_ROW_LATENCY, .loops = {10000, 100, 1000, 10},         \
    .default_min_size = 1, .exact_procs = 2, .syncs = ALL_SYNCS, .teardown = atomic_teardown, \
    .preamble = osu_rma_preamble, .header = osu_rma_header, .row_text = osu_rma_row

static const osu_prog osu_acc_latency = {
    .name = "osu_acc_latency",
    .title = "OSU MPI_Accumulate%s latency Test",
    .optstring = OPTS_VALIDATING,
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_FLUSH,
    .setup = acc_setup, .measure = acc_measure, .check = acc_check,
    RMA_COMMON,
};

/* OSU sets no defaults here: its zeroed options mean create and lock. */
static const osu_prog osu_get_acc_latency = {
    .name = "osu_get_acc_latency",
    .title = "OSU MPI_Get_accumulate latency Test",
    .usage = "Usage: ./osu_get_acc_latency -w <win_option>  -s < sync_option> [-x ITER] "
             "[-i ITER]\n",
    .optstring = OPTS_LATENCY,
    .default_win = OSU_WIN_CREATE, .default_sync = OSU_SYNC_LOCK,
    .setup = get_acc_setup, .measure = get_acc_measure, .check = get_acc_check,
    RMA_COMMON,
};

static const osu_prog osu_fop_latency = {
    .name = "osu_fop_latency",
    .title = "OSU MPI_Fetch_and_op%s latency Test",
    .optstring = OPTS_VALIDATING,
    .one_row = 1,
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_FLUSH,
    .setup = fop_setup, .measure = one_element_measure, .check = fop_check,
    RMA_COMMON,
};

static const osu_prog osu_cas_latency = {
    .name = "osu_cas_latency",
    .title = "OSU MPI_Compare_and_swap%s latency Test",
    .optstring = OPTS_VALIDATING,
    .one_row = 1,
    .default_win = OSU_WIN_ALLOCATE, .default_sync = OSU_SYNC_FLUSH,
    .setup = cas_setup, .measure = one_element_measure, .check = cas_check,
    RMA_COMMON,
};

EB_CONSTRUCTOR(register_osu_rma_atomic)
{
    osu_register(&osu_acc_latency);
    osu_register(&osu_get_acc_latency);
    osu_register(&osu_fop_latency);
    osu_register(&osu_cas_latency);
}
