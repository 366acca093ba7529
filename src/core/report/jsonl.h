/* JSON Lines (docs/json-lines.md).  This header gathers the writer, the
 * record reader and --resume, which every component uses, and declares the
 * reporter of IMB runs (jsonl.c). */
#ifndef EB_REPORT_JSONL_H
#define EB_REPORT_JSONL_H

#include "core/bench.h"
#include "core/report/jsonl_reader.h"
#include "core/report/jsonl_resume.h"
#include "core/report/jsonl_writer.h"
#include "core/report/reporter.h"

/* A `result` record for an IMB-style row (a row counts for the run's
 * progress even without a file). */
void eb_jsonl_result(const eb_row *row, const char *component);

/* The IMB run's JSON Lines file as a member of the reporter list. */
extern const eb_reporter eb_jsonl_reporter;

#endif
