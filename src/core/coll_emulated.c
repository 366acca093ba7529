/* Persistent and neighbourhood collectives where SMPI lacks them
 * (coll_emulated.h): the one place that decides, per build, whether a
 * persistent collective is MPI-4's or MPI_I<call> per start, and that runs a
 * neighbourhood call as point-to-point messages. */
#include "core/coll_emulated.h"

#include "core/error.h"
#include "core/simulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if EB_SMPI_BUILD
#include <simgrid/version.h>
#define SMPI_NAME "SMPI " EB_STR(SIMGRID_VERSION_MAJOR) "." EB_STR(SIMGRID_VERSION_MINOR)
#define EB_STR(x) EB_STR_(x)
#define EB_STR_(x) #x
#endif

/* Not b_eff's, IMB's, SKaMPI's or OSU's tags, nor core's own (own_coll.c:
 * 32766, eb_alltoallv: 32767).  A call's messages are all received before
 * its wait returns, and each pair of ranks matches its messages in order. */
#define NHBR_P2P_TAG 32765

/* ---- persistent collectives ---------------------------------------------- */

int eb_pcoll_emulated(void)
{
#if EB_SMPI_BUILD && !defined(EB_HAVE_MPI_ALLREDUCE_INIT)
    return 1;
#else
    return 0;
#endif
}

void eb_pcoll_init(eb_pcoll *p, eb_coll_mpi_call call, const eb_coll_args *a, MPI_Comm comm)
{
    p->call = call;
    p->args = *a;
    p->comm = comm;
    p->req = MPI_REQUEST_NULL;
#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
    eb_coll_forms_of(call)->init(a, comm, &p->req);
#else
    if (!eb_pcoll_emulated())
        eb_abort("MPI_%s_init: this build has no MPI-4 persistent collectives",
                 eb_coll_forms_of(call)->name);
#endif
}

void eb_pcoll_start(eb_pcoll *p)
{
    if (eb_pcoll_emulated())
        eb_coll_forms_of(p->call)->start(&p->args, p->comm, &p->req);
    else
        MPI_Start(&p->req);
}

void eb_pcoll_wait(eb_pcoll *p) { MPI_Wait(&p->req, MPI_STATUS_IGNORE); }

void eb_pcoll_free(eb_pcoll *p)
{
    /* emulated: the wait has completed and released the MPI_I<call>'s request */
    if (!eb_pcoll_emulated() && p->req != MPI_REQUEST_NULL)
        MPI_Request_free(&p->req);
    p->req = MPI_REQUEST_NULL;
}

void eb_pcoll_announce(eb_coll_mpi_call call)
{
#if EB_SMPI_BUILD
    if (!eb_pcoll_emulated())
        return;
    const char *name = eb_coll_forms_of(call)->name;
    char what[EB_ERRLEN];
    snprintf(what, sizeof what, "persistent collectives: MPI_I%c%s per MPI_Start, completed by "
             "MPI_Wait (" SMPI_NAME " has no MPI_%s_init)", name[0] - 'A' + 'a', name + 1, name);
    eb_sim_note_emulation(what);
#else
    (void)call;
#endif
}

/* ---- neighbourhood collectives --------------------------------------------- */

int eb_nhbr_emulated(void) { return EB_SMPI_BUILD; }

static int *copy_ranks(const int *v, int n)
{
    int *c = eb_malloc((size_t)(n > 0 ? n : 1) * sizeof *c);
    if (n > 0)
        memcpy(c, v, (size_t)n * sizeof *c);
    return c;
}

eb_nhbr_p2p *eb_nhbr_p2p_new(MPI_Comm comm, int indegree, const int *sources, int outdegree,
                             const int *destinations)
{
    eb_nhbr_p2p *n = eb_calloc(1, sizeof *n);
    n->comm = comm;
    n->indegree = indegree;
    n->outdegree = outdegree;
    n->sources = copy_ranks(sources, indegree);
    n->destinations = copy_ranks(destinations, outdegree);
    n->reqs = eb_malloc((size_t)(indegree + outdegree + 1) * sizeof *n->reqs);
    return n;
}

void eb_nhbr_p2p_free(eb_nhbr_p2p *n)
{
    if (!n)
        return;
    free(n->sources);
    free(n->destinations);
    free(n->reqs);
    free(n);
}

