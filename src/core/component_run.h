/* The run skeleton of a component with its own control flow (b_eff,
 * b_eff_io, SKaMPI): options, system information, the `run`
 * record, a new JSON Lines file or --resume of an old one, an exit hook,
 * the measurement and the `end` record, in the same order for all.
 *
 * The component gives its steps; eb_component_run calls them in order:
 *
 *   options   the command line into the component's state and run->json_path,
 *             run->resume, run->check (-h, or another action that is not a
 *             run: return 1, nothing else runs)
 *   prepare   collective: what the run needs from the machine, or from the
 *             --resume file (eb_run_resume_file)          [optional]
 *   --        the system information (run->si) and the oversubscription warning
 *   plan      collective: the plan, buffers                 [optional]
 *   record    the run record's options, through eb_run_opt_* (the skeleton
 *             wrote the common fields and closes the object)
 *   --        new run: open --json, write the record.  --resume: read the file
 *             (if prepare did not), refuse it unless "procs", "check" and every
 *             option written with EB_DECIDES are as in its run record
 *   ready     collective: take what the file holds (run->rs: rows, drop[]),
 *             last checks that may refuse the run           [optional]
 *   --        --resume: the file keeps the rows not dropped and gets its
 *             `resume` record
 *   on_exit   from here until measure returns, called on any way out
 *             (eb_exit_all, eb_abort, the guard): clean-up     [optional]
 *   measure   measures and reports; returns the exit status, with the `end`
 *             record's message in msg when not EB_EXIT_OK
 *   --        the `end` record ("ok", or "error" with msg)
 *   release   frees the state                               [optional]
 *
 * Every error before `measure` is a user error: eb_exit_all(EB_EXIT_USAGE)
 * on every rank, before the JSON file changes where the step order allows.
 * A component whose resume is decided elsewhere (SKaMPI: its log file) sets
 * run->resume in prepare, run->superseded for the `resume` record, and
 * resume_unchecked in its steps. */
#ifndef EB_COMPONENT_RUN_H
#define EB_COMPONENT_RUN_H

#include "core/error.h"
#include "core/json.h"
#include "core/report/jsonl.h"
#include "core/sysinfo.h"

#include <stddef.h>

#define EB_RUN_MAX_DECIDING 48

typedef struct eb_run eb_run;

typedef struct {
    const char *component; /* "beff": the run record's component; --resume checks it */
    int resume_unchecked;  /* --resume compares no member (SKaMPI: its log decides) */
    const char *methodology; /* the run record's "methodology" (ReproMPI: "reprompi"); NULL: none */
    int (*options)(void *state, eb_run *run, int argc, char **argv);
    void (*prepare)(void *state, eb_run *run);
    void (*plan)(void *state, eb_run *run);
    void (*record)(void *state, eb_run *run);
    void (*ready)(void *state, eb_run *run);
    void (*on_exit)(void *state, int status, const char *msg);
    int (*measure)(void *state, eb_run *run, char *msg, size_t msglen);
    void (*release)(void *state);
} eb_component_steps;

struct eb_run {
    const eb_component_steps *steps;
    void *state;           /* the component's, passed to every step */
    int rank, procs;
    int thread_provided;
    double t_start;        /* MPI_Wtime when the skeleton began */
    /* set by `options` */
    const char *json_path; /* --json or --resume FILE; NULL: no JSON file */
    int resume;            /* json_path is a file to continue */
    int check;             /* the run record's "check" */
    /* set by the skeleton */
    eb_sysinfo si;
    eb_json record;        /* the run record while `record` writes it */
    eb_resume rs;          /* --resume: the file's run record and rows */
    int rs_read;
    const char *const *superseded; /* NULL, or names for the `resume` record */
    /* the record's members --resume compares: "procs", "check", "options.NAME" */
    char deciding[EB_RUN_MAX_DECIDING][64];
    int ndeciding;
};

/* A component's main: runs the steps; returns the exit status. */
int eb_component_run(const eb_component_steps *steps, void *state, int argc, char **argv);

/* --resume: the file, read on first use (collective; exits 2 if unusable). */
eb_resume *eb_run_resume_file(eb_run *run);

/* Members of the run record's `options`.  decides: EB_DECIDES when the
 * option decides the measured values (a --resume with another value is
 * refused), else EB_INFO. */
enum { EB_INFO = 0, EB_DECIDES = 1 };
void eb_run_opt_int(eb_run *run, const char *name, long long v, int decides);
void eb_run_opt_num(eb_run *run, const char *name, double v, int decides); /* !finite: null */
void eb_run_opt_bool(eb_run *run, const char *name, int v, int decides);
void eb_run_opt_str(eb_run *run, const char *name, const char *v, int decides); /* NULL: null */
void eb_run_opt_null(eb_run *run, const char *name, int decides);
/* An array: its elements go to the returned builder (key NULL), then eb_json_close. */
eb_json *eb_run_opt_array(eb_run *run, const char *name, int decides);

#endif
