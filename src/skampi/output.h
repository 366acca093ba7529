/* SKaMPI-style output files (.sko, the format of SKaMPI's result files:
 * `# begin result "NAME"`, rows `count= ...`, `# end result "NAME"`,
 * `# duration = ...`), the run log that makes reruns resume after a crash,
 * and the post-processor that merges output files into medians.  Pure file
 * handling, no MPI. */
#ifndef SK_OUTPUT_H
#define SK_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#define SK_ROW_MAXVAL 1030

/* One row: `VAR= ARG BYTES MEAN STDERR REPS [NODE...]`, times in usec. */
typedef struct {
    char var[16];          /* count, procs, chunks */
    long arg, bytes;
    double v[SK_ROW_MAXVAL]; /* mean, std error, repetitions, node times... */
    int nv;
} sk_row;

/* The text of a row (SKaMPI's "%s= %d %8d %9.1f %9.1f %8d" then " %9.1f" per
 * node time), without the newline. */
void sk_format_row(char *buf, size_t n, const sk_row *r);
/* Parse a row line; 0 on success. */
int sk_parse_row(const char *line, sk_row *r);

typedef struct {
    char name[256];
    sk_row *rows;
    int nrows;
    double duration;
} sk_result;

typedef struct {
    sk_result *res;
    int nres;
    int complete;          /* has "# Finished at" */
} sk_outfile;

int sk_read_outfile(const char *path, sk_outfile *o, char *err, size_t errlen);
void sk_outfile_free(sk_outfile *o);

/* Medians of several output files, per result and row (rows matched by
 * result name, variable and argument).  Writes an output file to `out`. */
int sk_postprocess(char *const *paths, int n, FILE *out, char *err, size_t errlen);

/* The header line written at the top of every output file. */
void sk_write_header(FILE *f, const char *date);
void sk_write_footer(FILE *f, const char *date, double seconds);

/* Cut an unterminated `# begin result` block (a crashed suite) off the end
 * of the output file.  Returns the number of rows removed, -1 on error. */
int sk_truncate_open_block(const char *path, char *name, size_t namelen);

/* What the log of an earlier invocation says. */
typedef struct {
    int resume;            /* an unfinished run: continue it */
    char outfile[512];     /* its output file */
    char **done;           /* suites finished (or skipped) */
    int ndone;
    char **crashed;        /* suites begun and never finished, oldest first */
    int ncrashed;
} sk_logstate;

int sk_read_log(const char *path, sk_logstate *st);
void sk_logstate_free(sk_logstate *st);
int sk_logstate_has(char *const *list, int n, const char *name);

#endif
