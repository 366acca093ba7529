/* OSU 7.4's command line: each program's getopt string (its descriptor's
 * optstring), OSU's long names and defaults, with effbench's -check, --json
 * and --resume taken out first.  Pure: no MPI calls. */
#ifndef EB_OSU_OPTIONS_H
#define EB_OSU_OPTIONS_H

#include "osu/osu.h"

#include <stdio.h>

enum { OSU_PARSE_RUN = 0, OSU_PARSE_HELP = 1, OSU_PARSE_VERSION = 2, OSU_PARSE_ERROR = -1 };

/* Parse argv (argv[0] the program) for program p into o.  Returns one of
 * OSU_PARSE_*; on error, err holds OSU's message ("Invalid option [-q]")
 * followed by effbench's reason where OSU gives none. */
int osu_parse(const osu_prog *p, osu_options *o, int argc, char **argv, char *err, size_t n);

/* OSU's help text of program p (its options with their long names). */
void osu_print_help(const osu_prog *p, FILE *f);

/* The long name of option letter c ("message-size" for 'm'), or NULL. */
const char *osu_long_name(int c);

/* The name MPI gives a -T datatype ("MPI_CHAR"). */
const char *osu_dtype_name(MPI_Datatype t);

#endif
