/* The IMB-P2P component: argv[0] "IMB-P2P" or `effbench p2p ...`.  The
 * run skeleton (core/component_run.h) does the JSON file and the end record;
 * this file runs IMB-P2P's loop: for each benchmark and length, a pause, a
 * barrier, the warm-up, a barrier, the timed loop, (-check) one checked
 * step, a pause, a barrier, and one row from every rank's loop time and
 * message count. */
#include "core/component_names.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/own_coll.h"
#include "core/listing.h"
#include "core/registry.h"
#include "core/text.h"
#include "imbp2p/p2p_text.h"

#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>

typedef struct {
    p2p_options o;
    int argc;
    char **argv;
    p2p_ctx c;
    double last_row_s; /* the previous row's time, for the guard's deadline */
    long row;          /* rows of the run so far, measured or resumed */
    long resumed_rows; /* --resume: the first rows, which the file holds */
} p2p_state;

static char *read_msglen(const char *path, char *err, size_t errlen)
{
    return eb_read_file_bcast(path, "-msglen", MPI_COMM_WORLD, err, errlen);
}

static int p2p_options_step(void *state, eb_run *run, int argc, char **argv)
{
    p2p_state *st = state;
    char err[EB_ERRLEN], msg[EB_ERRLEN + 32];
    if (p2p_parse(argc, argv, &st->o, read_msglen, err, sizeof err)) {
        snprintf(msg, sizeof msg, "%s: %s", P2P_PROGRAM, err);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (st->o.action != P2P_RUN) {
        if (run->rank == 0) {
            if (st->o.action == P2P_HELP)
                p2p_text_help(stdout, st->o.help_topic);
            else
                p2p_text_list(stdout);
            fflush(stdout);
        }
        return 1;
    }
    st->argc = argc;
    st->argv = argv;
    run->json_path = st->o.json_path;
    run->resume = st->o.resume;
    run->check = st->o.check;
    return 0;
}

/* Whether benchmark b runs on this many ranks (a scratch context). */
static int runs_on(const p2p_bench *b, int nranks)
{
    p2p_ctx c = {.nranks = nranks};
    return p2p_prepare(b, &c);
}

static void p2p_plan(void *state, eb_run *run)
{
    p2p_state *st = state;
    long rows = 0;
    for (int k = 0; k < st->o.nbenchmarks; k++)
        rows += runs_on(p2p_bench_at(st->o.benchmarks[k]), run->procs) ? st->o.nsizes : 0;
    eb_guard_plan_rows(rows);
}

static void p2p_record(void *state, eb_run *run)
{
    p2p_state *st = state;
    const p2p_options *o = &st->o;
    eb_run_opt_str(run, "program", P2P_PROGRAM, EB_DECIDES);
    eb_run_opt_str(run, "methodology", P2P_METHODOLOGY, EB_DECIDES);
    eb_run_opt_int(run, "iter_max", o->iter_max, EB_DECIDES);
    eb_run_opt_int(run, "iter_numerator_bytes", o->numerator, EB_DECIDES);
    eb_run_opt_int(run, "pause_us", o->pause_us, EB_DECIDES);
    eb_run_opt_bool(run, "msgwr", o->touch_send, EB_DECIDES);
    eb_run_opt_bool(run, "msgrd", o->touch_recv, EB_DECIDES);
    eb_json *a = eb_run_opt_array(run, "sizes", EB_DECIDES);
    for (int k = 0; k < o->nsizes; k++)
        eb_json_int(a, NULL, (long long)o->sizes[k]);
    eb_json_close(a);
    a = eb_run_opt_array(run, "benchmarks", EB_DECIDES);
    for (int k = 0; k < o->nbenchmarks; k++)
        eb_json_str(a, NULL, p2p_bench_at(o->benchmarks[k])->name);
    eb_json_close(a);
}

/* --resume: the rows come in the plan's order, so the file's rows are the
 * run's first ones (the run record's options decide the order). */
static void p2p_ready(void *state, eb_run *run)
{
    p2p_state *st = state;
    if (run->resume)
        st->resumed_rows = run->rs.nrows;
}

static void p2p_pause(const p2p_options *o)
{
    if (o->pause_us <= 0)
        return;
    struct timespec ts = {.tv_sec = o->pause_us / 1000000, .tv_nsec = o->pause_us % 1000000 * 1000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static void run_steps(const p2p_bench *b, p2p_ctx *c, long steps)
{
    for (long i = 0; i < steps; i++)
        b->step(c);
    if (b->after_loop)
        b->after_loop(c);
}

/* Every rank: its timed loop (seconds) and counts to rank 0's row. */
static void gather_row(const p2p_bench *b, const p2p_ctx *c, double t, long long messages,
                       p2p_row *row)
{
    long long counts[2] = {messages, c->defects}, sums[2] = {0, 0};
    MPI_Reduce(&t, &row->time_max_s, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t, &row->time_sum_s, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(counts, sums, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    row->messages = sums[0] / 2;
    row->defects = c->o->check ? (long)sums[1] : -1;
    double m = (double)row->messages;
    row->t_usec = 1e6 * row->time_sum_s / (m * b->latency_factor);
    row->mb_per_s = m * (double)row->bytes / (1e6 * row->time_max_s);
    row->messages_per_s = m / row->time_max_s;
}

static void json_row(const p2p_bench *b, const p2p_ctx *c, const p2p_row *r)
{
    eb_json j;
    eb_jsonl_begin(&j, "result");
    /* the core fields in the order of every result record, then IMB-P2P's */
    eb_json_str(&j, "component", EB_COMPONENT_P2P);
    eb_json_str(&j, "benchmark", b->name);
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", c->nranks);
    eb_json_int(&j, "bytes", (long long)r->bytes);
    eb_json_int(&j, "repetitions", r->repetitions);
    eb_json_null(&j, "t_min_us");
    eb_json_null(&j, "t_max_us");
    eb_json_num(&j, "t_avg_us", r->t_usec);
    eb_json_null(&j, "mbytes_per_s"); /* IMB's 2^20: IMB-P2P's Mbytes are 10^6 bytes */
    if (r->defects >= 0)
        eb_json_int(&j, "defects", r->defects);
    else
        eb_json_null(&j, "defects");
    eb_json_str(&j, "methodology", P2P_METHODOLOGY);
    eb_json_num(&j, "t_usec", r->t_usec);
    eb_json_num(&j, "mb_per_s", r->mb_per_s);
    eb_json_num(&j, "messages_per_s", r->messages_per_s);
    eb_json_int(&j, "warm_up", r->warm_up);
    eb_json_int(&j, "messages", r->messages);
    eb_json_num(&j, "time_max_s", r->time_max_s);
    eb_json_num(&j, "time_sum_s", r->time_sum_s);
    if (b->ndims) {
        eb_json_array(&j, "grid");
        for (int d = 0; d < b->ndims; d++)
            eb_json_int(&j, NULL, c->grid[d]);
        eb_json_close(&j);
        eb_json_int(&j, "neighbours", c->nnbr);
    }
    eb_json_bool(&j, "checked", c->o->check);
    eb_jsonl_emit(&j);
}

/* One length: IMB-P2P's sequence, then the row on rank 0. */
static void one_length(p2p_state *st, const p2p_bench *b, size_t bytes)
{
    p2p_ctx *c = &st->c;
    const p2p_options *o = &st->o;
    if (st->row++ < st->resumed_rows)
        return; /* in the --resume file already */
    p2p_row row = {.bytes = bytes};
    p2p_iterations(o, bytes, &row.repetitions, &row.warm_up);
    long per = b->steps_per_iteration_per_rank ? c->nranks : 1;
    char what[128];
    snprintf(what, sizeof what, "%s, %d processes, %zu bytes", b->name, c->nranks, bytes);
    eb_guard_row(what, 2 * st->last_row_s + 2e-6 * (o->pause_us > 0 ? o->pause_us : 0),
                 MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    c->bytes = bytes;
    if (b->reset)
        b->reset(c);
    p2p_pause(o);
    eb_dissemination_barrier(MPI_COMM_WORLD, 1000); /* IMB-P2P's barrier */
    run_steps(b, c, row.warm_up * per);
    if (b->barrier_after_warm_up)
        eb_dissemination_barrier(MPI_COMM_WORLD, 1000); /* IMB-P2P's barrier */
    if (b->reset)
        b->reset(c);
    c->messages = 0;
    double t = MPI_Wtime();
    run_steps(b, c, row.repetitions * per);
    t = MPI_Wtime() - t;
    long long messages = c->messages;
    c->defects = 0;
    if (o->check) { /* untimed: the next step of the sequence, every byte verified */
        c->checking = 1;
        run_steps(b, c, per);
        c->checking = 0;
    }
    p2p_pause(o);
    eb_dissemination_barrier(MPI_COMM_WORLD, 1000); /* IMB-P2P's barrier */
    gather_row(b, c, t, messages, &row);
    if (c->rank == 0) {
        p2p_text_row(stdout, &row, o->check);
        fflush(stdout);
        if (eb_jsonl_active())
            json_row(b, c, &row);
        else
            eb_guard_count_row();
    }
    eb_guard_row_end();
    st->last_row_s = MPI_Wtime() - t0;
}

static void one_benchmark(p2p_state *st, const p2p_bench *b)
{
    p2p_ctx *c = &st->c;
    if (!p2p_prepare(b, c)) {
        if (c->rank == 0)
            p2p_text_invalid(stdout, b, c->nranks);
        return;
    }
    if (c->rank == 0)
        p2p_text_table(stdout, b, c, st->o.check);
    size_t extent = st->o.max_size ? st->o.max_size : 1;
    for (int i = 0; i < b->nbufs; i++) {
        c->sbuf[i] = eb_malloc(extent);
        c->rbuf[i] = eb_malloc(extent);
        memset(c->sbuf[i], c->rank, extent);
        memset(c->rbuf[i], c->rank, extent);
    }
    c->nbufs = b->nbufs;
    for (int k = 0; k < st->o.nsizes; k++)
        one_length(st, b, st->o.sizes[k]);
    for (int i = 0; i < b->nbufs; i++) {
        free(c->sbuf[i]);
        free(c->rbuf[i]);
    }
}

static int p2p_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    p2p_state *st = state;
    p2p_ctx *c = &st->c;
    (void)msg, (void)msglen;
    c->rank = run->rank;
    c->nranks = run->procs;
    c->o = &st->o;
    c->ring = eb_calloc((size_t)c->nranks, sizeof *c->ring);
    if (c->rank == 0) {
        p2p_text_header(stdout, &st->o, st->argc, st->argv);
        fflush(stdout);
    }
    for (int k = 0; k < st->o.nbenchmarks; k++)
        one_benchmark(st, p2p_bench_at(st->o.benchmarks[k]));
    eb_dissemination_barrier(MPI_COMM_WORLD, 1000); /* IMB-P2P's barrier */
    if (c->rank == 0) {
        p2p_text_footer(stdout);
        fflush(stdout);
    }
    free(c->ring);
    return EB_EXIT_OK;
}

static void p2p_release(void *state) { p2p_options_free(&((p2p_state *)state)->o); }

static const eb_component_steps p2p_steps = {
    .component = EB_COMPONENT_P2P,
    .options = p2p_options_step,
    .plan = p2p_plan,
    .record = p2p_record,
    .ready = p2p_ready,
    .measure = p2p_measure,
    .release = p2p_release,
};

static int p2p_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    p2p_state st = {0};
    return eb_component_run(&p2p_steps, &st, argc, argv);
}

/* `effbench --list-json`: the eight benchmarks, in IMB-P2P's default order,
 * then those of p2p_register_bench (by name only: not default). */
static void p2p_list_json(const eb_component *self, eb_json *benchmarks)
{
    (void)self;
    for (int i = 0; i < p2p_bench_count(); i++) {
        const p2p_bench *b = p2p_bench_at(i);
        eb_listing_entry e = {.component = EB_COMPONENT_P2P, .name = b->name,
                              .program = P2P_PROGRAM, .cls = "parallel_transfer",
                              .is_default = i < p2p_bench_default_count(), .checked = 1,
                              .min_procs = b->ndims ? (b->ndims == 2 ? 4 : 8) : 2};
        eb_listing_open_entry(benchmarks, &e);
        eb_json_str(benchmarks, "methodology", P2P_METHODOLOGY);
        eb_json_bool(benchmarks, "even_procs", b->even_procs);
        eb_json_int(benchmarks, "grid_dims", b->ndims);
        eb_json_close(benchmarks);
    }
}

static const eb_component p2p_component = {
    .name = EB_COMPONENT_P2P,
    .aliases = {P2P_PROGRAM},
    .summary = "IMB-P2P (IMB 2021.11): ping-pong, random pairs and rings, stencils, all ranks at once",
    .order = 75,
    .main = p2p_main,
    .list_json = p2p_list_json,
};

EB_CONSTRUCTOR(register_imb_p2p)
{
    eb_register_component(&p2p_component);
}
