/* OSU 7.4's text output: the title, the column line and the rows of each
 * row kind, widths and precision as OSU prints them (FIELD_WIDTH 20,
 * FLOAT_PRECISION 2), so a parser of OSU's output reads effbench's.  Rank 0
 * only; families with a format of their own give printers in their
 * descriptor and build them from these pieces. */
#ifndef EB_OSU_TEXT_H
#define EB_OSU_TEXT_H

#include "osu/osu.h"

#include <stdio.h>

/* "# OSU MPI Latency Test v7.4\n"; _as: with OSU's accelerator suffix ("-CUDA":
 * "# OSU MPI-CUDA Latency Test v7.4") */
void osu_text_title(const osu_prog *p, FILE *f);
void osu_text_title_as(const osu_prog *p, const char *accel, FILE *f);
/* The kind's preamble / column line / row (what the descriptor does not override). */
void osu_text_preamble(const osu_ctx *c, FILE *f);
void osu_text_header(const osu_ctx *c, FILE *f);
void osu_text_row(const osu_ctx *c, const osu_row *row, FILE *f);

/* Pieces: the -z column titles ("P50 Tail Lat(us)" or, with bw, "P50 Tail
 * BW(MB/s)"), their values, the validation and -D columns. */
void osu_text_percentile_titles(const osu_options *o, int bw, FILE *f);
void osu_text_percentile_values(const osu_options *o, const osu_row *row, FILE *f);
void osu_text_validation(const osu_row *row, FILE *f);
/* "# Datatype: MPI_CHAR.\n" */
void osu_text_datatype(const osu_ctx *c, FILE *f);

#endif
