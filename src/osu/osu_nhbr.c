/* OSU 7.4's neighbourhood collectives (osu_neighbor_*, osu_ineighbor_*): the
 * -N topology is built once (osu_nhbr_topo.c) and its creation time printed
 * before the title, as OSU does; the calls, a block per neighbour, are the
 * collective table's (osu_coll.h).  The blocking programs time each call
 * with a barrier after it (OSU's blocking collective loop, the barrier on
 * the whole communicator), the non-blocking ones use the overlap method of
 * osu_nbc.c.  OSU's neighbourhood programs have no -l and no -k.  In SMPI
 * builds, which abort in the topology and the calls, the calls are
 * point-to-point messages to the same neighbours (core/coll_emulated.h), and
 * the time before the title is that of building the neighbour lists. */
#include "osu/osu_nbc.h"
#include "osu/osu_nhbr_topo.h"
#include "osu/osu_text.h"

#include "core/error.h"
#include "core/registry.h"

/* The topology, then buffers and counts for a block per neighbour. */
static int nhbr_setup(osu_ctx *c, char *err, size_t n)
{
    if (c->o->ddt)
        return eb_err(err, n, "%s: derived datatypes (-D) are not built for the neighbourhood "
                      "collectives yet: run without -D", c->prog->name);
    coll_state *st = coll_state_new(c);
    char why[EB_ERRLEN] = "";
    if (osu_nhbr_topo_create(c, st, why, sizeof why))
        return eb_err(err, n, "%s: %s", c->prog->name, why);
    return coll_alloc(c, st->indegree > st->outdegree ? st->indegree : st->outdegree, err, n);
}

/* SMPI builds: the note that the calls are point-to-point (core/coll_emulated.h) */
static void nhbr_announce(const osu_prog *p)
{
    if (eb_nhbr_emulated())
        eb_nhbr_announce(((const coll_prog *)p)->kind, p->row == OSU_ROW_NBC);
}

static void nhbr_preamble(const osu_ctx *c, FILE *f)
{
    osu_nhbr_topo_print(c, c->priv, f);
    osu_text_preamble(c, f);
}

/* The blocking programs: OSU's blocking collective loop, and a barrier
 * after a size's iterations. */
static void nhbr_measure(osu_ctx *c, osu_row *row)
{
    coll_blocking_measure(c, row);
    MPI_Barrier(c->comm);
}

/* Every neighbourhood program: OSU's collective defaults, sizes from 1 byte,
 * at least two processes, -M on the buffers of a block per process. */
#define NHBR_COMMON                                                                        \
    .bench = OSU_COLLECTIVE, .loops = {1000, 100, 100, 10}, .default_min_size = 1,         \
    .min_procs = 2, .datatype_lines = 1, .mem_limit = 2, .setup = nhbr_setup,              \
    .teardown = coll_teardown, .preamble = nhbr_preamble, .announce = nhbr_announce
#define NHBR_BLOCKING                                                                      \
    NHBR_COMMON, .row = OSU_ROW_LATENCY, .optstring = OSU_OPTS_COLL_NHBR,                  \
    .measure = nhbr_measure, .check = coll_blocking_check
#define NHBR_NONBLOCKING                                                                   \
    NHBR_COMMON, .row = OSU_ROW_NBC, .optstring = OSU_OPTS_NBC_NHBR,                       \
    .measure = osu_nbc_measure, .check = osu_nbc_check

/* OSU's blocking loop: a barrier before a size's iterations, one after each */
#define BLOCKING_SYNC .pre_barrier = 1, .sync = SYNC_AFTER

static const coll_prog PROGS[] = {
    {.prog = {.name = "osu_neighbor_allgather",
              .title = "OSU MPI%s Neighborhood Allgather Latency Test", NHBR_BLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLGATHER, BLOCKING_SYNC},
    {.prog = {.name = "osu_neighbor_allgatherv",
              .title = "OSU MPI%s Neighborhood Allgatherv Latency Test", NHBR_BLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLGATHERV, BLOCKING_SYNC},
    {.prog = {.name = "osu_neighbor_alltoall",
              .title = "OSU MPI%s Neighborhood Alltoall Latency Test", NHBR_BLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLTOALL, BLOCKING_SYNC},
    {.prog = {.name = "osu_neighbor_alltoallv",
              .title = "OSU MPI%s Neighborhood All-to-Allv Latency Test", NHBR_BLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLTOALLV, BLOCKING_SYNC},
    {.prog = {.name = "osu_neighbor_alltoallw",
              .title = "OSU MPI%s All-to-Allw Personalized Exchange Latency Test",
              NHBR_BLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLTOALLW, BLOCKING_SYNC},
    {.prog = {.name = "osu_ineighbor_allgather",
              .title = "OSU MPI%s Non-blocking Neighborhood Allgather Latency Test",
              NHBR_NONBLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLGATHER},
    {.prog = {.name = "osu_ineighbor_allgatherv",
              .title = "OSU MPI%s Non-blocking Neighborhood Allgatherv Latency Test",
              NHBR_NONBLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLGATHERV},
    {.prog = {.name = "osu_ineighbor_alltoall",
              .title = "OSU MPI%s Non-blocking Neighborhood Alltoall Latency Test",
              NHBR_NONBLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLTOALL},
    {.prog = {.name = "osu_ineighbor_alltoallv",
              .title = "OSU MPI%s Non-blocking Neighborhood Alltoallv Latency Test",
              NHBR_NONBLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLTOALLV},
    {.prog = {.name = "osu_ineighbor_alltoallw",
              .title = "OSU MPI%s Non-blocking Neighborhood Alltoallw Latency Test",
              NHBR_NONBLOCKING},
     .kind = EB_CALL_NEIGHBOR_ALLTOALLW},
};

EB_CONSTRUCTOR(register_osu_nhbr)
{
    for (size_t i = 0; i < sizeof PROGS / sizeof *PROGS; i++)
        osu_register(&PROGS[i].prog);
}
