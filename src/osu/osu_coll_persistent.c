/* OSU's persistent collectives (MPI-4): per size, the call's *_init outside
 * the timing, then OSU's loop timing MPI_Start + MPI_Wait, and
 * MPI_Request_free, through core's eb_pcoll (core/coll_emulated.h: in SMPI
 * builds, which lack MPI-4's calls, MPI_Start issues the matching MPI_I<call>,
 * said in the run record).  Same table of calls, arguments and checked pass
 * as the blocking programs (osu_coll.h); the root is always 0 (OSU takes no
 * -k here).  Registered always: without MPI_Allreduce_init in the library
 * (and no emulation) the runner refuses them by name (core/mpi_features.h). */
#include "osu/osu_coll.h"

#include "core/mpi_features.h"
#include "core/registry.h"
#include "osu/osu_text.h"

#include <stdio.h>

/* The request of the current size, on buffers and counts of its layout. */
static void init_request(osu_ctx *c)
{
    coll_state *st = c->priv;
    coll_layout(c);
    coll_args_for(c, 0);
    eb_pcoll_init(&st->persistent, coll_prog_of(c)->kind, &st->a, st->comm);
}

static void start_wait(osu_ctx *c)
{
    coll_state *st = c->priv;
    eb_pcoll_start(&st->persistent);
    eb_pcoll_wait(&st->persistent);
}

static const coll_loop persistent_loop = {NULL, start_wait};

static void persistent_measure(osu_ctx *c, osu_row *row)
{
    init_request(c);
    double t = coll_timed(c, &persistent_loop);
    coll_row(c, t, row);
    eb_pcoll_free(&((coll_state *)c->priv)->persistent);
}

static long persistent_check(osu_ctx *c)
{
    init_request(c);
    long defects = coll_checked(c, &persistent_loop);
    eb_pcoll_free(&((coll_state *)c->priv)->persistent);
    return defects;
}

/* SMPI builds without MPI-4's calls: the note that MPI_Start issues MPI_I<call> */
static void persistent_announce(const osu_prog *p)
{
    eb_pcoll_announce(((const coll_prog *)p)->kind);
}

/* With -l and -c, OSU's persistent all-to-alls and Reduce_scatter turn
 * their validation warm-up off and say so before the title. */
static void warmup_note_preamble(const osu_ctx *c, FILE *f)
{
    if (c->o->in_place && c->o->validate)
        fputs("# Setting number of validation warmup iterations to 0.", f);
    osu_text_preamble(c, f);
}

#define PERSISTENT COLL_PROG_COMMON, .needs = EB_MPI_PERSISTENT_COLL, \
    .announce = persistent_announce, .measure = persistent_measure, .datatype_lines = 1, \
    .check = persistent_check
#define MOVES PERSISTENT, .mem_limit = 2
#define REDUCES PERSISTENT, .mem_limit = 1, .reduction = 1
#define NOTE .preamble = warmup_note_preamble

static const coll_prog PROGS[] = {
    {.prog = {.name = "osu_allgather_persistent",
              .title = "OSU MPI%s Allgather Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLGATHER, .pre_barrier = 1},
    {.prog = {.name = "osu_allgatherv_persistent",
              .title = "OSU MPI%s Allgatherv Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLGATHERV, .pre_barrier = 1},
    {.prog = {.name = "osu_allreduce_persistent",
              .title = "OSU MPI%s Allreduce Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLREDUCE, REDUCES},
     .kind = EB_CALL_ALLREDUCE, .pre_barrier = 1, .ignores_in_place = 1},
    {.prog = {.name = "osu_alltoall_persistent",
              .title = "OSU MPI%s All-to-All Personalized Exchange Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES, NOTE},
     .kind = EB_CALL_ALLTOALL, .pre_barrier = 1},
    {.prog = {.name = "osu_alltoallv_persistent",
              .title = "OSU MPI%s All-to-Allv Personalized Exchange Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES, NOTE},
     .kind = EB_CALL_ALLTOALLV, .pre_barrier = 1},
    {.prog = {.name = "osu_alltoallw_persistent",
              .title = "OSU MPI%s All-to-Allw Personalized Exchange Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES, NOTE},
     .kind = EB_CALL_ALLTOALLW, .pre_barrier = 1},
    {.prog = {.name = "osu_barrier_persistent",
              .title = "OSU MPI%s Barrier Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_BARRIER, COLL_PROG_COMMON, .needs = EB_MPI_PERSISTENT_COLL,
              .announce = persistent_announce, .measure = persistent_measure, .no_size = 1},
     .kind = EB_CALL_BARRIER, .sync = SYNC_NONE},
    {.prog = {.name = "osu_bcast_persistent",
              .title = "OSU MPI%s Broadcast Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_BCAST, PERSISTENT, .mem_limit = 1},
     .kind = EB_CALL_BCAST},
    {.prog = {.name = "osu_gather_persistent", .title = "OSU MPI%s Gather Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_GATHER, .pre_barrier = 1, .ignores_in_place = 1},
    {.prog = {.name = "osu_gatherv_persistent",
              .title = "OSU MPI%s Gatherv Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_GATHERV, .pre_barrier = 1, .ignores_in_place = 1},
    {.prog = {.name = "osu_reduce_persistent", .title = "OSU MPI%s Reduce Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLREDUCE, REDUCES},
     .kind = EB_CALL_REDUCE, .pre_barrier = 1, .sync = SYNC_BEFORE, .ignores_in_place = 1},
    {.prog = {.name = "osu_reduce_scatter_persistent",
              .title = "OSU MPI%s Reduce_scatter Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLREDUCE, REDUCES, NOTE},
     .kind = EB_CALL_REDUCE_SCATTER, .pre_barrier = 1},
    {.prog = {.name = "osu_scatter_persistent",
              .title = "OSU MPI%s Scatter Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_SCATTER, .pre_barrier = 1},
    {.prog = {.name = "osu_scatterv_persistent",
              .title = "OSU MPI%s Scatterv Persistent Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_SCATTERV, .pre_barrier = 1},
};

EB_CONSTRUCTOR(register_osu_coll_persistent)
{
    for (size_t i = 0; i < sizeof PROGS / sizeof *PROGS; i++)
        osu_register(&PROGS[i].prog);
}
