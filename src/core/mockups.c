/* PGMPI's guideline mock-ups (core/mockups.h).  Where a decomposition needs
 * equal blocks per rank (Reduce_scatter_block, Scatter + Allgather) and the
 * count does not divide by the processes, the blocks are rounded up and the
 * padding (zeros) is dropped from the result.  Scratch space grows as needed
 * and is kept between calls, so a timed call allocates nothing. */
#include "core/error.h"
#include "core/mockups.h"
#include "core/mockups_node.h"

#include <stdlib.h>
#include <string.h>

enum { NSCRATCH = 3 };
static void *scratch_p[NSCRATCH];
static size_t scratch_n[NSCRATCH];
static int *vec_p[2];
static int vec_n[2];

/* Scratch area k of at least n bytes, zeroed when `zero`. */
static void *scratch(int k, size_t n, int zero)
{
    if (scratch_n[k] < n + 1) {
        free(scratch_p[k]);
        scratch_p[k] = eb_calloc(n + 1, 1);
        scratch_n[k] = n + 1;
    }
    if (zero)
        memset(scratch_p[k], 0, n);
    return scratch_p[k];
}

/* counts (k = 0) or displacements (k = 1) of P entries. */
static int *vec(int k, int p)
{
    if (vec_n[k] < p) {
        free(vec_p[k]);
        vec_p[k] = eb_calloc((size_t)p, sizeof(int));
        vec_n[k] = p;
    }
    return vec_p[k];
}

void eb_mockup_release(void)
{
    for (int k = 0; k < NSCRATCH; k++) {
        free(scratch_p[k]);
        scratch_p[k] = NULL;
        scratch_n[k] = 0;
    }
    for (int k = 0; k < 2; k++) {
        free(vec_p[k]);
        vec_p[k] = NULL;
        vec_n[k] = 0;
    }
    eb_mockup_node_release();
}

typedef struct {
    int rank, procs;
    size_t ext; /* bytes per element */
} ctx;

static ctx ctx_of(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c;
    MPI_Aint lb, ext;
    MPI_Comm_rank(comm, &c.rank);
    MPI_Comm_size(comm, &c.procs);
    MPI_Type_get_extent(a->type, &lb, &ext);
    c.ext = (size_t)ext;
    return c;
}

/* Equal blocks: counts n each, displacements j * n. */
static void equal_blocks(int p, int n, int **counts, int **displs)
{
    *counts = vec(0, p);
    *displs = vec(1, p);
    for (int j = 0; j < p; j++) {
        (*counts)[j] = n;
        (*displs)[j] = j * n;
    }
}

/* `total` elements split over p ranks as evenly as can be. */
static void split_blocks(int p, int total, int **counts, int **displs)
{
    *counts = vec(0, p);
    *displs = vec(1, p);
    for (int j = 0, at = 0; j < p; j++) {
        (*counts)[j] = total / p + (j < total % p);
        (*displs)[j] = at;
        at += (*counts)[j];
    }
}

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* ---- MPI_Allgather ---- */
static void allgather_as_allgatherv(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    equal_blocks(c.procs, a->count, &n, &d);
    MPI_Allgatherv(a->sbuf, a->count, a->type, a->rbuf, n, d, a->type, comm);
}

/* Every rank's block at its place, zeros elsewhere, OR-ed bytewise. */
static void allgather_as_allreduce(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    size_t blk = (size_t)a->count * c.ext, all = blk * (size_t)c.procs;
    unsigned char *t = scratch(0, all, 1);
    memcpy(t + (size_t)c.rank * blk, a->sbuf, blk);
    MPI_Allreduce(t, a->rbuf, (int)all, MPI_BYTE, MPI_BOR, comm);
}

static void allgather_as_alltoall(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    size_t blk = (size_t)a->count * c.ext;
    unsigned char *t = scratch(0, blk * (size_t)c.procs, 0);
    for (int j = 0; j < c.procs; j++)
        memcpy(t + (size_t)j * blk, a->sbuf, blk);
    MPI_Alltoall(t, a->count, a->type, a->rbuf, a->count, a->type, comm);
}

static void allgather_as_gather_bcast(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    MPI_Gather(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, 0, comm);
    MPI_Bcast(a->rbuf, a->count * c.procs, a->type, 0, comm);
}

/* ---- MPI_Allreduce ---- */
static void allreduce_as_reduce_bcast(const eb_mockup_args *a, MPI_Comm comm)
{
    MPI_Reduce(a->sbuf, a->rbuf, a->count, a->type, a->op, 0, comm);
    MPI_Bcast(a->rbuf, a->count, a->type, 0, comm);
}

