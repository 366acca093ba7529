/* osu_mbw_mr: OSU's multiple bandwidth / message rate test.  Pairs by block
 * order: rank r < P sends to r + P (P pairs, -p, default np / 2); ranks from
 * 2P on (-p below np / 2) only join the barriers.  An even process count, as
 * OSU 7.4 needs one (it hangs otherwise).  Each iteration: a barrier, then (after a
 * second barrier) every sender times a window of non-blocking sends and the
 * receiver's one-byte acknowledgement.  The row: aggregate MB/s = bytes * P *
 * window * iterations / 10^6 / (the senders' average time), and
 * messages/s = MB/s * 10^6 / bytes.  -V measures each of OSU's window sizes
 * (1 to 128) and prints OSU's two tables (MB/s, then the message rate
 * profile); -R 0 drops the rates. */
#include "osu/osu.h"
#include "osu/osu_p2p.h"
#include "osu/osu_text.h"

#include "core/error.h"
#include "core/own_coll.h"
#include "core/registry.h"

#include <stdlib.h>

#define TAG_BW 100
#define TAG_ACK 101
#define MAX_ROWS 64 /* sizes of one -V table: 1 to 2^63 bytes */

static const int WINDOWS[OSU_MAX_WINDOWS] = {1, 2, 4, 8, 16, 32, 64, 128};

typedef struct {
    int pairs;
    int window;                 /* of the current measurement */
    /* -V on rank 0: the current table's rates, for the message rate profile */
    int nrows;
    size_t bytes[MAX_ROWS];
    double rate[MAX_ROWS][OSU_MAX_WINDOWS];
} mbw_state;

static mbw_state *state_of(const osu_ctx *c) { return osu_p2p_of(c)->program; }

static int mbw_setup(osu_ctx *c, char *err, size_t n)
{
    int pairs = c->o->pairs ? c->o->pairs : c->size / 2;
    if (pairs > c->size / 2)
        return eb_err(err, n, "osu_mbw_mr: Invalid Number of Pairs: %d pairs need %d processes, "
                      "this run has %d [-p %d]", pairs, 2 * pairs, c->size, pairs);
    int windows = c->o->window_size;
    if (c->o->window_varied && windows < WINDOWS[OSU_MAX_WINDOWS - 1])
        windows = WINDOWS[OSU_MAX_WINDOWS - 1];
    if (osu_p2p_setup(c, windows, err, n))
        return -1;
    mbw_state *s = eb_calloc(1, sizeof *s);
    s->pairs = pairs;
    s->window = c->o->window_size;
    osu_p2p_of(c)->program = s;
    return 0;
}

static void mbw_teardown(osu_ctx *c)
{
    free(state_of(c));
    osu_p2p_teardown(c);
}

/* One iteration of rank c->rank; a sender's time of its window. */
static double mbw_window(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    const mbw_state *s = m->program;
    int w = s->window, p = s->pairs;
    double t = 0;
    MPI_Barrier(c->comm);
    MPI_Barrier(c->comm);
    if (c->rank < p) {
        double t0 = MPI_Wtime();
        for (int j = 0; j < w; j++)
            MPI_Isend(osu_p2p_s(m, j), m->count, m->type, c->rank + p, TAG_BW, c->comm,
                      &m->req[j]);
        MPI_Waitall(w, m->req, MPI_STATUSES_IGNORE);
        MPI_Recv(m->r[0], 1, MPI_CHAR, c->rank + p, TAG_ACK, c->comm, MPI_STATUS_IGNORE);
        t = MPI_Wtime() - t0;
    } else if (c->rank < 2 * p) {
        for (int j = 0; j < w; j++)
            MPI_Irecv(osu_p2p_r(m, j), m->count, m->type, c->rank - p, TAG_BW, c->comm,
                      &m->req[j]);
        MPI_Waitall(w, m->req, MPI_STATUSES_IGNORE);
        MPI_Send(m->s[0], 1, MPI_CHAR, c->rank - p, TAG_ACK, c->comm);
    }
    return t;
}

/* OSU's calc_bw for window w: MB/s over all pairs on rank 0 (-z: rank 0's
 * per-iteration estimate of the same). */
static double calc_bw(osu_ctx *c, int w)
{
    mbw_state *s = state_of(c);
    s->window = w;
    double mb = (double)osu_p2p_of(c)->transmit / 1e6 * s->pairs * w;
    double t = osu_p2p_loop(c, mbw_window, 1, mb), sum = 0;
    eb_own_reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm); /* only senders add time */
    return c->rank == 0 ? mb * (double)c->iterations / (sum / s->pairs) : 0;
}

/* OSU's message rate: messages of the row's size (-D: of its Transmit Size). */
static double rate(const osu_row *row, double mb_per_s)
{
    return 1e6 * mb_per_s / (double)row->transmit_size;
}

static void mbw_measure(osu_ctx *c, osu_row *row)
{
    int pairs = state_of(c)->pairs;
    osu_p2p_size(c, row);
    row->procs = 2 * pairs; /* the processes that take part */
    osu_row_name(row, "pairs", pairs);
    if (!c->o->window_varied) {
        double bw = calc_bw(c, c->o->window_size);
        row->mb_per_s = bw;
        row->messages_per_s = rate(row, bw);
        osu_row_name(row, "window_size", c->o->window_size);
        osu_percentiles(c, 0, row);
        return;
    }
    row->nwindows = OSU_MAX_WINDOWS;
    for (int k = 0; k < OSU_MAX_WINDOWS; k++) {
        row->windows[k] = WINDOWS[k];
        row->window_mb_per_s[k] = calc_bw(c, WINDOWS[k]);
        row->window_messages_per_s[k] = rate(row, row->window_mb_per_s[k]);
    }
}

