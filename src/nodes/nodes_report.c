#include "nodes/nodes_report.h"

#include "core/component_names.h"
#include "core/guard.h"
#include "core/error.h"
#include "core/report/jsonl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The three matrices: latency at 0 and 8 bytes (higher is worse) and
 * bandwidth (lower is worse), from the median half round trips. */
enum { M_LAT0, M_LAT8, M_BW, NMETRIC };
static const char *const metric_json[NMETRIC] = {"latency_0b_us", "latency_8b_us",
                                                 "bandwidth_mb_per_s"};

static double mbytes_per_s(long bytes, double t_us)
{
    return bytes > 0 && t_us > 0 ? (double)bytes / 1.048576 / t_us : NAN;
}

void nodes_options_json(eb_json *j, const nodes_options *o, int nnodes)
{
    eb_json_object(j, "options");
    eb_json_int(j, "bytes", o->bytes);
    eb_json_int(j, "reps", o->reps);
    eb_json_int(j, "bw_reps", o->bw_reps);
    eb_json_num(j, "z", o->rule.z);
    eb_json_num(j, "ratio", o->rule.ratio);
    eb_json_int(j, "nodes", nnodes);
    eb_json_int(j, "rounds", nm_rounds(nnodes));
    eb_guard_plan_rows((long)nnodes * (nnodes - 1) / 2 * NODES_NSIZES);
    eb_json_int(j, "planned_rows", (long long)nnodes * (nnodes - 1) / 2 * NODES_NSIZES);
    eb_json_close(j);
}

static void result_records(const nodes_options *o, const eb_nodemap *map, const nodes_pair *x)
{
    const long lens[NODES_NSIZES] = {0, 8, o->bytes};
    const int reps[NODES_NSIZES] = {o->reps, o->reps, o->bw_reps};
    for (int s = 0; s < NODES_NSIZES; s++) {
        const nodes_stat *t = &x->stat[s];
        eb_json j;
        eb_jsonl_begin(&j, "result");
        eb_json_str(&j, "component", EB_COMPONENT_NODES);
        eb_json_str(&j, "benchmark", "NodePair");
        eb_json_null(&j, "group");
        eb_json_null(&j, "mode");
        eb_json_int(&j, "procs", 2);
        eb_json_int(&j, "bytes", lens[s]);
        eb_json_int(&j, "repetitions", reps[s]);
        eb_json_num(&j, "t_min_us", t->min);
        eb_json_num(&j, "t_max_us", t->max);
        eb_json_num(&j, "t_avg_us", t->avg);
        eb_json_num(&j, "mbytes_per_s", mbytes_per_s(lens[s], t->median));
        eb_json_null(&j, "defects");
        eb_json_num(&j, "t_median_us", t->median);
        eb_json_str(&j, "node_a", map->name[x->a]);
        eb_json_str(&j, "node_b", map->name[x->b]);
        eb_json_int(&j, "rank_a", map->leader[x->a]);
        eb_json_int(&j, "rank_b", map->leader[x->b]);
        eb_json_str(&j, "link", "inter");
        eb_jsonl_emit(&j);
    }
}

static void print_matrix(FILE *out, const char *title, int n, const double *m,
                         const eb_nodemap *map)
{
    fprintf(out, "\n# %s\n%-12s", title, "node");
    for (int b = 0; b < n; b++)
        fprintf(out, " %12s", map->name[b]);
    fputc('\n', out);
    for (int a = 0; a < n; a++) {
        fprintf(out, "%-12s", map->name[a]);
        for (int b = 0; b < n; b++)
            if (a == b)
                fprintf(out, " %12s", "-");
            else
                fprintf(out, " %12.2f", m[(size_t)a * n + b]);
        fputc('\n', out);
    }
}

static void matrix_json(eb_json *j, const char *key, int n, const double *m)
{
    eb_json_array(j, key);
    for (int a = 0; a < n; a++) {
        eb_json_array(j, NULL);
        for (int b = 0; b < n; b++)
            eb_json_num(j, NULL, a == b ? NAN : m[(size_t)a * n + b]);
        eb_json_close(j);
    }
    eb_json_close(j);
}

/* The flags of every metric: node_flag[k][i], link_flag[k][a*n+b]. */
typedef struct {
    int *node[NMETRIC], *link[NMETRIC];
    int any;
} flags;

static void flag_all(int n, double *const m[NMETRIC], nm_rule rule, flags *f)
{
    f->any = 0;
    for (int k = 0; k < NMETRIC; k++) {
        f->node[k] = eb_malloc((size_t)n * sizeof(int));
        f->link[k] = eb_malloc((size_t)n * n * sizeof(int));
        f->any += nm_flag(n, m[k], k != M_BW, rule, f->node[k], f->link[k]);
    }
}

