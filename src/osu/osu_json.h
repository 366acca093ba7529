/* The JSON Lines records of an OSU program (docs/json-lines.md, "OSU
 * records"): the run record's options and one `result` record per row, with
 * "methodology": "osu-7.4" so that compare never takes an OSU latency for an
 * IMB t_avg. */
#ifndef EB_OSU_JSON_H
#define EB_OSU_JSON_H

#include "core/component_run.h"
#include "osu/osu.h"

#define OSU_METHODOLOGY "osu-7.4"

/* The run record's options (through eb_run_opt_*). */
void osu_json_options(const osu_prog *p, const osu_options *o, eb_run *run);
/* Rank 0: one `result` record (counts the row for "how far" without a file). */
void osu_json_row(const osu_ctx *c, const osu_row *row);
/* "benchmark|datatype|procs|bytes": the identity --resume uses. */
void osu_row_key(char *out, size_t n, const char *prog, const char *dtype, int procs,
                 size_t bytes);

#endif
