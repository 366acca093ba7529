/* The collectives `effbench guidelines` checks (those with mock-ups in
 * core/mockups.h), their buffers, the library call and -check.  Data are
 * MPI_INT, reductions MPI_SUM, root 0.  -check: one call outside the timing
 * on patterned data; moves against core's byte pattern of the sender
 * (core/buffers.h), reductions against the sum computed here (inputs 1 and 2,
 * so every sum is exact). */
#include "core/buffers.h"
#include "core/coll_calls.h"
#include "core/error.h"
#include "core/mockups.h"
#include "core/mockups_node.h"
#include "guidelines/gl.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { SCAN = -1 };

typedef struct {
    const char *name;
    int call; /* eb_coll_mpi_call, or SCAN */
    int sblocks_p, rblocks_p, reduction;
} gl_coll;

static const gl_coll COLLS[] = {
    {"MPI_Allgather", EB_CALL_ALLGATHER, 0, 1, 0},
    {"MPI_Allreduce", EB_CALL_ALLREDUCE, 0, 0, 1},
    {"MPI_Alltoall", EB_CALL_ALLTOALL, 1, 1, 0},
    {"MPI_Bcast", EB_CALL_BCAST, 0, 0, 0},
    {"MPI_Gather", EB_CALL_GATHER, 0, 1, 0},
    {"MPI_Reduce", EB_CALL_REDUCE, 0, 0, 1},
    {"MPI_Reduce_scatter_block", EB_CALL_REDUCE_SCATTER_BLOCK, 1, 0, 1},
    {"MPI_Scan", SCAN, 0, 0, 1},
    {"MPI_Scatter", EB_CALL_SCATTER, 1, 0, 0},
};
#define NCOLLS ((int)(sizeof COLLS / sizeof *COLLS))

int gl_coll_count(void) { return NCOLLS; }
const char *gl_coll_name(int c) { return COLLS[c].name; }

int gl_coll_find(const char *name)
{
    for (int c = 0; c < NCOLLS; c++)
        if (!strcasecmp(name, COLLS[c].name) || !strcasecmp(name, COLLS[c].name + 4))
            return c;
    return -1;
}

struct gl_bufs {
    const gl_coll *c;
    MPI_Comm comm;
    int rank, procs, count;
    size_t sbytes, rbytes;
    int *s, *r;
    int rcounts[1];
    eb_coll_args a;
    eb_mockup_args ma;
    const eb_mockup *mock[GL_MAX_VARIANTS];
    int nvar;
};

gl_bufs *gl_bufs_make(int c, long bytes, const gl_options *o, MPI_Comm comm)
{
    gl_bufs *b = eb_calloc(1, sizeof *b);
    b->c = &COLLS[c];
    b->comm = comm;
    MPI_Comm_rank(comm, &b->rank);
    MPI_Comm_size(comm, &b->procs);
    b->count = (int)(bytes / (long)sizeof(int));
    b->sbytes = (size_t)bytes * (size_t)(b->c->sblocks_p ? b->procs : 1);
    b->rbytes = (size_t)bytes * (size_t)(b->c->rblocks_p ? b->procs : 1);
    b->s = eb_calloc(b->sbytes + sizeof(int), 1);
    b->r = eb_calloc(b->rbytes + sizeof(int), 1);
    b->rcounts[0] = b->count;
    int bcast = b->c->call == EB_CALL_BCAST;
    b->a = (eb_coll_args){.sbuf = b->s, .rbuf = bcast ? (void *)b->s : (void *)b->r,
                          .count = b->count, .type = MPI_INT, .op = MPI_SUM,
                          .rcounts = b->rcounts, .root = 0, .input = b->s};
    b->ma = (eb_mockup_args){.sbuf = b->s, .rbuf = bcast ? (void *)b->s : (void *)b->r,
                             .count = b->count, .type = MPI_INT, .op = MPI_SUM, .root = 0};
    int regular = eb_mockup_nodes_regular(comm);
    b->nvar = 1;
    for (int k = 0; k < eb_mockup_count() && b->nvar < GL_MAX_VARIANTS; k++) {
        const eb_mockup *m = eb_mockup_at(k);
        int chosen = !o->mockups;
        for (int i = 0; i < o->nmockups; i++)
            chosen |= o->mockups[i] == m;
        if (chosen && !strcmp(m->coll, b->c->name) && (regular || !m->regular_nodes))
            b->mock[b->nvar++] = m;
    }
    return b;
}

void gl_bufs_free(gl_bufs *b)
{
    if (!b)
        return;
    free(b->s);
    free(b->r);
    free(b);
}

int gl_variant_count(const gl_bufs *b) { return b->nvar; }

const char *gl_variant_name(const gl_bufs *b, int v) { return v ? b->mock[v]->name : b->c->name; }

void gl_variant_run(gl_bufs *b, int v)
{
    if (v)
        b->mock[v]->run(&b->ma, b->comm);
    else if (b->c->call == SCAN)
        MPI_Scan(b->s, b->r, b->count, MPI_INT, MPI_SUM, b->comm);
    else
        eb_coll_forms_of((eb_coll_mpi_call)b->c->call)->call(&b->a, b->comm);
}

/* Rank r's input element i of a reduction. */
static int input(int r, long i) { return 1 + (int)((r + i) % 2); }

static long check_reduction(const gl_bufs *b)
{
    int me = b->rank, hi = b->c->call == SCAN ? me : b->procs - 1;
    long first = b->c->call == EB_CALL_REDUCE_SCATTER_BLOCK ? (long)me * b->count : 0, d = 0;
    if (b->c->call == EB_CALL_REDUCE && me != 0)
        return 0;
    for (long i = 0; i < b->count; i++) {
        int want = 0;
        for (int r = 0; r <= hi; r++)
            want += input(r, first + i);
        d += b->r[i] != want;
    }
    return d;
}

static long check_move(const gl_bufs *b)
{
    size_t blk = (size_t)b->count * sizeof(int);
    const unsigned char *r = (const unsigned char *)b->r;
    int me = b->rank;
    long d = 0;
    switch (b->c->call) {
    case EB_CALL_BCAST:
        return eb_check_pattern(b->s, blk, 0, 0);
    case EB_CALL_SCATTER:
        return eb_check_pattern(r, blk, 0, (size_t)me * blk);
    case EB_CALL_GATHER:
        if (me != 0)
            return 0;
        /* fall through */
    case EB_CALL_ALLGATHER:
        for (int j = 0; j < b->procs; j++)
            d += eb_check_pattern(r + (size_t)j * blk, blk, j, 0);
        return d;
    default: /* EB_CALL_ALLTOALL */
        for (int j = 0; j < b->procs; j++)
            d += eb_check_pattern(r + (size_t)j * blk, blk, j, (size_t)me * blk);
        return d;
    }
}

long gl_variant_check(gl_bufs *b, int v)
{
    memset(b->r, EB_POISON_BYTE, b->rbytes);
    if (b->c->reduction)
        for (long i = 0; i < (long)(b->sbytes / sizeof(int)); i++)
            b->s[i] = input(b->rank, i);
    else if (b->c->call == EB_CALL_BCAST && b->rank != 0)
        memset(b->s, EB_POISON_BYTE, b->sbytes);
    else
        eb_fill_pattern(b->s, b->sbytes, b->rank, 0);
    MPI_Barrier(b->comm);
    gl_variant_run(b, v);
    return b->c->reduction ? check_reduction(b) : check_move(b);
}
