#include "core/json.h"

#include "core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(eb_json *j, const char *s, size_t n)
{
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 256;
        while (j->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(j->buf, cap);
        if (!b)
            eb_abort("out of memory in JSON writer");
        j->buf = b;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = '\0';
}

static void puts_(eb_json *j, const char *s) { put(j, s, strlen(s)); }

static void put_string(eb_json *j, const char *s)
{
    put(j, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        switch (*p) {
        case '"': puts_(j, "\\\""); break;
        case '\\': puts_(j, "\\\\"); break;
        case '\n': puts_(j, "\\n"); break;
        case '\r': puts_(j, "\\r"); break;
        case '\t': puts_(j, "\\t"); break;
        default:
            if (*p < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", *p);
                puts_(j, esc);
            } else {
                put(j, (const char *)p, 1);
            }
        }
    }
    put(j, "\"", 1);
}

static void member(eb_json *j, const char *key)
{
    if (j->count[j->depth]++ > 0)
        put(j, ", ", 2);
    if (key) {
        put_string(j, key);
        put(j, ": ", 2);
    }
}

void eb_json_init(eb_json *j)
{
    memset(j, 0, sizeof *j);
    put(j, "{", 1);
}

const char *eb_json_finish(eb_json *j)
{
    while (j->depth > 0)
        eb_json_close(j);
    put(j, "}", 1);
    return j->buf;
}

void eb_json_free(eb_json *j)
{
    free(j->buf);
    memset(j, 0, sizeof *j);
}

void eb_json_str(eb_json *j, const char *key, const char *v)
{
    member(j, key);
    if (v)
        put_string(j, v);
    else
        puts_(j, "null");
}

void eb_json_num(eb_json *j, const char *key, double v)
{
    char tmp[40];
    member(j, key);
    if (!isfinite(v)) {
        puts_(j, "null");
        return;
    }
    snprintf(tmp, sizeof tmp, "%.17g", v);
    puts_(j, tmp);
}

void eb_json_int(eb_json *j, const char *key, long long v)
{
    char tmp[32];
    member(j, key);
    snprintf(tmp, sizeof tmp, "%lld", v);
    puts_(j, tmp);
}

void eb_json_bool(eb_json *j, const char *key, int v)
{
    member(j, key);
    puts_(j, v ? "true" : "false");
}

void eb_json_null(eb_json *j, const char *key)
{
    member(j, key);
    puts_(j, "null");
}

static void open_(eb_json *j, const char *key, const char *bracket)
{
    member(j, key);
    if (j->depth + 1 >= EB_JSON_MAX_DEPTH)
        eb_abort("JSON nesting too deep");
    puts_(j, bracket);
    j->depth++;
    j->count[j->depth] = 0;
}

void eb_json_object(eb_json *j, const char *key)
{
    open_(j, key, "{");
    j->closer[j->depth] = '}';
}

void eb_json_array(eb_json *j, const char *key)
{
    open_(j, key, "[");
    j->closer[j->depth] = ']';
}

void eb_json_close(eb_json *j)
{
    if (j->depth == 0)
        return;
    put(j, &j->closer[j->depth], 1);
    j->depth--;
}
