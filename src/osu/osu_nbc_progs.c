/* The descriptors of OSU 7.4's non-blocking collectives (osu_i*): OSU's
 * titles, getopt strings (c/util/osu_util_options.h, the non-accelerator
 * ones), defaults and memory rules; the method is osu_nbc.c's, the calls'
 * arguments osu_nbc_calls.c's and osu_nbc_reduce.c's. */
#include "osu/osu_nbc.h"

#include "core/registry.h"

/* OSU's option strings of the non-blocking collectives */
#define OPT_BARRIER "+:hvfm:i:x:M:t:a:G:P:Iz::"
#define OPT_ALLTOALL "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::" /* "k:" added for rooted ones */
#define OPT_BCAST "+:hvfm:i:x:M:t:a:c::u:G:D:P:T:Iz::"
#define OPT_REDUCE "+:hvfm:i:x:M:t:a:c::u:G:P:T:Ilz::"

/* What every non-blocking collective shares: sizes from 1 byte, at least
 * two processes, the NBC rows and method. */
#define NBC_COMMON                                                                         \
    .bench = OSU_COLLECTIVE, .row = OSU_ROW_NBC, .default_min_size = 1, .min_procs = 2,    \
    .measure = osu_nbc_measure, .teardown = osu_nbc_teardown
/* ... and those that move data: OSU's collective loop counts (1000
 * iterations and 100 warm-up, 100 and 10 above 8192 bytes), "# Datatype"
 * lines, the checked pass */
#define NBC_DATA .loops = {1000, 100, 100, 10}, .datatype_lines = 1, .check = osu_nbc_check

/* setup_X: the arguments of osu_call_X */
#define NBC_SETUP(x)                                                                       \
    static int setup_##x(osu_ctx *c, char *err, size_t n)                                  \
    {                                                                                      \
        return osu_nbc_setup(c, &osu_call_##x, err, n);                                    \
    }

NBC_SETUP(ibarrier)
NBC_SETUP(ibcast)
NBC_SETUP(iallgather)
NBC_SETUP(iallgatherv)
NBC_SETUP(ialltoall)
NBC_SETUP(ialltoallv)
NBC_SETUP(ialltoallw)
NBC_SETUP(igather)
NBC_SETUP(igatherv)
NBC_SETUP(iscatter)
NBC_SETUP(iscatterv)
NBC_SETUP(iallreduce)
NBC_SETUP(ireduce)
NBC_SETUP(ireduce_scatter)
NBC_SETUP(ireduce_scatter_block)

static const osu_prog osu_ibarrier = {
    .name = "osu_ibarrier",
    .title = "OSU MPI%s Non-blocking Barrier Latency Test",
    NBC_COMMON,
    .optstring = OPT_BARRIER,
    /* no sizes, no data: OSU runs the large-message loop counts, one row */
    .loops = {100, 10, 100, 10},
    .no_size = 1,
    .setup = setup_ibarrier,
};

static const osu_prog osu_ibcast = {
    .name = "osu_ibcast",
    .title = "OSU MPI%s Non-Blocking Broadcast Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_BCAST,
    .mem_limit = 1,
    .setup = setup_ibcast,
};

static const osu_prog osu_iallgather = {
    .name = "osu_iallgather",
    .title = "OSU MPI%s Non-blocking Allgather Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL,
    .mem_limit = 2,
    .setup = setup_iallgather,
};

static const osu_prog osu_iallgatherv = {
    .name = "osu_iallgatherv",
    .title = "OSU MPI%s Non-blocking Allgatherv Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL,
    .mem_limit = 2,
    .setup = setup_iallgatherv,
};

static const osu_prog osu_ialltoall = {
    .name = "osu_ialltoall",
    .title = "OSU MPI%s Non-blocking All-to-All Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL,
    .mem_limit = 2,
    .setup = setup_ialltoall,
};

static const osu_prog osu_ialltoallv = {
    .name = "osu_ialltoallv",
    .title = "OSU MPI%s Non-blocking All-to-Allv Personalized Exchange Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL,
    .mem_limit = 2,
    .setup = setup_ialltoallv,
};

static const osu_prog osu_ialltoallw = {
    .name = "osu_ialltoallw",
    .title = "OSU MPI%s Non-blocking All-to-Allw Personalized Exchange Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL,
    .mem_limit = 2,
    .setup = setup_ialltoallw,
};

static const osu_prog osu_igather = {
    .name = "osu_igather",
    .title = "OSU MPI%s Non-blocking Gather Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL "k:",
    .mem_limit = 2,
    .setup = setup_igather,
};

static const osu_prog osu_igatherv = {
    .name = "osu_igatherv",
    .title = "OSU MPI%s Non-blocking Gatherv Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL "k:",
    .mem_limit = 2,
    .setup = setup_igatherv,
};

static const osu_prog osu_iscatter = {
    .name = "osu_iscatter",
    .title = "OSU MPI%s Non-blocking Scatter Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_ALLTOALL "k:",
    .mem_limit = 2,
    .setup = setup_iscatter,
};

static const osu_prog osu_iscatterv = {
    .name = "osu_iscatterv",
    .title = "OSU MPI%s Non-blocking Scatterv Latency Test",
    NBC_COMMON,
    .optstring = OPT_ALLTOALL "k:",
    .mem_limit = 2,
    /* OSU 7.4's osu_iscatterv warms up skip_large times at every size */
    .loops = {1000, 10, 100, 10}, .datatype_lines = 1, .check = osu_nbc_check,
    .setup = setup_iscatterv,
};

static const osu_prog osu_iallreduce = {
    .name = "osu_iallreduce",
    .title = "OSU MPI%s Non-blocking Allreduce Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_REDUCE,
    .mem_limit = 1,
    .reduction = 1,
    .setup = setup_iallreduce,
};

static const osu_prog osu_ireduce = {
    .name = "osu_ireduce",
    .title = "OSU MPI%s Non-blocking Reduce Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_REDUCE "k:",
    .mem_limit = 1,
    .reduction = 1,
    .setup = setup_ireduce,
};

static const osu_prog osu_ireduce_scatter = {
    .name = "osu_ireduce_scatter",
    .title = "OSU MPI%s Non-blocking Reduce_scatter Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_REDUCE,
    .mem_limit = 1,
    .reduction = 1,
    .setup = setup_ireduce_scatter,
};

static const osu_prog osu_ireduce_scatter_block = {
    .name = "osu_ireduce_scatter_block",
    .title = "OSU MPI%s Non-blocking Reduce_scatter_block Latency Test",
    NBC_COMMON,
    NBC_DATA,
    .optstring = OPT_REDUCE,
    .mem_limit = 1,
    .reduction = 1,
    .setup = setup_ireduce_scatter_block,
};

EB_CONSTRUCTOR(register_osu_nbc)
{
    osu_register(&osu_ibarrier);
    osu_register(&osu_ibcast);
    osu_register(&osu_iallgather);
    osu_register(&osu_iallgatherv);
    osu_register(&osu_ialltoall);
    osu_register(&osu_ialltoallv);
    osu_register(&osu_ialltoallw);
    osu_register(&osu_igather);
    osu_register(&osu_igatherv);
    osu_register(&osu_iscatter);
    osu_register(&osu_iscatterv);
    osu_register(&osu_iallreduce);
    osu_register(&osu_ireduce);
    osu_register(&osu_ireduce_scatter);
    osu_register(&osu_ireduce_scatter_block);
}
