#include "core/report/jsonl_reader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* End of the JSON value starting at p (our own records: valid JSON). */
static const char *value_end(const char *p)
{
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1])
                p++;
        return *p ? p + 1 : p;
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; *p; p++) {
            if (*p == '"') {
                p = value_end(p) - 1;
            } else if (*p == '{' || *p == '[') {
                depth++;
            } else if (*p == '}' || *p == ']') {
                if (--depth == 0)
                    return p + 1;
            }
        }
        return p;
    }
    while (*p && *p != ',' && *p != '}' && *p != ']' && *p != '\n')
        p++;
    return p;
}

const char *eb_jsonl_value(const char *rec, const char *key, size_t *len)
{
    const char *p = rec;
    while (*p == ' ')
        p++;
    if (*p != '{')
        return NULL;
    size_t kl = strlen(key);
    p++;
    for (;;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p != '"')
            return NULL; /* '}' or the end: no such member */
        const char *k = p + 1, *ke = value_end(p) - 1;
        p = ke + 1;
        while (*p == ' ' || *p == ':')
            p++;
        const char *ve = value_end(p);
        if ((size_t)(ke - k) == kl && strncmp(k, key, kl) == 0) {
            *len = (size_t)(ve - p);
            return p;
        }
        p = ve;
    }
}

int eb_jsonl_str(const char *rec, const char *key, char *out, size_t n)
{
    size_t len;
    const char *v = eb_jsonl_value(rec, key, &len);
    if (!v || *v != '"' || len < 2 || n == 0)
        return -1;
    size_t k = len - 2 < n - 1 ? len - 2 : n - 1;
    memcpy(out, v + 1, k);
    out[k] = '\0';
    return 0;
}

double eb_jsonl_num(const char *rec, const char *key)
{
    size_t len;
    const char *v = eb_jsonl_value(rec, key, &len);
    if (!v || strncmp(v, "null", 4) == 0 || *v == '"')
        return NAN;
    return strtod(v, NULL);
}

long long eb_jsonl_int(const char *rec, const char *key, long long dflt)
{
    size_t len;
    const char *v = eb_jsonl_value(rec, key, &len);
    if (!v || strncmp(v, "null", 4) == 0 || *v == '"')
        return dflt;
    if (strncmp(v, "true", 4) == 0)
        return 1;
    if (strncmp(v, "false", 5) == 0)
        return 0;
    return strtoll(v, NULL, 10);
}
