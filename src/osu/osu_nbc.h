/* OSU's non-blocking and neighbourhood collectives (docs/osu/nbc.md).
 *
 * A collective is an osu_nbc_call: how big its buffers are, its per-size
 * arguments (counts, displacements), how to start it for iteration i, and
 * the checked pass's fill and verify.  The arguments live in one
 * osu_nbc_args per run (c->priv).  Two loops use the calls:
 *   - osu_nbc.c: OSU's overall / compute / pure communication / overlap
 *     method for the osu_i* and osu_ineighbor_* programs;
 *   - osu_nhbr.c: the blocking loop of the osu_neighbor_* programs.
 * The argument building (osu_nbc_calls.c, osu_nbc_reduce.c, osu_nhbr_calls.c) is
 * kept apart from the loops so that the blocking collectives can share it. */
#ifndef EB_OSU_NBC_H
#define EB_OSU_NBC_H

#include "osu/osu.h"

typedef struct osu_nbc_args osu_nbc_args;

#define OSU_NBC_PER_PEER (-1)

typedef struct {
    /* Buffer sizes: the send and receive buffers hold max_size times this
     * many blocks; OSU_NBC_PER_PEER: one per process (per neighbour for the
     * neighbourhood calls); 0: no such buffer. */
    int send_blocks, recv_blocks;
    int unsynced;      /* osu_ibarrier: no barrier between the pure loop's iterations */
    /* Per size, before the loops: counts and displacements.  May be NULL. */
    void (*prepare)(osu_ctx *c, osu_nbc_args *a);
    /* Start the operation of iteration i (the root rotates with i). */
    void (*start)(osu_ctx *c, osu_nbc_args *a, long i, MPI_Request *req);
    /* The blocking call (osu_neighbor_*), NULL for the non-blocking ones. */
    void (*call)(osu_ctx *c, osu_nbc_args *a, long i);
    /* The checked pass: iteration i's data into the send buffers (the
     * receive buffers poisoned), then, after the call, this rank's defects. */
    void (*fill)(osu_ctx *c, osu_nbc_args *a, long i);
    long (*verify)(osu_ctx *c, osu_nbc_args *a, long i);
} osu_nbc_call;

struct osu_nbc_args {
    const osu_nbc_call *call;
    MPI_Comm comm;          /* where the call runs: c->comm or the neighbourhood's graph */
    char *s, *r;            /* send and receive buffers */
    size_t s_len, r_len;    /* their sizes in bytes */
    /* per peer (process count or degree entries): counts and displacements
     * in elements (in bytes for the w-variants), types */
    int *scounts, *sdispls, *rcounts, *rdispls;
    MPI_Aint *sdispls_a, *rdispls_a; /* MPI_Neighbor_alltoallw's */
    MPI_Datatype *stypes, *rtypes;
    int portion;            /* reduce_scatter_block: elements per rank */
    /* the neighbourhood (osu_nhbr_topo.c); 0 / NULL otherwise */
    int indegree, outdegree;
    int *sources, *destinations;
    int dims[16], ndims;    /* -N cart: MPI_Dims_create's sizes */
    double create_us;       /* MPI_Dist_graph_create_adjacent, average over ranks */
};

/* The root of iteration i: -k fixed:N, or rotating over the ranks. */
int osu_nbc_root(const osu_ctx *c, long i);
/* The number of bytes a count of c->count elements of c->dtype takes. */
size_t osu_nbc_bytes(const osu_ctx *c);
/* In place (-l) for this program. */
int osu_nbc_in_place(const osu_ctx *c);

/* Setup, teardown and the checked pass for any call (osu_nbc.c).  Setup:
 * the arguments on c->comm with buffers for c->size peers; a neighbourhood
 * program makes them with osu_nbc_args_new, builds its topology and then
 * allocates for its degree. */
int osu_nbc_setup(osu_ctx *c, const osu_nbc_call *call, char *err, size_t errlen);
osu_nbc_args *osu_nbc_args_new(osu_ctx *c, const osu_nbc_call *call);
void osu_nbc_alloc(osu_ctx *c, osu_nbc_args *a, int peers);
void osu_nbc_teardown(osu_ctx *c);
long osu_nbc_check(osu_ctx *c);
/* OSU's overlap method for one size (osu_nbc.c). */
void osu_nbc_measure(osu_ctx *c, osu_row *row);

/* The calls (osu_nbc_calls.c, osu_nbc_reduce.c; the neighbourhood ones: osu_nhbr_calls.h). */
extern const osu_nbc_call osu_call_ibarrier, osu_call_ibcast, osu_call_iallgather,
    osu_call_iallgatherv, osu_call_ialltoall, osu_call_ialltoallv, osu_call_ialltoallw,
    osu_call_igather, osu_call_igatherv, osu_call_iscatter, osu_call_iscatterv;
extern const osu_nbc_call osu_call_iallreduce, osu_call_ireduce, osu_call_ireduce_scatter,
    osu_call_ireduce_scatter_block;

/* Stream ids of the checked pass's byte patterns (osu_fill): what rank
 * `from` sends to rank `to` in a personalised exchange. */
static inline int osu_nbc_stream(const osu_ctx *c, int from, int to)
{
    return from * c->size + to;
}

#endif
