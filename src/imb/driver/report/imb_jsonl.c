/* The JSON Lines reporter of IMB runs: the run record with the run's
 * options, a `result` record per row, a `skip` record per benchmark not run,
 * the `end` record; --resume carries on in an interrupted run's file. */
#include "imb/driver/report/imb_jsonl.h"

#include "core/clock.h"
#include "core/guard.h"
#include "imb/driver/gpu.h"
#include "imb/driver/imb2021_defaults.h"
#include "imb/driver/imb2021_options.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rows' methodology when it is not their component's classic one (IMB
 * 2021.11's under --imb-defaults 2021), else NULL: set by the run record. */
static const char *row_methodology;
/* The memory kind of the rows' buffers under a GPU program (IMB-MPI1-GPU's
 * -mem_alloc_type), else NULL: set by the run record. */
static const char *row_memory;

void eb_jsonl_result(const eb_row *row, const char *component)
{
    if (!eb_jsonl_active()) {
        eb_guard_count_row(); /* text only: the row still counts for "how far" */
        return;
    }
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", component);
    eb_json_str(&j, "benchmark", row->name);
    if (row->group >= 0)
        eb_json_int(&j, "group", row->group);
    else
        eb_json_null(&j, "group");
    eb_json_str(&j, "mode", row->mode);
    eb_json_int(&j, "procs", row->procs);
    eb_json_int(&j, "bytes", (long long)row->bytes);
    eb_json_int(&j, "repetitions", row->reps);
    eb_json_num(&j, "t_min_us", row->t_min);
    eb_json_num(&j, "t_max_us", row->t_max);
    eb_json_num(&j, "t_avg_us", row->t_avg);
    eb_json_num(&j, "mbytes_per_s", row->mbps);
    if (row->defects >= 0)
        eb_json_int(&j, "defects", row->defects);
    else
        eb_json_null(&j, "defects");
    if (row->checked >= 0) /* -check: false where the benchmark has no data check */
        eb_json_bool(&j, "checked", row->checked);
    eb_json_str(&j, "sync", row->sync_window ? "window" : "barrier");
    if (row_methodology)
        eb_json_str(&j, "methodology", row_methodology);
    if (row_memory) {
        eb_json_object(&j, "memory"); /* IMB's one -mem_alloc_type for both buffers */
        eb_json_str(&j, "send", row_memory);
        eb_json_str(&j, "recv", row_memory);
        eb_json_close(&j);
    }
    if (row->sync_window) {
        eb_json_num(&j, "valid_fraction", row->valid_fraction);
        eb_json_int(&j, "invalid_repetitions", row->invalid_reps);
        eb_json_num(&j, "window_us", row->window_us);
        eb_json_str(&j, "clock_sync", eb_clock_method_name(row->clock_method));
        eb_json_num(&j, "clock_sync_us", row->clock_sync_us);
        eb_json_num(&j, "clock_offset_max_us", row->clock_offset_max_us);
        eb_json_num(&j, "clock_check_error_us", row->clock_check_error_us);
        eb_json_num(&j, "clock_drift_ppm", row->clock_drift_ppm);
    }
    if (row->quick) {
        eb_json_num(&j, "rel_std_error", row->quick_rel_error);
        eb_json_bool(&j, "converged", row->quick_converged);
    }
    if (row->loops > 1) {
        eb_json_int(&j, "loops", row->loops);
        const char *names[] = {"loop_t_min_us", "loop_t_max_us", "loop_t_avg_us"};
        const double *values[] = {row->loop_t_min, row->loop_t_max, row->loop_t_avg};
        for (int f = 0; f < 3; f++) {
            eb_json_array(&j, names[f]);
            for (int k = 0; k < row->loops; k++)
                eb_json_num(&j, NULL, values[f][k]);
            eb_json_close(&j);
        }
        eb_json_num(&j, "loop_t_max_min_us", row->rep_min);
        eb_json_num(&j, "loop_t_max_max_us", row->rep_max);
        eb_json_num(&j, "spread", row->spread);
    }
    if (row->link)
        eb_json_str(&j, "link", row->link);
    for (int k = 0; k < EB_MAX_EXTRA; k++)
        if (row->bench->extra_json[k])
            eb_json_num(&j, row->bench->extra_json[k], row->extra[k]);
    eb_jsonl_emit(&j);
}

/* The run record's `options`: every effective option of the IMB command
 * line (docs/json-lines.md). */
