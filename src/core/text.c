#include "core/text.h"

#include "core/error.h"
#include "core/own_coll.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *eb_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

int eb_text_line(const char **p, int *lineno, char *buf, size_t cap)
{
    if (**p == '\0')
        return 0;
    ++*lineno;
    const char *eol = strchr(*p, '\n');
    size_t n = eol ? (size_t)(eol - *p) : strlen(*p);
    if (n >= cap)
        return -1;
    memcpy(buf, *p, n);
    buf[n] = '\0';
    *p = eol ? eol + 1 : *p + n;
    char *s = eb_trim(buf);
    memmove(buf, s, strlen(s) + 1);
    return 1;
}

char *eb_read_file(const char *path, const char *what, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        eb_err(err, errlen, "%s %s: cannot read: %s", what, path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = eb_malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            if (cap >= (64u << 20)) {
                fclose(f);
                free(buf);
                eb_err(err, errlen, "%s %s: file larger than 64 MiB", what, path);
                return NULL;
            }
            cap *= 2;
            buf = eb_realloc(buf, cap);
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        eb_err(err, errlen, "%s %s: read error", what, path);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

char *eb_read_file_bcast(const char *path, const char *what, MPI_Comm comm,
                         char *err, size_t errlen)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    char msg[EB_ERRLEN] = {0};
    char *text = NULL;
    long len = 0;
    if (rank == 0) {
        text = eb_read_file(path, what, msg, sizeof msg);
        len = text ? (long)strlen(text) : -1;
    }
    eb_own_bcast(&len, 1, MPI_LONG, 0, comm);
    if (len < 0) {
        eb_own_bcast(msg, EB_ERRLEN, MPI_CHAR, 0, comm);
        eb_err(err, errlen, "%s", msg);
        return NULL;
    }
    if (rank != 0)
        text = eb_malloc((size_t)len + 1);
    eb_own_bcast(text, (int)len + 1, MPI_CHAR, 0, comm);
    return text;
}

int eb_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int eb_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int eb_parse_positive(const char *s, double *out)
{
    double v;
    if (eb_parse_double(s, &v) || !(v > 0))
        return -1;
    *out = v;
    return 0;
}
