#include "imb/driver/report/imb_text.h"

#include "core/clock.h"
#include "core/nodemap.h"
#include "imb/driver/gpu.h"
#include "imb/driver/imb2021_options.h"
#include "imb/driver/report/imb2021_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define COL_W 13
#define MAX_COLS (EB_MAX_EXTRA + 10)

enum { COL_GROUP = -1, COL_DEFECTS = -2, COL_REP_MIN = -3, COL_REP_MAX = -4, COL_SPREAD = -5, COL_VALID = -6, COL_LOOPS = -7, COL_REL_ERR = -8 };

int eb_imb_columns(const eb_bench *b, const eb_imb_options *o, int multi, eb_column *cols,
                   int max)
{
    int n = 0, check = o->check, o21 = o->imb21.defaults2021;
    int repeat = o->sync_window ? -1 : o->quick ? 0 : o->repeat;
#define ADD(i, h) do { if (n < max - 1) { cols[n].id = (i); cols[n].header = (h); n++; } } while (0)
    if (multi == 1)
        ADD(COL_GROUP, o21 ? "Group" : "#group"); /* IMB 2021.11's heading */
    if (b->columns) {
        for (const eb_column *c = b->columns; c->header; c++)
            ADD(c->id, c->header);
    } else {
        if (!(b->flags & EB_F_NO_BYTES))
            ADD(EB_COL_BYTES, "#bytes");
        ADD(EB_COL_REPS, "#repetitions");
        /* IMB 2021.11 keeps a single transfer's t[usec] in its groups' rows too */
        if (b->cls == EB_SINGLE_TRANSFER && (multi < 0 || (o21 && multi == 1))) {
            ADD(EB_COL_T, "t[usec]");
        } else {
            ADD(EB_COL_TMIN, "t_min[usec]");
            ADD(EB_COL_TMAX, "t_max[usec]");
            ADD(EB_COL_TAVG, "t_avg[usec]");
        }
        if (b->nmsg > 0)
            ADD(EB_COL_MBPS, "Mbytes/sec");
    }
    if (check)
        ADD(COL_DEFECTS, "defects");
    if (repeat < 0 && b->cls != EB_SINGLE_TRANSFER && !b->measure)
        ADD(COL_VALID, "valid");
    if (repeat == 0) { /* quick mode */
        ADD(COL_LOOPS, "loops");
        ADD(COL_REP_MIN, "loop_min");
        ADD(COL_REP_MAX, "loop_max");
        ADD(COL_SPREAD, "spread");
        ADD(COL_REL_ERR, "rel_err[%]");
    }
    if (repeat > 1) {
        ADD(COL_REP_MIN, "loop_min");
        ADD(COL_REP_MAX, "loop_max");
        ADD(COL_SPREAD, "spread");
    }
    cols[n].header = NULL;
#undef ADD
    return n;
}

static void dashes(int ncols)
{
    putchar('#');
    for (int i = 1; i < ncols * COL_W; i++)
        putchar('-');
    putchar('\n');
}

/* Where the ranks ran, as header comment lines ("# Host : NAME (ranks 0-3)"),
 * so a text output imported later still names its machine. */
static void print_hosts(void)
{
    const eb_nodemap *m = eb_world_nodes();
    printf("# Hosts                 : %d\n", m->nnodes);
    for (int n = 0; n < m->nnodes; n++) {
        printf("# Host                  : %s (ranks ", m->name[n]);
        const char *sep = "";
        for (int r = 0; r < m->size; r++) {
            if (m->node_of[r] != n || (r > 0 && m->node_of[r - 1] == n))
                continue; /* only where a run of this node's ranks begins */
            int e = r;
            while (e + 1 < m->size && m->node_of[e + 1] == n)
                e++;
            printf(e > r ? "%s%d-%d" : "%s%d", sep, r, e);
            sep = ",";
        }
        printf(")\n");
    }
}

static void print_check_note(void)
{
    printf("#\n# CHECK: -check is on: every received buffer is verified in an extra,\n"
           "# untimed pass; defects are counted in the last column (\"not checked\"\n"
           "# where a benchmark has no data check).\n"
           "# Timings of a checked run are not for publication.\n");
}

