/* IMB-IO's per-process-set file state: the file of a table (its name,
 * hints, the test that it can be written), its view and assured
 * completion, and the data a read benchmark finds in it. */
#include "imb/io_file.h"

#include "core/error.h"
#include "imb/driver/repeat.h"
#include "imb/io_family.h"
#include "imb/io_util.h"

#include <stdlib.h>
#include <string.h>

static void mpi_message(int rc, char *buf, size_t n)
{
    char s[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    size_t k = (size_t)len < n - 1 ? (size_t)len : n - 1;
    memcpy(buf, s, k);
    buf[k] = '\0';
}

/* An I/O call failed after the file was set up: not a user error we could
 * have foreseen, so the job ends with the reason. */
void eb_io_check_rc(int rc, const char *what, const eb_io_state *st)
{
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        mpi_message(rc, s, sizeof s);
        eb_abort("%s on %s failed: %s", what, st->name, s);
    }
}

int eb_io_open_set(eb_ctx *c, const eb_io_kind *k, char *err, size_t errlen)
{
    const eb_io_options *io = eb_io_options_of(c->opt);
    eb_io_state *st = eb_calloc(1, sizeof *st);
    c->priv = st;
    st->k = k;
    int own = eb_io_own_file(st->k);
    st->fcomm = own ? MPI_COMM_SELF : c->comm;
    MPI_Comm_rank(st->fcomm, &st->frank);
    st->nio = st->k->cls == IO_S ? 1 : c->size;
    st->iorank = st->k->cls == IO_S ? 0 : c->rank;
    st->owner = own ? st->iorank : 0;
    st->fh = MPI_FILE_NULL;
    st->view = MPI_DATATYPE_NULL;
    st->info = MPI_INFO_NULL;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (eb_io_file_name(st->name, sizeof st->name, io->filename,
                        c->multi >= 0 ? c->group : -1, own ? wrank : -1))
        return eb_err(err, errlen, "-filename %s: name too long", io->filename);
    if (io->hints.n > 0) {
        MPI_Info_create(&st->info); /* User_Set_Info */
        for (int i = 0; i < io->hints.n; i++)
            MPI_Info_set(st->info, io->hints.key[i], io->hints.value[i]);
    }
    /* The guide's step 2: delete a leftover file by opening it with
     * MPI_MODE_DELETE_ON_CLOSE and closing it; this also proves the place
     * writable before any benchmark runs. */
    if (st->frank == 0) {
        MPI_File fh;
        int rc = MPI_File_open(MPI_COMM_SELF, st->name,
                               MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                               st->info, &fh);
        if (rc != MPI_SUCCESS) {
            char s[MPI_MAX_ERROR_STRING];
            mpi_message(rc, s, sizeof s);
            int cls = 0;
            MPI_Error_class(rc, &cls);
            return eb_err(err, errlen, "IMB-IO file %s: cannot create it: %s%s", st->name, s,
                          cls == MPI_ERR_ACCESS ? " (is its directory writable?)" : "");
        }
        MPI_File_close(&fh);
    }
    return 0;
}

void eb_io_close_set(eb_ctx *c)
{
    eb_io_state *st = c->priv;
    if (!st)
        return;
    if (st->fh != MPI_FILE_NULL)
        MPI_File_close(&st->fh);
    if (st->used)
        MPI_Barrier(st->fcomm); /* nobody has it open any more */
    if (st->frank == 0)
        MPI_File_delete(st->name, MPI_INFO_NULL); /* may not exist: ignore */
    if (st->info != MPI_INFO_NULL)
        MPI_Info_free(&st->info);
    free(st);
    c->priv = NULL;
}

void eb_io_open_file(eb_io_state *st)
{
    eb_io_check_rc(MPI_File_open(st->fcomm, st->name, MPI_MODE_CREATE | MPI_MODE_RDWR, st->info,
                                 &st->fh), "MPI_File_open", st);
}

/* The guide's "View (IMB-IO)": disp 0, native, etype MPI_BYTE; _indv on a
 * common file sees only its own block of every X-byte tile. */
