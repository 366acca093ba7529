/* --imb-defaults 2021 (or EFFBENCH_IMB_DEFAULTS=2021): IMB 2021.11's defaults
 * instead of the 4.0 guide's — its default lists, -root_shift off, -sync on,
 * its warm-up, 10^6-byte megabytes, its header and text.  One switch, read
 * here; what it changes asks these functions (docs/imb.md). */
#ifndef EB_IMB2021_DEFAULTS_H
#define EB_IMB2021_DEFAULTS_H

#include "imb/driver/bench.h"
#include "imb/driver/imb_option_types.h"

#include <mpi.h>
#include <stddef.h>

#define EB_IMB_DEFAULTS_ENV "EFFBENCH_IMB_DEFAULTS"
#define EB_IMB2021_VERSION "2021.11"

/* Collective over MPI_COMM_WORLD: rank 0's EFFBENCH_IMB_DEFAULTS, for every
 * rank (a launcher need not pass the environment to every process). */
void eb_imb_defaults_from_env(eb_imb_options *o);

/* Before the command line is parsed: the family's IMB 2021.11 -iter and
 * -msglog defaults when the command line or the environment asks for 2021
 * (options given then override them as usual; bad values are the parser's). */
void eb_imb_defaults_prescan(eb_imb_options *o, int argc, char **argv);

/* argv[*i] is --imb-defaults: 1 consumed (with its value), 0 not it, -1 error. */
int eb_imb_defaults_parse(eb_imb_options *o, int argc, char **argv, int *i, char *err,
                          size_t errlen);

/* Once the command line is read: the environment's choice unless the command
 * line made one, then IMB 2021's defaults for every option not given. */
int eb_imb_defaults_finish(eb_imb_options *o, char *err, size_t errlen);

/* "2021" or "4.0" (the run record's imb_defaults); the methodology of the
 * run's numbers, "imb-2021.11" or "imb-4.0". */
const char *eb_imb_defaults_name(const eb_imb_options *o);
const char *eb_imb_methodology(const eb_imb_options *o);

/* IMB 2021.11's time-out under --imb-defaults 2021: collective over the
 * table's active ranks, 1 when the table's mode has run longer than
 * max(max(#lengths given, maxlog - minlog) - 1, 1) x -time seconds since t0
 * (then IMB prints the time-out line instead of the row and stops the table). */
int eb_imb2021_timed_out(const eb_imb_options *o, double t0, MPI_Comm active);
#define EB_IMB2021_TIME_OUT "time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is " \
    "over; use \"-time X\" or SECS_PER_SAMPLE=X (IMB_settings.h) to increase time limit."

/* IMB 2021.11's method where it differs from the guide's beyond the defaults
 * (Reduce_scatter's counts): --imb-defaults 2021, or a program only IMB 2021
 * has (IMB-MPI4), whose benchmarks have no other meaning. */
int eb_imb2021_method(const eb_imb_options *o);

/* Runs without being named (the default list of the defaults in force). */
int eb_imb_runs_by_default(const eb_imb_options *o, const eb_bench *b);

/* Bytes of a megabyte in Mbytes/sec, per microsecond: 1.048576 (the guide's
 * 2^20 bytes) or 1 (IMB 2021's 10^6). */
double eb_imb_mbyte_per_us(const eb_imb_options *o);

#endif
