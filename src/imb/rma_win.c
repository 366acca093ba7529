#include "imb/rma_win.h"

#include "core/buffers.h"
#include "core/device.h"
#include "core/error.h"
#include "imb/driver/options.h"
#include "imb/driver/repeat.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

long eb_rma_sections(const eb_ctx *c, size_t x, size_t *stride)
{
    long slots;
    eb_buf_geometry(x, eb_n_sample_base(&c->opt->iter, x, c->aggregate), &c->opt->cache, stride,
                    &slots);
    return slots > 0 ? slots : 1;
}

static void *alloc_mem(size_t bytes)
{
    void *p = NULL;
    if (MPI_Alloc_mem((MPI_Aint)(bytes ? bytes : 1), MPI_INFO_NULL, &p) != MPI_SUCCESS || !p)
        eb_abort("MPI_Alloc_mem of %zu bytes for a window failed", bytes);
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

/* IMB-RMA-GPU's window and local memory: the seam's, zeroed, with host copies. */
static void *alloc_kind(eb_mem_kind k, size_t bytes, char **host)
{
    char err[EB_ERRLEN];
    size_t n = bytes ? bytes : 1;
    void *p = eb_mem_alloc(k, n, err, sizeof err);
    if (!p)
        eb_abort("%s (a window's memory)", err);
    eb_mem_set(k, p, 0, n);
    *host = eb_calloc(1, n);
    return p;
}

void eb_rma_win_create(eb_rma_win *w, const eb_ctx *c, size_t bytes, size_t local_bytes)
{
    w->bytes = bytes;
    w->local_bytes = local_bytes;
    w->kind = c->mem;
    if (w->kind == EB_MEM_HOST) {
        w->mem = alloc_mem(bytes);
        w->local = alloc_mem(local_bytes);
    } else {
        w->mem = w->dev_mem = alloc_kind(w->kind, bytes, &w->host_mem);
        w->local = w->dev_local = alloc_kind(w->kind, local_bytes, &w->host_local);
    }
    /* MPI_Win_create reports on the communicator's handler: return, so the
     * failure gets a message that says what to do about it */
    MPI_Errhandler old;
    MPI_Comm_get_errhandler(c->comm, &old);
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    int rc = MPI_Win_create(w->mem, (MPI_Aint)bytes, 1, MPI_INFO_NULL, c->comm, &w->win);
    MPI_Comm_set_errhandler(c->comm, old);
    MPI_Errhandler_free(&old);
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        eb_abort("MPI_Win_create of %zu bytes failed: %s (the MPI library's one-sided "
                 "component does not work here; choose another: Open MPI 4.1 OMPI_MCA_osc=pt2pt, "
                 "Open MPI 5 OMPI_MCA_osc=rdma, docs/mpi-libraries.md)",
                 bytes, msg);
    }
}

void eb_rma_win_free(eb_rma_win *w)
{
    MPI_Win_free(&w->win);
    if (w->kind == EB_MEM_HOST) {
        MPI_Free_mem(w->mem);
        MPI_Free_mem(w->local);
    } else {
        eb_mem_free(w->kind, w->dev_mem);
        eb_mem_free(w->kind, w->dev_local);
        free(w->host_mem);
        free(w->host_local);
    }
    memset(w, 0, sizeof *w);
}

void eb_rma_host_begin(eb_rma_win *w)
{
    if (w->kind == EB_MEM_HOST)
        return;
    eb_mem_to_host(w->host_mem, w->kind, w->dev_mem, w->bytes);
    eb_mem_to_host(w->host_local, w->kind, w->dev_local, w->local_bytes);
    w->mem = w->host_mem;
    w->local = w->host_local;
}

void eb_rma_host_end(eb_rma_win *w, int written)
{
    if (w->kind == EB_MEM_HOST)
        return;
    if (written) {
        eb_mem_from_host(w->kind, w->dev_mem, w->host_mem, w->bytes);
        eb_mem_from_host(w->kind, w->dev_local, w->host_local, w->local_bytes);
    }
    w->mem = w->dev_mem;
    w->local = w->dev_local;
}

void eb_rma_self_begin(eb_rma_win *w, int rank) { MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win); }
void eb_rma_self_end(eb_rma_win *w, int rank) { MPI_Win_unlock(rank, w->win); }

void eb_fill_buf_values(void *p, size_t bytes, int rank)
{
    unsigned char *b = p;
    for (size_t i = 0; i * sizeof(float) < bytes; i++) {
        float v = eb_buf_value(rank, i);
        size_t n = bytes - i * sizeof(float) < sizeof v ? bytes - i * sizeof(float) : sizeof v;
        memcpy(b + i * sizeof(float), &v, n);
    }
}

long eb_check_buf_values(const void *p, size_t bytes, int rank)
{
    const unsigned char *b = p;
    long bad = 0;
    for (size_t i = 0; i * sizeof(float) < bytes; i++) {
        float v = eb_buf_value(rank, i);
        unsigned char e[sizeof v];
        memcpy(e, &v, sizeof v);
        size_t n = bytes - i * sizeof(float) < sizeof v ? bytes - i * sizeof(float) : sizeof v;
        for (size_t k = 0; k < n; k++)
            bad += b[i * sizeof(float) + k] != e[k];
    }
    return bad;
}

long eb_check_float_accumulate(const float *got, size_t count, int nranks, int with_init,
                               int init_rank)
{
    long bad = 0;
    for (size_t j = 0; j < count; j++) {
        double ref = 0, mag = 0;
        int terms = nranks;
        float exact2 = 0;
        if (with_init) {
            ref = eb_buf_value(init_rank, j);
            mag = fabs(ref);
            exact2 = eb_buf_value(init_rank, j);
            terms++;
        }
        for (int r = 0; r < nranks; r++) {
            float v = eb_buf_value(r, j);
            ref += v;
            mag += fabs((double)v);
            exact2 = exact2 + v;
        }
        if (terms <= 2) {
            /* float addition of two floats is correctly rounded: exact test */
            bad += memcmp(&got[j], &exact2, sizeof exact2) != 0;
        } else {
            double tol = (double)terms * FLT_EPSILON * mag;
            bad += !(fabs((double)got[j] - ref) <= tol);
        }
    }
    return bad;
}
