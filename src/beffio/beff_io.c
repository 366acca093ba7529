/* b_eff_io: the effective I/O bandwidth benchmark through MPI-IO (section 5
 * and 6 of the b_eff/b_eff_io paper, rules in docs/beff-spec.md).  The
 * component and its steps in the run skeleton (core/component_run.h): the
 * options are beff_io_options.c, one pattern type beff_io_pattern.c, the
 * files beff_io_files.c, --resume beff_io_resume.c, the reporters
 * beff_io_report.c and the pure rules beff_io_plan.c. */
#include "beffio/beff_io_run.h"
#include "core/component_names.h"

#include "beffio/beff_io_files.h"
#include "beffio/beff_io_options.h"
#include "beffio/beff_io_pattern.h"
#include "beffio/beff_io_report.h"
#include "beffio/beff_io_resume.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/guard.h"
#include "core/progress.h"
#include "core/registry.h"
#include "core/report/jsonl.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    bio_run *r;
    char old_prefix[32]; /* --resume: the interrupted run's file prefix, "" if none */
} bio_state;

/* ---- the run ------------------------------------------------------------ */

static void compute_values(bio_run *r)
{
    r->b_eff_io = r->rel21 = -1;
    r->errors = 0;
    for (int i = 0; i < r->nparts; i++) {
        bio_part *pt = &r->part[i];
        for (int a = 0; a < BIO_NACCESS; a++) {
            double bw[BIO_NTYPES];
            pt->method_bytes[a] = 0;
            pt->method_time[a] = 0;
            for (int t = 0; t < BIO_NTYPES; t++) {
                bw[t] = pt->res[a][t].bw;
                pt->method_bytes[a] += pt->res[a][t].bytes;
                pt->method_time[a] += pt->res[a][t].t;
            }
            pt->method[a] = (a == BIO_REWRITE && r->rewrite0) ? bw[0] : bio_method_value(bw);
        }
        pt->value = bio_partition_value(pt->method[BIO_WRITE], pt->method[BIO_REWRITE],
                                        pt->method[BIO_READ]);
        double w[BIO_NTYPES];
        for (int t = 0; t < BIO_NTYPES; t++)
            w[t] = pt->res[BIO_WRITE][t].bw;
        pt->rel21 = bio_rel21_value(w, pt->res[BIO_REWRITE][0].bw, pt->method[BIO_READ]);
        if (pt->value > r->b_eff_io) {
            r->b_eff_io = pt->value;
            r->best = i;
        }
        /* each formula's maximum over the partitions, with its own partition */
        if (pt->rel21 > r->rel21) {
            r->rel21 = pt->rel21;
            r->best21 = i;
        }
        r->errors += pt->errors;
    }
}

static int bio_options(void *state, eb_run *run, int argc, char **argv)
{
    bio_run *r = ((bio_state *)state)->r;
    r->P = run->procs;
    bio_parse_options(r, argc, argv);
    run->json_path = r->json_path;
    run->resume = r->resume;
    run->check = r->check;
    return 0;
}

/* The file prefix (rank 0's process id) and a usable --path. */
static void bio_prepare(void *state, eb_run *run)
{
    bio_run *r = ((bio_state *)state)->r;
    (void)run;
    int id = (int)getpid();
    MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(r->prefix, sizeof r->prefix, "b_eff_io_%d", id);
    bio_probe_path(r);
}

static void bio_plan(void *state, eb_run *run) { ((bio_state *)state)->r->si = run->si; }

/* Options marked EB_DECIDES decide the values: --resume refuses a file
 * whose run had other values. */
static void bio_record(void *state, eb_run *run)
{
    const bio_run *r = ((bio_state *)state)->r;
    long long rows = bio_planned_rows(r->tab, r->nparts, r->rewrite0);
    eb_guard_plan_rows(rows);
    eb_run_opt_int(run, "planned_rows", rows, EB_INFO);
    eb_run_opt_num(run, "T_s", r->T, EB_DECIDES);
    eb_json *a = eb_run_opt_array(run, "partitions", EB_DECIDES);
    for (int i = 0; i < r->nparts; i++)
        eb_json_int(a, NULL, r->parts[i]);
    eb_json_close(a);
    eb_run_opt_str(run, "path", r->path, EB_DECIDES);
    eb_run_opt_str(run, "hints", r->hints_path, EB_DECIDES);
    if (r->fs_cache_mib > 0)
        eb_run_opt_num(run, "fs_cache_mib", r->fs_cache_mib, EB_INFO);
    else
        eb_run_opt_null(run, "fs_cache_mib", EB_INFO);
    eb_run_opt_bool(run, "rewrite_type0_only", r->rewrite0, EB_DECIDES);
    eb_run_opt_int(run, "mem_per_proc_mib", r->mem_mib, EB_DECIDES);
    eb_run_opt_bool(run, "mem_detected", r->mem_detected, EB_INFO);
    eb_run_opt_int(run, "mem_total_mib", r->mem_total_mib, EB_INFO);
    eb_run_opt_bool(run, "mem_total_given", r->mem_total_given, EB_INFO);
    eb_run_opt_int(run, "m_part_bytes", r->mpart, EB_DECIDES);
    eb_run_opt_bool(run, "keep", r->keep, EB_INFO);
}

static void bio_ready(void *state, eb_run *run)
{
    bio_state *st = state;
    if (run->resume)
        bio_load_resumed(st->r, &run->rs, run->json_path, st->old_prefix,
                         sizeof st->old_prefix);
}

