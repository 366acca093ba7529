/* OSU's congestion tests osu_bw_fan_in and osu_bw_fan_out: node against
 * node.  The node with the smallest processor name is the parent node; rank
 * l (by rank order) of every other node is paired with rank l of the parent
 * node, so every node needs the same number of ranks.  Fan-in: each child
 * rank sends a window to its parent rank, which receives the windows of all
 * child nodes at once and acknowledges each; fan-out: the other way round.
 * The row: MB/s = bytes * window * ppn * (nodes - 1) * iterations / 10^6 /
 * (the senders' average time).  -z: the per-iteration figures of the first
 * sender (local rank 0 of the first child node for fan-in, of the parent
 * node for fan-out), as OSU.  OSU has no -c here; effbench's -check verifies
 * every message, in fan-in one child node at a time (the parent's buffers
 * take every child node's messages at once in the timed loop).  OSU 7.4
 * titles the columns as latencies ("Avg Latency(us)", "P50 Tail Lat(us)"):
 * its header code knows bandwidth only by the subtype BW, and these are
 * CONG_BW; effbench prints the same titles over the same MB/s. */
#include "osu/osu.h"
#include "osu/osu_p2p.h"
#include "osu/osu_text.h"

#include "core/error.h"
#include "core/nodemap.h"
#include "core/own_coll.h"
#include "core/registry.h"

#include <stdlib.h>
#include <string.h>

#define TAG_BW 100
#define TAG_ACK 101
#define TAG_LAT 102

typedef struct {
    int fan_in;        /* 1: children send (fan-in), 0: the parent node sends */
    int nnodes, ppn;
    int pos;           /* this rank's node in name order (0: the parent node) */
    int on_parent;     /* this rank is on the parent node */
    int *peers, npeers;/* parent: rank l of each child node (in name order); child: its parent */
    int first_sender;  /* whose per-iteration figures -z reports */
    MPI_Request *req;  /* window * npeers */
} fan_state;

static fan_state *fan_of(const osu_ctx *c) { return osu_p2p_of(c)->program; }
static int sends(const fan_state *f) { return f->fan_in ? !f->on_parent : f->on_parent; }

/* Rank 0 orders the nodes by name (OSU sorts processor names); all learn it. */
static void name_order(const osu_ctx *c, const eb_nodemap *map, int *order)
{
    if (c->rank == 0) {
        for (int i = 0; i < map->nnodes; i++) {
            int k = i;
            for (; k > 0 && strcmp(map->name[order[k - 1]], map->name[i]) > 0; k--)
                order[k] = order[k - 1];
            order[k] = i;
        }
    }
    eb_own_bcast(order, map->nnodes, MPI_INT, 0, c->comm);
}

/* The pairs of this rank; 0, or -1 with OSU's refusal in err. */
static int layout(osu_ctx *c, fan_state *f, char *err, size_t n)
{
    eb_nodemap map;
    eb_nodemap_build(&map, c->comm);
    int bad = map.nnodes < 2 ? 1 : 0;
    for (int k = 1; k < map.nnodes && !bad; k++)
        bad = map.count[k] != map.count[0] ? 2 : 0;
    if (bad) {
        int nnodes = map.nnodes;
        eb_nodemap_free(&map);
        return eb_err(err, n, "%s: %s (%d ranks on %d nodes)", c->prog->name,
                      bad == 1 ? "Please run this benchmark on more than 1 node"
                               : "Please run this benchmark with same ppn for all nodes",
                      c->size, nnodes);
    }
    f->nnodes = map.nnodes;
    f->ppn = map.count[0];
    int *order = eb_calloc((size_t)f->nnodes, sizeof *order), *pos = eb_calloc(
        (size_t)f->nnodes, sizeof *pos), *seen = eb_calloc((size_t)f->nnodes, sizeof *seen);
    int *rank_at = eb_calloc((size_t)c->size, sizeof *rank_at), mine = 0;
    name_order(c, &map, order);
    for (int k = 0; k < f->nnodes; k++)
        pos[order[k]] = k;
    for (int r = 0; r < c->size; r++) {
        int node = map.node_of[r], l = seen[node]++;
        rank_at[pos[node] * f->ppn + l] = r;
        if (r == c->rank)
            mine = pos[node] * f->ppn + l;
    }
    int l = mine % f->ppn;
    f->pos = mine / f->ppn;
    f->on_parent = f->pos == 0;
    f->npeers = f->on_parent ? f->nnodes - 1 : 1;
    f->peers = eb_calloc((size_t)f->npeers, sizeof *f->peers);
    for (int k = 0; k < f->npeers; k++)
        f->peers[k] = f->on_parent ? rank_at[(k + 1) * f->ppn + l] : rank_at[l];
    f->first_sender = rank_at[f->fan_in ? f->ppn : 0];
    free(order), free(pos), free(seen), free(rank_at);
    eb_nodemap_free(&map);
    return 0;
}

/* The layout first: -d's buffers are OSU's SRC letter's on the parent node, DST's on the
 * others (its allocate_memory_pt2pt(..., !is_parent)). */
static int fan_setup(osu_ctx *c, int fan_in, char *err, size_t n)
{
    fan_state *f = eb_calloc(1, sizeof *f);
    f->fan_in = fan_in;
    if (layout(c, f, err, n))
        return -1;
    c->side = !f->on_parent;
    if (osu_p2p_setup(c, c->o->window_size, err, n))
        return -1;
    osu_p2p_of(c)->program = f;
    f->req = eb_calloc((size_t)c->o->window_size * (size_t)f->npeers, sizeof *f->req);
    return 0;
}

static int fan_in_setup(osu_ctx *c, char *err, size_t n) { return fan_setup(c, 1, err, n); }
static int fan_out_setup(osu_ctx *c, char *err, size_t n) { return fan_setup(c, 0, err, n); }

