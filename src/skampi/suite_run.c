/* One suite of a run (skampi/suite_run.h): the points of its plan, their
 * rows in the output file and their JSON records. */
#include "skampi/suite_run.h"

#include "core/clock_model.h"
#include "core/component_names.h"
#include "core/error.h"
#include "core/json.h"
#include "core/nodemap.h"
#include "core/report/jsonl.h"
#include "skampi/logfile.h"
#include "skampi/measure.h"
#include "skampi/output.h"
#include "skampi/refine.h"
#include "skampi/suite_keys.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CRASH_ENV "EFFBENCH_SKAMPI_CRASH_SUITE"

/* One suite while it runs: what the measuring callback needs. */
typedef struct {
    sk_env *e;
    sk_suite_ctx *sc;
    const sk_plan *p;
    FILE *sko;
    long measured;   /* points measured so far */
    long crash_at;   /* tests: abort before this point (-1: never) */
} suite_run;

/* Tests only (docs/skampi.md): EFFBENCH_SKAMPI_CRASH_SUITE=NAME aborts
 * before the first measurement of suite NAME, NAME:N after its first N
 * measurements, so the crashed block has N rows.  -1 if not this suite. */
static long crash_point(const char *suite)
{
    const char *v = getenv(CRASH_ENV);
    if (!v)
        return -1;
    if (!strcmp(v, suite))
        return 0;
    const char *colon = strrchr(v, ':');
    size_t len = strlen(suite);
    if (!colon || (size_t)(colon - v) != len || strncmp(v, suite, len) || !colon[1] ||
        strspn(colon + 1, "0123456789") != strlen(colon + 1))
        return -1;
    return atol(colon + 1);
}

static const char *var_word(enum sk_variation v)
{
    return v == SK_VAR_NODES || v == SK_VAR_NONE ? "procs" : v == SK_VAR_CHUNKS ? "chunks" : "count";
}

/* The point's row of the output file: VAR= ARG BYTES MEAN STDERR N [NODE...]. */
static void write_row(const suite_run *sr, const sk_point_result *r, long arg)
{
    const sk_suite *s = sr->sc->s;
    sk_row *row = eb_malloc(sizeof *row);
    snprintf(row->var, sizeof row->var, "%s", var_word(s->variation));
    row->arg = arg;
    row->bytes = r->bytes;
    row->v[0] = r->mean * 1e6;
    row->v[1] = r->std_error * 1e6;
    row->v[2] = (double)r->n;
    row->nv = 3;
    if (s->node_times)
        for (int i = 0; i < r->nnode && row->nv < SK_ROW_MAXVAL; i++)
            row->v[row->nv++] = r->node[i] * 1e6;
    char line[32768];
    sk_format_row(line, sizeof line, row);
    fprintf(sr->sko, "%s\n", line);
    fflush(sr->sko);
    free(row);
}

/* The point's JSON Lines `result` record (docs/json-lines.md). */
static void emit_record(const suite_run *sr, const sk_point_result *r, int refined)
{
    const sk_suite *s = sr->sc->s;
    const sk_instance *in = sr->sc->in;
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_SKAMPI);
    eb_json_str(&j, "benchmark", s->name);
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", r->procs);
    eb_json_int(&j, "bytes", r->bytes);
    eb_json_int(&j, "repetitions", r->n);
    eb_json_num(&j, "t_min_us", r->min * 1e6);
    eb_json_num(&j, "t_max_us", r->max * 1e6);
    eb_json_num(&j, "t_avg_us", r->mean * 1e6);
    eb_json_null(&j, "mbytes_per_s");
    if (r->defects >= 0)
        eb_json_int(&j, "defects", r->defects);
    else
        eb_json_null(&j, "defects");
    eb_json_num(&j, "std_error_us", r->std_error * 1e6);
    if (r->resolution_limited)
        eb_json_bool(&j, "resolution_limited", 1);
    eb_json_int(&j, "kept", r->kept);
    eb_json_int(&j, "type_number", s->type);
    eb_json_int(&j, "send_datatype", s->send_datatype);
    eb_json_int(&j, "recv_datatype", s->recv_datatype);
    eb_json_str(&j, "basetype", sr->e->cfg->basetype[s->basetype]);
    eb_json_str(&j, "instance", in->name);
    eb_json_str(&j, "pattern", sk_pattern_name(in->pattern));
    eb_json_str(&j, "variation", sk_variation_name(s->variation));
    eb_json_str(&j, "scale", sk_scale_name(s->scale));
    eb_json_int(&j, "count", r->count);
    eb_json_int(&j, "nodes", r->procs);
    if (in->pattern == SK_MASTER_WORKER)
        eb_json_int(&j, "chunks", r->chunks);
    else
        eb_json_null(&j, "chunks");
    eb_json_bool(&j, "refined", refined);
    if (in->pattern == SK_COLLECTIVE)
        eb_json_str(&j, "sync", s->sync == SK_SYNC_WINDOW ? "window" : "barrier");
    else if (in->pattern == SK_MASTER_WORKER)
        eb_json_str(&j, "sync", "barrier");
    else
        eb_json_null(&j, "sync");
    if (s->sync == SK_SYNC_WINDOW) {
        eb_json_int(&j, "invalid", r->invalid);
        eb_json_str(&j, "clock_sync", eb_clock_method_name(r->clock_method));
        eb_json_num(&j, "clock_sync_us", 1e6 * r->clock_sync_s);
        eb_json_num(&j, "clock_offset_max_us", 1e6 * r->clock_offset_max);
        eb_json_num(&j, "clock_check_error_us", 1e6 * r->clock_check_error);
        eb_json_num(&j, "clock_drift_ppm", 1e6 * r->clock_drift);
    }
    if (in->pattern == SK_PINGPONG) {
        eb_json_array(&j, "pair");
        eb_json_int(&j, NULL, sr->e->pair[0]);
        eb_json_int(&j, NULL, sr->e->pair[1]);
        eb_json_close(&j);
        eb_json_str(&j, "link", eb_link_label(sr->e->pair[0], sr->e->pair[1]));
    }
    if (in->pattern == SK_SIMPLE)
        eb_json_num(&j, "calls_per_run", r->calls);
    eb_json_array(&j, "node_times_us");
    for (int i = 0; i < r->nnode; i++)
        eb_json_num(&j, NULL, r->node[i] * 1e6);
    eb_json_close(&j);
    eb_jsonl_emit(&j);
}

