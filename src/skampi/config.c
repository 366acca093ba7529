/* The .skampi file's syntax (skampi/config.h): the preamble's @KEY lines,
 * the suites' names and their { Key = value; } blocks.  The suite keys'
 * values are skampi/suite_keys.c's. */
#include "skampi/config.h"

#include "core/error.h"
#include "core/text.h"
#include "skampi/basetype.h"
#include "skampi/suite_keys.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src); }

static int preamble_line(sk_config *c, char *line, int ln, char *err, size_t errlen)
{
    char *p = line + 1, *key = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    char save = *p;
    *p = '\0';
    char keybuf[64];
    copy(keybuf, sizeof keybuf, key);
    *p = save;
    char *val = eb_trim(p);
    const char *k = keybuf;
#define NEED_VALUE()                                                                          \
    if (!*val)                                                                                \
    return eb_err(err, errlen, "%s:%d: @%s: missing value", c->path, ln, k)
    if (!strcasecmp(k, "MACHINE")) { copy(c->machine, sizeof c->machine, val); return 0; }
    if (!strcasecmp(k, "NODE")) { copy(c->node, sizeof c->node, val); return 0; }
    if (!strcasecmp(k, "NETWORK")) { copy(c->network, sizeof c->network, val); return 0; }
    if (!strcasecmp(k, "MPIVERSION")) { copy(c->mpiversion, sizeof c->mpiversion, val); return 0; }
    if (!strcasecmp(k, "USER")) { copy(c->user, sizeof c->user, val); return 0; }
    if (!strcasecmp(k, "OUTFILE")) { NEED_VALUE(); copy(c->outfile, sizeof c->outfile, val); return 0; }
    if (!strcasecmp(k, "LOGFILE")) { NEED_VALUE(); copy(c->logfile, sizeof c->logfile, val); return 0; }
    if (!strcasecmp(k, "MEMORY") || !strcasecmp(k, "CACHEWARMUP")) {
        NEED_VALUE();
        char *end;
        errno = 0;
        long v = strtol(val, &end, 10);
        int memory = !strcasecmp(k, "MEMORY");
        if (*end || errno || v < (memory ? 1 : 0))
            return eb_err(err, errlen, "%s:%d: @%s: '%s' is not %s", c->path, ln, k, val,
                          memory ? "a positive number of KB" : "a non-negative count");
        long hi = memory ? SK_MAX_MEMORY_KB : INT_MAX; /* bytes in a size_t; an int count */
        if (v > hi)
            return eb_err(err, errlen, "%s:%d: @%s: %s is above the limit of %ld", c->path, ln,
                          k, val, hi);
        if (memory)
            c->memory_kb = v;
        else
            c->cachewarmup = (int)v;
        return 0;
    }
    if (!strcasecmp(k, "POSTPROC")) {
        if (!strcasecmp(val, "yes"))
            c->postproc = 1;
        else if (!strcasecmp(val, "no"))
            c->postproc = 0;
        else
            return eb_err(err, errlen, "%s:%d: @POSTPROC: '%s' is not yes or no", c->path, ln, val);
        return 0;
    }
    if (!strncasecmp(k, "BASETYPE", 8)) {
        char *end;
        long n = strtol(k + 8, &end, 10);
        if (end == k + 8 || *end || n < 1 || n > SK_MAX_BASETYPES)
            return eb_err(err, errlen, "%s:%d: @%s: base type numbers are 1..%d", c->path, ln, k,
                          SK_MAX_BASETYPES);
        NEED_VALUE();
        char why[EB_ERRLEN];
        sk_basetype b;
        if (sk_basetype_parse(val, &b, why, sizeof why))
            return eb_err(err, errlen, "%s:%d: @%s: %s", c->path, ln, k, why);
        copy(c->basetype[n], sizeof c->basetype[n], val);
        c->basetype_line[n] = ln;
        return 0;
    }
    return eb_err(err, errlen, "%s:%d: unknown preamble key '@%s'", c->path, ln, k);
#undef NEED_VALUE
}

/* The parser's place in the file. */
typedef struct {
    sk_config *c;
    const char *path;
    char *err;
    size_t errlen;
    int ln;              /* line number */
    int cap;             /* room in c->suites */
    int in_meas;         /* after @MEASUREMENTS */
    int explicit_bt1;    /* the preamble names @BASETYPE1 */
    sk_suite *cur;       /* inside { } */
    sk_suite pending;    /* name seen, waiting for { */
    int have_pending;
} parser;

/* A line before @MEASUREMENTS. */
static int preamble(parser *ps, char *line)
{
    sk_config *c = ps->c;
    if (line[0] != '@')
        return eb_err(ps->err, ps->errlen, "%s:%d: expected an @KEY line in the preamble, got '%s'",
                      ps->path, ps->ln, line);
    if (!strcasecmp(line, "@MEASUREMENTS") || !strcasecmp(line, "@MEASUREMENT")) {
        ps->in_meas = 1;
        return 0;
    }
    if (!strncasecmp(line, "@BASETYPE1", 10) && isspace((unsigned char)line[10]) &&
        !ps->explicit_bt1) {
        ps->explicit_bt1 = 1;
        c->basetype[1][0] = '\0';
    }
    return preamble_line(c, line, ps->ln, ps->err, ps->errlen);
}

