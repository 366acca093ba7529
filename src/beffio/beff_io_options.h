/* b_eff_io's command line (beff_io_options.c). */
#ifndef EB_BEFF_IO_OPTIONS_H
#define EB_BEFF_IO_OPTIONS_H

#include "beffio/beff_io_run.h"

/* The options of argv[1..] into r (r->P set): the partitions, the memory
 * per process (collective: the smallest over all ranks), M_PART, the pattern
 * table and the hints.  Prints the help and exits 0 on -h; exits 2 on a
 * user error. */
void bio_parse_options(bio_run *r, int argc, char **argv);
/* Collective: every rank can create a file in r->path (else exit 2). */
void bio_probe_path(bio_run *r);

#endif
