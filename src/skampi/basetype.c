/* Base types: the built-in table, the @BASETYPE syntax and the MPI
 * datatype of a base type (skampi/basetype.h). */
#include "skampi/basetype.h"

#include "core/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------- built-in types ---------------- */

typedef struct {
    const char *name;
    int size;
    int reducible; /* MPI_SUM is defined for it */
} builtin;

static const builtin builtins[] = {
    {"MPI_CHAR", (int)sizeof(char), 0},    {"MPI_BYTE", 1, 0},
    {"MPI_SHORT", (int)sizeof(short), 1},  {"MPI_INT", (int)sizeof(int), 1},
    {"MPI_LONG", (int)sizeof(long), 1},    {"MPI_FLOAT", (int)sizeof(float), 1},
    {"MPI_DOUBLE", (int)sizeof(double), 1},
};
#define NBUILTIN ((int)(sizeof builtins / sizeof builtins[0]))
#define BUILTIN_LIST "MPI_CHAR, MPI_BYTE, MPI_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE"

static MPI_Datatype builtin_mpi(int i)
{
    switch (i) {
    case 0: return MPI_CHAR;
    case 1: return MPI_BYTE;
    case 2: return MPI_SHORT;
    case 3: return MPI_INT;
    case 4: return MPI_LONG;
    case 5: return MPI_FLOAT;
    default: return MPI_DOUBLE;
    }
}

static int find_builtin(const char *s, size_t len)
{
    for (int i = 0; i < NBUILTIN; i++)
        if (strlen(builtins[i].name) == len && !strncasecmp(s, builtins[i].name, len))
            return i;
    return -1;
}

/* ---------------- base types ---------------- */

