/* b_eff's JSON Lines records (docs/beff.md "JSON Lines"): the run record's
 * options, one result per b(pat, L, mthd, rep), the summary, and --resume's
 * reading back of the results of an interrupted run. */
#include "beff/beff_json.h"

#include "beff/beff_protocol.h"
#include "core/component_names.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/nodemap.h"
#include "core/report/jsonl.h"

#include <stdio.h>
#include <string.h>

void beff_json_result(const beff_run *r, int p, int l, int m, int rep)
{
    size_t i = beff_idx(r, p, l, m, rep);
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_BEFF);
    eb_json_str(&j, "benchmark", r->pat[p].name);
    eb_json_null(&j, "group");
    eb_json_null(&j, "mode");
    eb_json_int(&j, "procs", r->P);
    eb_json_int(&j, "bytes", r->len[l]);
    eb_json_int(&j, "repetitions", r->loop[i]);
    eb_json_num(&j, "t_min_us", r->tmin[i] * 1e6);
    eb_json_num(&j, "t_max_us", r->tmax[i] * 1e6);
    eb_json_num(&j, "t_avg_us", r->tavg[i] * 1e6);
    eb_json_null(&j, "mbytes_per_s");
    if (r->opt.check)
        eb_json_int(&j, "defects", r->defects[i]);
    else
        eb_json_null(&j, "defects");
    eb_json_int(&j, "pattern", p);
    eb_json_str(&j, "pattern_kind", r->pat[p].kind == BEFF_RING     ? "ring"
                                    : r->pat[p].kind == BEFF_RANDOM ? "random"
                                                                     : "analysis");
    eb_json_str(&j, "method", beff_method_json[m]);
    eb_json_int(&j, "rep", rep);
    eb_json_int(&j, "length_index", l);
    eb_json_int(&j, "messages", r->messages[p]);
    eb_json_int(&j, "active_procs", r->pat[p].active);
    eb_json_num(&j, "b_mb_per_s", r->b[i]);
    eb_jsonl_emit(&j);
}

/* Options marked EB_DECIDES decide the values: --resume refuses a file
 * whose run had other values. */
void beff_json_options(const beff_run *r, eb_run *run)
{
    eb_guard_plan_rows(beff_planned_rows(r));
    eb_run_opt_int(run, "planned_rows", beff_planned_rows(r), EB_INFO);
    eb_run_opt_int(run, "mem_per_proc_mb", r->opt.mem_mib, EB_DECIDES);
    eb_run_opt_bool(run, "mem_detected", r->opt.mem_detected, EB_INFO);
    eb_run_opt_int(run, "l_max_bytes", r->lmax, EB_DECIDES);
    eb_json *a = eb_run_opt_array(run, "lengths", EB_DECIDES);
    for (int l = 0; l < BEFF_NLEN; l++)
        eb_json_int(a, NULL, r->len[l]);
    eb_json_close(a);
    eb_run_opt_int(run, "random_patterns", r->opt.nrandom, EB_DECIDES);
    eb_run_opt_int(run, "seed", (long long)r->opt.seed, EB_DECIDES);
    eb_run_opt_bool(run, "split_nonblocking", r->opt.split_nonblocking, EB_DECIDES);
    a = eb_run_opt_array(run, "methods", EB_DECIDES);
    for (int m = 0; m < r->nmeth; m++)
        eb_json_str(a, NULL, beff_method_json[m]);
    eb_json_close(a);
    if (r->opt.rmax_gflops > 0)
        eb_run_opt_num(run, "rmax_gflops", r->opt.rmax_gflops, EB_INFO);
    else
        eb_run_opt_null(run, "rmax_gflops", EB_INFO);
    eb_run_opt_num(run, "loop_ms", r->opt.loop_ms, EB_DECIDES);
    eb_run_opt_int(run, "repeat", r->opt.repeat, EB_DECIDES);
    eb_run_opt_str(run, "protocol", r->opt.protocol_path, EB_INFO);
    a = eb_run_opt_array(run, "patterns", EB_DECIDES);
    for (int p = 0; p < r->npat; p++)
        eb_json_str(a, NULL, r->pat[p].name);
    eb_json_close(a);
}

