/* PGMPI's node-aware mock-ups (core/mockups.h) of MPI_Allgather, MPI_Allreduce,
 * MPI_Bcast and MPI_Reduce.
 *
 * The nodes are core's (core/nodemap.h: ranks with the same processor name);
 * `node` holds the processes of one node, `lane` those of one node-local rank
 * across the nodes (lane 0: one process per node, the node leaders).
 *
 * Hier: Bcast, the root's node gets the data (if the root leads no node),
 * the leaders broadcast it, each node broadcasts from its leader; Allreduce,
 * reduce to the leader, allreduce among the leaders, broadcast in the node.
 * Lane (Träff and Hunold, "Decomposing MPI Collectives for Exploiting
 * Multi-lane Communication", CLUSTER 2020): the data in blocks over the
 * node's processes (Scatter / Reduce_scatter_block), every lane moves its
 * block at once (Bcast / Allreduce), then Allgather in the node.  Lane needs
 * the same number of processes on every node; blocks are rounded up and the
 * padding dropped. */
#include "core/error.h"
#include "core/mockups_node.h"
#include "core/nodemap.h"

#include <stdlib.h>
#include <string.h>

static struct {
    MPI_Comm comm, node, lane;
    int rank, local, nodesize, regular;
    int *node_of, *local_of; /* [P]: every rank's node and node-local rank */
    int *lane_pos;           /* [nnodes]: a node's member's rank in this rank's lane */
    int *pos;                /* [local * nnodes + node]: that member's rank in lane `local` */
    int nnodes;
} G = {.comm = MPI_COMM_NULL, .node = MPI_COMM_NULL, .lane = MPI_COMM_NULL};

static void *scr_p[3];
static size_t scr_n[3];

/* Scratch area k of at least n bytes, zeroed when `zero`; kept between calls. */
static void *scratch(int k, size_t n, int zero)
{
    if (scr_n[k] < n + 1) {
        free(scr_p[k]);
        scr_p[k] = eb_calloc(n + 1, 1);
        scr_n[k] = n + 1;
    }
    if (zero)
        memset(scr_p[k], 0, n);
    return scr_p[k];
}

void eb_mockup_node_release(void)
{
    for (int k = 0; k < 3; k++) {
        free(scr_p[k]);
        scr_p[k] = NULL;
        scr_n[k] = 0;
    }
    if (G.node != MPI_COMM_NULL)
        MPI_Comm_free(&G.node);
    if (G.lane != MPI_COMM_NULL)
        MPI_Comm_free(&G.lane);
    free(G.node_of);
    free(G.local_of);
    free(G.lane_pos);
    free(G.pos);
    memset(&G, 0, sizeof G);
    G.comm = G.node = G.lane = MPI_COMM_NULL;
}

/* The node and lane communicators of comm, made on its first use. */
static void split(MPI_Comm comm)
{
    if (G.comm == comm && comm != MPI_COMM_NULL)
        return;
    eb_mockup_node_release();
    eb_nodemap m;
    eb_nodemap_build(&m, comm);
    int p = m.size;
    MPI_Comm_rank(comm, &G.rank);
    G.node_of = eb_calloc((size_t)p, sizeof *G.node_of);
    G.local_of = eb_calloc((size_t)p, sizeof *G.local_of);
    G.lane_pos = eb_calloc((size_t)m.nnodes, sizeof *G.lane_pos);
    int *seen = eb_calloc((size_t)m.nnodes, sizeof *seen);
    for (int r = 0; r < p; r++) {
        G.node_of[r] = m.node_of[r];
        G.local_of[r] = seen[m.node_of[r]]++;
    }
    G.regular = 1;
    for (int k = 0; k < m.nnodes; k++)
        G.regular &= m.count[k] == m.count[0];
    G.local = G.local_of[G.rank];
    G.nodesize = m.count[m.node_of[G.rank]];
    MPI_Comm_split(comm, G.node_of[G.rank], G.rank, &G.node);
    MPI_Comm_split(comm, G.local, G.rank, &G.lane);
    /* lane members are ordered by rank: count each lane's members before each node's */
    G.nnodes = m.nnodes;
    G.pos = eb_calloc((size_t)p * (size_t)m.nnodes + 1, sizeof *G.pos);
    int *at = eb_calloc((size_t)p + 1, sizeof *at);
    for (int r = 0; r < p; r++)
        G.pos[G.local_of[r] * m.nnodes + G.node_of[r]] = at[G.local_of[r]]++;
    for (int k = 0; k < m.nnodes; k++)
        G.lane_pos[k] = G.pos[G.local * m.nnodes + k];
    free(at);
    free(seen);
    eb_nodemap_free(&m);
    G.comm = comm;
}

int eb_mockup_nodes_regular(MPI_Comm comm)
{
    split(comm);
    return G.regular;
}

