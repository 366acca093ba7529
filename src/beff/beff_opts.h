/* b_eff command line (pure: unit-testable). */
#ifndef EB_BEFF_OPTS_H
#define EB_BEFF_OPTS_H

#include "beff/beff.h"

#include <stddef.h>
#include <stdio.h>

/* Fills o with the defaults and the options of argv[1..]; returns 0, or -1
 * with "<option>: <problem>" in err.  mem_mib = 0 means "detect". */
int beff_parse_options(beff_options *o, int argc, char **argv, char *err, size_t errlen);
void beff_print_help(FILE *f);

#endif
