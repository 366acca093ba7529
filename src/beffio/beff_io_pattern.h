/* b_eff_io: one pattern type of one access method (beff_io_pattern.c). */
#ifndef EB_BEFF_IO_PATTERN_H
#define EB_BEFF_IO_PATTERN_H

#include "beffio/beff_io_run.h"

#include <stddef.h>

/* Pattern type t of access method a on partition pt (members only; buf:
 * the largest call, 4 KiB aligned), into pt->res[a][t]; rank 0 draws the
 * progress line after each pattern.  Returns NULL, or err holding a message
 * for the whole job (the open failed). */
const char *bio_run_type(bio_run *r, bio_part *pt, int a, int t, char *buf, char *err,
                         size_t errlen);

#endif
