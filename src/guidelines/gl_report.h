/* The table of `effbench guidelines`: per (collective, size) the times of
 * each variant over the rounds, the comparisons' statistics, the text and
 * the JSON records (docs/guidelines.md). */
#ifndef EB_GL_REPORT_H
#define EB_GL_REPORT_H

#include "guidelines/gl.h"

typedef struct {
    int coll;
    long bytes;
    int nvar; /* 0: the library call, 1..: mock-ups */
    const char *names[GL_MAX_VARIANTS];
    double *times[GL_MAX_VARIANTS]; /* seconds, one per round */
    long defects[GL_MAX_VARIANTS];  /* -check, summed over ranks and rounds */
    /* per mock-up v >= 1: the library against it */
    double median[GL_MAX_VARIANTS], factor[GL_MAX_VARIANTS], lo[GL_MAX_VARIANTS],
        hi[GL_MAX_VARIANTS], p[GL_MAX_VARIANTS], p_holm[GL_MAX_VARIANTS];
    int exact[GL_MAX_VARIANTS], violated[GL_MAX_VARIANTS];
} gl_cell;

typedef struct {
    gl_cell *cells;
    int ncells, rounds;
    int ncmp, violated;
    double alpha;
} gl_table;

void gl_table_make(gl_table *t, const gl_options *o);
void gl_cell_set_variants(gl_cell *c, const gl_bufs *b, int rounds);
/* The tests, Holm's correction over every comparison of the table, verdicts. */
void gl_table_stats(gl_table *t, double alpha);
long gl_table_defects(const gl_table *t);
/* Rank 0: the table on stdout and the JSON records. */
void gl_report(const gl_table *t, const gl_options *o, int procs);
void gl_table_free(gl_table *t);

#endif