static void allreduce_as_reducescatterblock_allgather(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int blk = ceil_div(a->count, c.procs);
    size_t all = (size_t)blk * (size_t)c.procs * c.ext;
    unsigned char *in = scratch(0, all, 1), *part = scratch(1, (size_t)blk * c.ext, 0);
    unsigned char *out = scratch(2, all, 0);
    memcpy(in, a->sbuf, (size_t)a->count * c.ext);
    MPI_Reduce_scatter_block(in, part, blk, a->type, a->op, comm);
    MPI_Allgather(part, blk, a->type, out, blk, a->type, comm);
    memcpy(a->rbuf, out, (size_t)a->count * c.ext);
}

static void allreduce_as_reducescatter_allgatherv(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    split_blocks(c.procs, a->count, &n, &d);
    unsigned char *part = scratch(0, (size_t)n[c.rank] * c.ext, 0);
    MPI_Reduce_scatter(a->sbuf, part, n, a->type, a->op, comm);
    MPI_Allgatherv(part, n[c.rank], a->type, a->rbuf, n, d, a->type, comm);
}

/* ---- MPI_Alltoall ---- */
static void alltoall_as_alltoallv(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    equal_blocks(c.procs, a->count, &n, &d);
    MPI_Alltoallv(a->sbuf, n, d, a->type, a->rbuf, n, d, a->type, comm);
}

/* ---- MPI_Bcast (the buffer is rbuf) ---- */
static void bcast_as_allgatherv(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    equal_blocks(c.procs, 0, &n, &d);
    n[a->root] = a->count;
    MPI_Allgatherv(MPI_IN_PLACE, 0, a->type, a->rbuf, n, d, a->type, comm);
}

static void bcast_as_scatter_allgather(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int blk = ceil_div(a->count, c.procs);
    size_t all = (size_t)blk * (size_t)c.procs * c.ext;
    unsigned char *in = scratch(0, all, 1), *part = scratch(1, (size_t)blk * c.ext, 0);
    unsigned char *out = scratch(2, all, 0);
    if (c.rank == a->root)
        memcpy(in, a->rbuf, (size_t)a->count * c.ext);
    MPI_Scatter(in, blk, a->type, part, blk, a->type, a->root, comm);
    MPI_Allgather(part, blk, a->type, out, blk, a->type, comm);
    memcpy(a->rbuf, out, (size_t)a->count * c.ext);
}

/* ---- MPI_Gather ---- */
static void gather_as_allgather(const eb_mockup_args *a, MPI_Comm comm)
{
    MPI_Allgather(a->sbuf, a->count, a->type, a->rbuf, a->count, a->type, comm);
}

static void gather_as_gatherv(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    equal_blocks(c.procs, a->count, &n, &d);
    MPI_Gatherv(a->sbuf, a->count, a->type, a->rbuf, n, d, a->type, a->root, comm);
}

static void gather_as_reduce(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    size_t blk = (size_t)a->count * c.ext, all = blk * (size_t)c.procs;
    unsigned char *t = scratch(0, all, 1);
    memcpy(t + (size_t)c.rank * blk, a->sbuf, blk);
    MPI_Reduce(t, a->rbuf, (int)all, MPI_BYTE, MPI_BOR, a->root, comm);
}

/* ---- MPI_Reduce ---- */
static void reduce_as_allreduce(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    void *out = c.rank == a->root ? a->rbuf : scratch(0, (size_t)a->count * c.ext, 0);
    MPI_Allreduce(a->sbuf, out, a->count, a->type, a->op, comm);
}

static void reduce_as_reducescatterblock_gather(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int blk = ceil_div(a->count, c.procs);
    size_t all = (size_t)blk * (size_t)c.procs * c.ext;
    unsigned char *in = scratch(0, all, 1), *part = scratch(1, (size_t)blk * c.ext, 0);
    unsigned char *out = scratch(2, all, 0);
    memcpy(in, a->sbuf, (size_t)a->count * c.ext);
    MPI_Reduce_scatter_block(in, part, blk, a->type, a->op, comm);
    MPI_Gather(part, blk, a->type, out, blk, a->type, a->root, comm);
    if (c.rank == a->root)
        memcpy(a->rbuf, out, (size_t)a->count * c.ext);
}

static void reduce_as_reducescatter_gatherv(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    split_blocks(c.procs, a->count, &n, &d);
    unsigned char *part = scratch(0, (size_t)n[c.rank] * c.ext, 0);
    MPI_Reduce_scatter(a->sbuf, part, n, a->type, a->op, comm);
    MPI_Gatherv(part, n[c.rank], a->type, a->rbuf, n, d, a->type, a->root, comm);
}

/* One Reduce_scatter whose only non-empty part is the root's. */
static void reduce_as_reducescatter(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    equal_blocks(c.procs, 0, &n, &d);
    n[a->root] = a->count;
    void *out = c.rank == a->root ? a->rbuf : scratch(0, c.ext, 0);
    MPI_Reduce_scatter(a->sbuf, out, n, a->type, a->op, comm);
}

