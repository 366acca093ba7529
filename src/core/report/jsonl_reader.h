/* Members of our own JSON Lines records, read back (--resume, the
 * components' summaries of earlier rows).  No general JSON parser: the
 * records come from eb_json, with no whitespace other than its own. */
#ifndef EB_REPORT_JSONL_READER_H
#define EB_REPORT_JSONL_READER_H

#include <stddef.h>

/* Members of the top-level object of a record.  The value's raw JSON text,
 * NULL if absent; a string without quotes (-1 if absent or not a string); a
 * number (NaN if absent or null); an integer or boolean (dflt if absent or
 * null). */
const char *eb_jsonl_value(const char *rec, const char *key, size_t *len);
int eb_jsonl_str(const char *rec, const char *key, char *out, size_t n);
double eb_jsonl_num(const char *rec, const char *key);
long long eb_jsonl_int(const char *rec, const char *key, long long dflt);

#endif
