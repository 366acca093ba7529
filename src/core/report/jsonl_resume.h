/* --resume: carry on in the JSON Lines file of an interrupted run, keeping
 * its rows and measuring only the others (docs/json-lines.md). */
#ifndef EB_REPORT_JSONL_RESUME_H
#define EB_REPORT_JSONL_RESUME_H

#include <stddef.h>

/* "benchmark|mode|procs|bytes|group" of a row, the identity --resume uses. */
void eb_row_key(char *out, size_t n, const char *benchmark, const char *mode, int procs,
                size_t bytes, int group);

/* Collective.  Rank 0 reads an earlier (possibly crashed) JSON Lines file of
 * the same component, drops a trailing `end` record, and reopens it for
 * appending with a `resume` record; every rank gets the keys (eb_row_key) of
 * the rows already in it.  Exits 2 if the file is unusable, or (when
 * this_run is not NULL) if one of `fields` differs between the file's run
 * record and this_run (see eb_jsonl_resume_match).  The three steps below
 * for components that need more than the keys. */
void eb_jsonl_resume(const char *path, const char *component, const char *this_run,
                     const char *const *fields, const char *const *superseded, char ***keys,
                     int *nkeys);

/* What --resume read: the run record and the result records (their text,
 * on every rank).  A component sets drop[i] for rows it measures again. */
typedef struct {
    char *run;
    char **rows;
    int nrows;
    long *line; /* line of each row in the file, for messages */
    char *drop;
    char *blob; /* storage of rows */
    /* NULL, or the NULL-terminated names of parts measured again whose
     * earlier rows stay in the file (SKaMPI suites that were running at a
     * crash): the `resume` record lists them as `superseded` */
    const char *const *superseded;
} eb_resume;

/* Step 1 (collective): read FILE; nothing is written yet.  A cut last line,
 * an `end` record and `summary` records are left out (a new summary covers
 * old and new rows).  Exits 2 if FILE cannot be read, has no run record or
 * is of another component. */
void eb_jsonl_resume_read(eb_resume *rs, const char *path, const char *component);
/* Step 2 (optional, collective): exits 2 with "--resume FILE:1: 'x' is .. in
 * the file but .. in this run" when a member of the file's run record differs
 * from the one of this_run (the record this run would write).  fields: NULL
 * terminated, top-level names or "options.NAME". */
void eb_jsonl_resume_match(const eb_resume *rs, const char *path, const char *this_run,
                           const char *const *fields);
/* Step 3 (collective): keep the rows not dropped (cut the file, or rewrite
 * it through a renamed temporary file when rows in the middle go), reopen it
 * for appending and write the `resume` record. */
void eb_jsonl_resume_append(eb_resume *rs, const char *path);
void eb_jsonl_resume_free(eb_resume *rs);

#endif
