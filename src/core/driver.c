/* The IMB driver: the plan (which benchmarks, in which mode), the process
 * sets and their groups, the tables of each, and the whole run of an IMB
 * component.  How a row is measured is the runner's (runner.c), how it is
 * assembled the row code's (row.c), where it goes the reporters'
 * (report/reporter.h). */
#include "core/driver.h"

#include "core/error.h"
#include "core/guard.h"
#include "core/imb2021_options.h"
#include "core/procsets.h"
#include "core/registry.h"
#include "core/report/jsonl_resume.h"
#include "core/report/reporters.h"
#include "core/runner.h"
#include "core/simulate.h"
#include "core/sysinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define EB_MAX_PROCSETS 64

/* --resume: a row of the earlier file, not measured again */
static int already_measured(const eb_report_run *run, const char *name, const char *mode, int q,
                            size_t x, int last_group)
{
    char key[256];
    eb_row_key(key, sizeof key, name, mode, q, x, last_group);
    for (int i = 0; i < run->n_resume_keys; i++)
        if (strcmp(run->resume_keys[i], key) == 0)
            return 1;
    return 0;
}

const eb_bench *eb_find_bench(const char *component, const char *name, int *multi)
{
    *multi = 0;
    if (strncasecmp(name, "Multi-", 6) == 0) {
        *multi = 1;
        name += 6;
    }
    int n = eb_bench_count(component);
    for (int i = 0; i < n; i++) {
        const eb_bench *b = eb_bench_at(component, i);
        if (strcasecmp(b->name, name) == 0)
            return (*multi && (b->flags & EB_F_NO_MULTI)) ? NULL : b;
    }
    return NULL;
}

/* ---- the plan: which benchmarks, in which mode ------------------------- */

typedef struct {
    const eb_bench **list;
    int *multi; /* -1: standard mode; 0/1: multiple mode with that outflag */
    int n;
} plan_t;

static int in_list(char **names, int n, const char *component, const eb_bench *b)
{
    for (int i = 0; i < n; i++) {
        int m;
        if (eb_find_bench(component, names[i], &m) == b)
            return 1;
    }
    return 0;
}

static void unknown_name(const eb_imb_options *o, const char *name)
{
    char msg[EB_ERRLEN];
    int n = eb_bench_count(o->family->component), len;
    len = snprintf(msg, sizeof msg, "unknown benchmark '%s' for %s; known:", name, o->family->program);
    for (int i = 0; i < n && len < (int)sizeof msg; i++)
        len += snprintf(msg + len, sizeof msg - (size_t)len, " %s",
                        eb_bench_at(o->family->component, i)->name);
    eb_exit_all(EB_EXIT_USAGE, msg);
}

static plan_t make_plan(const eb_imb_options *o)
{
    const char *comp = o->family->component;
    int total = eb_bench_count(comp);
    plan_t p = {eb_calloc((size_t)total, sizeof *p.list), eb_calloc((size_t)total, sizeof *p.multi), 0};
    int m;
    for (int i = 0; i < o->nnames; i++)
        if (!eb_find_bench(comp, o->names[i], &m))
            unknown_name(o, o->names[i]);
    for (int i = 0; i < o->ninclude; i++)
        if (!eb_find_bench(comp, o->include[i], &m))
            unknown_name(o, o->include[i]);
    for (int i = 0; i < o->nexclude; i++)
        if (!eb_find_bench(comp, o->exclude[i], &m))
            unknown_name(o, o->exclude[i]);
    /* named benchmarks run in command-line order, as IMB runs them; then
     * the component's list order for the default set and -include */
    const eb_bench **candidates = eb_calloc((size_t)(o->nnames + total), sizeof *candidates);
    int nc = 0;
    for (int k = 0; k < o->nnames; k++)
        candidates[nc++] = eb_find_bench(comp, o->names[k], &m);
    for (int i = 0; i < total; i++)
        candidates[nc++] = eb_bench_at(comp, i);
    for (int c = 0; c < nc; c++) {
        const eb_bench *b = candidates[c];
        int named = 0, named_multi = 0, planned = 0;
        for (int k = 0; k < o->nnames; k++)
            if (eb_find_bench(comp, o->names[k], &m) == b) {
                named = 1;
                named_multi |= m;
            }
        for (int i = 0; i < p.n; i++)
            planned |= p.list[i] == b;
        int take = o->nnames > 0 ? named : !(b->flags & EB_F_EXPLICIT_ONLY);
        take |= in_list(o->include, o->ninclude, comp, b);
        if (in_list(o->exclude, o->nexclude, comp, b) || planned)
            take = 0;
        if (!take)
            continue;
        p.list[p.n] = b;
        if (b->flags & EB_F_NO_MULTI)
            p.multi[p.n] = -1;
        else
            p.multi[p.n] = o->multi >= 0 ? o->multi : named_multi ? 0 : -1;
        p.n++;
    }
    free(candidates);
    if (p.n == 0)
        eb_exit_all(EB_EXIT_USAGE, "no benchmark left to run after -include/-exclude");
    return p;
}

