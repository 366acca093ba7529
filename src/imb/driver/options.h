/* IMB's command line (every option of the user guide) plus effbench's
 * -check and --json, parsed into one struct.  Parsing is pure (unit-tested);
 * files named by -input / -msglen are read by rank 0 and broadcast. */
#ifndef EB_OPTIONS_H
#define EB_OPTIONS_H

#include "imb/driver/imb_option_types.h"

#include <stddef.h>

/* Default memory limit of -mem in GB (IMB_mem_info.h's MAX_MEM_USAGE). */
#define EB_DEFAULT_MEM_GB 1.0
/* Quick mode: seconds per row unless -time says otherwise, loops at least. */
#define EB_QUICK_BUDGET 0.5
#define EB_QUICK_EPSILON 0.02
#define EB_QUICK_MIN_LOOPS 5
#define EB_QUICK_CUT 0.1

void eb_imb_options_init(eb_imb_options *o, const eb_imb_family *f);
void eb_imb_options_free(eb_imb_options *o);

/* Parse argv[1..argc-1] (argv[0] is the program).  0, or -1 with err. */
int eb_imb_parse(eb_imb_options *o, int argc, char **argv, char *err, size_t errlen);

/* Apply the text of an -input file (benchmark names, '#' comments). */
int eb_imb_apply_input(eb_imb_options *o, const char *text, const char *fname,
                       char *err, size_t errlen);

/* Collective: rank 0 reads the -input / -msglen files, every rank gets
 * their contents; exits all ranks with status 2 on error. */
void eb_imb_load_files(eb_imb_options *o);

/* Split a name list argument "a,b" into o's array (helper for parsers). */
void eb_push_names(char ***arr, int *n, const char *arg);

void eb_imb_print_help(const eb_imb_family *f);

#endif
