/* The descriptors of OSU 7.4's non-blocking collectives (osu_i*): OSU's
 * titles, getopt strings (c/util/osu_util_options.h, the non-accelerator
 * ones), defaults and memory rules; the method is osu_nbc.c's, the calls
 * and their arguments the collective table's (osu_coll.h). */
#include "osu/osu_nbc.h"

#include "core/registry.h"

/* OSU's letter sets of the non-blocking collectives (osu_optsets.h) */
#define OPT_BARRIER OSU_OPTS_NBC_BARRIER
#define OPT_ALLTOALL OSU_OPTS_NBC_ALLTOALL
#define OPT_ROOTED OSU_OPTS_NBC_ALLTOALL OSU_OPT_ROOT
#define OPT_BCAST OSU_OPTS_NBC_BCAST
#define OPT_REDUCE OSU_OPTS_NBC_ALLREDUCE

/* What every non-blocking collective shares: sizes from 1 byte, at least
 * two processes, the NBC rows and method, the collective table's buffers. */
#define NBC_COMMON                                                                         \
    .bench = OSU_COLLECTIVE, .row = OSU_ROW_NBC, .default_min_size = 1, .min_procs = 2,    \
    .measure = osu_nbc_measure, .setup = coll_setup, .teardown = coll_teardown
/* ... and those that move data: "# Datatype" lines, the checked pass, OSU's
 * collective loop counts (1000 iterations and 100 warm-up, 100 and 10 above
 * 8192 bytes) */
#define NBC_CHECKED NBC_COMMON, .datatype_lines = 1, .check = osu_nbc_check
#define NBC_DATA NBC_CHECKED, .loops = {1000, 100, 100, 10}
#define MOVES NBC_DATA, .mem_limit = 2
#define REDUCES NBC_DATA, .mem_limit = 1, .reduction = 1
/* osu_igatherv, osu_iscatterv: OSU 7.4's programs set the warm-up to skip_large at every
 * size (10, or -x) */
#define MOVES_SKIP_LARGE NBC_CHECKED, .loops = {1000, 10, 100, 10}, .mem_limit = 2

static const coll_prog PROGS[] = {
    /* no sizes, no data: OSU runs the large-message loop counts, one row,
     * no barrier between the pure communication loop's iterations */
    {.prog = {.name = "osu_ibarrier", .title = "OSU MPI%s Non-blocking Barrier Latency Test",
              .optstring = OPT_BARRIER, NBC_COMMON, .loops = {100, 10, 100, 10}, .no_size = 1},
     .kind = EB_CALL_BARRIER, .sync = SYNC_NONE},
    /* root 0 (OSU's; no -k) */
    {.prog = {.name = "osu_ibcast", .title = "OSU MPI%s Non-Blocking Broadcast Latency Test",
              .optstring = OPT_BCAST, NBC_DATA, .mem_limit = 1},
     .kind = EB_CALL_BCAST},
    {.prog = {.name = "osu_iallgather", .title = "OSU MPI%s Non-blocking Allgather Latency Test",
              .optstring = OPT_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLGATHER},
    {.prog = {.name = "osu_iallgatherv",
              .title = "OSU MPI%s Non-blocking Allgatherv Latency Test",
              .optstring = OPT_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLGATHERV},
    {.prog = {.name = "osu_ialltoall", .title = "OSU MPI%s Non-blocking All-to-All Latency Test",
              .optstring = OPT_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLTOALL},
    {.prog = {.name = "osu_ialltoallv",
              .title = "OSU MPI%s Non-blocking All-to-Allv Personalized Exchange Latency Test",
              .optstring = OPT_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLTOALLV},
    {.prog = {.name = "osu_ialltoallw",
              .title = "OSU MPI%s Non-blocking All-to-Allw Personalized Exchange Latency Test",
              .optstring = OPT_ALLTOALL, MOVES},
     .kind = EB_CALL_ALLTOALLW},
    {.prog = {.name = "osu_igather", .title = "OSU MPI%s Non-blocking Gather Latency Test",
              .optstring = OPT_ROOTED, MOVES},
     .kind = EB_CALL_GATHER},
    {.prog = {.name = "osu_igatherv", .title = "OSU MPI%s Non-blocking Gatherv Latency Test",
              .optstring = OPT_ROOTED, MOVES_SKIP_LARGE},
     .kind = EB_CALL_GATHERV},
    {.prog = {.name = "osu_iscatter", .title = "OSU MPI%s Non-blocking Scatter Latency Test",
              .optstring = OPT_ROOTED, MOVES},
     .kind = EB_CALL_SCATTER},
    {.prog = {.name = "osu_iscatterv", .title = "OSU MPI%s Non-blocking Scatterv Latency Test",
              .optstring = OPT_ROOTED, MOVES_SKIP_LARGE},
     .kind = EB_CALL_SCATTERV},
    {.prog = {.name = "osu_iallreduce", .title = "OSU MPI%s Non-blocking Allreduce Latency Test",
              .optstring = OPT_REDUCE, REDUCES},
     .kind = EB_CALL_ALLREDUCE},
    {.prog = {.name = "osu_ireduce", .title = "OSU MPI%s Non-blocking Reduce Latency Test",
              .optstring = OPT_REDUCE OSU_OPT_ROOT, REDUCES},
     .kind = EB_CALL_REDUCE},
    {.prog = {.name = "osu_ireduce_scatter",
              .title = "OSU MPI%s Non-blocking Reduce_scatter Latency Test",
              .optstring = OPT_REDUCE, REDUCES},
     .kind = EB_CALL_REDUCE_SCATTER},
    {.prog = {.name = "osu_ireduce_scatter_block",
              .title = "OSU MPI%s Non-blocking Reduce_scatter_block Latency Test",
              .optstring = OPT_REDUCE, REDUCES},
     .kind = EB_CALL_REDUCE_SCATTER_BLOCK},
};

EB_CONSTRUCTOR(register_osu_nbc)
{
    for (size_t i = 0; i < sizeof PROGS / sizeof *PROGS; i++)
        osu_register(&PROGS[i].prog);
}