static void options_json(eb_json *j, const eb_report_run *run)
{
    const eb_imb_options *o = run->o;
    eb_json_object(j, "options");
    eb_json_int(j, "planned_rows", run->planned_rows);
    eb_json_array(j, "benchmarks");
    for (int i = 0; i < run->n; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s%s", run->multi[i] >= 0 ? "Multi-" : "", run->list[i]->name);
        eb_json_str(j, NULL, name);
    }
    eb_json_close(j);
    eb_json_array(j, "msglen");
    for (int i = 0; i < o->msglen.n; i++)
        eb_json_int(j, NULL, (long long)o->msglen.v[i]);
    eb_json_close(j);
    eb_json_int(j, "msglog_min", o->msglog_min);
    eb_json_int(j, "msglog_max", o->msglog_max);
    eb_json_int(j, "npmin", o->npmin);
    if (o->multi >= 0)
        eb_json_int(j, "multi", o->multi);
    else
        eb_json_null(j, "multi");
    eb_json_num(j, "off_cache_mb", o->cache.cache_mb > 0 ? o->cache.cache_mb : NAN);
    eb_json_int(j, "off_cache_line", (long long)o->cache.line);
    eb_json_int(j, "msgspersample", o->iter.msgspersample);
    eb_json_int(j, "overall_vol", o->iter.overall_vol);
    eb_json_int(j, "msgs_nonaggr", o->iter.msgs_nonaggr);
    eb_json_str(j, "iter_policy", eb_iter_policy_name(o->iter.policy));
    eb_json_num(j, "time_s", o->iter.secs);
    eb_json_num(j, "mem_gb", o->mem_gb);
    if (o->map_p > 0) {
        char m[32];
        snprintf(m, sizeof m, "%dx%d", o->map_p, o->map_q);
        eb_json_str(j, "map", m);
    } else {
        eb_json_null(j, "map");
    }
    eb_json_int(j, "n_barr", EB_N_BARR);
    eb_json_int(j, "n_warmup", EB_N_WARMUP);
    eb_json_int(j, "repeat", o->repeat);
    eb_json_str(j, "sync", o->sync_window ? "window" : "barrier");
    if (o->sync_window)
        eb_json_str(j, "clock_sync", eb_clock_method_name(o->clock_sync));
    eb_imb2021_json(j, o);
    eb_json_bool(j, "quick", o->quick);
    if (o->quick)
        eb_json_num(j, "epsilon", o->epsilon);
    eb_json_close(j);
}

/* Collective: the run record, then a new file (--json) or the interrupted
 * one carried on (--resume, whose kept rows become the run's resume keys). */
static void jsonl_begin(eb_report_run *run)
{
    const eb_imb_options *o = run->o;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    eb_json rec;
    eb_jsonl_run_begin(&rec, o->family->component, run->si, o->check);
    eb_json_str(&rec, "imb_defaults", eb_imb_defaults_name(o));
    eb_json_str(&rec, "methodology", eb_imb_methodology(o));
    row_methodology = o->imb21.defaults2021 ? eb_imb_methodology(o) : NULL;
    row_memory = o->gpu ? eb_mem_kind_name(o->mem) : NULL;
    eb_imb_gpu_json(&rec, o);
    options_json(&rec, run);
    if (o->resume) {
        /* rows kept and rows measured now must come from the same method */
        static const char *const same[] = {
            "procs", "check", "options.benchmarks", "options.msglen", "options.msglog_min",
            "options.msglog_max", "options.npmin", "options.multi", "options.off_cache_mb",
            "options.off_cache_line", "options.msgspersample", "options.overall_vol",
            "options.msgs_nonaggr", "options.iter_policy", "options.time_s", "options.mem_gb",
            "options.map", "options.repeat", "options.sync", "options.quick",
            "options.root_shift", "options.imb_sync", "options.zero_size", "options.warm_up",
            "options.data_type", "options.red_data_type", "options.aggregate_mode",
            "imb_defaults",
            /* the GPU programs' records alone have these: the plain programs stop before */
            "program", "mem_alloc_type", NULL};
        enum { N_SAME = sizeof same / sizeof *same };
        const char *fields[N_SAME];
        memcpy(fields, same, sizeof same);
        if (!o->gpu)
            fields[N_SAME - 3] = NULL;
        eb_jsonl_resume(o->json_path, o->family->component, eb_json_finish(&rec), fields, NULL,
                        &run->resume_keys, &run->n_resume_keys);
        eb_json_free(&rec);
    } else {
        eb_jsonl_open(o->json_path);
        if (wrank == 0)
            eb_jsonl_emit(&rec);
        else
            eb_json_free(&rec);
    }
}

/* A benchmark the run has too few processes for. */
static void jsonl_table_start(const eb_report_run *run, const eb_report_table *t)
{
    if (t->need_procs <= 0 || !eb_jsonl_active())
        return;
    eb_json j;
    eb_jsonl_begin(&j, "skip");
    eb_json_str(&j, "component", run->o->family->component);
    eb_json_str(&j, "benchmark", t->bench->name);
    eb_json_int(&j, "procs", t->procs);
    char why[128];
    snprintf(why, sizeof why, "needs %d processes", t->need_procs);
    eb_json_str(&j, "reason", why);
    eb_jsonl_emit(&j);
}

static void jsonl_row(const eb_report_run *run, const eb_report_table *t, const eb_row *row)
{
    (void)t;
    eb_jsonl_result(row, run->o->family->component);
}

static void jsonl_footer(const eb_report_run *run)
{
    (void)run;
    eb_jsonl_end("ok", NULL);
}

const eb_reporter eb_jsonl_reporter = {
    .name = "jsonl",
    .begin = jsonl_begin,
    .table_start = jsonl_table_start,
    .row = jsonl_row,
    .footer = jsonl_footer,
};