/* One block of a buffer: its address, count and type (send or receive side). */
typedef struct {
    char *at;
    int count;
    MPI_Datatype type;
} block;

/* Block k of a call's receive buffer: from the k-th in-neighbour. */
static block recv_block(eb_coll_mpi_call call, const eb_coll_args *a, int k, MPI_Aint extent)
{
    char *r = a->rbuf;
    switch (call) {
    case EB_CALL_NEIGHBOR_ALLGATHERV:
    case EB_CALL_NEIGHBOR_ALLTOALLV:
        return (block){r + (MPI_Aint)a->rdispls[k] * extent, a->rcounts[k], a->type};
    case EB_CALL_NEIGHBOR_ALLTOALLW: /* byte displacements, a type per neighbour */
        return (block){r + a->adispls[k], a->rcounts[k], a->types[k]};
    default: /* allgather, alltoall: blocks of count elements, one after the other */
        return (block){r + (MPI_Aint)k * (MPI_Aint)a->count * extent, (int)a->count, a->type};
    }
}

/* What goes to the k-th out-neighbour. */
static block send_block(eb_coll_mpi_call call, const eb_coll_args *a, int k, MPI_Aint extent)
{
    char *s = (char *)a->sbuf;
    switch (call) {
    case EB_CALL_NEIGHBOR_ALLGATHER:
    case EB_CALL_NEIGHBOR_ALLGATHERV: /* the one send buffer to every out-neighbour */
        return (block){s, (int)a->count, a->type};
    case EB_CALL_NEIGHBOR_ALLTOALLV:
        return (block){s + (MPI_Aint)a->sdispls[k] * extent, a->scounts[k], a->type};
    case EB_CALL_NEIGHBOR_ALLTOALLW:
        return (block){s + a->adispls[k], a->scounts[k], a->types[k]};
    default: /* alltoall: block k */
        return (block){s + (MPI_Aint)k * (MPI_Aint)a->count * extent, (int)a->count, a->type};
    }
}

void eb_nhbr_p2p_start(eb_nhbr_p2p *n, eb_coll_mpi_call call, const eb_coll_args *a)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(a->type, &lb, &extent);
    int q = 0;
    for (int k = 0; k < n->indegree; k++) {
        block b = recv_block(call, a, k, extent);
        MPI_Irecv(b.at, b.count, b.type, n->sources[k], NHBR_P2P_TAG, n->comm, &n->reqs[q++]);
    }
    for (int k = 0; k < n->outdegree; k++) {
        block b = send_block(call, a, k, extent);
        MPI_Isend(b.at, b.count, b.type, n->destinations[k], NHBR_P2P_TAG, n->comm,
                  &n->reqs[q++]);
    }
}

void eb_nhbr_p2p_wait(eb_nhbr_p2p *n)
{
    MPI_Waitall(n->indegree + n->outdegree, n->reqs, MPI_STATUSES_IGNORE);
}

void eb_nhbr_p2p_test(eb_nhbr_p2p *n)
{
    int done;
    MPI_Testall(n->indegree + n->outdegree, n->reqs, &done, MPI_STATUSES_IGNORE);
}

void eb_nhbr_p2p_call(eb_nhbr_p2p *n, eb_coll_mpi_call call, const eb_coll_args *a)
{
    eb_nhbr_p2p_start(n, call, a);
    eb_nhbr_p2p_wait(n);
}

void eb_nhbr_announce(eb_coll_mpi_call call, int nonblocking)
{
#if EB_SMPI_BUILD
    const char *name = eb_coll_forms_of(call)->name;
    char what[EB_ERRLEN];
    snprintf(what, sizeof what, "neighbourhood collectives: MPI_%s%c%s as point-to-point on "
             "the processes' communicator, an MPI_Irecv from each in-neighbour and an MPI_Isend "
             "to each out-neighbour%s, then MPI_Waitall (" SMPI_NAME " aborts in "
             "MPI_Dist_graph_create_adjacent and the neighbourhood collectives)",
             nonblocking ? "I" : "", nonblocking ? name[0] - 'A' + 'a' : name[0], name + 1,
             nonblocking ? " at the start" : "");
    eb_sim_note_emulation(what);
#else
    (void)call;
    (void)nonblocking;
#endif
}