static size_t ext_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return (size_t)ext;
}

static void bcast_as_bcast_hier(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    int rnode = G.node_of[a->root], rlocal = G.local_of[a->root];
    int mine = G.node_of[G.rank] == rnode;
    if (mine && rlocal != 0)
        MPI_Bcast(a->rbuf, a->count, a->type, rlocal, G.node);
    if (G.local == 0)
        MPI_Bcast(a->rbuf, a->count, a->type, G.lane_pos[rnode], G.lane);
    if (!mine || rlocal == 0)
        MPI_Bcast(a->rbuf, a->count, a->type, 0, G.node);
}

static void allreduce_as_allreduce_hier(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    size_t bytes = (size_t)a->count * ext_of(a->type);
    void *t = scratch(0, bytes, 0);
    MPI_Reduce(a->sbuf, t, a->count, a->type, a->op, 0, G.node);
    if (G.local == 0)
        MPI_Allreduce(t, a->rbuf, a->count, a->type, a->op, G.lane);
    MPI_Bcast(a->rbuf, a->count, a->type, 0, G.node);
}

static void bcast_as_bcast_lane(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    size_t e = ext_of(a->type);
    int blk = (a->count + G.nodesize - 1) / G.nodesize;
    size_t all = (size_t)blk * (size_t)G.nodesize * e;
    unsigned char *in = scratch(0, all, 0), *part = scratch(1, blk * e, 0);
    unsigned char *out = scratch(2, all, 0);
    int rnode = G.node_of[a->root];
    if (G.rank == a->root)
        memcpy(in, a->rbuf, (size_t)a->count * e);
    if (G.node_of[G.rank] == rnode)
        MPI_Scatter(in, blk, a->type, part, blk, a->type, G.local_of[a->root], G.node);
    MPI_Bcast(part, blk, a->type, G.lane_pos[rnode], G.lane);
    MPI_Allgather(part, blk, a->type, out, blk, a->type, G.node);
    memcpy(a->rbuf, out, (size_t)a->count * e);
}

static void allreduce_as_allreduce_lane(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    size_t e = ext_of(a->type);
    int blk = (a->count + G.nodesize - 1) / G.nodesize;
    size_t all = (size_t)blk * (size_t)G.nodesize * e;
    unsigned char *in = scratch(0, all, 1), *part = scratch(1, blk * e, 0);
    unsigned char *out = scratch(2, all, 0);
    memcpy(in, a->sbuf, (size_t)a->count * e);
    MPI_Reduce_scatter_block(in, part, blk, a->type, a->op, G.node);
    MPI_Allreduce(MPI_IN_PLACE, part, blk, a->type, a->op, G.lane);
    MPI_Allgather(part, blk, a->type, out, blk, a->type, G.node);
    memcpy(a->rbuf, out, (size_t)a->count * e);
}

/* Blocks of blk bytes in node-then-local order (node k's members in rank
 * order, nodes in order) put into rank order: rank r's block is at the
 * offset of its node plus its local rank. */
static void to_rank_order(const unsigned char *byn, unsigned char *out, size_t blk, int p)
{
    int nnodes = 0;
    for (int r = 0; r < p; r++)
        nnodes = G.node_of[r] + 1 > nnodes ? G.node_of[r] + 1 : nnodes;
    int *first = calloc((size_t)nnodes + 1, sizeof *first);
    for (int r = 0; r < p; r++)
        first[G.node_of[r] + 1]++;
    for (int k = 0; k < nnodes; k++)
        first[k + 1] += first[k];
    for (int r = 0; r < p; r++)
        memcpy(out + (size_t)r * blk, byn + (size_t)(first[G.node_of[r]] + G.local_of[r]) * blk,
               blk);
    free(first);
}

/* Gather in the node to its leader, Allgatherv among the leaders, Bcast in the node. */
static void allgather_as_allgather_hier(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    int p, nl;
    MPI_Comm_size(comm, &p);
    size_t blk = (size_t)a->count * ext_of(a->type), all = blk * (size_t)p;
    unsigned char *mine = scratch(0, blk * (size_t)G.nodesize, 0), *byn = scratch(1, all, 0);
    MPI_Gather(a->sbuf, a->count, a->type, mine, a->count, a->type, 0, G.node);
    if (G.local == 0) {
        MPI_Comm_size(G.lane, &nl);
        int *n = calloc((size_t)nl, sizeof *n), *d = calloc((size_t)nl, sizeof *d);
        int sz = G.nodesize * a->count;
        MPI_Allgather(&sz, 1, MPI_INT, n, 1, MPI_INT, G.lane);
        for (int k = 1; k < nl; k++)
            d[k] = d[k - 1] + n[k - 1];
        MPI_Allgatherv(mine, sz, a->type, byn, n, d, a->type, G.lane);
        free(n);
        free(d);
        to_rank_order(byn, a->rbuf, blk, p);
    }
    MPI_Bcast(a->rbuf, a->count * p, a->type, 0, G.node);
}