void beff_json_summary(const beff_run *r, const beff_summary *s)
{
    eb_json j;
    eb_jsonl_begin(&j, "summary");
    eb_json_str(&j, "component", EB_COMPONENT_BEFF);
    eb_json_num(&j, "b_eff_mb_per_s", s->b_eff);
    eb_json_num(&j, "b_eff_per_proc_mb_per_s", s->b_eff / r->P);
    eb_json_num(&j, "b_eff_rings_mb_per_s", s->b_rings);
    eb_json_num(&j, "b_eff_random_mb_per_s", s->b_random);
    eb_json_num(&j, "b_eff_lmax_mb_per_s", s->lmax_all);
    eb_json_num(&j, "b_eff_lmax_per_proc_mb_per_s", s->lmax_all / r->P);
    eb_json_num(&j, "b_eff_lmax_rings_mb_per_s", s->lmax_rings);
    eb_json_num(&j, "b_eff_lmax_rings_per_proc_mb_per_s", s->lmax_rings / r->P);
    eb_json_num(&j, "latency_us", s->latency_us);
    eb_json_num(&j, "latency_rings_us", s->latency_rings_us);
    eb_json_num(&j, "pingpong_latency_us", s->pingpong_latency_us);
    eb_json_num(&j, "pingpong_bw_mb_per_s", s->pingpong_bw);
    if (r->pingpong >= 0) {
        /* the same figures by where the pair ran (null where no pair of that kind) */
        eb_json_str(&j, "pingpong_link", eb_link_label(0, 1));
        for (int k = 0; k < 2; k++) {
            static const char *const lat[] = {"pingpong_intra_latency_us",
                                              "pingpong_inter_latency_us"};
            static const char *const bw[] = {"pingpong_intra_bw_mb_per_s",
                                             "pingpong_inter_bw_mb_per_s"};
            eb_json_num(&j, lat[k], s->link_latency_us[k]);
            eb_json_num(&j, bw[k], s->link_bw[k]);
        }
    }
    eb_json_int(&j, "procs", r->P);
    eb_json_int(&j, "mem_per_proc_mb", r->opt.mem_mib);
    eb_json_int(&j, "l_max_bytes", r->lmax);
    if (r->opt.rmax_gflops > 0)
        eb_json_num(&j, "balance_bytes_per_flop", s->b_eff / (r->opt.rmax_gflops * 1e3));
    else
        eb_json_null(&j, "balance_bytes_per_flop");
    eb_json_num(&j, "elapsed_s", r->elapsed_s);
    eb_json_num(&j, "timed_loops_s", r->sum_loop_s);
    eb_json_int(&j, "repeat", r->opt.repeat);
    char line[2048];
    beff_result_line(line, sizeof line, r, s);
    eb_json_str(&j, "line", line);
    eb_jsonl_emit(&j);
}

/* ------------------------------------------------------------- --resume */

/* A result record of the file, as b(pat, L, mthd, rep). */
typedef struct {
    char name[128], meth[32];
    long long p, l, rep, bytes, loop;
    double b, tmax;
    int m; /* method index, -1: not a method of this run */
} resumed_row;

static void read_row(const beff_run *r, const char *row, resumed_row *x)
{
    memset(x, 0, sizeof *x);
    eb_jsonl_str(row, "benchmark", x->name, sizeof x->name);
    eb_jsonl_str(row, "method", x->meth, sizeof x->meth);
    x->p = eb_jsonl_int(row, "pattern", -1);
    x->l = eb_jsonl_int(row, "length_index", -1);
    x->rep = eb_jsonl_int(row, "rep", -1);
    x->bytes = eb_jsonl_int(row, "bytes", -1);
    x->loop = eb_jsonl_int(row, "repetitions", 0);
    x->b = eb_jsonl_num(row, "b_mb_per_s");
    x->tmax = eb_jsonl_num(row, "t_max_us");
    x->m = -1;
    for (int i = 0; i < r->nmeth; i++)
        if (strcmp(x->meth, beff_method_json[i]) == 0)
            x->m = i;
}

/* Is the row a measurement of this run's plan?  Else the message. */
static int row_fits(const beff_run *r, const resumed_row *x, const char *path, long line,
                    char *msg, size_t n)
{
    if (x->p < 0 || x->p >= r->npat || strcmp(x->name, r->pat[x->p].name) != 0)
        snprintf(msg, n, "--resume %s:%ld: pattern %lld '%s' is not a pattern of this run", path,
                 line, x->p, x->name);
    else if (x->l < 0 || x->l >= BEFF_NLEN || x->bytes != r->len[x->l])
        snprintf(msg, n, "--resume %s:%ld: length %lld of %lld bytes is not a length of this "
                 "run", path, line, x->l, x->bytes);
    else if (x->m < 0 || !beff_measured(r, (int)x->p, x->m))
        snprintf(msg, n, "--resume %s:%ld: method '%s' is not measured for %s in this run", path,
                 line, x->meth, x->name);
    else if (x->rep < 0 || x->rep >= r->opt.repeat)
        snprintf(msg, n, "--resume %s:%ld: repetition %lld is not 0..%d", path, line, x->rep,
                 r->opt.repeat - 1);
    else if (x->loop < 1 || !(x->b > 0) || !(x->tmax > 0))
        snprintf(msg, n, "--resume %s:%ld: no valid repetitions, t_max_us and b_mb_per_s", path,
                 line);
    else
        return 1;
    return 0;
}

void beff_load_resumed(beff_run *r, const eb_resume *rs, const char *path)
{
    char msg[EB_ERRLEN] = "";
    for (int k = 0; k < rs->nrows; k++) {
        const char *row = rs->rows[k];
        resumed_row x;
        read_row(r, row, &x);
        if (!row_fits(r, &x, path, rs->line[k], msg, sizeof msg))
            break;
        size_t i = beff_idx(r, (int)x.p, (int)x.l, x.m, (int)x.rep);
        if (r->resumed[i]) {
            snprintf(msg, sizeof msg, "--resume %s:%ld: %s %s length %lld repetition %lld is in "
                     "the file twice", path, rs->line[k], x.name, x.meth, x.l, x.rep);
            break;
        }
        r->resumed[i] = 1;
        r->nresumed++;
        r->b[i] = x.b;
        r->loop[i] = (long)x.loop;
        r->tmax[i] = x.tmax * 1e-6;
        r->tmin[i] = eb_jsonl_num(row, "t_min_us") * 1e-6;
        r->tavg[i] = eb_jsonl_num(row, "t_avg_us") * 1e-6;
        r->defects[i] = (long)eb_jsonl_int(row, "defects", 0);
    }
    if (msg[0])
        eb_exit_all(EB_EXIT_USAGE, msg);
}
