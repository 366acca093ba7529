/* Messages of 2^31 elements and more.  MPI's classic calls take int counts,
 * at most INT_MAX = 2^31-1 elements; MPI-4's _c calls (MPI_Send_c ...) take
 * MPI_Count.  A kernel computes its counts as eb_count (never int) and calls
 * the classic form while the row's counts fit an int (the calls IMB makes),
 * the _c form beyond, where the library has it: one CMake check per call
 * family, EB_HAVE_MPI_SEND_C (point-to-point), EB_HAVE_MPI_ALLREDUCE_C
 * (blocking collectives), EB_HAVE_MPI_IALLREDUCE_C (nonblocking ones).  A
 * length whose counts need calls the library lacks, or a benchmark without
 * _c calls, is refused by the plan before anything runs
 * (eb_plan_refuse_large_counts), so nothing is ever truncated. */
#ifndef EB_LARGE_COUNT_H
#define EB_LARGE_COUNT_H

#include "core/bench.h"
#include "core/imb_option_types.h"

#include <mpi.h>
#include <stddef.h>

typedef MPI_Count eb_count;

/* Ends the run naming the _c call a kernel reached though the library lacks
 * it (the plan refuses such lengths first, so this is a guard); returns
 * nothing: its int type only lets it stand where a call's result would. */
int eb_large_count_missing(const char *call);

#ifdef EB_HAVE_MPI_SEND_C
#define EB_P2P_C(f, ...) f##_c(__VA_ARGS__)
#else
#define EB_P2P_C(f, ...) eb_large_count_missing(#f "_c")
#endif
#ifdef EB_HAVE_MPI_ALLREDUCE_C
#define EB_COLL_C(f, ...) f##_c(__VA_ARGS__)
#else
#define EB_COLL_C(f, ...) eb_large_count_missing(#f "_c")
#endif
#ifdef EB_HAVE_MPI_IALLREDUCE_C
#define EB_NBC_C(f, ...) f##_c(__VA_ARGS__)
#else
#define EB_NBC_C(f, ...) eb_large_count_missing(#f "_c")
#endif

/* f(args), or f_c(args) when `large`: the same arguments, counts as eb_count
 * (converted to int by the classic call's prototype only when they fit). */
#define EB_P2P_CALL(large, f, ...) ((large) ? EB_P2P_C(f, __VA_ARGS__) : f(__VA_ARGS__))
#define EB_COLL_CALL(large, f, ...) ((large) ? EB_COLL_C(f, __VA_ARGS__) : f(__VA_ARGS__))
#define EB_NBC_CALL(large, f, ...) ((large) ? EB_NBC_C(f, __VA_ARGS__) : f(__VA_ARGS__))

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