/* ---- the tables -------------------------------------------------------- */

static eb_sizes sizes_for(const eb_imb_options *o, const eb_bench *b)
{
    eb_sizes s = {0};
    size_t unit = eb_imb_unit(o, b);
    if (b->flags & EB_F_NO_BYTES || b->fixed_bytes > 0) {
        s.v = eb_malloc(sizeof *s.v);
        s.v[0] = b->fixed_bytes;
        s.n = 1;
    } else if (o->msglen.n > 0) {
        s.v = eb_malloc((size_t)o->msglen.n * sizeof *s.v);
        for (int i = 0; i < o->msglen.n; i++) {
            size_t x = o->msglen.v[i] - o->msglen.v[i] % unit;
            int dup = 0;
            for (int k = 0; k < s.n; k++)
                dup |= s.v[k] == x;
            if (!dup)
                s.v[s.n++] = x;
        }
    } else {
        eb_sizes_msglog(o->msglog_min, o->msglog_max, unit, &s);
        eb_imb2021_trim_sizes(o, &s);
    }
    return s;
}

/* The table's lengths: its rows, or the lengths of the resumed file, or
 * the end of the lengths that fit -mem. */
static void measure_lengths(eb_runner *R, const eb_sizes *sizes)
{
    const eb_report_run *run = R->table.run;
    const eb_report_table *t = &R->table.info;
    const eb_imb_options *o = run->o;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    long resumed = 0;
    for (int i = 0; i < sizes->n; i++) {
        /* rows are written group by group, so the last group's row means
         * the whole length was measured */
        if (already_measured(run, t->name, t->mode, t->procs, sizes->v[i],
                             t->multi == 1 ? R->ctx.ngroups - 1 : -1)) {
            resumed++;
            continue;
        }
        double need = eb_runner_buffer_bytes(R, sizes->v[i]);
        if (need > o->mem_gb * 1073741824.0) {
            if (wrank == 0)
                eb_report_note(run, "#bytes = %zu and longer skipped: buffers need %.3f GB per "
                               "process, -mem allows %g GB (raise -mem to run them)",
                               sizes->v[i], need / 1073741824.0, o->mem_gb);
            break;
        }
        eb_runner_measure(R, sizes->v[i]);
    }
    if (resumed && wrank == 0)
        eb_report_note(run, "%ld length%s already in %s: not measured again (--resume)", resumed,
                       resumed == 1 ? "" : "s", o->json_path);
}

/* Collective over every rank: the benchmark's open_set on the active ranks;
 * a set-up error (an unwritable file ...) on any ends the run everywhere. */
