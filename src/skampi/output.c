#include "skampi/output.h"

#include "core/error.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void sk_format_row(char *buf, size_t n, const sk_row *r)
{
    size_t k = (size_t)snprintf(buf, n, "%s= %ld %8ld %9.1f %9.1f %8ld", r->var, r->arg, r->bytes,
                                r->v[0], r->v[1], (long)llround(r->v[2]));
    for (int i = 3; i < r->nv && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, " %9.1f", r->v[i]);
}

int sk_parse_row(const char *line, sk_row *r)
{
    const char *eq = strstr(line, "= ");
    if (!eq || eq == line || (size_t)(eq - line) >= sizeof r->var)
        return -1;
    for (const char *p = line; p < eq; p++)
        if (*p < 'a' || *p > 'z')
            return -1;
    memcpy(r->var, line, (size_t)(eq - line));
    r->var[eq - line] = '\0';
    char *p = (char *)eq + 1, *end;
    r->arg = strtol(p, &end, 10);
    if (end == p)
        return -1;
    p = end;
    r->bytes = strtol(p, &end, 10);
    if (end == p)
        return -1;
    p = end;
    r->nv = 0;
    for (;;) {
        double d = strtod(p, &end);
        if (end == p)
            break;
        if (r->nv < SK_ROW_MAXVAL)
            r->v[r->nv++] = d;
        p = end;
    }
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return *p || r->nv < 3 ? -1 : 0;
}

void sk_write_header(FILE *f, const char *date)
{
    fprintf(f, "# SKaMPI Version effbench-%s (effbench skampi)\n\n# Started at %s\n\n\n",
            EFFBENCH_VERSION, date);
}

void sk_write_footer(FILE *f, const char *date, double seconds)
{
    fprintf(f, "\n\n# Finished at %s\n# Total runtime %.0f seconds\n", date, seconds);
}

static int read_name(const char *line, const char *prefix, char *name, size_t n)
{
    size_t pl = strlen(prefix);
    if (strncmp(line, prefix, pl))
        return -1;
    const char *q = line + pl, *e = strrchr(q, '"');
    if (!e || e == q - 1 || (size_t)(e - q) >= n)
        return -1;
    memcpy(name, q, (size_t)(e - q));
    name[e - q] = '\0';
    return 0;
}

int sk_read_outfile(const char *path, sk_outfile *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    FILE *f = fopen(path, "r");
    if (!f)
        return eb_err(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    char line[32768];
    int ln = 0, cap = 0;
    sk_result *cur = NULL;
    sk_row *row = eb_malloc(sizeof *row);
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\n")] = '\0';
        char name[256];
        if (!read_name(line, "# begin result \"", name, sizeof name)) {
            if (cur) {
                fclose(f);
                free(row);
                sk_outfile_free(o);
                return eb_err(err, errlen, "%s:%d: result \"%s\" begins inside result \"%s\"", path,
                              ln, name, cur->name);
            }
            if (o->nres == cap) {
                cap = cap ? 2 * cap : 32;
                o->res = eb_realloc(o->res, (size_t)cap * sizeof *o->res);
            }
            cur = &o->res[o->nres++];
            memset(cur, 0, sizeof *cur);
            snprintf(cur->name, sizeof cur->name, "%s", name);
        } else if (!read_name(line, "# end result \"", name, sizeof name)) {
            if (!cur || strcmp(name, cur->name)) {
                fclose(f);
                free(row);
                sk_outfile_free(o);
                return eb_err(err, errlen, "%s:%d: end of result \"%s\" that did not begin", path,
                              ln, name);
            }
            cur = NULL;
        } else if (!strncmp(line, "# duration = ", 13)) {
            if (o->nres)
                o->res[o->nres - 1].duration = atof(line + 13);
        } else if (!strncmp(line, "# Finished at", 13)) {
            o->complete = 1;
        } else if (cur && line[0] && line[0] != '#') {
            if (sk_parse_row(line, row)) {
                fclose(f);
                free(row);
                sk_outfile_free(o);
                return eb_err(err, errlen, "%s:%d: not a result row: '%s'", path, ln, line);
            }
            sk_row *nr = eb_malloc((size_t)(cur->nrows + 1) * sizeof *nr);
            if (cur->nrows)
                memcpy(nr, cur->rows, (size_t)cur->nrows * sizeof *nr);
            free(cur->rows);
            cur->rows = nr;
            cur->rows[cur->nrows++] = *row;
        }
    }
    fclose(f);
    free(row);
    if (cur) {
        char nm[256];
        snprintf(nm, sizeof nm, "%s", cur->name);
        sk_outfile_free(o);
        return eb_err(err, errlen, "%s: result \"%s\" has no end (a crashed run?)", path, nm);
    }
    return 0;
}