static void print_flags(FILE *out, int n, double *const m[NMETRIC], const flags *f,
                        const eb_nodemap *map, const nodes_options *o)
{
    static const char *const what[NMETRIC] = {"latency at 0 bytes", "latency at 8 bytes",
                                              "bandwidth"};
    static const char *const unit[NMETRIC] = {"usec", "usec", "Mbytes/sec"};
    fprintf(out, "\n# Flagged (robust z > %g over 1.4826 MAD and at least %gx from the median):\n",
            o->rule.z, o->rule.ratio);
    if (n < 3)
        fprintf(out, "#   nothing can be flagged with two nodes (no third to compare with)\n");
    else if (!f->any)
        fprintf(out, "#   none\n");
    for (int k = 0; k < NMETRIC; k++) {
        double *scores = eb_malloc((size_t)n * sizeof *scores);
        for (int i = 0; i < n; i++)
            scores[i] = nm_node_score(n, m[k], i);
        double med = nm_median(scores, n);
        for (int i = 0; i < n; i++)
            if (f->node[k][i])
                fprintf(out, "#   node %s: %s %.2f %s over its links (median of all nodes %.2f)\n",
                        map->name[i], what[k], nm_node_score(n, m[k], i), unit[k], med);
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if (f->link[k][(size_t)a * n + b])
                    fprintf(out, "#   link %s - %s: %s %.2f %s\n", map->name[a], map->name[b],
                            what[k], m[k][(size_t)a * n + b], unit[k]);
        free(scores);
    }
}

static void summary_json(int n, double *const m[NMETRIC], const flags *f, const eb_nodemap *map,
                         const nodes_options *o)
{
    eb_json j;
    eb_jsonl_begin(&j, "summary");
    eb_json_str(&j, "component", EB_COMPONENT_NODES);
    eb_json_array(&j, "nodes");
    for (int i = 0; i < n; i++)
        eb_json_str(&j, NULL, map->name[i]);
    eb_json_close(&j);
    for (int k = 0; k < NMETRIC; k++)
        matrix_json(&j, metric_json[k], n, m[k]);
    eb_json_array(&j, "flagged_nodes");
    for (int i = 0; i < n; i++) {
        int on = 0;
        for (int k = 0; k < NMETRIC; k++)
            on |= f->node[k][i];
        if (!on)
            continue;
        eb_json_object(&j, NULL);
        eb_json_str(&j, "node", map->name[i]);
        eb_json_array(&j, "metrics");
        for (int k = 0; k < NMETRIC; k++)
            if (f->node[k][i])
                eb_json_str(&j, NULL, metric_json[k]);
        eb_json_close(&j);
        eb_json_close(&j);
    }
    eb_json_close(&j);
    eb_json_array(&j, "flagged_links");
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            int on = 0;
            for (int k = 0; k < NMETRIC; k++)
                on |= f->link[k][(size_t)a * n + b];
            if (!on)
                continue;
            eb_json_object(&j, NULL);
            eb_json_array(&j, "nodes");
            eb_json_str(&j, NULL, map->name[a]);
            eb_json_str(&j, NULL, map->name[b]);
            eb_json_close(&j);
            eb_json_array(&j, "metrics");
            for (int k = 0; k < NMETRIC; k++)
                if (f->link[k][(size_t)a * n + b])
                    eb_json_str(&j, NULL, metric_json[k]);
            eb_json_close(&j);
            eb_json_close(&j);
        }
    eb_json_close(&j);
    eb_json_object(&j, "rule");
    eb_json_num(&j, "z", o->rule.z);
    eb_json_num(&j, "ratio", o->rule.ratio);
    eb_json_close(&j);
    eb_jsonl_emit(&j);
}

void nodes_report(FILE *out, const nodes_options *o, const eb_sysinfo *si,
                  const eb_nodemap *map, const nodes_pair *pairs, int npairs)
{
    int n = map->nnodes;
    double *m[NMETRIC];
    for (int k = 0; k < NMETRIC; k++) {
        m[k] = eb_malloc((size_t)n * n * sizeof(double));
        for (size_t i = 0; i < (size_t)n * n; i++)
            m[k][i] = NAN;
    }
    for (int p = 0; p < npairs; p++) {
        const nodes_pair *x = &pairs[p];
        double v[NMETRIC] = {x->stat[0].median, x->stat[1].median,
                             mbytes_per_s(o->bytes, x->stat[2].median)};
        for (int k = 0; k < NMETRIC; k++)
            m[k][(size_t)x->a * n + x->b] = m[k][(size_t)x->b * n + x->a] = v[k];
        result_records(o, map, x);
    }
    fprintf(out, "#------------------------------------------------------------\n"
                 "# effbench nodes: latency and bandwidth of every pair of nodes\n"
                 "#------------------------------------------------------------\n"
                 "# Date                  : %s\n"
                 "# Nodes                 : %d, one rank each:", si->date, n);
    for (int i = 0; i < n; i++)
        fprintf(out, " %s", map->name[i]);
    fprintf(out, "\n# Rounds                : %d (the pairs of a round run at the same time)\n"
                 "# Latency               : half the round trip, median of %d repetitions\n"
                 "# Bandwidth             : %ld bytes, median of %d repetitions, "
                 "Mbytes/sec = 2^20 bytes/sec\n",
            nm_rounds(n), o->reps, o->bytes, o->bw_reps);
    print_matrix(out, "Latency at 0 bytes [usec]", n, m[M_LAT0], map);
    print_matrix(out, "Latency at 8 bytes [usec]", n, m[M_LAT8], map);
    char title[96];
    snprintf(title, sizeof title, "Bandwidth at %ld bytes [Mbytes/sec]", o->bytes);
    print_matrix(out, title, n, m[M_BW], map);
    flags f;
    flag_all(n, m, o->rule, &f);
    print_flags(out, n, m, &f, map, o);
    summary_json(n, m, &f, map, o);
    for (int k = 0; k < NMETRIC; k++) {
        free(m[k]);
        free(f.node[k]);
        free(f.link[k]);
    }
}