static int open_set(const eb_bench *b, eb_ctx *ctx, int active)
{
    if (!b->open_set)
        return 0;
    char err[EB_ERRLEN] = "", msg[EB_ERRLEN];
    int failed = active && b->open_set(ctx, err, sizeof err) != 0;
    int set_open = active && !failed;
    if (eb_any_error(failed ? err : NULL, msg, sizeof msg)) {
        if (set_open && b->close_set)
            b->close_set(ctx);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    return set_open;
}

static int is_identity(const int *order, int n)
{
    for (int i = 0; i < n; i++)
        if (order[i] != i)
            return 0;
    return 1;
}

/* One table: benchmark b on q processes per group in one mode. */
static void run_procset(const eb_report_run *run, const eb_bench *b, int multi, int q,
                        const int *order, const char *mode)
{
    const eb_imb_options *o = run->o;
    int P, wrank;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int ngroups = multi >= 0 ? P / q : 1;
    int pos = 0;
    while (order[pos] != wrank)
        pos++;
    int active = pos < ngroups * q;
    /* a set of every rank in rank order: one group, the world's (no new communicators
     * in a simulation) */
    int whole = q == P && is_identity(order, P);
    MPI_Comm group_comm, active_comm;
    eb_sim_split_world(whole, active ? pos / q : MPI_UNDEFINED, pos, &group_comm);
    eb_sim_split_world(whole, active ? 0 : MPI_UNDEFINED, pos, &active_comm);

    char name[128];
    snprintf(name, sizeof name, "%s%s", multi >= 0 ? "Multi-" : "", b->name);
    eb_table T = {.run = run, .active = active_comm, .comm = group_comm, .group = pos / q,
                  .groups = ngroups,
                  .info = {.bench = b, .name = name, .mode = mode, .multi = multi, .procs = q,
                           .ngroups = multi >= 0 ? ngroups : 0, .ranks = order,
                           .waiting = P - ngroups * q}};
    if (wrank == 0)
        eb_report_table_start(run, &T.info);
    int aggregate = mode ? strcmp(mode, "aggregate") == 0 : !(b->flags & EB_F_NONAGGR_COUNTS);
    eb_sizes sizes = sizes_for(o, b);
    size_t max_size = 0;
    for (int i = 0; i < sizes.n; i++)
        if (sizes.v[i] > max_size)
            max_size = sizes.v[i];
    eb_runner R = {0};
    if (active)
        eb_runner_init(&R, o, &T, aggregate, ngroups, max_size);
    int set_open = open_set(b, &R.ctx, active);
    if (active) {
        measure_lengths(&R, &sizes);
        if (set_open && b->close_set)
            b->close_set(&R.ctx);
        if (b->after_table && R.table.nrows > 0)
            b->after_table(R.table.rows, R.table.nrows);
        eb_runner_free(&R);
        eb_comm_release(&group_comm);
        eb_comm_release(&active_comm);
    }
    eb_sizes_free(&sizes);
    if (wrank == 0)
        eb_report_table_end(run, &T.info);
    MPI_Barrier(MPI_COMM_WORLD); /* the waiting processes */
}

/* A benchmark the run has too few processes for.  Its block shows the run's
 * P processes, in -map's rank order when one is given (ORDER, as every block). */
static void skip(const eb_report_run *run, const eb_bench *b, int need, int P, const int *order)
{
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (wrank != 0)
        return;
    eb_report_table t = {.bench = b, .name = b->name, .multi = -1, .procs = P, .need_procs = need,
                         .ranks = order};
    eb_report_table_start(run, &t);
    eb_report_table_end(run, &t);
}

static void run_bench(const eb_report_run *run, const eb_bench *b, int multi, const int *order)
{
    const eb_imb_options *o = run->o;
    int P;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    int qs[EB_MAX_PROCSETS], nq;
    if (b->fixed_procs > 0) {
        if (P < b->fixed_procs) {
            skip(run, b, b->fixed_procs, P, order);
            return;
        }
        qs[0] = b->fixed_procs;
        nq = 1;
    } else {
        if (P < b->min_procs) {
            skip(run, b, b->min_procs, P, order);
            return;
        }
        nq = eb_procs_list(P, o->npmin, qs, EB_MAX_PROCSETS);
        int k = 0;
        for (int i = 0; i < nq; i++)
            if (qs[i] >= b->min_procs && !((b->flags & EB_F_EVEN_PROCS) && qs[i] % 2))
                qs[k++] = qs[i];
        nq = k;
    }
    const char *modes[2] = {NULL, NULL};
    int nmodes = 1;
    if (b->flags & EB_F_MODES) {
        int nonaggr_first = (b->flags & EB_F_NONAGGR_FIRST) != 0;
        modes[nonaggr_first] = "aggregate";
        modes[!nonaggr_first] = "non-aggregate";
        nmodes = eb_imb2021_nmodes(o);
        if (nmodes == 1)
            modes[0] = eb_imb2021_only_mode(o); /* -aggregate_mode */
    } else if (b->flags & EB_F_AGGR_ONLY) {
        modes[0] = "aggregate";
    } else if (b->flags & EB_F_NONAGGR_ONLY) {
        modes[0] = "non-aggregate";
    }
    for (int k = 0; k < nq; k++)
        for (int m = 0; m < nmodes; m++)
            run_procset(run, b, multi, qs[k], order, modes[m]);
}

/* ---- the run ------------------------------------------------------------ */

/* Rows the plan will print (lengths skipped for -mem not foreseen), for
 * progress displays. */
static long planned_rows(const eb_imb_options *o, const plan_t *p, int P)
{
    long rows = 0;
    for (int i = 0; i < p->n; i++) {
        const eb_bench *b = p->list[i];
        int qs[EB_MAX_PROCSETS], nq = 1;
        if (b->fixed_procs > 0) {
            if (P < b->fixed_procs)
                continue;
            qs[0] = b->fixed_procs;
        } else {
            nq = eb_procs_list(P, o->npmin, qs, EB_MAX_PROCSETS);
            int k = 0; /* Uniband, Biband: even counts (run_bench) */
            for (int q = 0; q < nq; q++)
                if (!((b->flags & EB_F_EVEN_PROCS) && qs[q] % 2))
                    qs[k++] = qs[q];
            nq = k;
        }
        eb_sizes s = sizes_for(o, b);
        long per_q = 0;
        for (int k = 0; k < nq; k++)
            per_q += p->multi[i] == 1 ? P / qs[k] : 1;
        rows += per_q * s.n * ((b->flags & EB_F_MODES) ? eb_imb2021_nmodes(o) : 1);
        eb_sizes_free(&s);
    }
    return rows;
}

/* IMB 2021's -list: the program, then its benchmarks in alphabetical order,
 * "(non-default)" after those that run only by name. */
static void print_list(const eb_imb_family *f)
{
    int n = eb_bench_count(f->component);
    const eb_bench **v = eb_malloc((size_t)n * sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = eb_bench_at(f->component, i);
    for (int i = 1; i < n; i++) /* insertion sort by name, as IMB's std::set */
        for (int k = i; k > 0 && strcmp(v[k - 1]->name, v[k]->name) > 0; k--) {
            const eb_bench *tmp = v[k];
            v[k] = v[k - 1];
            v[k - 1] = tmp;
        }
    printf("%s\nList of benchmarks:\n%s:\n", f->program, f->program);
    for (int i = 0; i < n; i++)
        printf("    %s%s\n", v[i]->name, (v[i]->flags & EB_F_EXPLICIT_ONLY) ? " (non-default)" : "");
    free(v);
}

static void print_help(const eb_imb_family *family)
{
    eb_imb_print_help(family);
    printf("\nBenchmarks of %s (* = only by name or -include):\n", family->program);
    for (int i = 0; i < eb_bench_count(family->component); i++) {
        const eb_bench *b = eb_bench_at(family->component, i);
        printf("  %s%s\n", b->name, (b->flags & EB_F_EXPLICIT_ONLY) ? " *" : "");
    }
}

int eb_imb_run(const eb_imb_family *family, int argc, char **argv)
{
    int wrank, P, provided;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Query_thread(&provided);
    eb_imb_options o;
    eb_imb_options_init(&o, family);
    char err[EB_ERRLEN];
    if (eb_imb_parse(&o, argc, argv, err, sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    if (o.imb21.list) {
        if (wrank == 0)
            print_list(family);
        eb_imb_options_free(&o);
        return EB_EXIT_OK;
    }
    if (o.help) {
        if (wrank == 0)
            print_help(family);
        eb_imb_options_free(&o);
        return EB_EXIT_OK;
    }
    eb_imb_load_files(&o);
    int *order = eb_malloc((size_t)P * sizeof *order);
    if (eb_map_order(P, o.map_p, o.map_q, order, err, (int)sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    plan_t plan = make_plan(&o);

    eb_sysinfo si;
    eb_sysinfo_collect(&si, provided);
    eb_report_run run = {.o = &o, .si = &si, .list = plan.list, .multi = plan.multi, .n = plan.n,
                         .planned_rows = planned_rows(&o, &plan, P)};
    eb_guard_plan_rows(run.planned_rows);
    eb_report_begin(&run);
    eb_warn_oversubscription();
    if (wrank == 0)
        eb_report_header(&run);
    for (int i = 0; i < plan.n; i++)
        run_bench(&run, plan.list[i], plan.multi[i], order);
    if (wrank == 0)
        eb_report_footer(&run);
    free(plan.list);
    free(plan.multi);
    free(order);
    for (int i = 0; i < run.n_resume_keys; i++)
        free(run.resume_keys[i]);
    free(run.resume_keys);
    eb_imb_options_free(&o);
    return EB_EXIT_OK;
}

/* ---- the families as components ------------------------------------------ */

#define EB_MAX_FAMILIES 8
static eb_component family_components[EB_MAX_FAMILIES];
static const eb_imb_family *families[EB_MAX_FAMILIES];
static int nfamilies;

static int family_main(const eb_component *self, int argc, char **argv)
{
    return eb_imb_run(families[self - family_components], argc, argv);
}

void eb_register_imb_family(const eb_imb_family *f)
{
    if (nfamilies == EB_MAX_FAMILIES) { /* a build error: raise EB_MAX_FAMILIES */
        fprintf(stderr, "effbench: more than %d IMB families registered\n", EB_MAX_FAMILIES);
        abort();
    }
    eb_component *c = &family_components[nfamilies];
    families[nfamilies++] = f;
    *c = (eb_component){.name = f->component, .aliases = {f->program}, .summary = f->summary,
                        .order = f->order, .main = family_main};
    eb_register_component(c);
}
