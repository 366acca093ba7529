/* b_eff, the effective bandwidth benchmark (version 3.2+ with ring
 * patterns): the component and its steps in the run skeleton
 * (core/component_run.h).  The rules are docs/beff-spec.md; choices in
 * docs/beff.md.  The plan is beff_plan.c, the loops beff_loops.c and
 * beff_measure.c, the records beff_json.c, the protocol beff_protocol.c. */
#include "beff/beff_analysis.h"
#include "beff/beff_json.h"
#include "beff/beff_loops.h"
#include "beff/beff_measure.h"
#include "beff/beff_opts.h"
#include "beff/beff_plan.h"
#include "beff/beff_protocol.h"
#include "beff/beff_run.h"
#include "core/component_names.h"
#include "core/component_run.h"
#include "core/error.h"
#include "core/own_coll.h"
#include "core/progress.h"
#include "core/registry.h"
#include "core/sysinfo.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    beff_run r;
    FILE *prot; /* rank 0: --protocol FILE */
} beff_state;

static int beff_options_step(void *state, eb_run *run, int argc, char **argv)
{
    beff_run *r = &((beff_state *)state)->r;
    char err[EB_ERRLEN];
    if (beff_parse_options(&r->opt, argc, argv, err, sizeof err) != 0)
        eb_exit_all(EB_EXIT_USAGE, err);
    if (r->opt.help) {
        if (run->rank == 0)
            beff_print_help(stdout);
        return 1;
    }
    run->json_path = r->opt.json_path;
    run->resume = r->opt.resume;
    run->check = r->opt.check;
    return 0;
}

/* Memory per process: the node's memory over the processes on it, the
 * smallest over all nodes so every process uses the same lengths. */
