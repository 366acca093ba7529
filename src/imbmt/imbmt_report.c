/* IMB-MT's text (MT_benchmark.h's out_field: 13 characters a field, cut
 * where longer) and effbench's JSON record of a row. */
#include "core/component_names.h"
#include "imbmt/imbmt.h"
#include "core/json.h"
#include "core/report/jsonl_writer.h"
#include "core/guard.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static const char dashes[] =
    "#-----------------------------------------------------------------------------\n";

/* One field: IMB-MT formats into 14 bytes, so at most 13 characters show. */
static void field(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void field(const char *fmt, ...)
{
    char s[14];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    fputs(s, stdout);
}

void mt_text_banner(void)
{
    printf("#------------------------------------------------------------------\n"
           "#    Intel(R) MPI Benchmarks 2021.11, MT part    \n"
           "#------------------------------------------------------------------\n#\n");
}

void mt_text_table(const mt_run *r, int nprocs)
{
    unsigned f = r->b->flags;
    printf("\n%s# Benchmarking %s\n# #processes = %d (threads: %d)\n", dashes, r->b->name,
           nprocs, r->nthreads);
    if (f & MT_WINDOW)
        printf("# window_size = %d\n", r->o->window_size);
    fputs(dashes, stdout);
    if (!(f & MT_SEND_0))
        field("%13s", "#bytes");
    field("%13s", "#repetitions");
    if (f & MT_OUT_MINMAX) {
        field("%13s", "t_min[usec]");
        field("%13s", "t_max[usec]");
    }
    field("%13s", "t_avg[usec]");
    if (f & (MT_OUT_BW | MT_OUT_BW_CUM))
        field("%13s", "Mbytes/sec");
    if (f & MT_OUT_BW_CUM)
        field("%13s", "Msg/sec");
    putchar('\n');
}

void mt_text_no_success(const mt_run *r)
{
    printf("\n%s# Benchmarking %s\n# NO SUCCESSFUL EXECUTIONS\n%s\n", dashes, r->b->name, dashes);
}

void mt_text_row(const mt_run *r, const mt_row *row)
{
    unsigned f = r->b->flags;
    if (!(f & MT_SEND_0))
        field("%13u", (unsigned)row->bytes); /* IMB-MT's "% 13ul": the 'l' never shows */
    field("% 13d", r->o->repeat);
    if (f & MT_OUT_MINMAX) {
        field("% 13.2f", 1e6 * row->t_min);
        field("% 13.2f", 1e6 * row->t_max);
    }
    field("% 13.2f", 1e6 * row->t_avg);
    if (f & MT_OUT_BW)
        field("% 13.2f", row->mbytes_per_s);
    if (f & MT_OUT_BW_CUM) {
        field("% 13.2f", row->mbytes_per_s_cum);
        field("% 13d", row->msg_per_s);
    }
    putchar('\n');
}

static void num_or_null(eb_json *j, const char *key, double v)
{
    if (isfinite(v))
        eb_json_num(j, key, v);
    else
        eb_json_null(j, key);
}

/* One record per table row; each thread of each rank in its "threads". */
void mt_json_row(const mt_run *r, const mt_row *row)
{
    if (!eb_jsonl_active()) {
        eb_guard_count_row();
        return;
    }
    unsigned f = r->b->flags;
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_MT);
    eb_json_str(&j, "benchmark", r->b->name);
    eb_json_str(&j, "methodology", MT_METHODOLOGY);
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", row->nresults / r->nthreads);
    eb_json_int(&j, "threads", r->nthreads);
    eb_json_int(&j, "count", row->count);
    eb_json_int(&j, "bytes", (long long)row->bytes);
    eb_json_int(&j, "repetitions", r->o->repeat);
    eb_json_num(&j, "t_min_us", 1e6 * row->t_min);
    eb_json_num(&j, "t_max_us", 1e6 * row->t_max);
    eb_json_num(&j, "t_avg_us", 1e6 * row->t_avg);
    eb_json_null(&j, "mbytes_per_s"); /* IMB's 2^20 unit: IMB-MT's are mb_per_s */
    num_or_null(&j, "mb_per_s", f & MT_OUT_BW ? row->mbytes_per_s
                                : f & MT_OUT_BW_CUM ? row->mbytes_per_s_cum : NAN);
    if (f & MT_OUT_BW_CUM)
        eb_json_int(&j, "msg_per_sec", row->msg_per_s);
    if (f & MT_WINDOW)
        eb_json_int(&j, "window_size", r->o->window_size);
    int checked = r->o->check && !(f & MT_SEND_0); /* BarrierMT moves no data */
    eb_json_bool(&j, "checked", checked);
    if (checked)
        eb_json_int(&j, "defects", row->failures);
    else
        eb_json_null(&j, "defects");
    eb_json_array(&j, "per_thread");
    for (int k = 0; k < r->world_size * r->nthreads; k++) {
        eb_json_object(&j, NULL);
        eb_json_int(&j, "rank", k / r->nthreads);
        eb_json_int(&j, "thread", k % r->nthreads);
        eb_json_bool(&j, "took_part", row->thread_result[k]);
        eb_json_num(&j, "t_us", 1e6 * row->thread_t[k]);
        eb_json_close(&j);
    }
    eb_json_close(&j);
    eb_jsonl_emit(&j);
}
