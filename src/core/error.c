#include "core/error.h"

#include "core/own_coll.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EB_MAX_HOOKS 8
static eb_exit_hook hooks[EB_MAX_HOOKS];
static int nhooks;

int eb_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int world_rank(void)
{
    int init = 0, fin = 0, rank = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

void eb_warn(const char *fmt, ...)
{
    if (world_rank() != 0)
        return;
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    eb_stderr_line("warning", line);
}

void eb_stderr_line(const char *kind, const char *msg)
{
    /* A job log mixes stdout and stderr in one file: finish stdout's pending
     * line first and write the message with one call, so it never lands
     * inside a table row (docs/results.md, imports of job logs). */
    fflush(stdout);
    char line[2304];
    snprintf(line, sizeof line, "effbench: %s: %s\n", kind, msg);
    fputs(line, stderr);
    fflush(stderr);
}

int eb_any_error(const char *local_msg, char *out, size_t outlen)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mine = local_msg ? rank : size, first;
    eb_own_allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size)
        return 0;
    char buf[EB_ERRLEN] = {0};
    if (rank == first)
        snprintf(buf, sizeof buf, "%s", local_msg);
    eb_own_bcast(buf, EB_ERRLEN, MPI_CHAR, first, MPI_COMM_WORLD);
    if (out && outlen)
        snprintf(out, outlen, "%s", buf);
    return 1;
}

void eb_add_exit_hook(eb_exit_hook hook)
{
    if (nhooks < EB_MAX_HOOKS)
        hooks[nhooks++] = hook;
}

static volatile int exiting;

int eb_exiting(void) { return exiting; }

void eb_run_exit_hooks(int status, const char *msg)
{
    while (nhooks > 0)
        hooks[--nhooks](status, msg);
}

_Noreturn void eb_exit_all(int status, const char *msg)
{
    exiting = 1;
    if (msg && world_rank() == 0)
        eb_stderr_line("error", msg);
    eb_run_exit_hooks(status, msg);
    fflush(stdout);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Finalize();
    exit(status);
}

_Noreturn void eb_abort(const char *fmt, ...)
{
    exiting = 1;
    char msg[2048];
    int n = snprintf(msg, sizeof msg, "rank %d: ", world_rank());
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    eb_stderr_line("error", msg);
    eb_run_exit_hooks(EB_EXIT_FAILURE, "aborted");
    MPI_Abort(MPI_COMM_WORLD, EB_EXIT_FAILURE);
    exit(EB_EXIT_FAILURE);
}

void *eb_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        eb_abort("out of memory allocating %zu bytes", n);
    return p;
}

void *eb_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        eb_abort("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

void *eb_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        eb_abort("out of memory reallocating %zu bytes", n);
    return q;
}

char *eb_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = eb_malloc(n);
    memcpy(p, s, n);
    return p;
}
