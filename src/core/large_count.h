/* Messages of 2^31 elements and more.  MPI's classic calls take int counts,
 * at most INT_MAX = 2^31-1 elements; MPI-4's _c calls (MPI_Send_c ...) take
 * MPI_Count.  A kernel computes its counts as eb_count (never int) and calls
 * the classic form while the row's counts fit an int (the calls IMB makes),
 * the _c form beyond, where the library has it: one CMake check per call
 * family, EB_HAVE_MPI_SEND_C (point-to-point), EB_HAVE_MPI_ALLREDUCE_C
 * (blocking collectives), EB_HAVE_MPI_IALLREDUCE_C (nonblocking ones).  A
 * length whose counts need calls the library lacks, or a benchmark without
 * _c calls, is refused before anything runs (IMB's plan: imb/driver/large_rows.h;
 * OSU's programs refuse such counts), so nothing is ever truncated. */
#ifndef EB_LARGE_COUNT_H
#define EB_LARGE_COUNT_H

#include <mpi.h>

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

#endif
