/* OSU's blocking collectives: each iteration times one call, with a barrier
 * outside the timing (after it; before it for osu_reduce; none for
 * osu_barrier); a rank's latency is its average, the row OSU's average over
 * ranks with min and max (-f).  The checked pass runs the call again with
 * each iteration's data and verifies every byte or element (osu_coll_check.c). */
#include "osu/osu_coll.h"

#include "core/registry.h"

double coll_timed(osu_ctx *c, const coll_loop *loop)
{
    const coll_prog *cp = coll_prog_of(c);
    double timer = 0;
    if (cp->pre_barrier)
        MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        if (loop->prepare)
            loop->prepare(c, i);
        if (cp->sync == SYNC_BEFORE)
            MPI_Barrier(c->comm);
        double t0 = MPI_Wtime();
        loop->run(c);
        double t = MPI_Wtime() - t0;
        if (cp->sync == SYNC_AFTER)
            MPI_Barrier(c->comm);
        if (i < c->skip)
            continue;
        timer += t;
        if (c->lat)
            c->lat[i - c->skip] = t * 1e6;
    }
    return timer * 1e6 / (double)c->iterations;
}

void coll_row(osu_ctx *c, double t_us, osu_row *row)
{
    osu_reduce_times(c, t_us, row);
    osu_percentiles(c, 1, row);
}

/* ---- the blocking call ---------------------------------------------------- */

static const coll_loop blocking_loop = {coll_args_at, coll_run};

void coll_blocking_measure(osu_ctx *c, osu_row *row)
{
    coll_layout(c);
    coll_row(c, coll_timed(c, &blocking_loop), row);
}

long coll_blocking_check(osu_ctx *c)
{
    coll_layout(c);
    return coll_checked(c, &blocking_loop);
}

/* ---- the programs ------------------------------------------------------------ */

#define BLOCKING COLL_PROG_COMMON, .measure = coll_blocking_measure, .datatype_lines = 1, \
    .check = coll_blocking_check, .stages = 1 /* --stage-through-host: coll_run */
#define MOVES BLOCKING, .mem_limit = 2   /* -M: OSU limits max size * processes */
#define REDUCES BLOCKING, .mem_limit = 1, .reduction = 1

static const coll_prog PROGS[] = {
    {.prog = {.name = "osu_allgather", .title = "OSU MPI%s Allgather Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLGATHER, .pre_barrier = 1},
    {.prog = {.name = "osu_allgatherv", .title = "OSU MPI%s Allgatherv Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLGATHERV, .pre_barrier = 1},
    {.prog = {.name = "osu_allreduce", .title = "OSU MPI%s Allreduce Latency Test",
              .optstring = OSU_OPTS_COLL_ALLREDUCE, REDUCES},
     .kind = EB_CALL_ALLREDUCE, .pre_barrier = 1},
    {.prog = {.name = "osu_alltoall",
              .title = "OSU MPI%s All-to-All Personalized Exchange Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLTOALL, .pre_barrier = 1},
    {.prog = {.name = "osu_alltoallv",
              .title = "OSU MPI%s All-to-Allv Personalized Exchange Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLTOALLV, .pre_barrier = 1},
    {.prog = {.name = "osu_alltoallw",
              .title = "OSU MPI%s All-to-Allw Personalized Exchange Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLTOALLW, .pre_barrier = 1},
    /* one row without a size; nothing to check; no barrier besides the timed one */
    {.prog = {.name = "osu_barrier", .title = "OSU MPI%s Barrier Latency Test",
              .optstring = OSU_OPTS_COLL_BARRIER, COLL_PROG_COMMON,
              .measure = coll_blocking_measure, .no_size = 1, .stages = 1},
     .kind = EB_CALL_BARRIER, .sync = SYNC_NONE},
    /* OSU's broadcast has no barrier before the iterations; its root is 0 */
    {.prog = {.name = "osu_bcast", .title = "OSU MPI%s Broadcast Latency Test",
              .optstring = OSU_OPTS_COLL_BCAST, BLOCKING, .mem_limit = 1},
     .kind = EB_CALL_BCAST},
    {.prog = {.name = "osu_gather", .title = "OSU MPI%s Gather Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL OSU_OPT_ROOT, MOVES},
     .kind = EB_CALL_GATHER, .pre_barrier = 1},
    {.prog = {.name = "osu_gatherv", .title = "OSU MPI%s Gatherv Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL OSU_OPT_ROOT, MOVES},
     .kind = EB_CALL_GATHERV, .pre_barrier = 1},
    /* OSU's reduce synchronises before each call, not after */
    {.prog = {.name = "osu_reduce", .title = "OSU MPI%s Reduce Latency Test",
              .optstring = OSU_OPTS_COLL_ALLREDUCE OSU_OPT_ROOT, REDUCES},
     .kind = EB_CALL_REDUCE, .pre_barrier = 1, .sync = SYNC_BEFORE},
    {.prog = {.name = "osu_reduce_scatter", .title = "OSU MPI%s Reduce_scatter Latency Test",
              .optstring = OSU_OPTS_COLL_ALLREDUCE, REDUCES},
     .kind = EB_CALL_REDUCE_SCATTER, .pre_barrier = 1},
    {.prog = {.name = "osu_reduce_scatter_block",
              .title = "OSU MPI%s Reduce_scatter_block Latency Test",
              .optstring = OSU_OPTS_COLL_ALLREDUCE, REDUCES},
     .kind = EB_CALL_REDUCE_SCATTER_BLOCK, .pre_barrier = 1},
    {.prog = {.name = "osu_scatter", .title = "OSU MPI%s Scatter Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL OSU_OPT_ROOT, MOVES},
     .kind = EB_CALL_SCATTER, .pre_barrier = 1},
    {.prog = {.name = "osu_scatterv", .title = "OSU MPI%s Scatterv Latency Test",
              .optstring = OSU_OPTS_COLL_ALLTOALL OSU_OPT_ROOT, MOVES},
     .kind = EB_CALL_SCATTERV, .pre_barrier = 1},
};

EB_CONSTRUCTOR(register_osu_coll)
{
    for (size_t i = 0; i < sizeof PROGS / sizeof *PROGS; i++)
        osu_register(&PROGS[i].prog);
}
