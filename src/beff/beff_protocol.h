/* The b_eff protocol (the original's sections and layouts, plus every
 * measured value): the reporter of stdout and --protocol FILE. */
#ifndef EB_BEFF_PROTOCOL_H
#define EB_BEFF_PROTOCOL_H

#include "beff/beff_analysis.h"
#include "beff/beff_run.h"

#include <stddef.h>
#include <stdio.h>

/* Every section, last line last. */
void beff_write_protocol(FILE *f, const beff_run *r, const beff_summary *s);
/* The same in two parts: the head section (known before measuring) and the
 * rest, so stdout can show the head while the run goes on. */
void beff_protocol_head(FILE *f, const beff_run *r);
void beff_protocol_rest(FILE *f, const beff_run *r, const beff_summary *s);
/* The protocol file while measuring: the head section, the start of the
 * measurements section, then the rows of each (repetition, length) as it
 * ends; the whole protocol replaces it at the end. */
void beff_protocol_live_begin(FILE *f, const beff_run *r);
void beff_protocol_rows(FILE *f, const beff_run *r, int rep, int l);
/* The last line without its newline. */
void beff_result_line(char *buf, size_t n, const beff_run *r, const beff_summary *s);

#endif
