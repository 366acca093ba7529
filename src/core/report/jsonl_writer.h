/* The JSON Lines file (docs/json-lines.md): rank 0 writes, every record is
 * flushed when complete, and an `end` record closes the file even when the
 * run exits with an error.  Every component writes its records here. */
#ifndef EB_REPORT_JSONL_WRITER_H
#define EB_REPORT_JSONL_WRITER_H

#include "core/json.h"
#include "core/sysinfo.h"

/* Open FILE for writing on rank 0 (collective: an unwritable path is a user
 * error on every rank).  Does nothing when path is NULL. */
void eb_jsonl_open(const char *path);
int eb_jsonl_active(void);

/* Start a record: {"type": type, "schema": 1, ... */
void eb_jsonl_begin(eb_json *j, const char *type);
/* Finish, write one line, flush, free. */
void eb_jsonl_emit(eb_json *j);

/* The `run` record's common fields; the caller adds `options` between
 * begin and emit.  Collective (host list). */
void eb_jsonl_run_begin(eb_json *j, const char *component, const eb_sysinfo *s, int check);
/* Close with an `end` record: status "ok" or "error". */
void eb_jsonl_end(const char *status, const char *message);

/* For openers other than eb_jsonl_open (--resume appends): on rank 0, make
 * PATH opened with fopen MODE the file written (0, or -1 with errno); then
 * on every rank, once the open is agreed, start the clock of the end
 * record's elapsed_s and arm the end record on exit. */
int eb_jsonl_attach(const char *path, const char *mode);
void eb_jsonl_started(void);

#endif