/* Allgather along the lane, then Allgather in the node, then rank order. */
static void allgather_as_allgather_lane(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    int p, nn;
    MPI_Comm_size(comm, &p);
    MPI_Comm_size(G.lane, &nn);
    size_t blk = (size_t)a->count * ext_of(a->type), all = blk * (size_t)p;
    unsigned char *lane = scratch(0, blk * (size_t)nn, 0), *bylocal = scratch(1, all, 0);
    unsigned char *byn = scratch(2, all, 0);
    MPI_Allgather(a->sbuf, a->count, a->type, lane, a->count, a->type, G.lane);
    MPI_Allgather(lane, a->count * nn, a->type, bylocal, a->count * nn, a->type, G.node);
    /* bylocal: lane l's blocks in its own order; byn wants node k's members together */
    for (int l = 0; l < G.nodesize; l++)
        for (int k = 0; k < nn; k++)
            memcpy(byn + ((size_t)k * (size_t)G.nodesize + (size_t)l) * blk,
                   bylocal + ((size_t)l * (size_t)nn + (size_t)G.pos[l * G.nnodes + k]) * blk,
                   blk);
    to_rank_order(byn, a->rbuf, blk, p);
}

/* Reduce in the node to its leader, among the leaders to the root's node's, then to the root. */
static void reduce_as_reduce_hier(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    size_t bytes = (size_t)a->count * ext_of(a->type);
    unsigned char *t = scratch(0, bytes, 0), *u = scratch(1, bytes, 0);
    int rnode = G.node_of[a->root], rlocal = G.local_of[a->root];
    int mine = G.node_of[G.rank] == rnode;
    MPI_Reduce(a->sbuf, t, a->count, a->type, a->op, 0, G.node);
    if (G.local == 0)
        MPI_Reduce(t, mine && rlocal == 0 ? a->rbuf : u, a->count, a->type, a->op,
                   G.lane_pos[rnode], G.lane);
    if (mine && rlocal != 0 && G.local == 0)
        MPI_Send(u, a->count, a->type, rlocal, 0, G.node);
    if (mine && rlocal != 0 && G.rank == a->root)
        MPI_Recv(a->rbuf, a->count, a->type, 0, 0, G.node, MPI_STATUS_IGNORE);
}

/* Reduce_scatter_block in the node, Reduce along the lane to the root's node, Gather there. */
static void reduce_as_reduce_lane(const eb_mockup_args *a, MPI_Comm comm)
{
    split(comm);
    size_t e = ext_of(a->type);
    int blk = (a->count + G.nodesize - 1) / G.nodesize;
    size_t all = (size_t)blk * (size_t)G.nodesize * e;
    unsigned char *in = scratch(0, all, 1), *part = scratch(1, 2 * (size_t)blk * e, 0);
    unsigned char *out = scratch(2, all, 0);
    int rnode = G.node_of[a->root];
    memcpy(in, a->sbuf, (size_t)a->count * e);
    MPI_Reduce_scatter_block(in, part, blk, a->type, a->op, G.node);
    MPI_Reduce(part, part + (size_t)blk * e, blk, a->type, a->op, G.lane_pos[rnode], G.lane);
    if (G.node_of[G.rank] == rnode) {
        MPI_Gather(part + (size_t)blk * e, blk, a->type, out, blk, a->type, G.local_of[a->root],
                   G.node);
        if (G.rank == a->root)
            memcpy(a->rbuf, out, (size_t)a->count * e);
    }
}

static const eb_mockup NODE_MOCKUPS[] = {
    {"MPI_Allgather", "allgather_as_allgather_lane", allgather_as_allgather_lane, 1},
    {"MPI_Allgather", "allgather_as_allgather_hier", allgather_as_allgather_hier, 0},
    {"MPI_Allreduce", "allreduce_as_allreduce_lane", allreduce_as_allreduce_lane, 1},
    {"MPI_Allreduce", "allreduce_as_allreduce_hier", allreduce_as_allreduce_hier, 0},
    {"MPI_Bcast", "bcast_as_bcast_lane", bcast_as_bcast_lane, 1},
    {"MPI_Bcast", "bcast_as_bcast_hier", bcast_as_bcast_hier, 0},
    {"MPI_Reduce", "reduce_as_reduce_hier", reduce_as_reduce_hier, 0},
    {"MPI_Reduce", "reduce_as_reduce_lane", reduce_as_reduce_lane, 1},
};

int eb_mockup_node_count(void) { return (int)(sizeof NODE_MOCKUPS / sizeof *NODE_MOCKUPS); }
const eb_mockup *eb_mockup_node_at(int i) { return &NODE_MOCKUPS[i]; }