/* "# List of Benchmarks to run:" follows: the names, with their comments. */
static void print_list(const eb_bench **list, const int *multi, int n, int o21)
{
    for (int i = 0; i < n; i++) {
        printf("# %s%s\n", multi[i] >= 0 && !o21 ? "(Multi-)" : "", list[i]->name);
        for (const char *c = list[i]->list_comment; c && *c;) {
            const char *nl = strchr(c, '\n');
            int len = nl ? (int)(nl - c) : (int)strlen(c);
            printf("#     %.*s\n", len, c);
            c += len + (nl != NULL);
        }
    }
    fflush(stdout);
}

void eb_imb_print_header(const eb_imb_options *o, const eb_sysinfo *s,
                         const eb_bench **list, const int *multi, int n)
{
    if (o->imb21.defaults2021) {
        /* IMB 2021.11's lines only; -check (effbench's) still says so */
        if (o->check)
            print_check_note();
        eb_imb2021_print_text_header(o, s);
        print_list(list, multi, n, o->imb21.defaults2021);
        if (o->family->print_after_list2021)
            o->family->print_after_list2021(o, list, n);
        return;
    }
    const char *bar = "#----------------------------------------------------------------";
    printf("%s\n#    effbench %s (Intel(R) MPI Benchmarks 4.0 methodology), %s\n%s\n",
           bar, EFFBENCH_VERSION, o->family->part, bar);
    eb_imb_print_system_lines(s);
    printf("# MPI Thread Environment: %s\n", eb_thread_level_name(s->thread_provided));
    printf("# MPI Library           : %s\n", s->mpi_library);
    eb_imb_gpu_print_header(o);
    print_hosts();
    printf("\n");
    printf("# Repetitions per sample: MSGSPERSAMPLE %ld, OVERALL_VOL %ld bytes, MSGS_NONAGGR %ld,\n"
           "# iteration policy %s, at most %g seconds per sample (-time)\n",
           o->iter.msgspersample, o->iter.overall_vol, o->iter.msgs_nonaggr,
           eb_iter_policy_name(o->iter.policy), o->iter.secs);
    if (o->cache.cache_mb > 0)
        printf("# Off-cache buffers: cache size %g MB, line size %zu bytes\n",
               o->cache.cache_mb, o->cache.line);
    if (o->repeat > 1)
        printf("# -repeat %d: every row is timed %d times; t columns are medians over the\n"
               "# loops; loop_min/loop_max [usec] and spread (max/min) are over the loops' t_max\n", o->repeat, o->repeat);
    if (o->quick)
        printf("# quick mode: timed loops repeat until the standard error of the kept loop\n"
               "# times (t_max; %g%% cut at each end) is below %g%% of their mean, at least %d\n"
               "# loops, at most %g s per row; t columns are medians over the loops\n",
               100.0 * EB_QUICK_CUT, 100.0 * o->epsilon, EB_QUICK_MIN_LOOPS, o->iter.secs);
    if (o->sync_window)
        printf("# -sync window: repetitions start at agreed global times (clock offsets\n"
               "# measured); t columns are over the valid repetitions of each repetition's\n"
               "# slowest rank; `valid` is the fraction of repetitions no rank started late\n"
               "# clock synchronisation: %s (-clock_sync); what it achieved: # clocks lines\n",
               eb_clock_method_name(o->clock_sync));
    eb_imb2021_print_header(o);
    if (o->check)
        print_check_note();
    if (o->family->print_settings)
        o->family->print_settings(o);
    int argc;
    char **argv = eb_command_line(&argc);
    printf("\n\n# Calling sequence was: \n\n#");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf(" \n\n");
    const char *label = o->family->size_label ? o->family->size_label : "message length";
    if (o->msglen.n > 0) {
        printf("# Message lengths were user-defined\n");
    } else {
        /* -zero_size off: the series starts at 2^min, as IMB prints it */
        printf("# Minimum %s in bytes:   %zu\n", label,
               o->imb21.zero_size ? (size_t)0 : (size_t)1 << o->msglog_min);
        printf("# Maximum %s in bytes:   %zu\n", label, (size_t)1 << o->msglog_max);
    }
    printf("#\n");
    if (o->family->size_label) {
        printf("#\n#\n\n# List of Benchmarks to run:\n\n");
    } else {
        printf("# MPI_Datatype                   :   %s \n",
               eb_dtype_mpi_name(o->imb21.data_type));
        printf("# MPI_Datatype for reductions    :   %s \n",
               eb_dtype_mpi_name(o->imb21.red_data_type));
        printf("# MPI_Op                         :   MPI_SUM  \n");
        printf("# \n# \n\n# List of Benchmarks to run:\n\n");
    }
    print_list(list, multi, n, o->imb21.defaults2021);
}