/* A `Key = value;` line inside a suite's block. */
static int key_line(parser *ps, char *line)
{
    sk_suite *cur = ps->cur;
    char *eq = strchr(line, '=');
    if (!eq)
        return eb_err(ps->err, ps->errlen, "%s:%d: suite '%s': expected 'Key = value;', got '%s'",
                      ps->path, ps->ln, cur->name, line);
    *eq = '\0';
    char *key = eb_trim(line), *val = eb_trim(eq + 1);
    size_t vl = strlen(val);
    int k;
    for (k = 0; k < SK_NKEYS; k++)
        if (!strcasecmp(key, sk_key_names[k]))
            break;
    if (k == SK_NKEYS)
        return eb_err(ps->err, ps->errlen, "%s:%d: suite '%s': unknown key '%s'", ps->path, ps->ln,
                      cur->name, key);
    if (cur->key_line[k])
        return eb_err(ps->err, ps->errlen,
                      "%s:%d: suite '%s': key '%s': given twice (first on line %d)", ps->path,
                      ps->ln, cur->name, sk_key_names[k], cur->key_line[k]);
    if (vl == 0 || val[vl - 1] != ';')
        return eb_err(ps->err, ps->errlen, "%s:%d: suite '%s': key '%s': missing ';' after the value",
                      ps->path, ps->ln, cur->name, sk_key_names[k]);
    val[vl - 1] = '\0';
    val = eb_trim(val);
    cur->key_line[k] = ps->ln;
    return sk_suite_set_key(ps->c, cur, (enum sk_key)k, val, ps->err, ps->errlen);
}

/* '{' after a suite's name: the suite's block begins. */
static int block_open(parser *ps)
{
    sk_config *c = ps->c;
    if (!ps->have_pending)
        return eb_err(ps->err, ps->errlen, "%s:%d: '{' without a suite name before it", ps->path,
                      ps->ln);
    if (c->nsuites == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 16;
        c->suites = eb_realloc(c->suites, (size_t)ps->cap * sizeof *c->suites);
    }
    ps->cur = &c->suites[c->nsuites++];
    *ps->cur = ps->pending;
    ps->have_pending = 0;
    return 0;
}

/* A line between suites: a suite's name or the '{' after it. */
static int between_suites(parser *ps, char *line)
{
    sk_config *c = ps->c;
    if (!strcmp(line, "{"))
        return block_open(ps);
    if (line[0] == '@' || line[0] == '}' || strchr(line, '=') || strchr(line, '{') ||
        strchr(line, ' ') || strchr(line, '\t') || strchr(line, '"'))
        return eb_err(ps->err, ps->errlen, "%s:%d: expected a suite name or '{', got '%s'", ps->path,
                      ps->ln, line);
    if (ps->have_pending)
        return eb_err(ps->err, ps->errlen, "%s:%d: suite '%s' has no '{' block", ps->path,
                      ps->pending.line, ps->pending.name);
    if (strlen(line) >= sizeof ps->pending.name)
        return eb_err(ps->err, ps->errlen, "%s:%d: suite name longer than %zu characters", ps->path,
                      ps->ln, sizeof ps->pending.name - 1);
    for (int i = 0; i < c->nsuites; i++)
        if (!strcmp(c->suites[i].name, line))
            return eb_err(ps->err, ps->errlen, "%s:%d: suite '%s' is defined twice (first on line %d)",
                          ps->path, ps->ln, line, c->suites[i].line);
    sk_suite_defaults(&ps->pending);
    copy(ps->pending.name, sizeof ps->pending.name, line);
    ps->pending.line = ps->ln;
    ps->have_pending = 1;
    return 0;
}

/* One line without its comment, trimmed, not empty. */
static int parse_line(parser *ps, char *line)
{
    if (!ps->in_meas)
        return preamble(ps, line);
    if (!ps->cur)
        return between_suites(ps, line);
    if (strcmp(line, "}"))
        return key_line(ps, line);
    sk_suite *done = ps->cur;
    ps->cur = NULL;
    return sk_suite_check(ps->c, done, ps->err, ps->errlen);
}

/* At the end of the file: every block closed, some suites. */
static int parse_end(parser *ps)
{
    if (ps->cur)
        return eb_err(ps->err, ps->errlen, "%s:%d: suite '%s': missing '}' at the end of the file",
                      ps->path, ps->cur->line, ps->cur->name);
    if (ps->have_pending)
        return eb_err(ps->err, ps->errlen, "%s:%d: suite '%s' has no '{' block", ps->path,
                      ps->pending.line, ps->pending.name);
    if (!ps->in_meas)
        return eb_err(ps->err, ps->errlen, "%s:%d: no @MEASUREMENTS section", ps->path, ps->ln);
    if (ps->c->nsuites == 0)
        return eb_err(ps->err, ps->errlen, "%s:%d: @MEASUREMENTS lists no suites", ps->path, ps->ln);
    return 0;
}

int sk_config_parse(const char *text, const char *path, sk_config *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    copy(c->path, sizeof c->path, path);
    c->memory_kb = SK_DEF_MEMORY_KB;
    copy(c->outfile, sizeof c->outfile, "skampi.out");
    copy(c->logfile, sizeof c->logfile, "skampi.log");
    c->cachewarmup = SK_DEF_CACHEWARMUP;
    copy(c->basetype[1], sizeof c->basetype[1], "MPI_INT"); /* when the preamble names none */
    parser ps = {.c = c, .path = path, .err = err, .errlen = errlen};
    int rc = 0;
    const char *p = text;
    while (*p && !rc) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *buf = eb_malloc(n + 1);
        memcpy(buf, p, n);
        buf[n] = '\0';
        p = e ? e + 1 : p + n;
        ps.ln++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *line = eb_trim(buf);
        if (*line)
            rc = parse_line(&ps, line);
        free(buf);
    }
    if (!rc)
        rc = parse_end(&ps);
    if (rc)
        sk_config_free(c);
    return rc ? -1 : 0;
}

void sk_config_free(sk_config *c)
{
    free(c->suites);
    c->suites = NULL;
    c->nsuites = 0;
}
