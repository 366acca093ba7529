/* osu_latency_mt: OSU 7.4's multi-threaded latency test.  Rank 0 runs S
 * sender threads, rank 1 R receiver threads (-t R: R receivers, one sender;
 * -t S:R; default 1:2), all on the program's one communicator, as OSU's do.
 * Each size starts with one barrier per process; then the iterations (skip
 * + timed) are dealt out round robin: sender thread s runs iterations s,
 * s + S, ..., receiver thread r iterations r, r + R, ...  With more than one
 * sender, iteration i's messages carry tag i (so each meets the receiver
 * thread dealt i); else tags 1 (there) and 2 (back).  OSU's latency: the
 * sender threads' timed round trips summed, * 10^6 / (2 * iterations / S).
 * The threads are core/threads.h's team, shared with IMB-MT. */
#include "osu/osu.h"
#include "osu/osu_text.h"

#include "core/error.h"
#include "core/registry.h"
#include "core/threads.h"

#include <stdlib.h>

typedef struct {
    eb_team team;
    int senders, receivers, nthreads; /* this rank's team: senders on 0, receivers on 1 */
    char *s[EB_MAX_THREADS], *r[EB_MAX_THREADS];
    double t[EB_MAX_THREADS];     /* seconds of each thread's timed round trips */
    long defects[EB_MAX_THREADS]; /* the checked pass's, per thread */
    int checked;                  /* this pass fills and verifies */
    osu_ctx *c;
} mt_state;

static int nsenders(const osu_options *o) { return o->senders < 0 ? 1 : o->senders; }

static int lat_mt_setup(osu_ctx *c, char *err, size_t n)
{
    const osu_options *o = c->o;
    int provided;
    char msg[EB_ERRLEN];
    MPI_Query_thread(&provided);
    if (eb_thread_refusal("osu_latency_mt (OSU: MPI_Init_thread must return "
                          "MPI_THREAD_MULTIPLE!)", provided, msg, sizeof msg))
        return eb_err(err, n, "%s", msg);
    if (o->ddt)
        return eb_err(err, n, "osu_latency_mt -D: derived datatypes are not built in effbench's "
                      "threaded latency test (docs/osu/pt2pt.md)");
    if (o->validate && nsenders(o) != o->receivers)
        return eb_err(err, n, "Number of sender and receiver threads must be same when "
                      "validation is enabled. Use option -t to set (-t %d:%d here)",
                      nsenders(o), o->receivers);
    mt_state *st = eb_calloc(1, sizeof *st);
    st->senders = nsenders(o);
    st->receivers = o->receivers;
    st->nthreads = c->rank == 0 ? st->senders : st->receivers;
    st->c = c;
    for (int k = 0; k < st->nthreads; k++) { /* each thread its own buffers, as OSU's */
        st->s[k] = osu_alloc(o->max_size);
        st->r[k] = osu_alloc(o->max_size);
    }
    eb_team_init(&st->team, st->nthreads);
    c->priv = st;
    return 0;
}

static void lat_mt_teardown(osu_ctx *c)
{
    mt_state *st = c->priv;
    for (int k = 0; k < st->nthreads; k++) {
        osu_free(st->s[k]);
        osu_free(st->r[k]);
    }
    eb_team_destroy(&st->team);
    free(st);
}

/* One round trip of iteration i from a sender thread's side, or a receiver's. */
static void trip(mt_state *st, int k, long i, int sending)
{
    osu_ctx *c = st->c;
    int many = st->senders > 1;
    int there = many ? (int)i : 1, back = many ? (int)i : 2, peer = 1 - c->rank;
    size_t nbytes = c->count * (size_t)c->dtype_size;
    if (st->checked && sending)
        osu_fill(st->s[k], nbytes, c->rank, i);
    if (sending) {
        MPI_Send(st->s[k], (int)c->count, c->dtype, peer, there, c->comm);
        MPI_Recv(st->r[k], (int)c->count, c->dtype, peer, back, c->comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(st->r[k], (int)c->count, c->dtype, peer, there, c->comm, MPI_STATUS_IGNORE);
        if (st->checked) {
            st->defects[k] += osu_verify(st->r[k], nbytes, peer, i);
            osu_fill(st->s[k], nbytes, c->rank, i);
        }
        MPI_Send(st->s[k], (int)c->count, c->dtype, peer, back, c->comm);
    }
    if (st->checked && sending)
        st->defects[k] += osu_verify(st->r[k], nbytes, peer, i);
}

/* A thread's share of the iterations (the checked pass: no warm-up). */
static void thread_main(int k, void *arg)
{
    mt_state *st = arg;
    osu_ctx *c = st->c;
    int sending = c->rank == 0;
    long skip = st->checked ? 0 : c->skip, total = c->iterations + skip;
    st->t[k] = 0;
    for (long i = k; i < total; i += st->nthreads) {
        double t0 = MPI_Wtime();
        trip(st, k, i, sending);
        double t = MPI_Wtime() - t0;
        if (i >= skip)
            st->t[k] += t;
        if (i >= skip && c->lat && sending) /* -z: iteration i's one-way latency */
            c->lat[i - skip] = t * 1e6 / 2;
    }
}

static void run_threads(osu_ctx *c, int checked)
{
    mt_state *st = c->priv;
    st->checked = checked;
    MPI_Barrier(c->comm); /* OSU: one barrier per size, from one thread of each process */
    eb_team_run(&st->team, thread_main, st);
}

static void lat_mt_measure(osu_ctx *c, osu_row *row)
{
    mt_state *st = c->priv;
    c->count = c->bytes / (size_t)c->dtype_size;
    run_threads(c, 0);
    if (c->rank != 0)
        return;
    osu_row_name(row, "sender_threads", st->senders);
    osu_row_name(row, "receiver_threads", st->receivers);
    double sum = 0;
    for (int k = 0; k < st->nthreads; k++)
        sum += st->t[k];
    row->avg_us = sum * 1e6 / (2.0 * (double)c->iterations / st->senders);
    if (c->lat)
        osu_percentiles(c, 0, row);
}

static long lat_mt_check(osu_ctx *c)
{
    mt_state *st = c->priv;
    long d = 0;
    for (int k = 0; k < st->nthreads; k++)
        st->defects[k] = 0;
    run_threads(c, 1);
    for (int k = 0; k < st->nthreads; k++)
        d += st->defects[k];
    return d;
}

static void lat_mt_preamble(const osu_ctx *c, FILE *f)
{
    fprintf(f, "# Number of Sender threads: %d \n# Number of Receiver threads: %d\n",
            nsenders(c->o), c->o->receivers);
    osu_text_preamble(c, f);
}

/* The table's header is OSU's print_only_header ("Avg Latency(us)"), osu_text.c's default
 * (OSU 7.4's osu_latency_mt prints it, not print_header's "Latency (us)"). */
static const osu_prog osu_latency_mt = {
    .name = "osu_latency_mt",
    .title = "OSU MPI%s Multi-threaded Latency Test",
    .bench = OSU_PT2PT,
    .row = OSU_ROW_LATENCY,
    .optstring = OSU_OPTS_PT2PT_LAT_MT,
    .loops = {10000, 100, 1000, 10},
    .default_min_size = 0,
    .exact_procs = 2,
    .datatype_lines = 1,
    .threads = 1,
    .setup = lat_mt_setup,
    .measure = lat_mt_measure,
    .check = lat_mt_check,
    .teardown = lat_mt_teardown,
    .preamble = lat_mt_preamble,
};

EB_CONSTRUCTOR(register_osu_latency_mt)
{
    osu_register(&osu_latency_mt);
}