static int ncols_of(const eb_bench *b, const eb_imb_options *o, int multi)
{
    eb_column cols[MAX_COLS];
    return eb_imb_columns(b, o, multi, cols, MAX_COLS);
}

/* "# Benchmarking NAME" and the process lines after it (groups, -map). */
static void print_procs(const eb_imb_options *o, const char *name, int q, int ngroups,
                        const int *group_ranks)
{
    printf("# Benchmarking %s \n", name);
    if (ngroups > 0) {
        printf("# ( %d group%s of %d process%s each running simultaneously ) \n", ngroups,
               ngroups == 1 ? "" : "s", q, q == 1 ? "" : "es");
        for (int g = 0; g < ngroups; g++) {
            printf("# Group %d:", g);
            for (int k = 0; k < q; k++)
                printf(" %d", group_ranks[g * q + k]);
            printf("\n");
        }
        printf("#\n");
    } else if (o->map_p > 0) {
        printf("# #processes = %d; rank order (rowwise): \n", q);
        for (int k = 0; k < q; k += o->map_q) {
            printf("#");
            for (int m = k; m < k + o->map_q && m < q; m++)
                printf(" %d", group_ranks[m]);
            printf("\n");
        }
    } else {
        printf("# #processes = %d \n", q);
    }
}

void eb_imb_print_block(const eb_bench *b, const char *name, const eb_imb_options *o,
                        int q, int ngroups, const int *group_ranks, int waiting,
                        const char *mode)
{
    int multi = ngroups > 0 ? o->multi : -1;
    int nc = ncols_of(b, o, multi);
    printf("\n");
    dashes(nc);
    if (o->imb21.defaults2021)
        eb_imb2021_print_procs(o, name, q, ngroups, group_ranks);
    else
        print_procs(o, name, q, ngroups, group_ranks);
    if (waiting > 0)
        printf("# ( %d additional process%s waiting in MPI_Barrier)\n", waiting,
               waiting == 1 ? "" : "es");
    dashes(nc);
    if (mode)
        printf("#\n#    MODE: %s \n#\n", strcmp(mode, "aggregate") == 0 ? "AGGREGATE" : "NON-AGGREGATE");
    fflush(stdout);
}

void eb_imb_print_table_head(const eb_bench *b, const eb_imb_options *o, int multi)
{
    eb_column cols[MAX_COLS];
    eb_imb_columns(b, o, multi, cols, MAX_COLS);
    for (eb_column *c = cols; c->header; c++)
        printf("%*s", COL_W, c->header);
    printf("\n");
    fflush(stdout);
}

static void print_num(double v)
{
    if (isfinite(v))
        printf("%*.2f", COL_W, v);
    else
        printf("%*s", COL_W, "-");
}

void eb_imb_print_row(const eb_row *row, const eb_imb_options *o, int multi)
{
    eb_column cols[MAX_COLS];
    eb_imb_columns(row->bench, o, multi, cols, MAX_COLS);
    /* IMB 2021.11: a blank line before each length's rows of the groups */
    if (o->imb21.defaults2021 && multi == 1 && row->group == 0)
        printf("\n");
    for (eb_column *c = cols; c->header; c++) {
        switch (c->id) {
        case COL_GROUP: printf("%*d", COL_W, row->group); break;
        case COL_DEFECTS:
            if (row->checked)
                print_num((double)row->defects);
            else
                printf("%*s", COL_W, "not checked");
            break;
        case COL_REP_MIN: print_num(row->rep_min); break;
        case COL_REP_MAX: print_num(row->rep_max); break;
        case COL_SPREAD: print_num(row->spread); break;
        case COL_VALID: print_num(row->sync_window ? row->valid_fraction : NAN); break;
        case COL_LOOPS: printf("%*d", COL_W, row->loops); break;
        case COL_REL_ERR: print_num(100.0 * row->quick_rel_error); break;
        case EB_COL_BYTES: printf("%*zu", COL_W, row->bytes); break;
        case EB_COL_REPS: printf("%*ld", COL_W, row->reps); break;
        case EB_COL_T: print_num(row->t_max); break;
        case EB_COL_TMIN: print_num(row->t_min); break;
        case EB_COL_TMAX: print_num(row->t_max); break;
        case EB_COL_TAVG: print_num(row->t_avg); break;
        case EB_COL_MBPS: print_num(row->mbps); break;
        default:
            if (o->imb21.defaults2021 && (row->bench->whole_2021 >> (c->id - EB_COL_EXTRA) & 1)
                && isfinite(row->extra[c->id - EB_COL_EXTRA]))
                printf("%*.0f", COL_W, row->extra[c->id - EB_COL_EXTRA]);
            else
                print_num(row->extra[c->id - EB_COL_EXTRA]);
            break;
        }
    }
    printf("\n");
    fflush(stdout);
}

