/* b_eff's JSON Lines records (beff_json.c). */
#ifndef EB_BEFF_JSON_H
#define EB_BEFF_JSON_H

#include "beff/beff_analysis.h"
#include "beff/beff_run.h"
#include "core/component_run.h"
#include "core/report/jsonl.h"

/* The run record's options (the skeleton writes the common fields). */
void beff_json_options(const beff_run *r, eb_run *run);
/* The result record of b(p, l, m, rep) (rank 0). */
void beff_json_result(const beff_run *r, int p, int l, int m, int rep);
/* The summary record (rank 0). */
void beff_json_summary(const beff_run *r, const beff_summary *s);
/* --resume: the result records of the interrupted run into r, each checked
 * against this run's plan (the same on every rank, so every rank skips the
 * same loops); exits 2 naming the line of a row that does not fit.  The loop
 * length rule then continues from their loop lengths and times. */
void beff_load_resumed(beff_run *r, const eb_resume *rs, const char *path);

#endif
