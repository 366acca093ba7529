#include "osu/osu_json.h"

#include "core/component_names.h"
#include "core/guard.h"
#include "core/report/jsonl.h"
#include "osu/osu_accel.h"
#include "osu/osu_options.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const WINS[] = {"create", "allocate", "dynamic"};
static const char *const SYNCS[] = {"lock", "pscw", "fence", "flush", "flush_local", "lock_all"};

void osu_json_options(const osu_prog *p, const osu_options *o, eb_run *run)
{
    eb_run_opt_str(run, "program", p->name, EB_DECIDES);
    eb_run_opt_str(run, "methodology", OSU_METHODOLOGY, EB_DECIDES);
    eb_run_opt_int(run, "min_size", (long long)o->min_size, EB_INFO);
    eb_run_opt_int(run, "max_size", (long long)o->max_size, EB_INFO);
    eb_run_opt_int(run, "iterations", o->iterations, EB_DECIDES);
    eb_run_opt_int(run, "skip", o->skip, EB_DECIDES);
    eb_run_opt_int(run, "iterations_large", o->iterations_large, EB_DECIDES);
    eb_run_opt_int(run, "skip_large", o->skip_large, EB_DECIDES);
    eb_run_opt_int(run, "large_message_size", OSU_LARGE_MESSAGE_SIZE, EB_INFO);
    eb_run_opt_bool(run, "full", o->show_full, EB_INFO);
    eb_run_opt_bool(run, "validate", o->validate, EB_INFO);
    if (p->bench == OSU_PT2PT || p->bench == OSU_MBW_MR || p->bench == OSU_ONE_SIDED)
        eb_run_opt_int(run, "window_size", o->window_size, EB_DECIDES);
    if (p->bench == OSU_MBW_MR) {
        eb_run_opt_bool(run, "vary_window", o->window_varied, EB_DECIDES);
        eb_run_opt_int(run, "pairs", o->pairs, EB_DECIDES);
    }
    if (p->bench == OSU_COLLECTIVE) {
        eb_run_opt_int(run, "num_probes", o->num_probes, EB_DECIDES);
        eb_run_opt_bool(run, "in_place", o->in_place, EB_DECIDES);
        if (o->root >= 0)
            eb_run_opt_int(run, "root", o->root, EB_DECIDES);
        else
            eb_run_opt_str(run, "root", "rotate", EB_DECIDES);
    }
    if (strchr(p->optstring, 'N')) { /* the neighbourhood collectives' -N */
        char topo[1100];
        if (o->nhbr_graph)
            snprintf(topo, sizeof topo, "graph:%s", o->nhbr_file);
        else
            snprintf(topo, sizeof topo, "cart:%d:%d", o->nhbr_dim, o->nhbr_rad);
        eb_run_opt_str(run, "topology", topo, EB_DECIDES);
    }
    if (p->bench == OSU_ONE_SIDED) {
        eb_run_opt_str(run, "window", WINS[o->win], EB_DECIDES);
        eb_run_opt_str(run, "sync", SYNCS[o->sync], EB_DECIDES);
    }
    eb_run_opt_bool(run, "session", o->session, EB_INFO);
    osu_accel_record(p, o, run); /* "buffers" as they are, "accelerator", "staging" */
    if (o->buffers_asked[0])
        eb_run_opt_str(run, "buffers_asked", o->buffers_asked, EB_INFO);
    eb_run_opt_bool(run, "buffers_multiple", o->buf_multiple, EB_DECIDES);
    eb_json *a = eb_run_opt_array(run, "percentiles", EB_INFO);
    for (int k = 0; k < o->npercentiles; k++)
        eb_json_int(a, NULL, o->percentiles[k]);
    eb_json_close(a);
    a = eb_run_opt_array(run, "datatypes", EB_DECIDES);
    for (int k = 0; k < o->ndtypes; k++)
        eb_json_str(a, NULL, osu_dtype_name(o->dtypes[k]));
    eb_json_close(a);
}

void osu_row_key(char *out, size_t n, const char *prog, const char *dtype, int procs,
                 size_t bytes)
{
    snprintf(out, n, "%s|%s|%d|%zu", prog, dtype, procs, bytes);
}

