#include "imb/driver/sizes.h"

#include "core/error.h"
#include "core/text.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void eb_sizes_free(eb_sizes *s)
{
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

static void push(eb_sizes *s, size_t x)
{
    s->v = realloc(s->v, (size_t)(s->n + 1) * sizeof *s->v);
    if (!s->v)
        eb_abort("out of memory");
    s->v[s->n++] = x;
}

void eb_sizes_msglog(int minlog, int maxlog, size_t unit, eb_sizes *out)
{
    out->v = NULL;
    out->n = 0;
    push(out, 0);
    for (int k = minlog; k <= maxlog; k++) {
        size_t x = (size_t)1 << k;
        if (x < unit)
            continue;
        push(out, x);
    }
}

int eb_sizes_parse_msglen(const char *text, const char *fname, size_t unit,
                          eb_sizes *out, char *err, size_t errlen)
{
    out->v = NULL;
    out->n = 0;
    int line = 0, got;
    const char *p = text;
    char s[256];
    while ((got = eb_text_line(&p, &line, s, sizeof s)) != 0) {
        if (got < 0) {
            eb_sizes_free(out);
            return eb_err(err, errlen, "%s:%d: line too long", fname, line);
        }
        if (*s == '\0' || *s == '#')
            continue;
        errno = 0;
        char *end;
        long long v = strtoll(s, &end, 10);
        if (*end != '\0' || errno || v < 0 || !isdigit((unsigned char)*s)) {
            eb_sizes_free(out);
            return eb_err(err, errlen,
                          "%s:%d: '%s' is not a non-negative message length in bytes",
                          fname, line, s);
        }
        size_t x = (size_t)v;
        if (unit > 1)
            x -= x % unit;
        int dup = 0;
        for (int i = 0; i < out->n; i++)
            dup |= out->v[i] == x;
        if (!dup)
            push(out, x);
    }
    if (out->n == 0)
        return eb_err(err, errlen, "%s: no message lengths in the file", fname);
    return 0;
}

static int parse_log(const char *s, const char *arg, int *v, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (s == end || *end || errno || x < 0 || x > 40)
        return eb_err(err, errlen,
                      "-msglog %s: expected [minlog:]maxlog with integers 0..40", arg);
    *v = (int)x;
    return 0;
}

int eb_parse_msglog(const char *arg, int *minlog, int *maxlog, int *min_given,
                    char *err, size_t errlen)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", arg);
    char *colon = strchr(buf, ':');
    *min_given = colon != NULL;
    if (colon) {
        *colon = '\0';
        if (parse_log(buf, arg, minlog, err, errlen) ||
            parse_log(colon + 1, arg, maxlog, err, errlen))
            return -1;
    } else if (parse_log(buf, arg, maxlog, err, errlen)) {
        return -1;
    }
    if (*min_given && *minlog > *maxlog)
        return eb_err(err, errlen, "-msglog %s: minlog %d is larger than maxlog %d",
                      arg, *minlog, *maxlog);
    return 0;
}
