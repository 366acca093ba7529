#include "core/report/jsonl.h"

#include "core/error.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static FILE *out;
static double t_open;

static void close_on_exit(int status, const char *msg)
{
    if (out)
        eb_jsonl_end(status == 0 ? "ok" : "error", msg);
}

static void open_mode(const char *path, const char *mode);

void eb_jsonl_open(const char *path) { open_mode(path, "w"); }
void eb_jsonl_open_append(const char *path) { open_mode(path, "a"); }

static void open_mode(const char *path, const char *mode)
{
    if (!path)
        return;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char err[EB_ERRLEN];
    const char *msg = NULL;
    if (rank == 0) {
        out = fopen(path, mode);
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
