/* IMB-NBC's overlap method, shared with IMB-MPI4's _persist flavours; the
 * overlap figure itself is imb/driver/overlap.h (shared with IMB-IO). */
#ifndef EB_IMB_NBC_H
#define EB_IMB_NBC_H

#include "imb/driver/bench.h"
#include "imb/driver/options.h"

#include <mpi.h>

/* IMB_settings.h: the CPU-exploit target of the header's Mflop/s line. */
#define EB_NBC_TARGET_CPU_SECS 0.01

/* How a flavour starts repetition i of its operation: the started request
 * to wait for (IMB-NBC: an MPI_I* call; IMB-MPI4: MPI_Start of the row's
 * persistent request). */
typedef MPI_Request *(*eb_nbc_start)(eb_ctx *c, long i);

/* n repetitions of start, the calibrated CPU work (none before the overlap
 * measurement calibrates it), wait: the _pure kernel and the checked pass. */
void eb_nbc_loop(eb_ctx *c, long first, long n, eb_nbc_start start);

/* IMB's overlap measurement of one row (a measure hook): t_pure of the
 * benchmark's kernel alone, the CPU work calibrated to take t_pure, then
 * start, work, wait.  Fills c->extra (t_ovrl, t_pure, t_CPU, overlap[%]) and
 * returns t_ovrl in seconds. */
double eb_nbc_overlap(eb_ctx *c, long n, eb_nbc_start start);

/* The overlap table's columns, with and without #bytes (barriers). */
extern const eb_column eb_nbc_overlap_columns[];
extern const eb_column eb_nbc_overlap_columns_nobytes[];
#define EB_NBC_OVERLAP_JSON {"t_ovrl_us", "t_pure_us", "t_cpu_us", "overlap_pct"}

/* IMB's header lines for nonblocking benchmarks: the CPU-exploit kernel's
 * undisturbed rate at TARGET_CPU_SECS. */
void eb_nbc_print_settings(const eb_imb_options *o);

#endif