/* Every receiver verifies its sender's windows (-V: of the largest window). */
static long mbw_check(osu_ctx *c)
{
    mbw_state *s = state_of(c);
    int w = c->o->window_varied ? WINDOWS[OSU_MAX_WINDOWS - 1] : c->o->window_size;
    long defects = 0;
    s->window = w;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, w, i);
        mbw_window(c);
        if (c->rank >= s->pairs && c->rank < 2 * s->pairs)
            defects += osu_p2p_verify(c, w, c->rank - s->pairs, i);
    }
    return defects;
}

/* ---- OSU's text ------------------------------------------------------ */

static void mbw_preamble(const osu_ctx *c, FILE *f)
{
    osu_text_title(c->prog, f); /* no blank line first: OSU prints its HEADER itself */
    if (c->o->window_varied)
        fprintf(f, "# [ pairs: %d ] [ window size: varied ]\n\n# Uni-directional Bandwidth "
                   "(MB/sec)\n", state_of(c)->pairs);
    else
        fprintf(f, "# [ pairs: %d ] [ window size: %d ]\n", state_of(c)->pairs,
                c->o->window_size);
}

static void window_titles(FILE *f)
{
    fputs("#      ", f);
    for (int k = 0; k < OSU_MAX_WINDOWS; k++)
        fprintf(f, "  %10d", WINDOWS[k]);
    fputc('\n', f);
}

static void mbw_header(const osu_ctx *c, FILE *f)
{
    const osu_options *o = c->o;
    if (o->window_varied) {
        state_of(c)->nrows = 0;
        window_titles(f);
        return;
    }
    fprintf(f, "%-*s%*s", 10, "# Size", OSU_FIELD_WIDTH, "MB/s");
    if (o->print_rate)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Messages/s");
    if (o->validate)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Validation");
    osu_text_percentile_titles(o, 1, f);
    if (o->ddt)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Transmit Size");
    fputc('\n', f);
}

/* After the table's last size: OSU's message rate profile of the table. */
static void rate_profile(const mbw_state *s, FILE *f)
{
    fputs("\n# Message Rate Profile\n", f);
    window_titles(f);
    for (int r = 0; r < s->nrows; r++) {
        fprintf(f, "%-7zu", s->bytes[r]);
        for (int k = 0; k < OSU_MAX_WINDOWS; k++)
            fprintf(f, "  %10.2f", s->rate[r][k]);
        fputc('\n', f);
    }
}

static void varied_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    mbw_state *s = state_of(c);
    fprintf(f, "%-7zu", row->bytes);
    for (int k = 0; k < row->nwindows; k++)
        fprintf(f, "  %10.*f", OSU_FLOAT_PRECISION, row->window_mb_per_s[k]);
    fputc('\n', f);
    if (s->nrows < MAX_ROWS) {
        s->bytes[s->nrows] = row->bytes;
        for (int k = 0; k < OSU_MAX_WINDOWS; k++)
            s->rate[s->nrows][k] = row->window_messages_per_s[k];
        s->nrows++;
    }
    if (c->o->print_rate && 2 * row->bytes > c->o->max_size)
        rate_profile(s, f);
}

static void mbw_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    const osu_options *o = c->o;
    if (o->window_varied) {
        varied_row(c, row, f);
        return;
    }
    fprintf(f, "%-*zu%*.*f", 10, row->bytes, OSU_FIELD_WIDTH, OSU_FLOAT_PRECISION, row->mb_per_s);
    if (o->print_rate)
        fprintf(f, "%*.*f", OSU_FIELD_WIDTH, OSU_FLOAT_PRECISION, row->messages_per_s);
    if (o->validate)
        osu_text_validation(row, f);
    osu_text_percentile_values(o, row, f);
    if (o->ddt)
        fprintf(f, "%*zu", OSU_FIELD_WIDTH, row->transmit_size);
    fputc('\n', f);
}

static const osu_prog osu_mbw_mr = {
    .name = "osu_mbw_mr",
    .title = "OSU MPI Multiple Bandwidth / Message Rate Test",
    .bench = OSU_MBW_MR,
    .row = OSU_ROW_MBW_MR,
    .optstring = OSU_OPTS_MBW_MR,
    /* OSU's bandwidth counts, but its calc_bw runs iterations + skip at every size: no
     * switch to 20 and 2 above 8192 bytes */
    .loops = {100, 10, 100, 10},
    .default_min_size = 1,
    .min_procs = 2,
    .even_procs = 1, /* OSU 7.4 hangs on an odd count */
    .datatype_lines = 1,
    .setup = mbw_setup,
    .measure = mbw_measure,
    .check = mbw_check,
    .teardown = mbw_teardown,
    .preamble = mbw_preamble,
    .header = mbw_header,
    .row_text = mbw_row,
};

EB_CONSTRUCTOR(register_osu_mbw_mr)
{
    osu_register(&osu_mbw_mr);
}
