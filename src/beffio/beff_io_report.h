/* b_eff_io's reporters (beff_io_report.c): the protocol on stdout and the
 * JSON Lines records. */
#ifndef EB_BEFF_IO_REPORT_H
#define EB_BEFF_IO_REPORT_H

#include "beffio/beff_io_run.h"

#include <stddef.h>

/* Reporters (rank 0 only). */
void bio_print_header(const bio_run *r);
void bio_print_table_head(void);
void bio_print_type(const bio_run *r, const bio_part *pt, int a, int t);
void bio_print_method(const bio_run *r, const bio_part *pt, int a);
void bio_print_summary(const bio_run *r);
void bio_json_type(const bio_run *r, const bio_part *pt, int a, int t);
void bio_json_summary(const bio_run *r);
/* Seconds from open to close of all pattern types run by this process (not
 * the partitions kept by --resume; slowest process). */
double bio_measured_seconds(const bio_run *r);
/* Validity of the run: 1 if valid; reasons appended to buf when not. */
int bio_valid(const bio_run *r, char *buf, size_t len);
#define BIO_VALID_MINUTES 15.0

#endif