void sk_outfile_free(sk_outfile *o)
{
    for (int i = 0; i < o->nres; i++)
        free(o->res[i].rows);
    free(o->res);
    memset(o, 0, sizeof *o);
}

static const sk_row *find_row(const sk_result *r, const sk_row *like)
{
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].arg == like->arg && !strcmp(r->rows[i].var, like->var))
            return &r->rows[i];
    return NULL;
}

static const sk_result *find_result(const sk_outfile *o, const char *name)
{
    for (int i = 0; i < o->nres; i++)
        if (!strcmp(o->res[i].name, name))
            return &o->res[i];
    return NULL;
}

int sk_postprocess(char *const *paths, int n, FILE *out, char *err, size_t errlen)
{
    if (n < 1)
        return eb_err(err, errlen, "--postprocess: no output files given");
    sk_outfile *files = eb_calloc((size_t)n, sizeof *files);
    for (int i = 0; i < n; i++) {
        if (sk_read_outfile(paths[i], &files[i], err, errlen)) {
            for (int j = 0; j < i; j++)
                sk_outfile_free(&files[j]);
            free(files);
            return -1;
        }
        if (!files[i].complete) {
            eb_err(err, errlen, "%s: not a complete output file (no \"# Finished at\" line)", paths[i]);
            for (int j = 0; j <= i; j++)
                sk_outfile_free(&files[j]);
            free(files);
            return -1;
        }
    }
    double *vals = eb_malloc((size_t)n * sizeof *vals);
    sk_row *m = eb_malloc(sizeof *m);
    fprintf(out, "# SKaMPI Version effbench-%s (effbench skampi)\n\n", EFFBENCH_VERSION);
    fprintf(out, "# Postprocessed: medians of %d output files:", n);
    for (int i = 0; i < n; i++)
        fprintf(out, " %s", paths[i]);
    fprintf(out, "\n\n\n");
    /* results and rows in the order of their first appearance */
    for (int i = 0; i < n; i++)
        for (int r = 0; r < files[i].nres; r++) {
            const sk_result *res = &files[i].res[r];
            int seen = 0;
            for (int j = 0; j < i && !seen; j++)
                seen = find_result(&files[j], res->name) != NULL;
            if (seen)
                continue;
            fprintf(out, "# begin result \"%s\"\n", res->name);
            /* rows: the union over files, first appearance order */
            for (int i2 = i; i2 < n; i2++) {
                const sk_result *r2 = find_result(&files[i2], res->name);
                for (int k = 0; r2 && k < r2->nrows; k++) {
                    const sk_row *row = &r2->rows[k];
                    int dup = 0;
                    for (int j = i; j < i2 && !dup; j++) {
                        const sk_result *rj = find_result(&files[j], res->name);
                        dup = rj && find_row(rj, row);
                    }
                    if (dup)
                        continue;
                    *m = *row;
                    for (int c = 0; c < row->nv; c++) {
                        int nvals = 0;
                        for (int j = i; j < n; j++) {
                            const sk_result *rj = find_result(&files[j], res->name);
                            const sk_row *x = rj ? find_row(rj, row) : NULL;
                            if (x && c < x->nv)
                                vals[nvals++] = x->v[c];
                        }
                        m->v[c] = eb_median(vals, nvals);
                    }
                    char line[32768];
                    sk_format_row(line, sizeof line, m);
                    fprintf(out, "%s\n", line);
                }
            }
            int nd = 0;
            for (int j = i; j < n; j++) {
                const sk_result *rj = find_result(&files[j], res->name);
                if (rj)
                    vals[nd++] = rj->duration;
            }
            fprintf(out, "# end result \"%s\"\n# duration = %.2f sec\n\n", res->name,
                    eb_median(vals, nd));
        }
    char date[64];
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &tmv);
    sk_write_footer(out, date, 0);
    free(m);
    free(vals);
    for (int i = 0; i < n; i++)
        sk_outfile_free(&files[i]);
    free(files);
    return 0;
}