void eb_io_set_view(eb_io_state *st, size_t x)
{
    MPI_Datatype ftype = MPI_BYTE;
    if (st->k->ptr == IO_INDV && !eb_io_own_file(st->k) && st->len > 0) {
        if (st->view == MPI_DATATYPE_NULL) {
            MPI_Datatype block;
            int blen = (int)st->len;
            MPI_Aint disp = (MPI_Aint)st->off;
            MPI_Type_create_hindexed(1, &blen, &disp, MPI_BYTE, &block);
            MPI_Type_create_resized(block, 0, (MPI_Aint)x, &st->view);
            MPI_Type_commit(&st->view);
            MPI_Type_free(&block);
        }
        ftype = st->view;
    }
    eb_io_check_rc(MPI_File_set_view(st->fh, 0, MPI_BYTE, ftype, "native", st->info),
                   "MPI_File_set_view", st);
}

/* IMB's assured completion of writes. */
void eb_io_assure(eb_io_state *st)
{
    MPI_File_sync(st->fh);
    MPI_Barrier(st->fcomm);
    MPI_File_sync(st->fh);
}

/* Read benchmarks: the file holds BUF_VALUE(owner, i) for every int i of
 * the first nblocks repetitions (written by the file's rank 0, untimed). */
static void fill_read_file(eb_ctx *c, eb_io_state *st)
{
    long base = eb_n_sample_base(&c->opt->iter, c->x, c->aggregate);
    st->nblocks = base > 0 ? base : 1;
    size_t need = (size_t)st->nblocks * st->stride;
    if (need > st->filled) {
        if (st->frank == 0) {
            size_t chunk = 1 << 20, pos = st->filled;
            unsigned char *buf = eb_malloc(chunk);
            while (pos < need) {
                size_t n = need - pos < chunk ? need - pos : chunk;
                eb_io_fill(buf, n, st->owner, pos);
                eb_io_check_rc(MPI_File_write_at(st->fh, (MPI_Offset)pos, buf, (int)n, MPI_BYTE,
                                                 MPI_STATUS_IGNORE), "preparing the read file", st);
                pos += n;
            }
            free(buf);
        }
        st->filled = need;
    }
    eb_io_assure(st);
}

int eb_io_prepare(eb_ctx *c)
{
    eb_io_state *st = c->priv;
    eb_io_portion(c->x, st->nio, st->iorank, &st->off, &st->len);
    st->stride = eb_io_own_file(st->k) ? st->len : c->x;
    if (st->k->acc == IO_WRITE)
        for (long s = 0; s < c->s.slots; s++)
            eb_io_fill(eb_sbuf(c, s), st->len, st->iorank, 0);
    eb_io_open_file(st);
    st->used = 1;
    if (st->k->acc == IO_READ)
        fill_read_file(c, st);
    eb_io_set_view(st, c->x);
    st->tmp = eb_malloc(c->x > 0 ? c->x : 1);
    return 0;
}

void eb_io_release(eb_ctx *c)
{
    eb_io_state *st = c->priv;
    if (st->fh != MPI_FILE_NULL)
        MPI_File_close(&st->fh);
    if (st->view != MPI_DATATYPE_NULL)
        MPI_Type_free(&st->view);
    free(st->tmp);
    st->tmp = NULL;
}

