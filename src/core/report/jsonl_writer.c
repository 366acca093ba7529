#include "core/report/jsonl_writer.h"

#include "core/error.h"
#include "core/guard.h"
#include "core/device.h"
#include "core/placement.h"
#include "core/revision.h"
#include "core/simulate.h"

#include <errno.h>
#include <pthread.h>
#include <unistd.h>
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
    if (rank == 0 && eb_jsonl_attach(path, "w") != 0) {
        snprintf(err, sizeof err, "--json %s: cannot write: %s", path, strerror(errno));
        msg = err;
    }
    char all[EB_ERRLEN];
    if (eb_any_error(msg, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    eb_jsonl_started();
}

int eb_jsonl_attach(const char *path, const char *mode)
{
    out = fopen(path, mode);
    snprintf(out_path, sizeof out_path, "%s", path);
    return out ? 0 : -1;
}

void eb_jsonl_started(void)
{
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
    eb_json_str(j, "source_revision", eb_source_revision);
    eb_json_str(j, "component", component);
    eb_json_str(j, "start", s->iso_start);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    eb_json_int(j, "procs", size);
    eb_hosts(j);
    eb_placement_json(j);
    eb_device_json(j);
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
