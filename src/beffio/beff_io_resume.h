/* b_eff_io --resume (beff_io_resume.c). */
#ifndef EB_BEFF_IO_RESUME_H
#define EB_BEFF_IO_RESUME_H

#include "beffio/beff_io_run.h"
#include "core/report/jsonl.h"

#include <stddef.h>

/* The result records of the interrupted run into r: partitions complete in
 * the file are kept (part->kept), the rows of the others get rs->drop set.
 * old_prefix gets the interrupted run's file prefix ("" if no row names
 * one).  Exits 2 naming the line of a row that is not of this run. */
void bio_load_resumed(bio_run *r, eb_resume *rs, const char *path, char *old_prefix, size_t plen);

#endif