static void bio_on_exit(void *state, int status, const char *msg)
{
    (void)status;
    (void)msg;
    bio_remove_files(((bio_state *)state)->r);
}

static double planned_units(const bio_run *r)
{
    double units = 0;
    for (int i = 0; i < r->nparts; i++)
        for (int a = 0; a < BIO_NACCESS && !r->part[i].kept; a++)
            for (int t = 0; t < BIO_NTYPES; t++)
                if (!(a == BIO_REWRITE && r->rewrite0 && t > 0))
                    units += bio_type_units(&r->tab[t]);
    return units;
}

/* One access method on every partition (members only); exits on an error. */
static void run_access(bio_run *r, int a, char *buf)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char err[EB_ERRLEN], all[EB_ERRLEN];
    if (rank == 0)
        bio_print_table_head();
    for (int i = 0; i < r->nparts; i++) {
        bio_part *pt = &r->part[i];
        const char *msg = NULL;
        if (pt->comm != MPI_COMM_NULL && !pt->kept) {
            for (int t = 0; t < BIO_NTYPES && !msg; t++) {
                if (a == BIO_REWRITE && r->rewrite0 && t > 0)
                    continue;
                if (a == BIO_WRITE && t == 3)
                    pt->lseg = bio_segment(r->tab, pt->rep, pt->rep34, &pt->filler);
                msg = bio_run_type(r, pt, a, t, buf, err, sizeof err);
                if (!msg && rank == 0) {
                    bio_print_type(r, pt, a, t);
                    bio_json_type(r, pt, a, t);
                }
            }
            if (!msg && rank == 0)
                bio_print_method(r, pt, a);
        }
        if (eb_any_error(msg, all, sizeof all))
            eb_exit_all(EB_EXIT_FAILURE, all);
    }
}

/* The paper's section 6 order: all partitions write, then rewrite, then
 * read; then the summary.  As b_eff with a bad byte: with I/O errors
 * everything measured is out, the run failed. */
static int bio_measure(void *state, eb_run *run, char *msg, size_t msglen)
{
    bio_state *st = state;
    bio_run *r = st->r;
    int rank = run->rank;
    /* the files of the interrupted run are not trusted: gone, unless --keep */
    if (st->old_prefix[0] && strcmp(st->old_prefix, r->prefix) != 0 && !r->keep)
        bio_remove_prefix_files(r, st->old_prefix);
    for (int i = 0; i < r->nparts; i++) {
        bio_part *pt = &r->part[i];
        pt->n = r->parts[i];
        MPI_Comm_split(MPI_COMM_WORLD, rank < pt->n ? 0 : MPI_UNDEFINED, rank, &pt->comm);
    }
    /* The largest call: M_PART, 2 MiB (type 0 pattern 2), 1 MiB + 8 kiB, the filler (< 1 MiB). */
    size_t bufsize = (size_t)(r->mpart > 2 * BIO_MIB ? r->mpart : 2 * BIO_MIB) + 8192;
    char *buf = NULL;
    if (posix_memalign((void **)&buf, 4096, bufsize) != 0)
        eb_abort("cannot allocate %zu bytes", bufsize);
    memset(buf, 0, bufsize);

    if (rank == 0) {
        bio_print_header(r);
        for (int i = 0; i < r->nparts; i++)
            if (r->part[i].kept)
                printf("--resume %s: partition n=%d is complete in the file: not measured "
                       "again\n", r->json_path, r->part[i].n);
    }
    eb_progress_start(&r->progress, "b_eff_io", planned_units(r), r->progress_forced);
    for (int a = 0; a < BIO_NACCESS; a++)
        run_access(r, a, buf);
    free(buf);
    eb_progress_end(&r->progress);
    r->elapsed = MPI_Wtime() - run->t_start;
    MPI_Allreduce(MPI_IN_PLACE, &r->elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    bio_remove_files(r);
    if (rank == 0) {
        compute_values(r);
        bio_print_summary(r);
        bio_json_summary(r);
    }
    for (int i = 0; i < r->nparts; i++)
        if (r->part[i].comm != MPI_COMM_NULL)
            MPI_Comm_free(&r->part[i].comm);
    /* Rank 0 is in every partition: its count is the run's. */
    long long errors = r->errors;
    MPI_Bcast(&errors, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (errors > 0) {
        snprintf(msg, msglen, "I/O errors: %lld (failed or short calls, wrong data read "
                 "or read back)", errors);
        if (rank == 0)
            fprintf(stderr, "effbench: b_eff_io: %s: the result is NOT VALID\n", msg);
        return EB_EXIT_FAILURE;
    }
    return EB_EXIT_OK;
}

static const eb_component_steps bio_steps = {
    .component = EB_COMPONENT_BEFF_IO,
    .options = bio_options,
    .prepare = bio_prepare,
    .plan = bio_plan,
    .record = bio_record,
    .ready = bio_ready,
    .on_exit = bio_on_exit,
    .measure = bio_measure,
};

static int beff_io_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    static bio_run run; /* large: not on the stack */
    memset(&run, 0, sizeof run);
    bio_state st = {.r = &run};
    return eb_component_run(&bio_steps, &st, argc, argv);
}

static const eb_component beff_io_component = {
    .name = EB_COMPONENT_BEFF_IO,
    .aliases = {"b_eff_io"},
    .summary = "b_eff_io: effective I/O bandwidth through MPI-IO",
    .order = 60,
    .main = beff_io_main,
};

EB_CONSTRUCTOR(register_beff_io) { eb_register_component(&beff_io_component); }
