#include "core/report/jsonl.h"

#include "core/error.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;
static double t_open;

static void close_on_exit(int status, const char *msg)
{
    if (out)
        eb_jsonl_end(status == 0 ? "ok" : "error", msg);
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
    eb_json_init(j);
    eb_json_str(j, "type", type);
    eb_json_int(j, "schema", 1);
}

void eb_jsonl_emit(eb_json *j)
{
    if (out) {
        eb_json_finish(j);
        fputs(j->buf, out);
        fputc('\n', out);
        fflush(out);
    }
    eb_json_free(j);
}

void eb_jsonl_run_begin(eb_json *j, const char *component, const eb_sysinfo *s,
                        int argc, char **argv, int check)
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
    eb_json_array(j, "command_line");
    for (int i = 0; i < argc; i++)
        eb_json_str(j, NULL, argv[i]);
    eb_json_close(j);
    eb_json_bool(j, "check", check);
}

void eb_jsonl_result(const eb_row *row, const char *component)
{
    if (!out)
        return;
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
        eb_json_array(&j, "loop_t_max_us");
        for (int k = 0; k < row->loops; k++)
            eb_json_num(&j, NULL, row->loop_t_max[k]);
        eb_json_close(&j);
        eb_json_num(&j, "loop_t_max_min_us", row->rep_min);
        eb_json_num(&j, "loop_t_max_max_us", row->rep_max);
        eb_json_num(&j, "spread", row->spread);
    }
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
    eb_jsonl_emit(&j);
    fclose(out);
    out = NULL;
}

void eb_row_key(char *out, size_t n, const char *benchmark, const char *mode, int procs,
                size_t bytes, int group)
{
    snprintf(out, n, "%s|%s|%d|%zu|%d", benchmark, mode ? mode : "", procs, bytes, group);
}

/* Value of "key": in one of our own records (flat, no nested quotes in the
 * fields read here); NULL if absent.  Strings come back without quotes,
 * null as "". */
static int field(const char *line, const char *key, char *out, size_t n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    const char *p = strstr(line, pat);
    if (!p)
        return -1;
    p += strlen(pat);
    size_t k = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"' && k + 1 < n; p++)
            out[k++] = *p;
    } else if (strncmp(p, "null", 4) == 0) {
        k = 0;
    } else {
        for (; *p && *p != ',' && *p != '}' && k + 1 < n; p++)
            out[k++] = *p;
    }
    out[k] = '\0';
    return 0;
}

void eb_jsonl_resume(const char *path, const char *component, char ***keys, int *nkeys)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char err[EB_ERRLEN] = {0};
    char *blob = NULL; /* keys separated by '\n' */
    size_t blen = 0, bcap = 0;
    long count = 0, kept_bytes = 0;
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
                char type[32] = "", comp[32] = "";
                field(line, "type", type, sizeof type);
                if (lineno == 1) {
                    field(line, "component", comp, sizeof comp);
                    if (strcmp(type, "run") != 0)
                        snprintf(err, sizeof err, "--resume %s:1: not an effbench JSON Lines file "
                                 "(no run record)", path);
                    else if (strcmp(comp, component) != 0)
                        snprintf(err, sizeof err, "--resume %s:1: the file is a '%s' run, not '%s'",
                                 path, comp, component);
                }
                if (line[len - 1] != '\n') /* a line cut by the crash: drop it */
                    break;
                if (strcmp(type, "end") == 0)
                    break; /* drop the old end record and anything after it */
                offset += len;
                if (strcmp(type, "result") == 0) {
                    char bench[128] = "", mode[32] = "", procs[16] = "0", bytes[32] = "0",
                         group[16] = "";
                    field(line, "benchmark", bench, sizeof bench);
                    field(line, "mode", mode, sizeof mode);
                    field(line, "procs", procs, sizeof procs);
                    field(line, "bytes", bytes, sizeof bytes);
                    field(line, "group", group, sizeof group);
                    char key[256];
                    eb_row_key(key, sizeof key, bench, mode[0] ? mode : NULL, atoi(procs),
                               (size_t)strtoull(bytes, NULL, 10), group[0] ? atoi(group) : -1);
                    size_t kl = strlen(key);
                    if (blen + kl + 2 > bcap) {
                        bcap = (blen + kl + 2) * 2;
                        blob = realloc(blob, bcap);
                        if (!blob)
                            eb_abort("out of memory");
                    }
                    memcpy(blob + blen, key, kl);
                    blen += kl;
                    blob[blen++] = '\n';
                    count++;
                }
            }
            free(line);
            fclose(f);
            kept_bytes = offset;
            if (!err[0] && lineno == 0)
                snprintf(err, sizeof err, "--resume %s: the file is empty", path);
        }
        if (!err[0] && truncate(path, kept_bytes) != 0)
            snprintf(err, sizeof err, "--resume %s: cannot write: %s", path, strerror(errno));
        if (!err[0]) {
            out = fopen(path, "a");
            if (!out)
                snprintf(err, sizeof err, "--resume %s: cannot write: %s", path, strerror(errno));
        }
    }
    char all[EB_ERRLEN];
    if (eb_any_error(err[0] ? err : NULL, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    MPI_Bcast(&count, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    long bl = (long)blen;
    MPI_Bcast(&bl, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank != 0)
        blob = eb_malloc((size_t)bl + 1);
    if (bl > 0)
        MPI_Bcast(blob, (int)bl, MPI_CHAR, 0, MPI_COMM_WORLD);
    *nkeys = (int)count;
    *keys = eb_calloc((size_t)count + 1, sizeof **keys);
    char *p = blob;
    for (long i = 0; i < count; i++) {
        char *nl = memchr(p, '\n', (size_t)(blob + bl - p));
        *nl = '\0';
        (*keys)[i] = eb_strdup(p);
        p = nl + 1;
    }
    free(blob);
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
        eb_json_int(&j, "rows_kept", count);
        eb_jsonl_emit(&j);
    }
}
