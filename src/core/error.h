/* User errors and clean collective exits.
 *
 * A user mistake (bad option, unreadable file, impossible configuration) must
 * give one message from rank 0, exit status 2 on every rank, and never hang.
 * Functions that can be unit-tested report errors through an (err, errlen)
 * buffer; the MPI-level code then turns them into a collective exit. */
#ifndef EB_ERROR_H
#define EB_ERROR_H

#include <mpi.h>
#include <stddef.h>

#define EB_EXIT_OK 0
#define EB_EXIT_FAILURE 1 /* a measurement or system failure */
#define EB_EXIT_USAGE 2   /* a user mistake: options, files, configuration */

#define EB_ERRLEN 512

/* printf into an error buffer; returns -1 so parsers can `return eb_err(...)`. */
int eb_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Warning on stderr from rank 0 of MPI_COMM_WORLD only. */
void eb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collective over MPI_COMM_WORLD: did any rank fail?  `local_msg` is NULL on
 * ranks without an error.  Returns 1 if any failed; `out` then holds the
 * message of the lowest failing rank on every rank. */
int eb_any_error(const char *local_msg, char *out, size_t outlen);

/* Called on every rank of MPI_COMM_WORLD: rank 0 prints "effbench: error: msg"
 * (msg may be NULL when already printed), the exit hooks run (e.g. the JSON
 * file gets its `end` record), MPI is finalized and the process exits. */
_Noreturn void eb_exit_all(int status, const char *msg);

/* For a failure only this rank sees and the others cannot learn about
 * (e.g. inside a measurement): print and abort the job. */
_Noreturn void eb_abort(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Hooks run by eb_exit_all before MPI_Finalize, most recent first. */
typedef void (*eb_exit_hook)(int status, const char *msg);
void eb_add_exit_hook(eb_exit_hook hook);
/* 1 once the process has begun to exit (eb_exit_all, eb_abort): the run's
 * guard then leaves the ending to it. */
int eb_exiting(void);
/* Run (and drop) the hooks, most recent first: what every way out does. */
void eb_run_exit_hooks(int status, const char *msg);

/* One whole line "effbench: KIND: MSG" on stderr, after flushing stdout. */
void eb_stderr_line(const char *kind, const char *msg);

/* Checked allocation: aborts with a message when memory runs out. */
void *eb_malloc(size_t n);
void *eb_calloc(size_t n, size_t size);
void *eb_realloc(void *p, size_t n);
char *eb_strdup(const char *s);

#endif