static void fan_teardown(osu_ctx *c)
{
    fan_state *f = fan_of(c);
    free(f->peers);
    free(f->req);
    free(f);
    osu_p2p_teardown(c);
}

/* One window with peers[first..first+npeers): a sender's W messages to
 * each, then each one's acknowledgement; a receiver's W from each, then an
 * acknowledgement to each.  Returns the time. */
static double fan_window_with(osu_ctx *c, int first, int npeers)
{
    osu_p2p *m = osu_p2p_of(c);
    fan_state *f = m->program;
    int w = c->o->window_size, nr = 0;
    const int *peer = f->peers + first;
    double t0 = MPI_Wtime();
    for (int j = 0; j < w; j++)
        for (int k = 0; k < npeers; k++, nr++) {
            if (sends(f))
                MPI_Isend(osu_p2p_s(m, j), m->count, m->type, peer[k], TAG_BW, c->comm,
                          &f->req[nr]);
            else
                MPI_Irecv(osu_p2p_r(m, j), m->count, m->type, peer[k], TAG_BW, c->comm,
                          &f->req[nr]);
        }
    MPI_Waitall(nr, f->req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < npeers; k++) {
        if (sends(f))
            MPI_Recv(m->r[0], 1, MPI_CHAR, peer[k], TAG_ACK, c->comm, MPI_STATUS_IGNORE);
        else
            MPI_Send(m->s[0], 1, MPI_CHAR, peer[k], TAG_ACK, c->comm);
    }
    return MPI_Wtime() - t0;
}

static double fan_window(osu_ctx *c) { return fan_window_with(c, 0, fan_of(c)->npeers); }

static void fan_measure(osu_ctx *c, osu_row *row)
{
    fan_state *f = fan_of(c);
    osu_p2p_size(c, row);
    double links = (double)f->ppn * (f->nnodes - 1);
    double mb = (double)osu_p2p_of(c)->transmit / 1e6 * c->o->window_size * links;
    double t = osu_p2p_loop(c, fan_window, 1, mb), sum = 0;
    if (!sends(f))
        t = 0;
    eb_own_reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm);
    double senders = f->fan_in ? links : f->ppn;
    if (c->rank == 0)
        row->mb_per_s = mb * (double)c->iterations / (sum / senders);
    if (c->lat && f->first_sender != 0) { /* -z: the first sender's figures to rank 0 */
        if (c->rank == f->first_sender)
            MPI_Send(c->lat, (int)c->iterations, MPI_DOUBLE, 0, TAG_LAT, c->comm);
        else if (c->rank == 0)
            MPI_Recv(c->lat, (int)c->iterations, MPI_DOUBLE, f->first_sender, TAG_LAT, c->comm,
                     MPI_STATUS_IGNORE);
    }
    osu_percentiles(c, 0, row);
}

/* Fan-out: every child verifies its parent's windows. */
static long fan_out_check(osu_ctx *c)
{
    fan_state *f = fan_of(c);
    int w = c->o->window_size;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, w, i);
        MPI_Barrier(c->comm);
        fan_window(c);
        if (!f->on_parent)
            defects += osu_p2p_verify(c, w, f->peers[0], i);
    }
    return defects;
}

/* Fan-in: child node k + 1 sends while the others wait, so a parent's
 * buffers hold one sender's data when verified. */
static long fan_in_check(osu_ctx *c)
{
    fan_state *f = fan_of(c);
    int w = c->o->window_size;
    long defects = 0;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, w, i);
        for (int k = 0; k < f->nnodes - 1; k++) {
            MPI_Barrier(c->comm);
            if (f->on_parent) {
                fan_window_with(c, k, 1);
                defects += osu_p2p_verify(c, w, f->peers[k], i);
                osu_p2p_prepare(c, w, i); /* poison again for the next node */
            } else if (f->pos == k + 1) {
                fan_window(c);
            }
        }
    }
    return defects;
}

/* OSU's column line of these programs (see the top of the file). */
static void fan_header(const osu_ctx *c, FILE *f)
{
    const osu_options *o = c->o;
    fprintf(f, "%-*s%*s", 10, "# Size", OSU_FIELD_WIDTH, "Avg Latency(us)");
    if (o->validate)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Validation");
    osu_text_percentile_titles(o, 0, f);
    if (o->ddt)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Transmit Size");
    fputc('\n', f);
}

static const osu_prog osu_bw_fan_in = {
    .name = "osu_bw_fan_in",
    .title = "OSU MPI%s Bandwidth Test",
    .bench = OSU_PT2PT,
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OSU_OPTS_PT2PT_CONG_BW,
    .loops = {100, 10, 20, 2},
    .default_min_size = 1,
    .min_procs = 2,
    .datatype_lines = 1,
    .setup = fan_in_setup,
    .measure = fan_measure,
    .check = fan_in_check,
    .teardown = fan_teardown,
    .header = fan_header,
};

static const osu_prog osu_bw_fan_out = {
    .name = "osu_bw_fan_out",
    .title = "OSU MPI%s Bandwidth Test",
    .bench = OSU_PT2PT,
    .row = OSU_ROW_BANDWIDTH,
    .optstring = OSU_OPTS_PT2PT_CONG_BW,
    .loops = {100, 10, 20, 2},
    .default_min_size = 1,
    .min_procs = 2,
    .datatype_lines = 1,
    .setup = fan_out_setup,
    .measure = fan_measure,
    .check = fan_out_check,
    .teardown = fan_teardown,
    .header = fan_header,
};

EB_CONSTRUCTOR(register_osu_bw_fan)
{
    osu_register(&osu_bw_fan_in);
    osu_register(&osu_bw_fan_out);
}
