/* IMB-IO's file state of one process set (one table): which benchmark kind
 * it serves, its file, view and the part of every I/O portion this rank
 * transfers.  The benchmarks (io.c) drive it through the hooks below. */
#ifndef EB_IMB_IO_FILE_H
#define EB_IMB_IO_FILE_H

#include "imb/driver/bench.h"

#include <mpi.h>
#include <stddef.h>

typedef enum { IO_S, IO_P, IO_C } eb_io_class;         /* single, parallel, collective */
typedef enum { IO_WRITE, IO_READ, IO_NONE } eb_io_access;
typedef enum { IO_INDV, IO_EXPL, IO_SHARED, IO_PRIV } eb_io_pointer;

typedef struct {
    eb_io_class cls;
    eb_io_access acc;
    eb_io_pointer ptr;
    int nb; /* nonblocking flavour */
} eb_io_kind;

/* The file of a process set (ctx->priv of every IMB-IO benchmark). */

typedef struct {
    const eb_io_kind *k;
    MPI_Comm fcomm;       /* file communicator */
    int frank;            /* rank in it */
    int nio, iorank;      /* processes sharing a portion X, and my index */
    int owner;            /* read files hold BUF_VALUE(owner, i) at int i */
    char name[4096];
    MPI_Info info;
    MPI_File fh;
    MPI_Datatype view;    /* tiled file type of _indv, or MPI_DATATYPE_NULL */
    size_t off, len;      /* my part of X */
    size_t stride;        /* file bytes from one repetition's data to the next */
    long nblocks;         /* read files: repetitions with data (indices wrap) */
    size_t filled;        /* read files: bytes written so far */
    unsigned char *tmp;   /* -check: data read back */
    int used;             /* a length ran: the file exists */
} eb_io_state;
/* S_ and _priv work on a file of their own, opened for MPI_COMM_SELF. */
static inline int eb_io_own_file(const eb_io_kind *k)
{
    return k->cls == IO_S || k->ptr == IO_PRIV;
}

/* An I/O call failed after the file was set up: not a user error we could
 * have foreseen, so the job ends with the reason. */
void eb_io_check_rc(int rc, const char *what, const eb_io_state *st);

/* open_set / close_set of the descriptors: the state for kind k, the
 * file's name (-filename, group, rank) and hints, and the guide's step 2
 * (a leftover file deleted, the place proven writable). */
int eb_io_open_set(eb_ctx *c, const eb_io_kind *k, char *err, size_t errlen);
void eb_io_close_set(eb_ctx *c);

/* prepare / release of a length: this rank's part, the written data, the
 * file opened with its view, a read benchmark's data in it. */
int eb_io_prepare(eb_ctx *c);
void eb_io_release(eb_ctx *c);

/* Open the file (collective over its communicator) / set the guide's view
 * (_indv on a common file sees its own block of every x-byte tile). */
void eb_io_open_file(eb_io_state *st);
void eb_io_set_view(eb_io_state *st, size_t x);
/* IMB's assured completion of writes: sync, barrier, sync. */
void eb_io_assure(eb_io_state *st);

/* The MPI-IO calls of kind st->k on this rank's part (st->len bytes of buf,
 * explicit offset `at` where the kind has one): blocking; or initiate
 * (returning the request, MPI_REQUEST_NULL for a split collective whose
 * _end completes it) and complete. */
void eb_io_blocking(eb_io_state *st, void *buf, MPI_Offset at);
MPI_Request eb_io_start(eb_io_state *st, void *buf, MPI_Offset at);
void eb_io_complete(eb_io_state *st, void *buf, MPI_Request *req);

#endif