static long detect_mem_mib(void)
{
    int local = eb_hosts(NULL);
    double bytes = eb_node_memory_bytes();
    long mib = bytes > 0 ? (long)(bytes / 1048576.0 / local) : 0;
    eb_own_allreduce(MPI_IN_PLACE, &mib, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    return mib;
}

/* The random patterns of an interrupted run: its seed, unless --seed is
 * given (and then must be the same); else, as the original, from the clock
 * (effbench prints the seed). */
static void choose_seed(beff_run *r, eb_run *run)
{
    if (run->resume) {
        const eb_resume *rs = eb_run_resume_file(run);
        size_t len;
        const char *o = eb_jsonl_value(rs->run, "options", &len);
        const char *s = o ? eb_jsonl_value(o, "seed", &len) : NULL;
        if (!r->opt.seed_given && s && *s >= '0' && *s <= '9') {
            r->opt.seed = strtoull(s, NULL, 10);
            r->opt.seed_given = 1;
        }
    }
    if (!r->opt.seed_given) {
        unsigned long long s = (unsigned long long)time(NULL) * 1000003ULL ^
                               ((unsigned long long)getpid() << 20);
        s &= 0x7FFFFFFFFFFFFFFFULL; /* 63 bits: an exact JSON integer */
        eb_own_bcast(&s, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        r->opt.seed = s;
    }
}

static void beff_prepare(void *state, eb_run *run)
{
    beff_run *r = &((beff_state *)state)->r;
    if (r->opt.mem_mib == 0) {
        r->opt.mem_mib = detect_mem_mib();
        r->opt.mem_detected = 1;
        if (r->opt.mem_mib < 1)
            eb_exit_all(EB_EXIT_USAGE, "--mem-per-proc: cannot detect the memory per process; "
                                       "give it in MB");
    }
    choose_seed(r, run);
    r->P = run->procs;
    r->lmax = beff_lmax(r->opt.mem_mib);
    beff_lengths(r->lmax, r->len, &r->a);
    r->nmeth = r->opt.split_nonblocking ? 5 : 3;
}

/* Buffers of 6 * L_max for sending and receiving must fit: a probe, whose
 * failure is the user's choice of memory, not a crash. */
static void probe_buffers(const beff_run *r, int rank)
{
    double need = 2.0 * BEFF_BUF_FACTOR * (double)r->lmax;
    char *probe = malloc((size_t)need);
    char local_err[EB_ERRLEN], err[EB_ERRLEN];
    const char *lerr = NULL;
    if (!probe) {
        snprintf(local_err, sizeof local_err,
                 "--mem-per-proc: %ld MB per process needs %.0f MB of buffers, which rank %d "
                 "cannot allocate", r->opt.mem_mib, need / 1048576.0, rank);
        lerr = local_err;
    }
    free(probe);
    if (eb_any_error(lerr, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
}

static void beff_plan(void *state, eb_run *run)
{
    beff_run *r = &((beff_state *)state)->r;
    r->si = run->si;
    probe_buffers(r, run->rank);
    beff_build_patterns(r);
    beff_run_alloc_values(r);
}

static void beff_record(void *state, eb_run *run)
{
    beff_json_options(&((beff_state *)state)->r, run);
}

/* --resume: the values of the interrupted run.  The protocol file must be
 * writable before minutes of measuring. */
static void beff_ready(void *state, eb_run *run)
{
    beff_state *st = state;
    beff_run *r = &st->r;
    if (run->resume)
        beff_load_resumed(r, &run->rs, run->json_path);
    char local_err[EB_ERRLEN], err[EB_ERRLEN];
    const char *lerr = NULL;
    if (run->rank == 0 && r->opt.protocol_path) {
        st->prot = fopen(r->opt.protocol_path, "w");
        if (!st->prot) {
            snprintf(local_err, sizeof local_err, "--protocol: cannot write '%s'",
                     r->opt.protocol_path);
            lerr = local_err;
        }
    }
    if (eb_any_error(lerr, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
}

/* Rank 0: the whole protocol on stdout's rest and in the protocol file (the
 * live rows give way to it: "w" truncates); a message when the file cannot
 * be written (a full disk: the summary still reaches stdout and the JSON). */
static void write_outputs(beff_state *st, const beff_summary *s, char *prot_err, size_t n)
{
    beff_run *r = &st->r;
    beff_protocol_rest(stdout, r, s);
    fflush(stdout);
    FILE *prot = st->prot;
    if (prot && beff_live_protocol(prot))
        prot = freopen(r->opt.protocol_path, "w", prot);
    if (!prot && r->opt.protocol_path)
        snprintf(prot_err, n, "--protocol %s: cannot write: %s", r->opt.protocol_path,
                 strerror(errno ? errno : EIO));
    if (prot) {
        beff_write_protocol(prot, r, s);
        if ((ferror(prot) | fclose(prot)) != 0)
            snprintf(prot_err, n, "--protocol %s: cannot write: %s", r->opt.protocol_path,
                     strerror(errno ? errno : EIO));
    }
    st->prot = NULL;
    beff_json_summary(r, s);
}

/* While measuring: the head section on stdout (the rest follows at the end:
 * stdout's bytes are the same), the rows in the protocol file, the progress
 * line on a terminal. */
static int beff_measure_step(void *state, eb_run *run, char *msg, size_t msglen)
{
    beff_state *st = state;
    beff_run *r = &st->r;
    beff_live live = {.prot = beff_live_protocol(st->prot)};
    if (run->rank == 0) {
        beff_protocol_head(stdout, r);
        fflush(stdout);
        if (live.prot)
            beff_protocol_live_begin(live.prot, r);
    }
    eb_progress_start(&live.bar, "b_eff", (double)(beff_planned_rows(r) - r->nresumed),
                      r->opt.progress);
    long bad = beff_measure(r, &live);
    eb_progress_end(&live.bar);

    beff_summary s;
    beff_summarize(r, &s);
    char prot_err[EB_ERRLEN] = "";
    if (run->rank == 0)
        write_outputs(st, &s, prot_err, sizeof prot_err);
    eb_own_bcast(prot_err, sizeof prot_err, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (prot_err[0]) {
        if (run->rank == 0)
            eb_stderr_line("error", prot_err);
        snprintf(msg, msglen, "%s", prot_err);
        return EB_EXIT_FAILURE;
    }
    if (bad > 0) {
        if (run->rank == 0)
            fprintf(stderr, "effbench: b_eff: %ld received messages had a wrong first or last "
                            "byte\n", bad);
        snprintf(msg, msglen, "received data failed the first/last byte check");
        return EB_EXIT_FAILURE;
    }
    return EB_EXIT_OK;
}

static void beff_release(void *state) { beff_run_free(&((beff_state *)state)->r); }

static const eb_component_steps beff_steps = {
    .component = EB_COMPONENT_BEFF,
    .options = beff_options_step,
    .prepare = beff_prepare,
    .plan = beff_plan,
    .record = beff_record,
    .ready = beff_ready,
    .measure = beff_measure_step,
    .release = beff_release,
};

static int beff_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    beff_state st;
    memset(&st, 0, sizeof st);
    return eb_component_run(&beff_steps, &st, argc, argv);
}

static const eb_component beff_component = {
    .name = EB_COMPONENT_BEFF,
    .aliases = {"b_eff"},
    .summary = "b_eff: the effective bandwidth benchmark (rings, random and analysis patterns)",
    .order = 60,
    .main = beff_main,
};

EB_CONSTRUCTOR(register_beff) { eb_register_component(&beff_component); }
