/* A small JSON object builder for the JSON Lines records: keys in insertion
 * order, non-finite numbers written as null (never NaN), full precision. */
#ifndef EB_JSON_H
#define EB_JSON_H

#include <stddef.h>

#define EB_JSON_MAX_DEPTH 16

typedef struct eb_json {
    char *buf;
    size_t len, cap;
    int depth;
    int count[EB_JSON_MAX_DEPTH]; /* members written at each nesting level */
    char closer[EB_JSON_MAX_DEPTH]; /* ']' or '}' for each open level */
} eb_json;

void eb_json_init(eb_json *j);            /* starts the top-level object */
const char *eb_json_finish(eb_json *j);   /* closes it; the text stays in j->buf */
void eb_json_free(eb_json *j);

/* Members of the current object (key != NULL) or elements of the current
 * array (key == NULL). */
void eb_json_str(eb_json *j, const char *key, const char *v); /* NULL -> null */
void eb_json_num(eb_json *j, const char *key, double v);      /* !finite -> null */
void eb_json_int(eb_json *j, const char *key, long long v);
void eb_json_bool(eb_json *j, const char *key, int v);
void eb_json_null(eb_json *j, const char *key);
void eb_json_object(eb_json *j, const char *key);
void eb_json_array(eb_json *j, const char *key);
void eb_json_close(eb_json *j); /* closes the innermost object or array */

#endif
