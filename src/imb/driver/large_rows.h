/* An IMB benchmark's messages of 2^31 elements and more: the largest count of
 * its calls at a length, whether a row takes MPI-4's _c calls (the call forms
 * are core/large_count.h's), and the lengths the plan refuses before anything
 * runs (eb_plan_refuse_large_counts). */
#ifndef EB_LARGE_ROWS_H
#define EB_LARGE_ROWS_H

#include "core/large_count.h"
#include "imb/driver/bench.h"
#include "imb/driver/imb_option_types.h"

#include <stddef.h>

/* The largest count or displacement, in elements, of b's MPI calls at
 * length x on np processes: x / unit, or the descriptor's count_span; x
 * for a benchmark without _c calls. */
size_t eb_count_span(const eb_imb_options *o, const eb_bench *b, size_t x, int np);

/* Does the current row take the _c calls (a count past INT_MAX, or every
 * row the library can with EFFBENCH_LARGE_COUNT_CALLS=always)? */
int eb_row_large(const eb_ctx *c);

/* 0 if b can run length x on np processes here, else -1 with the message:
 * the benchmark, the length, the count, the 2^31-1 limit, the call the
 * library lacks (or that b has none) and the library. */
int eb_large_count_refusal(const eb_imb_options *o, const eb_bench *b, size_t x, int np,
                           char *msg, size_t n);

#endif
