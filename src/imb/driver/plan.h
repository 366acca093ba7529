/* The plan of an IMB run: which benchmarks run (names, -include, -exclude,
 * the default list), in which mode (standard or -multi), and, for each, the
 * tables (process sets x modes) and lengths the driver will measure.  The
 * driver measures what these functions say and planned_rows counts the
 * same, so the run record's planned_rows is the number of rows written. */
#ifndef EB_PLAN_H
#define EB_PLAN_H

#include "imb/driver/bench.h"
#include "imb/driver/options.h"
#include "imb/driver/sizes.h"

#define EB_MAX_PROCSETS 64 /* > log2 of any process count + 2 */

typedef struct {
    const eb_bench **list;
    int *multi; /* -1: standard mode; 0/1: multiple mode with that outflag */
    int n;
} eb_plan;

/* Find a benchmark of a component by name, case-insensitively; a "Multi-"
 * prefix selects the multiple mode (*multi = 1).  NULL if unknown. */
const eb_bench *eb_find_bench(const char *component, const char *name, int *multi);

/* The benchmarks of the command line, in run order; an unknown name or an
 * empty plan ends the run with status 2 (collective). */
eb_plan eb_make_plan(const eb_imb_options *o);
void eb_plan_free(eb_plan *p);

/* The process counts b runs on with P processes, into qs (EB_MAX_PROCSETS);
 * 0 when it runs on none: *need is then the count it lacks (fixed_procs or
 * min_procs, a "NOT RUN" block), or 0 when -npmin leaves no set it takes. */
int eb_plan_procsets(const eb_imb_options *o, const eb_bench *b, int P, int *qs, int *need);

/* The modes of b's tables ("aggregate", "non-aggregate" or NULL), in order. */
int eb_plan_modes(const eb_imb_options *o, const eb_bench *b, const char *modes[2]);

/* Repetition counts of aggregate mode for a table in `mode`. */
int eb_plan_aggregate(const eb_bench *b, const char *mode);

/* The message lengths of b's tables (free with eb_sizes_free). */
eb_sizes eb_plan_sizes(const eb_imb_options *o, const eb_bench *b);

/* Bytes of buffers per process that length x needs on `procs` processes. */
double eb_plan_buffer_bytes(const eb_imb_options *o, const eb_bench *b, int procs,
                            int aggregate, size_t x);

/* How many of the leading lengths of s fit -mem (the driver measures those
 * and notes the rest as skipped). */
int eb_plan_lengths_that_fit(const eb_imb_options *o, const eb_bench *b, int procs,
                             int aggregate, const eb_sizes *s);

/* Ends the run (status 2, every rank, before anything is measured) if a
 * length it would measure needs counts past INT_MAX elements that the
 * benchmark or the MPI library cannot pass (core/large_count.h). */
void eb_plan_refuse_large_counts(const eb_imb_options *o, const eb_plan *p, int P);

/* The result rows the whole run writes on P processes (one per length,
 * group, mode and process set), rows a --resume keeps included. */
long eb_planned_rows(const eb_imb_options *o, const eb_plan *p, int P);

#endif
