/* OSU 7.4's command line: each program's getopt string (its descriptor's
 * optstring, a letter set of osu_optsets.h), OSU's long names and defaults,
 * with effbench's -check, --json and --resume taken out first.  The letters
 * are a table (osu_options.c: each letter's long name, value, parser and
 * OSU's message for a bad value); osu_cmdline.c runs getopt over them.
 * Pure: no MPI calls. */
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

/* What a letter's parser works on: the program, the options so far, the
 * letter's value (NULL when it has none), and where an error goes. */
typedef struct osu_letter osu_letter;
typedef struct {
    const osu_letter *letter;
    const osu_prog *p;
    osu_options *o;
    const char *arg;
    char *err;
    size_t n;
} osu_taking;

/* One letter of OSU's option strings: OSU's long name and argument kind
 * (osu_util_options.h), effbench's help line, the parser of its value and
 * OSU's message for a bad one.  A whole-number letter's parser takes the
 * value in [lo, hi]; where it goes straight into an int of osu_options,
 * `field` is that int's offset. */
struct osu_letter {
    char c;
    const char *name;
    int arg; /* no_argument, required_argument, optional_argument (getopt.h) */
    const char *help;
    int (*take)(const osu_taking *t); /* an OSU_PARSE_* status; on error t->err says why */
    const char *bad;                  /* OSU's message for a bad value */
    long long lo, hi;
    size_t field;
};

/* The letter c of OSU's table, or NULL; the table row by row. */
const osu_letter *osu_letter_of(int c);
int osu_letter_count(void);
const osu_letter *osu_letter_at(int i);

/* Letter c's value arg for program p into o: an OSU_PARSE_* status (-h and
 * -v answer HELP and VERSION), OSU_PARSE_ERROR with OSU's message in err. */
int osu_take(const osu_prog *p, osu_options *o, int c, const char *arg, char *err, size_t n);

/* The long name of option letter c ("message-size" for 'm'), or NULL. */
const char *osu_long_name(int c);

/* The name MPI gives a -T datatype ("MPI_CHAR"). */
const char *osu_dtype_name(MPI_Datatype t);

#endif
