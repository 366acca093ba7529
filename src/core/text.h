/* Line-oriented input files held in memory (-msglen, -input, --info ...). */
#ifndef EB_TEXT_H
#define EB_TEXT_H

#include <stddef.h>

/* Blanks removed from both ends of s, in place; returns the new start. */
char *eb_trim(char *s);

/* The next line of the text at *p, without its newline and trimmed, copied
 * into buf; advances *p and counts *lineno.  1: a line, 0: end of the text,
 * -1: the line does not fit in cap bytes (the caller names file and line). */
int eb_text_line(const char **p, int *lineno, char *buf, size_t cap);

#endif
