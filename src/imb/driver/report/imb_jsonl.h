/* The JSON Lines reporter of IMB runs (docs/json-lines.md), a member of the
 * reporter list (reporters.c) beside the IMB text; it writes through
 * core/report/jsonl.h as every component does. */
#ifndef EB_REPORT_IMB_JSONL_H
#define EB_REPORT_IMB_JSONL_H

#include "core/report/jsonl.h"
#include "imb/driver/bench.h"
#include "imb/driver/report/reporter.h"

/* A `result` record for an IMB-style row (a row counts for the run's
 * progress even without a file). */
void eb_jsonl_result(const eb_row *row, const char *component);

/* The IMB run's JSON Lines file as a member of the reporter list. */
extern const eb_reporter eb_jsonl_reporter;

#endif