static void num_if(eb_json *j, const char *key, double v)
{
    if (!isnan(v))
        eb_json_num(j, key, v);
}

/* The row's record; w >= 0: osu_mbw_mr -V's record of window w. */
static void result_record(const osu_ctx *c, const osu_row *row, int w)
{
    const osu_prog *p = c->prog;
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_OSU);
    eb_json_str(&j, "benchmark", p->name);
    eb_json_str(&j, "methodology", OSU_METHODOLOGY);
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", row->procs ? row->procs : c->size);
    eb_json_int(&j, "bytes", (long long)row->bytes);
    if (p->bench != OSU_STARTUP) /* the -T type of the row (osu_init, osu_hello: none) */
        eb_json_str(&j, "datatype", osu_dtype_name(c->dtype));
    eb_json_int(&j, "repetitions", row->iterations);
    eb_json_int(&j, "skip", c->skip);
    /* the operation's own time: a non-blocking collective's pure communication */
    int nbc = p->row == OSU_ROW_NBC;
    eb_json_num(&j, "t_avg_us", nbc ? row->pure_comm_us : row->avg_us);
    eb_json_num(&j, "t_min_us", nbc ? row->min_comm_us : row->min_us);
    eb_json_num(&j, "t_max_us", nbc ? row->max_comm_us : row->max_us);
    eb_json_null(&j, "mbytes_per_s"); /* IMB's 2^20: OSU's MB/s are mb_per_s */
    num_if(&j, "mb_per_s", w >= 0 ? row->window_mb_per_s[w] : row->mb_per_s);
    num_if(&j, "messages_per_s", w >= 0 ? row->window_messages_per_s[w] : row->messages_per_s);
    if (nbc) {
        eb_json_num(&j, "overall_us", row->overall_us);
        eb_json_num(&j, "compute_us", row->compute_us);
        eb_json_num(&j, "init_us", row->init_us);
        eb_json_num(&j, "test_us", row->test_us);
        eb_json_num(&j, "wait_us", row->wait_us);
        eb_json_num(&j, "pure_comm_us", row->pure_comm_us);
        eb_json_num(&j, "min_comm_us", row->min_comm_us);
        eb_json_num(&j, "max_comm_us", row->max_comm_us);
        eb_json_num(&j, "overlap_pct", row->overlap_pct);
    }
    if (c->o->npercentiles && w < 0) {
        /* tails of a bandwidth table are bandwidths */
        eb_json_object(&j, isnan(row->mb_per_s) ? "percentiles" : "percentiles_mb_per_s");
        for (int k = 0; k < c->o->npercentiles; k++) {
            char key[8];
            snprintf(key, sizeof key, "%d", c->o->percentiles[k]);
            eb_json_num(&j, key, row->percentiles[k]);
        }
        eb_json_close(&j);
    }
    for (int k = 0; k < row->nnaming; k++)
        eb_json_int(&j, row->naming_key[k], row->naming_value[k]);
    if (w >= 0)
        eb_json_int(&j, "window_size", row->windows[w]);
    if (p->bench == OSU_ONE_SIDED) {
        eb_json_str(&j, "window", WINS[c->o->win]);
        eb_json_str(&j, "sync", SYNCS[c->o->sync]);
    }
    eb_json_bool(&j, "checked", c->o->validate && p->check);
    if (row->defects >= 0) {
        eb_json_int(&j, "defects", row->defects);
        eb_json_str(&j, "validation", row->defects > 0 ? "Fail" : "Pass");
    } else {
        eb_json_null(&j, "defects");
    }
    if (c->o->ddt)
        eb_json_int(&j, "transmit_bytes", (long long)row->transmit_size);
    osu_accel_row_json(c, &j);
    eb_jsonl_emit(&j); /* eb_jsonl_begin counted the row */
}

void osu_json_row(const osu_ctx *c, const osu_row *row)
{
    /* osu_mbw_mr -V: a record per window size, as OSU's text import writes them */
    for (int w = row->nwindows ? 0 : -1; w < row->nwindows; w++) {
        if (eb_jsonl_active())
            result_record(c, row, w);
        else
            eb_guard_count_row();
    }
}