/* ---- MPI_Reduce_scatter_block ---- */
static void reducescatterblock_as_reducescatter(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    equal_blocks(c.procs, a->count, &n, &d);
    MPI_Reduce_scatter(a->sbuf, a->rbuf, n, a->type, a->op, comm);
}

static void reducescatterblock_as_reduce_scatter(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    size_t all = (size_t)a->count * (size_t)c.procs * c.ext;
    unsigned char *t = scratch(0, all, 0);
    MPI_Reduce(a->sbuf, t, a->count * c.procs, a->type, a->op, 0, comm);
    MPI_Scatter(t, a->count, a->type, a->rbuf, a->count, a->type, 0, comm);
}

static void reducescatterblock_as_allreduce(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    size_t blk = (size_t)a->count * c.ext;
    unsigned char *t = scratch(0, blk * (size_t)c.procs, 0);
    MPI_Allreduce(a->sbuf, t, a->count * c.procs, a->type, a->op, comm);
    memcpy(a->rbuf, t + (size_t)c.rank * blk, blk);
}

/* ---- MPI_Scan ---- */
static void scan_as_exscan_reducelocal(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    MPI_Exscan(a->sbuf, a->rbuf, a->count, a->type, a->op, comm);
    if (c.rank == 0)
        memcpy(a->rbuf, a->sbuf, (size_t)a->count * c.ext);
    else
        MPI_Reduce_local(a->sbuf, a->rbuf, a->count, a->type, a->op);
}

/* ---- MPI_Scatter ---- */
static void scatter_as_bcast(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    size_t blk = (size_t)a->count * c.ext, all = blk * (size_t)c.procs;
    unsigned char *t = scratch(0, all, 0);
    if (c.rank == a->root)
        memcpy(t, a->sbuf, all);
    MPI_Bcast(t, a->count * c.procs, a->type, a->root, comm);
    memcpy(a->rbuf, t + (size_t)c.rank * blk, blk);
}

static void scatter_as_scatterv(const eb_mockup_args *a, MPI_Comm comm)
{
    ctx c = ctx_of(a, comm);
    int *n, *d;
    equal_blocks(c.procs, a->count, &n, &d);
    MPI_Scatterv(a->sbuf, n, d, a->type, a->rbuf, a->count, a->type, a->root, comm);
}

#define M(coll, fn) {coll, #fn, fn, 0}
static const eb_mockup MOCKUPS[] = {
    M("MPI_Allgather", allgather_as_allgatherv),
    M("MPI_Allgather", allgather_as_allreduce),
    M("MPI_Allgather", allgather_as_alltoall),
    M("MPI_Allgather", allgather_as_gather_bcast),
    M("MPI_Allreduce", allreduce_as_reduce_bcast),
    M("MPI_Allreduce", allreduce_as_reducescatterblock_allgather),
    M("MPI_Allreduce", allreduce_as_reducescatter_allgatherv),
    M("MPI_Alltoall", alltoall_as_alltoallv),
    M("MPI_Bcast", bcast_as_allgatherv),
    M("MPI_Bcast", bcast_as_scatter_allgather),
    M("MPI_Gather", gather_as_allgather),
    M("MPI_Gather", gather_as_gatherv),
    M("MPI_Gather", gather_as_reduce),
    M("MPI_Reduce", reduce_as_allreduce),
    M("MPI_Reduce", reduce_as_reducescatterblock_gather),
    M("MPI_Reduce", reduce_as_reducescatter_gatherv),
    M("MPI_Reduce", reduce_as_reducescatter),
    M("MPI_Reduce_scatter_block", reducescatterblock_as_reducescatter),
    M("MPI_Reduce_scatter_block", reducescatterblock_as_reduce_scatter),
    M("MPI_Reduce_scatter_block", reducescatterblock_as_allreduce),
    M("MPI_Scan", scan_as_exscan_reducelocal),
    M("MPI_Scatter", scatter_as_bcast),
    M("MPI_Scatter", scatter_as_scatterv),
};
#undef M

#define NPLAIN ((int)(sizeof MOCKUPS / sizeof *MOCKUPS))

int eb_mockup_count(void) { return NPLAIN + eb_mockup_node_count(); }
const eb_mockup *eb_mockup_at(int i) { return i < NPLAIN ? &MOCKUPS[i] : eb_mockup_node_at(i - NPLAIN); }

const eb_mockup *eb_mockup_find(const char *name)
{
    for (int i = 0; i < eb_mockup_count(); i++)
        if (!strcmp(eb_mockup_at(i)->name, name))
            return eb_mockup_at(i);
    return NULL;
}
