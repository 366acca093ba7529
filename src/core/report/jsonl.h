/* JSON Lines reporter (docs/json-lines.md): rank 0 writes, every record is
 * flushed when complete, and an `end` record closes the file even when the
 * run exits with an error. */
#ifndef EB_REPORT_JSONL_H
#define EB_REPORT_JSONL_H

#include "core/bench.h"
#include "core/json.h"
#include "core/sysinfo.h"

/* Open FILE for writing on rank 0 (collective: an unwritable path is a user
 * error on every rank).  Does nothing when path is NULL. */
void eb_jsonl_open(const char *path);
int eb_jsonl_active(void);

/* --resume: collective.  Rank 0 reads an earlier (possibly crashed) JSON
 * Lines file of the same component, drops a trailing `end` record, and
 * reopens it for appending with a `resume` record; every rank gets the keys
 * (eb_row_key) of the rows already in it.  Exits 2 if the file is unusable. */
void eb_jsonl_resume(const char *path, const char *component, char ***keys, int *nkeys);

/* "benchmark|mode|procs|bytes|group" of a row, the identity --resume uses. */
void eb_row_key(char *out, size_t n, const char *benchmark, const char *mode, int procs,
                size_t bytes, int group);

/* Start a record: {"type": type, "schema": 1, ... */
void eb_jsonl_begin(eb_json *j, const char *type);
/* Finish, write one line, flush, free. */
void eb_jsonl_emit(eb_json *j);

/* The `run` record's common fields; the caller adds `options` between
 * begin and emit.  Collective (host list). */
void eb_jsonl_run_begin(eb_json *j, const char *component, const eb_sysinfo *s,
                        int argc, char **argv, int check);
/* A `result` record for an IMB-style row. */
void eb_jsonl_result(const eb_row *row, const char *component);
/* Close with an `end` record: status "ok" or "error". */
void eb_jsonl_end(const char *status, const char *message);

#endif