void eb_imb_print_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

void eb_imb_print_footer(void)
{
    printf("\n\n# All processes entering MPI_Finalize\n\n");
    fflush(stdout);
}

/* ---- the reporter ------------------------------------------------------- */

static void text_header(const eb_report_run *run)
{
    eb_imb_print_header(run->o, run->si, run->list, run->multi, run->n);
}

/* -sync window: the clock figures of a table's rows, summed up under it */
static struct {
    long rows;
    int method;
    double sync_min, sync_max, offset_max, check_max, drift_max;
} clocks;

static void text_table_start(const eb_report_run *run, const eb_report_table *t)
{
    memset(&clocks, 0, sizeof clocks);
    eb_imb_print_block(t->bench, t->name, run->o, t->procs, t->ngroups, t->ranks, t->waiting,
                       t->mode);
    if (t->need_procs > 0)
        eb_imb_print_note("NOT RUN: %s needs %d processes; %d %s running", t->bench->name,
                          t->need_procs, t->procs, t->procs == 1 ? "process is" : "processes are");
    else
        eb_imb_print_table_head(t->bench, run->o, t->multi);
}

static void text_row(const eb_report_run *run, const eb_report_table *t, const eb_row *row)
{
    eb_imb_print_row(row, run->o, t->multi);
    if (!row->sync_window)
        return;
    clocks.method = row->clock_method;
    clocks.sync_min = clocks.rows ? fmin(clocks.sync_min, row->clock_sync_us) : row->clock_sync_us;
    clocks.sync_max = fmax(clocks.sync_max, row->clock_sync_us);
    clocks.offset_max = fmax(clocks.offset_max, row->clock_offset_max_us);
    clocks.check_max = fmax(clocks.check_max, row->clock_check_error_us);
    clocks.drift_max = fmax(clocks.drift_max, row->clock_drift_ppm);
    clocks.rows++;
}

/* Under a window-synchronised table: what its rows' clock synchronisations achieved. */
static void text_table_end(const eb_report_run *run, const eb_report_table *t)
{
    (void)run;
    (void)t;
    if (!clocks.rows)
        return;
    printf("\n# clocks (%s): synchronised before each row in %.1f..%.1f usec; measured offset\n"
           "# from rank 0's clock at most %.2f usec (+- %.2f usec); drift estimate at most %.3f ppm\n",
           eb_clock_method_name(clocks.method), clocks.sync_min, clocks.sync_max,
           clocks.offset_max, clocks.check_max, clocks.drift_max);
    fflush(stdout);
}

static void text_note(const eb_report_run *run, const char *text)
{
    (void)run;
    eb_imb_print_note("%s", text);
}

static void text_stopped(const eb_report_run *run, size_t bytes, const char *text)
{
    (void)run;
    printf("%*zu %s\n", COL_W, bytes, text);
    fflush(stdout);
}

static void text_footer(const eb_report_run *run)
{
    (void)run;
    eb_imb_print_footer();
}

const eb_reporter eb_imb_text_reporter = {
    .name = "imb_text",
    .header = text_header,
    .table_start = text_table_start,
    .row = text_row,
    .table_end = text_table_end,
    .note = text_note,
    .stopped = text_stopped,
    .footer = text_footer,
};