void eb_io_blocking(eb_io_state *st, void *buf, MPI_Offset at)
{
    const eb_io_kind *k = st->k;
    int coll = k->cls == IO_C, cnt = (int)st->len, rc;
    MPI_Status status;
    if (k->acc == IO_WRITE) {
        if (k->ptr == IO_EXPL)
            rc = coll ? MPI_File_write_at_all(st->fh, at, buf, cnt, MPI_BYTE, &status)
                      : MPI_File_write_at(st->fh, at, buf, cnt, MPI_BYTE, &status);
        else if (k->ptr == IO_SHARED)
            rc = coll ? MPI_File_write_ordered(st->fh, buf, cnt, MPI_BYTE, &status)
                      : MPI_File_write_shared(st->fh, buf, cnt, MPI_BYTE, &status);
        else
            rc = coll ? MPI_File_write_all(st->fh, buf, cnt, MPI_BYTE, &status)
                      : MPI_File_write(st->fh, buf, cnt, MPI_BYTE, &status);
    } else {
        if (k->ptr == IO_EXPL)
            rc = coll ? MPI_File_read_at_all(st->fh, at, buf, cnt, MPI_BYTE, &status)
                      : MPI_File_read_at(st->fh, at, buf, cnt, MPI_BYTE, &status);
        else if (k->ptr == IO_SHARED)
            rc = coll ? MPI_File_read_ordered(st->fh, buf, cnt, MPI_BYTE, &status)
                      : MPI_File_read_shared(st->fh, buf, cnt, MPI_BYTE, &status);
        else
            rc = coll ? MPI_File_read_all(st->fh, buf, cnt, MPI_BYTE, &status)
                      : MPI_File_read(st->fh, buf, cnt, MPI_BYTE, &status);
    }
    eb_io_check_rc(rc, k->acc == IO_WRITE ? "writing" : "reading", st);
}

MPI_Request eb_io_start(eb_io_state *st, void *buf, MPI_Offset at)
{
    const eb_io_kind *k = st->k;
    int coll = k->cls == IO_C, cnt = (int)st->len, rc;
    MPI_Request req = MPI_REQUEST_NULL;
    if (k->acc == IO_WRITE) {
        if (k->ptr == IO_EXPL)
            rc = coll ? MPI_File_write_at_all_begin(st->fh, at, buf, cnt, MPI_BYTE)
                      : MPI_File_iwrite_at(st->fh, at, buf, cnt, MPI_BYTE, &req);
        else if (k->ptr == IO_SHARED)
            rc = coll ? MPI_File_write_ordered_begin(st->fh, buf, cnt, MPI_BYTE)
                      : MPI_File_iwrite_shared(st->fh, buf, cnt, MPI_BYTE, &req);
        else
            rc = coll ? MPI_File_write_all_begin(st->fh, buf, cnt, MPI_BYTE)
                      : MPI_File_iwrite(st->fh, buf, cnt, MPI_BYTE, &req);
    } else {
        if (k->ptr == IO_EXPL)
            rc = coll ? MPI_File_read_at_all_begin(st->fh, at, buf, cnt, MPI_BYTE)
                      : MPI_File_iread_at(st->fh, at, buf, cnt, MPI_BYTE, &req);
        else if (k->ptr == IO_SHARED)
            rc = coll ? MPI_File_read_ordered_begin(st->fh, buf, cnt, MPI_BYTE)
                      : MPI_File_iread_shared(st->fh, buf, cnt, MPI_BYTE, &req);
        else
            rc = coll ? MPI_File_read_all_begin(st->fh, buf, cnt, MPI_BYTE)
                      : MPI_File_iread(st->fh, buf, cnt, MPI_BYTE, &req);
    }
    eb_io_check_rc(rc, "starting nonblocking I/O", st);
    return req;
}

void eb_io_complete(eb_io_state *st, void *buf, MPI_Request *req)
{
    const eb_io_kind *k = st->k;
    MPI_Status status;
    int rc;
    if (k->cls != IO_C)
        rc = MPI_Wait(req, &status);
    else if (k->acc == IO_WRITE)
        rc = k->ptr == IO_EXPL     ? MPI_File_write_at_all_end(st->fh, buf, &status)
             : k->ptr == IO_SHARED ? MPI_File_write_ordered_end(st->fh, buf, &status)
                                   : MPI_File_write_all_end(st->fh, buf, &status);
    else
        rc = k->ptr == IO_EXPL     ? MPI_File_read_at_all_end(st->fh, buf, &status)
             : k->ptr == IO_SHARED ? MPI_File_read_ordered_end(st->fh, buf, &status)
                                   : MPI_File_read_all_end(st->fh, buf, &status);
    eb_io_check_rc(rc, "completing nonblocking I/O", st);
}
