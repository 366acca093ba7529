#include "core/report/jsonl_resume.h"

#include "core/error.h"
#include "core/own_coll.h"
#include "core/registry.h"
#include "core/report/jsonl_reader.h"
#include "core/report/jsonl_writer.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void eb_row_key(char *out, size_t n, const char *benchmark, const char *mode, int procs,
                size_t bytes, int group)
{
    snprintf(out, n, "%s|%s|%d|%zu|%d", benchmark, mode ? mode : "", procs, bytes, group);
}

/* Lines joined by '\n', for broadcasting. */
typedef struct {
    char *s;
    size_t len, cap;
} text_buf;

static void text_add(text_buf *b, const char *line, size_t n)
{
    if (b->len + n + 2 > b->cap) {
        b->cap = (b->len + n + 2) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            eb_abort("out of memory");
    }
    memcpy(b->s + b->len, line, n);
    b->len += n;
    b->s[b->len++] = '\n';
    b->s[b->len] = '\0';
}

/* rank 0: every line kept (with its '\n'), to rewrite the file when rows are dropped */
static text_buf kept_lines;
static long kept_bytes;

void eb_jsonl_resume_read(eb_resume *rs, const char *path, const char *component)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(rs, 0, sizeof *rs);
    char err[EB_ERRLEN] = {0};
    text_buf rows = {0}, run = {0}, lines = {0};
    long count = 0;
    if (rank == 0) {
        FILE *f = fopen(path, "r");
        if (!f) {
            snprintf(err, sizeof err, "--resume %s: cannot read: %s", path, strerror(errno));
        } else {
            char *line = NULL;
            size_t cap = 0;
            ssize_t len;
            long offset = 0, lineno = 0;
            while (!err[0] && (len = getline(&line, &cap, f)) > 0) {
                lineno++;
                int whole = line[len - 1] == '\n';
                if (whole)
                    line[len - 1] = '\0';
                char type[32] = "", comp[32] = "";
                eb_jsonl_str(line, "type", type, sizeof type);
                if (lineno == 1) {
                    eb_jsonl_str(line, "component", comp, sizeof comp);
                    if (strcmp(type, "run") != 0 || !whole)
                        snprintf(err, sizeof err, "--resume %s:1: not an effbench JSON Lines file "
                                 "(no run record)", path);
                    else if (strcmp(eb_component_current_name(comp), component) != 0)
                        snprintf(err, sizeof err, "--resume %s:1: the file is a '%s' run, not '%s'",
                                 path, comp, component);
                    else
                        text_add(&run, line, (size_t)len - 1);
                }
                if (!whole) /* a line cut by the crash: drop it */
                    break;
                if (strcmp(type, "end") == 0)
                    break; /* drop the old end record and anything after it */
                if (strcmp(type, "summary") == 0)
                    continue; /* the new summary covers old and new rows */
                if (strcmp(type, "result") == 0) {
                    text_add(&rows, line, (size_t)len - 1);
                    char num[24];
                    snprintf(num, sizeof num, "%ld", lineno);
                    text_add(&lines, num, strlen(num));
                    count++;
                }
                text_add(&kept_lines, line, (size_t)len - 1);
                if ((long)kept_lines.len == offset + len)
                    kept_bytes = offset + len; /* still a prefix of the file */
                offset += len;
            }
            free(line);
            fclose(f);
            if (!err[0] && lineno == 0)
                snprintf(err, sizeof err, "--resume %s: the file is empty", path);
        }
    }
    char all[EB_ERRLEN];
    if (eb_any_error(err[0] ? err : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    long n[4] = {count, (long)rows.len, (long)run.len, (long)lines.len};
    eb_own_bcast(n, 4, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        rows.s = eb_calloc((size_t)n[1] + 1, 1);
        run.s = eb_calloc((size_t)n[2] + 1, 1);
        lines.s = eb_calloc((size_t)n[3] + 1, 1);
    }
    if (n[1] > 0) {
        eb_own_bcast(rows.s, (int)n[1], MPI_CHAR, 0, MPI_COMM_WORLD);
        eb_own_bcast(lines.s, (int)n[3], MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    eb_own_bcast(run.s, (int)n[2], MPI_CHAR, 0, MPI_COMM_WORLD);
    run.s[n[2] - 1] = '\0';
    rs->run = run.s;
    rs->nrows = (int)n[0];
    rs->rows = eb_calloc((size_t)n[0] + 1, sizeof *rs->rows);
    rs->line = eb_calloc((size_t)n[0] + 1, sizeof *rs->line);
    rs->drop = eb_calloc((size_t)n[0] + 1, 1);
    rs->blob = rows.s;
    char *p = rows.s, *q = lines.s;
    for (long i = 0; i < n[0]; i++) {
        char *nl = strchr(p, '\n');
        *nl = '\0';
        rs->rows[i] = p;
        p = nl + 1;
        rs->line[i] = strtol(q, &q, 10);
        q++;
    }
    free(lines.s);
}

void eb_jsonl_resume_match(const eb_resume *rs, const char *path, const char *this_run,
                           const char *const *fields)
{
    for (int i = 0; fields[i]; i++) {
        const char *a = rs->run, *b = this_run, *key = fields[i];
        size_t la, lb;
        if (strncmp(key, "options.", 8) == 0) {
            a = eb_jsonl_value(a, "options", &la);
            b = eb_jsonl_value(b, "options", &lb);
            key += 8;
        }
        const char *va = a ? eb_jsonl_value(a, key, &la) : NULL;
        const char *vb = b ? eb_jsonl_value(b, key, &lb) : NULL;
        if (!vb)
            eb_abort("--resume: this run's record has no '%s'", fields[i]);
        if (va && la == lb && memcmp(va, vb, la) == 0)
            continue;
        /* both records come from eb_json, so equal values have equal text */
        char msg[EB_ERRLEN];
        if (!va)
            snprintf(msg, sizeof msg, "--resume %s:1: the file's run record has no '%s'", path, key);
        else
            snprintf(msg, sizeof msg, "--resume %s:1: '%s' is %.*s in the file but %.*s in this "
                     "run (resume with the options of the interrupted run)", path, key,
                     la > 80 ? 80 : (int)la, va, lb > 80 ? 80 : (int)lb, vb);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
}

void eb_jsonl_resume_append(eb_resume *rs, const char *path)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char err[EB_ERRLEN] = {0};
    long kept = 0;
    for (int i = 0; i < rs->nrows; i++)
        kept += !rs->drop[i];
    if (rank == 0) {
        int dropped = kept < rs->nrows;
        if (!dropped && kept_bytes == (long)kept_lines.len) {
            /* the kept records are a prefix of the file: cut the rest */
            if (truncate(path, kept_bytes) != 0)
                snprintf(err, sizeof err, "--resume %s: cannot write: %s", path, strerror(errno));
        } else {
            /* rows dropped from the middle: write the kept ones to a new
             * file and rename it over the old one, so a crash now loses
             * nothing */
            char tmp[4200];
            snprintf(tmp, sizeof tmp, "%s.resume-tmp", path);
            FILE *f = fopen(tmp, "w");
            if (!f) {
                snprintf(err, sizeof err, "--resume %.200s: cannot write %.200s: %s", path,
                         tmp, strerror(errno));
            } else {
                int row = 0;
                char *p = kept_lines.s;
                while (p && *p) {
                    char *nl = strchr(p, '\n');
                    char type[32] = "";
                    *nl = '\0';
                    eb_jsonl_str(p, "type", type, sizeof type);
                    *nl = '\n';
                    if (strcmp(type, "result") != 0 || !rs->drop[row])
                        fwrite(p, 1, (size_t)(nl + 1 - p), f);
                    row += strcmp(type, "result") == 0;
                    p = nl + 1;
                }
                if (fclose(f) != 0 || rename(tmp, path) != 0)
                    snprintf(err, sizeof err, "--resume %s: cannot write: %s", path,
                             strerror(errno));
            }
        }
        if (!err[0] && eb_jsonl_attach(path, "a") != 0)
            snprintf(err, sizeof err, "--resume %s: cannot write: %s", path, strerror(errno));
        free(kept_lines.s);
        memset(&kept_lines, 0, sizeof kept_lines);
    }
    char all[EB_ERRLEN];
    if (eb_any_error(err[0] ? err : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    eb_jsonl_started();
    if (eb_jsonl_active()) {
        eb_json j;
        eb_jsonl_begin(&j, "resume");
        char when[32];
        time_t now = time(NULL);
        struct tm gt;
        gmtime_r(&now, &gt);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &gt);
        eb_json_str(&j, "start", when);
        eb_json_int(&j, "rows_kept", kept);
        if (kept < rs->nrows)
            eb_json_int(&j, "rows_dropped", rs->nrows - kept);
        if (rs->superseded) {
            eb_json_array(&j, "superseded");
            for (const char *const *s = rs->superseded; *s; s++)
                eb_json_str(&j, NULL, *s);
            eb_json_close(&j);
        }
        eb_jsonl_emit(&j);
    }
}

void eb_jsonl_resume_free(eb_resume *rs)
{
    free(rs->run);
    free(rs->rows);
    free(rs->line);
    free(rs->drop);
    free(rs->blob);
    memset(rs, 0, sizeof *rs);
}

void eb_jsonl_resume(const char *path, const char *component, const char *this_run,
                     const char *const *fields, const char *const *superseded, char ***keys,
                     int *nkeys)
{
    eb_resume rs;
    eb_jsonl_resume_read(&rs, path, component);
    if (this_run)
        eb_jsonl_resume_match(&rs, path, this_run, fields);
    *nkeys = rs.nrows;
    *keys = eb_calloc((size_t)rs.nrows + 1, sizeof **keys);
    for (int i = 0; i < rs.nrows; i++) {
        const char *row = rs.rows[i];
        char bench[128] = "", mode[32] = "", key[256];
        eb_jsonl_str(row, "benchmark", bench, sizeof bench);
        int has_mode = eb_jsonl_str(row, "mode", mode, sizeof mode) == 0;
        eb_row_key(key, sizeof key, bench, has_mode ? mode : NULL,
                   (int)eb_jsonl_int(row, "procs", 0), (size_t)eb_jsonl_int(row, "bytes", 0),
                   (int)eb_jsonl_int(row, "group", -1));
        (*keys)[i] = eb_strdup(key);
    }
    rs.superseded = superseded;
    eb_jsonl_resume_append(&rs, path);
    eb_jsonl_resume_free(&rs);
}
