/* `effbench nodes`: the node-pair health matrix.  One rank per node (the
 * lowest rank on each); every pair of nodes measures ping-pong latency at 0
 * and 8 bytes and bandwidth at a large message, the pairs of a round at the
 * same time, so N nodes need N-1 rounds (N for odd N).  Rank 0 prints the
 * matrices, writes them as JSON records, and flags slow nodes and links by
 * the robust rule of node_matrix.h (docs/cluster.md). */
#include "core/component_names.h"
#include "nodes/node_matrix.h"
#include "nodes/nodes_report.h"

#include "core/error.h"
#include "core/nodemap.h"
#include "core/registry.h"
#include "core/report/jsonl.h"
#include "core/sysinfo.h"
#include "core/text.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP 2
#define TAG 7

static void print_help(void)
{
    printf("Usage: mpirun -np P --map-by node effbench nodes [options]\n"
           "       srun --ntasks-per-node=1 effbench nodes [options]\n\n"
           "Latency and bandwidth of every pair of nodes, one rank per node (the lowest\n"
           "rank of each; other ranks wait), slow nodes and links flagged.\n\n"
           "  --bytes N      bandwidth message length in bytes (default %d)\n"
           "  --reps N       latency repetitions per pair and length (default %d)\n"
           "  --bw-reps N    bandwidth repetitions per pair (default %d)\n"
           "  --z Z          robust z-score a flagged value exceeds (default %g)\n"
           "  --ratio R      least factor from the median a flagged value has (default %g)\n"
           "  --json FILE    JSON Lines records (docs/json-lines.md)\n",
           NODES_DEFAULT_BYTES, NODES_DEFAULT_REPS, NODES_DEFAULT_BW_REPS, NM_DEFAULT_Z,
           NM_DEFAULT_RATIO);
}

static int parse_options(nodes_options *o, int argc, char **argv, char *err, size_t errlen)
{
    *o = (nodes_options){.bytes = NODES_DEFAULT_BYTES, .reps = NODES_DEFAULT_REPS,
                         .bw_reps = NODES_DEFAULT_BW_REPS,
                         .rule = {NM_DEFAULT_Z, NM_DEFAULT_RATIO}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            o->help = 1;
            continue;
        }
        int known = !strcmp(a, "--bytes") || !strcmp(a, "--reps") || !strcmp(a, "--bw-reps") ||
                    !strcmp(a, "--z") || !strcmp(a, "--ratio") || !strcmp(a, "--json");
        if (!known)
            return eb_err(err, errlen, "nodes: unknown option '%s' (see effbench nodes --help)", a);
        if (i + 1 >= argc)
            return eb_err(err, errlen, "nodes: %s needs a value", a);
        const char *v = argv[++i];
        long l = 0;
        if (!strcmp(a, "--json")) {
            o->json_path = v;
        } else if (!strcmp(a, "--z") || !strcmp(a, "--ratio")) {
            double d;
            if (eb_parse_positive(v, &d) || (!strcmp(a, "--ratio") && d <= 1))
                return eb_err(err, errlen, "nodes: %s %s: expected a number above %s", a, v,
                              !strcmp(a, "--ratio") ? "1" : "0");
            *(!strcmp(a, "--z") ? &o->rule.z : &o->rule.ratio) = d;
        } else if (eb_parse_long(v, 1, !strcmp(a, "--bytes") ? 1L << 30 : 1000000, &l)) {
            return eb_err(err, errlen, "nodes: %s %s: expected a whole number from 1 to %ld", a,
                          v, !strcmp(a, "--bytes") ? 1L << 30 : 1000000L);
        } else if (!strcmp(a, "--bytes")) {
            o->bytes = l;
        } else if (!strcmp(a, "--reps")) {
            o->reps = (int)l;
        } else {
            o->bw_reps = (int)l;
        }
    }
    return 0;
}

/* One ping-pong series between this leader and its partner; `ping` times it.
 * Returns the half round trips (us) in t[0..reps-1] on the ping side. */
static void pingpong(MPI_Comm c, int partner, int ping, char *buf, long bytes, int reps,
                     double *t)
{
    for (int k = -WARMUP; k < reps; k++) {
        double t0 = MPI_Wtime();
        if (ping) {
            MPI_Send(buf, (int)bytes, MPI_BYTE, partner, TAG, c);
            MPI_Recv(buf, (int)bytes, MPI_BYTE, partner, TAG, c, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, (int)bytes, MPI_BYTE, partner, TAG, c, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)bytes, MPI_BYTE, partner, TAG, c);
        }
        if (k >= 0 && ping)
            t[k] = (MPI_Wtime() - t0) / 2 * 1e6;
    }
}

static void stats_of(double *t, int n, nodes_stat *s)
{
    s->min = s->max = t[0];
    double sum = 0;
    for (int k = 0; k < n; k++) {
        s->min = t[k] < s->min ? t[k] : s->min;
        s->max = t[k] > s->max ? t[k] : s->max;
        sum += t[k];
    }
    s->avg = sum / n;
    if (s->avg < s->min) /* the sum's rounding: keep min <= avg <= max */
        s->avg = s->min;
    if (s->avg > s->max)
        s->avg = s->max;
    s->median = nm_median(t, n);
}

