/* Text input shared by every component: whole small files (read by one
 * rank, or by rank 0 and broadcast), lines, trimming and number fields. */
#ifndef EB_TEXT_H
#define EB_TEXT_H

#include <mpi.h>
#include <stddef.h>

/* Blanks removed from both ends of s, in place; returns the new start. */
char *eb_trim(char *s);

/* The next line of the text at *p, without its newline and trimmed, copied
 * into buf; advances *p and counts *lineno.  1: a line, 0: end of the text,
 * -1: the line does not fit in cap bytes (the caller names file and line). */
int eb_text_line(const char **p, int *lineno, char *buf, size_t cap);

/* Read a whole (small, at most 64 MiB) file, NUL-terminated; NULL with err
 * ("WHAT PATH: cannot read: ...") on failure.  `what` names the option or
 * role of the file in the message. */
char *eb_read_file(const char *path, const char *what, char *err, size_t errlen);

/* Collective over comm: its rank 0 reads the file, every rank receives the
 * text, or NULL with rank 0's message in err on every rank. */
char *eb_read_file_bcast(const char *path, const char *what, MPI_Comm comm,
                         char *err, size_t errlen);

/* Whole-string decimal integer in [lo, hi]: 0, or -1 (nothing stored). */
int eb_parse_long(const char *s, long lo, long hi, long *out);

/* Whole-string finite number: 0, or -1 (nothing stored). */
int eb_parse_double(const char *s, double *out);

/* Whole-string finite number > 0: 0, or -1 (nothing stored). */
int eb_parse_positive(const char *s, double *out);

#endif