int sk_truncate_open_block(const char *path, char *name, size_t namelen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? 0 : -1;
    char line[32768];
    long pos = 0, open_at = -1, rows = 0, prev_pos = -1;
    int prev_was_suite = 0;
    char open_name[256] = "";
    while (fgets(line, sizeof line, f)) {
        long len = (long)strlen(line);
        char nm[256];
        int is_suite = !strncmp(line, "# suite \"", 9);
        if (!read_name(line, "# begin result \"", nm, sizeof nm)) {
            /* the block starts at its "# suite" comment line */
            open_at = prev_was_suite ? prev_pos : pos;
            rows = 0;
            snprintf(open_name, sizeof open_name, "%s", nm);
        } else if (!strncmp(line, "# end result \"", 14)) {
            open_at = -1;
        } else if (open_at >= 0 && line[0] != '#' && line[0] != '\n') {
            rows++;
        }
        prev_was_suite = is_suite;
        prev_pos = pos;
        pos += len;
    }
    fclose(f);
    if (open_at < 0)
        return 0;
    if (truncate(path, (off_t)open_at))
        return -1;
    snprintf(name, namelen, "%s", open_name);
    return (int)rows;
}

/* ---- the log ---- */

static void list_add(char ***list, int *n, const char *name)
{
    char **nl = eb_malloc((size_t)(*n + 1) * sizeof *nl);
    if (*n)
        memcpy(nl, *list, (size_t)*n * sizeof *nl);
    free(*list);
    *list = nl;
    (*list)[(*n)++] = eb_strdup(name);
}

static void list_remove(char **list, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp(list[i], name)) {
            free(list[i]);
            memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1) * sizeof *list);
            (*n)--;
            return;
        }
}

static void list_clear(char ***list, int *n)
{
    for (int i = 0; i < *n; i++)
        free((*list)[i]);
    free(*list);
    *list = NULL;
    *n = 0;
}

int sk_logstate_has(char *const *list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

int sk_read_log(const char *path, sk_logstate *st)
{
    memset(st, 0, sizeof *st);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *p = strchr(line, ' '); /* after the time stamp */
        if (!p)
            continue;
        p++;
        if (!strncmp(p, "run begin outfile=", 18)) {
            list_clear(&st->done, &st->ndone);
            list_clear(&st->crashed, &st->ncrashed);
            st->resume = 1;
            snprintf(st->outfile, sizeof st->outfile, "%s", p + 18);
        } else if (!strncmp(p, "run end", 7)) {
            st->resume = 0;
        } else if (!strncmp(p, "suite begin ", 12)) {
            list_remove(st->crashed, &st->ncrashed, p + 12);
            list_add(&st->crashed, &st->ncrashed, p + 12);
        } else if (!strncmp(p, "suite end ", 10) || !strncmp(p, "suite skipped ", 14)) {
            char *name = p + (p[6] == 'e' ? 10 : 14);
            char *colon = strchr(name, ':');
            if (colon)
                *colon = '\0';
            list_remove(st->crashed, &st->ncrashed, name);
            if (!sk_logstate_has(st->done, st->ndone, name))
                list_add(&st->done, &st->ndone, name);
        }
    }
    fclose(f);
    if (!st->resume) {
        list_clear(&st->done, &st->ndone);
        list_clear(&st->crashed, &st->ncrashed);
    }
    return 0;
}

void sk_logstate_free(sk_logstate *st)
{
    list_clear(&st->done, &st->ndone);
    list_clear(&st->crashed, &st->ncrashed);
}
