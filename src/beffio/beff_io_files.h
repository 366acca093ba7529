/* b_eff_io's files (beff_io_files.c). */
#ifndef EB_BEFF_IO_FILES_H
#define EB_BEFF_IO_FILES_H

#include "beffio/beff_io_run.h"

#include <stddef.h>

/* The file of pattern type `type` on partition n (type 2: of partition rank
 * k), without and with the directory. */
void bio_leaf_name(const char *prefix, int n, int type, int k, char *out, size_t len);
void bio_file_name(const bio_run *r, int n, int type, int k, char *out, size_t len);
/* The files of a run with this prefix (each rank removes its own). */
void bio_remove_prefix_files(bio_run *r, const char *prefix);
/* This run's files, unless --keep. */
void bio_remove_files(bio_run *r);

#endif