static void report_point(const suite_run *sr, const sk_point_result *r, long arg, int refined)
{
    if (sr->sko)
        write_row(sr, r, arg);
    if (eb_jsonl_active())
        emit_record(sr, r, refined);
}

static double measure_cb(void *ctx, double x, int refined, int *stop)
{
    suite_run *sr = ctx;
    const sk_suite *s = sr->sc->s;
    if (sr->measured++ == sr->crash_at)
        abort(); /* tests: a crash in the middle of a run (docs/skampi.md) */
    int procs = sr->p->procs;
    long count = sr->p->count, chunks = sr->p->chunks, arg = (long)llround(x);
    switch (s->variation) {
    case SK_VAR_LENGTH: count = arg / sr->sc->base.size; break;
    case SK_VAR_NODES: procs = (int)arg; break;
    case SK_VAR_CHUNKS: chunks = arg; break;
    case SK_VAR_NONE: arg = 1; break;
    }
    if (sr->sc->in->pattern == SK_MASTER_WORKER && s->variation == SK_VAR_NODES &&
        s->default_chunks == 0)
        chunks = procs - 1; /* one chunk per worker */
    sk_point_result r;
    sk_measure_point(sr->e, sr->sc, procs, count, chunks, &r);
    long shown = s->variation == SK_VAR_LENGTH ? count : arg;
    if (sr->e->wrank == 0)
        report_point(sr, &r, shown, refined);
    if (r.defects > 0)
        sk_log("check: %s: %ld wrong bytes at %s= %ld (%ld bytes)", s->name, r.defects,
               var_word(s->variation), shown, r.bytes);
    *stop = r.stop;
    return r.mean;
}

void sk_run_suite(sk_env *e, const sk_config *cfg, const sk_suite *s, const sk_plan *p, FILE *sko)
{
    const sk_instance *in = sk_instance_find(s->type);
    sk_suite_ctx sc = {s, in, {0}, 0};
    char err[EB_ERRLEN];
    if (sk_basetype_parse(cfg->basetype[s->basetype], &sc.base, err, sizeof err))
        eb_abort("skampi: %s", err); /* the configuration checked it */
    if (in->pattern == SK_PINGPONG) {
        int had = e->pair[0] >= 0;
        sk_find_pair(e);
        if (!had)
            sk_log("ping-pong pair: ranks %d and %d (largest round trip %.2f us)", e->pair[0],
                   e->pair[1], e->pair_latency * 1e6);
    }
    e->window_slack = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    sc.t_start = MPI_Wtime();
    if (sko) {
        fprintf(sko, "# suite \"%s\": type %d %s (%s), variation %s, scale %s%s%s\n", s->name, s->type,
                in->name, sk_pattern_name(in->pattern), sk_variation_name(s->variation),
                sk_scale_name(s->scale),
                in->pattern == SK_COLLECTIVE
                    ? (s->sync == SK_SYNC_WINDOW ? ", sync window, clocks " : ", sync barrier")
                    : "",
                in->pattern == SK_COLLECTIVE && s->sync == SK_SYNC_WINDOW
                    ? eb_clock_method_name(e->clock_method) : "");
        if (s->send_datatype || s->recv_datatype)
            fprintf(sko, "# datatypes: send pattern %d (%s), receive pattern %d (%s) over @BASETYPE%d %s\n",
                    s->send_datatype, sk_dt_name(s->send_datatype), s->recv_datatype,
                    sk_dt_name(s->recv_datatype), s->basetype, cfg->basetype[s->basetype]);
        fprintf(sko, "# begin result \"%s\"\n", s->name);
        fflush(sko);
    }
    suite_run sr = {e, &sc, p, sko, 0, crash_point(s->name)};
    sk_point *pts;
    int n = sk_refine_run(&p->grid, measure_cb, &sr, &pts);
    int refined = 0;
    for (int i = 0; i < n; i++)
        refined += pts[i].refined;
    free(pts);
    double dur = MPI_Wtime() - sc.t_start;
    if (sko) {
        fprintf(sko, "# end result \"%s\"\n# duration = %.2f sec\n\n", s->name, dur);
        fflush(sko);
    }
    if (s->time_suite > 0 && dur > s->time_suite)
        sk_log("note: %s: Time_Suite %g s reached", s->name, s->time_suite);
    sk_log("suite end %s", s->name);
    sk_log("note: %s: %d measurements (%d by refinement), %.2f s", s->name, n, refined, dur);
}