/* Every round: measure with this round's partner (as ping when our index is
 * the lower).  Returns the pairs this leader measured, nodes_pair[count]. */
static nodes_pair *measure(const nodes_options *o, MPI_Comm leaders, int *count)
{
    int me, n;
    MPI_Comm_rank(leaders, &me);
    MPI_Comm_size(leaders, &n);
    const long lens[NODES_NSIZES] = {0, 8, o->bytes};
    const int reps[NODES_NSIZES] = {o->reps, o->reps, o->bw_reps};
    int maxreps = o->reps > o->bw_reps ? o->reps : o->bw_reps;
    char *buf = eb_calloc((size_t)o->bytes, 1);
    double *t = eb_malloc((size_t)maxreps * sizeof *t);
    nodes_pair *pairs = eb_calloc((size_t)n, sizeof *pairs);
    *count = 0;
    for (int r = 0; r < nm_rounds(n); r++) {
        int p = nm_partner(n, r, me);
        if (p >= 0) {
            int ping = me < p;
            nodes_pair *x = &pairs[*count];
            for (int s = 0; s < NODES_NSIZES; s++) {
                pingpong(leaders, p, ping, buf, lens[s], reps[s], t);
                if (ping)
                    stats_of(t, reps[s], &x->stat[s]);
            }
            if (ping) {
                x->a = me;
                x->b = p;
                ++*count;
            }
        }
        MPI_Barrier(leaders); /* rounds do not overlap: each pair has its links alone */
    }
    free(buf);
    free(t);
    return pairs;
}

/* All pairs on the leaders' rank 0 (world rank 0). */
static nodes_pair *gather(nodes_pair *mine, int count, MPI_Comm leaders, int *total)
{
    int me, n;
    MPI_Comm_rank(leaders, &me);
    MPI_Comm_size(leaders, &n);
    int bytes = count * (int)sizeof *mine;
    int *sizes = me == 0 ? eb_malloc((size_t)n * sizeof *sizes) : NULL;
    int *displs = me == 0 ? eb_malloc((size_t)n * sizeof *displs) : NULL;
    MPI_Gather(&bytes, 1, MPI_INT, sizes, 1, MPI_INT, 0, leaders);
    nodes_pair *all = NULL;
    *total = 0;
    if (me == 0) {
        int sum = 0;
        for (int i = 0; i < n; i++) {
            displs[i] = sum;
            sum += sizes[i];
        }
        *total = sum / (int)sizeof *mine;
        all = eb_malloc((size_t)(sum ? sum : 1));
    }
    /* plain bytes: the same program on both ends of the gather */
    MPI_Gatherv(mine, bytes, MPI_BYTE, all, sizes, displs, MPI_BYTE, 0, leaders);
    free(sizes);
    free(displs);
    return all;
}

static int nodes_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    int rank, provided;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Query_thread(&provided);
    nodes_options o;
    char err[EB_ERRLEN];
    if (parse_options(&o, argc, argv, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    if (o.help) {
        if (rank == 0)
            print_help();
        return EB_EXIT_OK;
    }
    const eb_nodemap *map = eb_world_nodes();
    if (map->nnodes < 2)
        eb_exit_all(EB_EXIT_USAGE, "nodes: all ranks run on one node; start at least one rank "
                                   "on each of two or more nodes (mpirun --map-by node, "
                                   "srun --ntasks-per-node=1)");
    eb_sysinfo si;
    eb_sysinfo_collect(&si, provided);
    eb_jsonl_open(o.json_path);
    eb_json j;
    eb_jsonl_run_begin(&j, EB_COMPONENT_NODES, &si, 0);
    nodes_options_json(&j, &o, map->nnodes);
    if (rank == 0)
        eb_jsonl_emit(&j);
    else
        eb_json_free(&j);

    int leader = map->leader[map->node_of[rank]] == rank;
    MPI_Comm leaders;
    MPI_Comm_split(MPI_COMM_WORLD, leader ? 0 : MPI_UNDEFINED, rank, &leaders);
    if (leader) {
        int count, total;
        nodes_pair *mine = measure(&o, leaders, &count);
        nodes_pair *all = gather(mine, count, leaders, &total);
        if (rank == 0) {
            nodes_report(stdout, &o, &si, map, all, total);
            fflush(stdout);
        }
        free(mine);
        free(all);
        MPI_Comm_free(&leaders);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    eb_jsonl_end("ok", NULL);
    return EB_EXIT_OK;
}

static const eb_component nodes_component = {
    .name = EB_COMPONENT_NODES,
    .summary = "node-pair matrix: latency and bandwidth of every pair of nodes, slow ones flagged",
    .order = 80,
    .main = nodes_main,
};

EB_CONSTRUCTOR(register_nodes)
{
    eb_register_component(&nodes_component);
}