static const char *skip_ws(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

static int parse_long(const char **pp, long *v)
{
    const char *p = skip_ws(*pp);
    char *end;
    if (!isdigit((unsigned char)*p) && *p != '-')
        return -1;
    *v = strtol(p, &end, 10);
    if (end == p)
        return -1;
    *pp = end;
    return 0;
}

static int expect(const char **pp, char c)
{
    const char *p = skip_ws(*pp);
    if (*p != c)
        return -1;
    *pp = p + 1;
    return 0;
}

/* "(count, offset, type) (count, offset, type) ..." */
static int parse_triples(const char *text, sk_basetype *b, char *err, size_t errlen)
{
    const char *p = skip_ws(text);
    long end_max = 0;
    int align = 1;
    while (*p) {
        if (b->n == SK_BASE_MAX_TRIPLES)
            return eb_err(err, errlen, "'%s': at most %d triples", text, SK_BASE_MAX_TRIPLES);
        long cnt, off;
        const char *at = p;
        if (expect(&p, '(') || parse_long(&p, &cnt) || expect(&p, ',') || parse_long(&p, &off) ||
            expect(&p, ','))
            return eb_err(err, errlen, "'%s': expected a triple (count, offset, type) at '%s'",
                          text, at);
        p = skip_ws(p);
        const char *name = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        int bi = find_builtin(name, (size_t)(p - name));
        if (bi < 0)
            return eb_err(err, errlen, "'%s': '%.*s' is not a built-in type (%s)", text,
                          (int)(p - name), name, BUILTIN_LIST);
        if (expect(&p, ')'))
            return eb_err(err, errlen, "'%s': expected ')' after %s", text, builtins[bi].name);
        int sz = builtins[bi].size;
        if (cnt < 1 || cnt > 1024)
            return eb_err(err, errlen, "'%s': triple %d: count %ld is not in 1..1024", text,
                          b->n + 1, cnt);
        if (off > SK_BASE_MAX_OFFSET) /* strtol's LONG_MAX for more digits too */
            return eb_err(err, errlen, "'%s': triple %d: offset above %ld bytes", text, b->n + 1,
                          SK_BASE_MAX_OFFSET);
        if (off < 0 || off % sz)
            return eb_err(err, errlen,
                          "'%s': triple %d: offset %ld is not a non-negative multiple of the "
                          "%d bytes of %s",
                          text, b->n + 1, off, sz, builtins[bi].name);
        for (int i = 0; i < b->n; i++) {
            long o2 = b->offset[i], e2 = o2 + b->count[i] * builtins[b->builtin[i]].size;
            if (off < e2 && o2 < off + cnt * sz)
                return eb_err(err, errlen, "'%s': triples %d and %d overlap", text, i + 1, b->n + 1);
        }
        b->count[b->n] = (int)cnt;
        b->offset[b->n] = off;
        b->builtin[b->n] = bi;
        b->n++;
        b->size += cnt * sz;
        if (off + cnt * sz > end_max)
            end_max = off + cnt * sz;
        if (sz > align)
            align = sz;
        p = skip_ws(p);
        if (*p == ',')
            p = skip_ws(p + 1);
    }
    if (b->n == 0)
        return eb_err(err, errlen, "'%s': no triple", text);
    /* as a C compiler pads a struct: the end rounded up to the largest member */
    b->extent = (end_max + align - 1) / align * align;
    return 0;
}

int sk_basetype_parse(const char *text, sk_basetype *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    const char *t = skip_ws(text);
    if (*t == '(') {
        b->structured = 1;
        return parse_triples(t, b, err, errlen);
    }
    size_t len = strlen(t);
    while (len && isspace((unsigned char)t[len - 1]))
        len--;
    int bi = find_builtin(t, len);
    if (bi < 0)
        return eb_err(err, errlen,
                      "'%s' is not a base type: a built-in type (%s) or triples "
                      "(count, offset, type) ...",
                      text, BUILTIN_LIST);
    b->n = 1;
    b->count[0] = 1;
    b->builtin[0] = bi;
    b->size = b->extent = builtins[bi].size;
    return 0;
}

int sk_basetype_reducible(const char *text, char *err, size_t errlen)
{
    sk_basetype b;
    if (sk_basetype_parse(text, &b, err, errlen))
        return 0;
    if (!b.structured && builtins[b.builtin[0]].reducible)
        return 1;
    eb_err(err, errlen, "MPI_SUM is not defined for base type %s", text);
    return 0;
}

void sk_base_store(const sk_basetype *b, void *p, long v)
{
    switch (b->builtin[0]) { /* the order of builtins[] */
    case 2: { short x = (short)v; memcpy(p, &x, sizeof x); break; }
    case 3: { int x = (int)v; memcpy(p, &x, sizeof x); break; }
    case 4: memcpy(p, &v, sizeof v); break;
    case 5: { float x = (float)v; memcpy(p, &x, sizeof x); break; }
    case 6: { double x = (double)v; memcpy(p, &x, sizeof x); break; }
    default: { unsigned char x = (unsigned char)v; memcpy(p, &x, 1); break; }
    }
}

int sk_base_builtin_size(const sk_basetype *b, int i) { return builtins[b->builtin[i]].size; }

MPI_Datatype sk_basetype_mpi(const sk_basetype *b, int *derived)
{
    *derived = 0;
    if (!b->structured)
        return builtin_mpi(b->builtin[0]);
    int bl[SK_BASE_MAX_TRIPLES];
    MPI_Aint disp[SK_BASE_MAX_TRIPLES];
    MPI_Datatype ty[SK_BASE_MAX_TRIPLES], st, t;
    for (int i = 0; i < b->n; i++) {
        bl[i] = b->count[i];
        disp[i] = b->offset[i];
        ty[i] = builtin_mpi(b->builtin[i]);
    }
    MPI_Type_create_struct(b->n, bl, disp, ty, &st);
    /* the extent is ours, not the library's alignment rule: layouts must agree */
    MPI_Type_create_resized(st, 0, b->extent, &t);
    MPI_Type_free(&st);
    *derived = 1;
    return t;
}
