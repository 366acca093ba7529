#include "core/report/jsonl.h"

#include "core/error.h"
#include "core/guard.h"
#include "core/placement.h"
#include "core/simulate.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;
static char out_path[1024];
static double t_open;
/* The run's guard may write the end record from its own thread while the
 * main thread is stuck: one writer at a time, and none after the end. */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;

/* The end record's status from the exit status (docs/json-lines.md). */
static const char *end_status(int status)
{
    if (status == EB_EXIT_OK)
        return "ok";
    if (status == EB_EXIT_TIMEOUT)
        return "timeout";
    if (status >= EB_EXIT_SIGNAL_BASE)
        return "terminated";
    return "error";
}

static void close_on_exit(int status, const char *msg)
{
    if (out)
        eb_jsonl_end(end_status(status), msg);
}

void eb_jsonl_open(const char *path)
{
    if (!path)
        return;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char err[EB_ERRLEN];
    const char *msg = NULL;
    if (rank == 0) {
        out = fopen(path, "w");
        snprintf(out_path, sizeof out_path, "%s", path);
        if (!out) {
            snprintf(err, sizeof err, "--json %s: cannot write: %s", path, strerror(errno));
            msg = err;
        }
    }
    char all[EB_ERRLEN];
    if (eb_any_error(msg, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    t_open = MPI_Wtime();
    eb_add_exit_hook(close_on_exit);
}

int eb_jsonl_active(void) { return out != NULL; }

void eb_jsonl_begin(eb_json *j, const char *type)
{
    if (!strcmp(type, "result"))
        eb_guard_count_row();
    eb_json_init(j);
    eb_json_str(j, "type", type);
    eb_json_int(j, "schema", 1);
}

/* One record as one line, or (a full disk, a lost file system) nothing: the
 * partial line is cut off again, so every line in the file stays a whole
 * record, and the run ends with a message saying how many are there.
 * Called with write_lock held; returns 0 or the errno of the failure. */
static int write_line(const char *text)
{
    long at = ftell(out);
    if (fputs(text, out) != EOF && fputc('\n', out) != EOF && fflush(out) == 0)
        return 0;
    int e = errno ? errno : EIO;
    clearerr(out);
    if (at >= 0 && ftruncate(fileno(out), at) == 0)
        fseek(out, at, SEEK_SET);
    return e;
}

static long records_written;

/* rank 0, the file cannot take a record: say so and end the run. */
static _Noreturn void write_failed(int e)
{
    fclose(out);
    out = NULL;
    pthread_mutex_unlock(&write_lock);
    eb_abort("--json %s: cannot write: %s; the %ld records before it are complete", out_path,
             strerror(e), records_written);
}

void eb_jsonl_emit(eb_json *j)
{
    pthread_mutex_lock(&write_lock);
    if (out) {
        int e = write_line(eb_json_finish(j));
        if (e)
            write_failed(e);
        records_written++;
    }
    pthread_mutex_unlock(&write_lock);
    eb_json_free(j);
}

void eb_jsonl_run_begin(eb_json *j, const char *component, const eb_sysinfo *s, int check)
{
    eb_jsonl_begin(j, "run");
    eb_json_str(j, "tool", "effbench");
    eb_json_str(j, "version", EFFBENCH_VERSION);
    eb_json_str(j, "component", component);
    eb_json_str(j, "start", s->iso_start);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    eb_json_int(j, "procs", size);
    eb_hosts(j);
    eb_placement_json(j);
    eb_json_object(j, "uname");
    eb_json_str(j, "sysname", s->sysname);
    eb_json_str(j, "nodename", s->nodename);
    eb_json_str(j, "release", s->release);
    eb_json_str(j, "version", s->version);
    eb_json_str(j, "machine", s->machine);
    eb_json_close(j);
    eb_json_str(j, "mpi_library", s->mpi_library);
    char v[16];
    snprintf(v, sizeof v, "%d.%d", s->mpi_major, s->mpi_minor);
    eb_json_str(j, "mpi_version", v);
    eb_json_str(j, "thread_level", eb_thread_level_name(s->thread_provided));
    int cmd_argc;
    char **cmd_argv = eb_command_line(&cmd_argc);
    eb_json_array(j, "command_line");
    for (int i = 0; i < cmd_argc; i++)
        eb_json_str(j, NULL, cmd_argv[i]);
    eb_json_close(j);
    eb_json_bool(j, "check", check);
    eb_sim_json(j);
}

void eb_jsonl_result(const eb_row *row, const char *component)
{
    if (!out) {
        eb_guard_count_row(); /* text only: the row still counts for "how far" */
        return;
    }
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", component);
    eb_json_str(&j, "benchmark", row->name);
    if (row->group >= 0)
        eb_json_int(&j, "group", row->group);
    else
        eb_json_null(&j, "group");
    eb_json_str(&j, "mode", row->mode);
    eb_json_int(&j, "procs", row->procs);
    eb_json_int(&j, "bytes", (long long)row->bytes);
    eb_json_int(&j, "repetitions", row->reps);
    eb_json_num(&j, "t_min_us", row->t_min);
    eb_json_num(&j, "t_max_us", row->t_max);
    eb_json_num(&j, "t_avg_us", row->t_avg);
    eb_json_num(&j, "mbytes_per_s", row->mbps);
    if (row->defects >= 0)
        eb_json_int(&j, "defects", row->defects);
    else
        eb_json_null(&j, "defects");
    eb_json_str(&j, "sync", row->sync_window ? "window" : "barrier");
    if (row->sync_window) {
        eb_json_num(&j, "valid_fraction", row->valid_fraction);
        eb_json_int(&j, "invalid_repetitions", row->invalid_reps);
        eb_json_num(&j, "window_us", row->window_us);
    }
    if (row->quick) {
        eb_json_num(&j, "rel_std_error", row->quick_rel_error);
        eb_json_bool(&j, "converged", row->quick_converged);
    }
    if (row->loops > 1) {
        eb_json_int(&j, "loops", row->loops);
        const char *names[] = {"loop_t_min_us", "loop_t_max_us", "loop_t_avg_us"};
        const double *values[] = {row->loop_t_min, row->loop_t_max, row->loop_t_avg};
        for (int f = 0; f < 3; f++) {
            eb_json_array(&j, names[f]);
            for (int k = 0; k < row->loops; k++)
                eb_json_num(&j, NULL, values[f][k]);
            eb_json_close(&j);
        }
        eb_json_num(&j, "loop_t_max_min_us", row->rep_min);
        eb_json_num(&j, "loop_t_max_max_us", row->rep_max);
        eb_json_num(&j, "spread", row->spread);
    }
    if (row->link)
        eb_json_str(&j, "link", row->link);
    for (int k = 0; k < EB_MAX_EXTRA; k++)
        if (row->bench->extra_json[k])
            eb_json_num(&j, row->bench->extra_json[k], row->extra[k]);
    eb_jsonl_emit(&j);
}

void eb_jsonl_end(const char *status, const char *message)
{
    if (!out)
        return;
    eb_json j;
    eb_jsonl_begin(&j, "end");
    eb_json_str(&j, "status", status);
    eb_json_str(&j, "message", message);
    eb_json_num(&j, "elapsed_s", MPI_Wtime() - t_open);
    eb_json_int(&j, "rows", eb_guard_rows_done());
    long planned = eb_guard_rows_planned();
    if (planned >= 0)
        eb_json_int(&j, "planned_rows", planned);
    else
        eb_json_null(&j, "planned_rows");
    pthread_mutex_lock(&write_lock);
    if (out) {
        /* a full disk loses only this last record: the file stays whole */
        write_line(eb_json_finish(&j));
        fclose(out);
        out = NULL;
    }
    pthread_mutex_unlock(&write_lock);
    eb_json_free(&j);
}

void eb_row_key(char *out, size_t n, const char *benchmark, const char *mode, int procs,
                size_t bytes, int group)
{
    snprintf(out, n, "%s|%s|%d|%zu|%d", benchmark, mode ? mode : "", procs, bytes, group);
}


/* ------------------------------------------------------ reading records */

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

/* ------------------------------------------------------------- --resume */

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
                    else if (strcmp(comp, component) != 0)
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
    MPI_Bcast(n, 4, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        rows.s = eb_calloc((size_t)n[1] + 1, 1);
        run.s = eb_calloc((size_t)n[2] + 1, 1);
        lines.s = eb_calloc((size_t)n[3] + 1, 1);
    }
    if (n[1] > 0) {
        MPI_Bcast(rows.s, (int)n[1], MPI_CHAR, 0, MPI_COMM_WORLD);
        MPI_Bcast(lines.s, (int)n[3], MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    MPI_Bcast(run.s, (int)n[2], MPI_CHAR, 0, MPI_COMM_WORLD);
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
        if (!err[0]) {
            out = fopen(path, "a");
            snprintf(out_path, sizeof out_path, "%s", path);
            if (!out)
                snprintf(err, sizeof err, "--resume %s: cannot write: %s", path, strerror(errno));
        }
        free(kept_lines.s);
        memset(&kept_lines, 0, sizeof kept_lines);
    }
    char all[EB_ERRLEN];
    if (eb_any_error(err[0] ? err : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    t_open = MPI_Wtime();
    eb_add_exit_hook(close_on_exit);
    if (out) {
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
