/* The options IMB 2021.11 added to the 4.0 guide's command line, with IMB's
 * meaning: which component has which, their values, and the small pieces of
 * the measurement they change (root, data types, barriers, per-repetition
 * timing, warm-up, pauses, lengths).  docs/imb.md has the table. */
#ifndef EB_IMB2021_OPTIONS_H
#define EB_IMB2021_OPTIONS_H

#include "core/json.h"
#include "imb/driver/bench.h"
#include "imb/driver/imb2021_types.h"
#include "imb/driver/imb_option_types.h"

#include <mpi.h>
#include <stddef.h>

/* IMB 2021's defaults with nothing given (the guide's behaviour kept). */
void eb_imb2021_init(eb_imb2021 *t);

/* argv[*i] if it is an IMB 2021 option or -sync / -sync_method: 1 consumed
 * (with its value), 0 not one of them, -1 error (a value IMB refuses, or an
 * option the component does not have in IMB 2021.11). */
int eb_imb2021_parse(eb_imb_options *o, int argc, char **argv, int *i, char *err,
                     size_t errlen);

/* Checks between options once the whole command line is read. */
int eb_imb2021_finish(eb_imb_options *o, char *err, size_t errlen);

/* The program of family f has IMB 2021.11 option NAME ("root_shift", "sync", ...). */
int eb_imb2021_family_has(const eb_imb_family *f, const char *name);

/* IMB's on/off words: on yes true enable 1 / off no false disable 0. */
int eb_imb_parse_bool(const char *s, int *out);

/* The element type of a benchmark's messages: -red_data_type for
 * reductions, -data_type otherwise (MPI_FLOAT / MPI_BYTE by default). */
eb_dtype eb_imb_dtype(const eb_imb_options *o, const eb_bench *b);
/* The length unit of a benchmark: that type's size (1 byte / 4 by default). */
size_t eb_imb_unit(const eb_imb_options *o, const eb_bench *b);

/* Root of repetition i of a rooted collective: i % size (the guide, and
 * IMB 2021 -root_shift on), or 0 (-root_shift off). */
int eb_imb_root(const eb_ctx *c, long i);

/* n barriers of the benchmark's synchronisation: MPI_Barrier, or IMB's
 * dissemination barrier of zero-byte MPI_Sendrecv with -imb_barrier on. */
void eb_imb_barriers(const eb_imb_options *o, MPI_Comm comm, int n);

/* -sync 0|1 given and the benchmark is a collective IMB applies it to. */
int eb_imb2021_per_rep(const eb_imb_options *o, const eb_bench *b);
/* IMB 2021's collective loop: each repetition timed on its own, followed
 * (outside the timing) by a barrier with -sync 1.  Seconds per repetition. */
double eb_imb2021_rep_loop(eb_ctx *c, long n);
/* After repetition-timed work of a -sync 1 collective: the barrier. */
void eb_imb2021_after_rep(const eb_ctx *c);

/* -warm_up on: IMB 2021's untimed run of n/10 repetitions (at least one when
 * n > 1) before the timed loop of every length. */
void eb_imb2021_warm_up(eb_ctx *c, long n);
/* -msg_pause on: sleep a tenth of the length's measuring time, >= 0.1 s. */
void eb_imb2021_pause(const eb_imb_options *o, double seconds);

/* -zero_size off: the 0-byte length of a -msglog series dropped. */
void eb_imb2021_trim_sizes(const eb_imb_options *o, eb_sizes *s);
/* Tables of a benchmark with both modes under -aggregate_mode: 2 or 1. */
int eb_imb2021_nmodes(const eb_imb_options *o);
/* The one mode -aggregate_mode keeps ("aggregate" / "non-aggregate"), or NULL. */
const char *eb_imb2021_only_mode(const eb_imb_options *o);

/* Help lines for the IMB 2021 options the family's program has. */
void eb_imb2021_print_help(const eb_imb_family *f);

/* Header lines for the IMB 2021 options given, and their JSON values. */
void eb_imb2021_print_header(const eb_imb_options *o);
void eb_imb2021_json(eb_json *j, const eb_imb_options *o);

#endif
