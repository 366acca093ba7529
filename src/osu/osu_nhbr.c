/* OSU 7.4's neighbourhood collectives (osu_neighbor_*, osu_ineighbor_*): the
 * -N topology is built once (osu_nhbr_topo.c) and its creation time printed
 * before the title, as OSU does; the blocking programs time each call with
 * a barrier after it (OSU's blocking collective loop, the barrier on the
 * whole communicator), the non-blocking ones use the overlap method of
 * osu_nbc.c.  OSU's neighbourhood programs have no -l and no -k. */
#include "osu/osu_nbc.h"
#include "osu/osu_nhbr_calls.h"
#include "osu/osu_nhbr_topo.h"
#include "osu/osu_text.h"

#include "core/error.h"
#include "core/registry.h"

static int nhbr_setup(osu_ctx *c, const osu_nbc_call *call, char *err, size_t n)
{
    if (c->o->ddt)
        return eb_err(err, n, "%s: derived datatypes (-D) are not built for the neighbourhood "
                      "collectives yet: run without -D", c->prog->name);
    osu_nbc_args *a = osu_nbc_args_new(c, call);
    char why[EB_ERRLEN] = "";
    if (osu_nhbr_topo_create(c, a, why, sizeof why))
        return eb_err(err, n, "%s: %s", c->prog->name, why);
    osu_nbc_alloc(c, a, a->indegree > a->outdegree ? a->indegree : a->outdegree);
    return 0;
}

static void nhbr_preamble(const osu_ctx *c, FILE *f)
{
    osu_nhbr_topo_print(c, c->priv, f);
    osu_text_preamble(c, f);
}

/* The blocking programs: each call timed, a barrier after it. */
static void nhbr_measure(osu_ctx *c, osu_row *row)
{
    osu_nbc_args *a = c->priv;
    a->call->prepare(c, a);
    double timer = 0;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        double t0 = MPI_Wtime();
        a->call->call(c, a, i);
        double t = MPI_Wtime() - t0;
        MPI_Barrier(c->comm);
        if (i < c->skip)
            continue;
        timer += t;
        if (c->lat)
            c->lat[i - c->skip] = t * 1e6;
    }
    MPI_Barrier(c->comm);
    osu_reduce_times(c, timer * 1e6 / (double)c->iterations, row);
    osu_percentiles(c, 1, row);
}

#define OPT_NHBR "+:hvfm:i:x:M:a:c::u:N:G:D:P:T:Iz::"
#define OPT_INHBR "+:hvfm:i:x:M:t:a:c::u:N:G:D:P:T:Iz::"

/* Every neighbourhood program: OSU's collective defaults, sizes from 1 byte,
 * at least two processes, -M on the buffers of a block per process. */
#define NHBR_COMMON                                                                        \
    .bench = OSU_COLLECTIVE, .loops = {1000, 100, 100, 10}, .default_min_size = 1,         \
    .min_procs = 2, .datatype_lines = 1, .mem_limit = 2, .check = osu_nbc_check,           \
    .teardown = osu_nbc_teardown, .preamble = nhbr_preamble
#define NHBR_BLOCKING                                                                      \
    NHBR_COMMON, .row = OSU_ROW_LATENCY, .optstring = OPT_NHBR, .measure = nhbr_measure
#define NHBR_NONBLOCKING                                                                   \
    NHBR_COMMON, .row = OSU_ROW_NBC, .optstring = OPT_INHBR, .measure = osu_nbc_measure

/* setup_X: the topology and the arguments of osu_call_X */
#define NHBR_SETUP(x)                                                                      \
    static int setup_##x(osu_ctx *c, char *err, size_t n)                                  \
    {                                                                                      \
        return nhbr_setup(c, &osu_call_##x, err, n);                                       \
    }

NHBR_SETUP(neighbor_allgather)
NHBR_SETUP(neighbor_allgatherv)
NHBR_SETUP(neighbor_alltoall)
NHBR_SETUP(neighbor_alltoallv)
NHBR_SETUP(neighbor_alltoallw)
NHBR_SETUP(ineighbor_allgather)
NHBR_SETUP(ineighbor_allgatherv)
NHBR_SETUP(ineighbor_alltoall)
NHBR_SETUP(ineighbor_alltoallv)
NHBR_SETUP(ineighbor_alltoallw)

static const osu_prog osu_neighbor_allgather = {
    .name = "osu_neighbor_allgather",
    .title = "OSU MPI%s Neighborhood Allgather Latency Test",
    NHBR_BLOCKING,
    .setup = setup_neighbor_allgather,
};

static const osu_prog osu_neighbor_allgatherv = {
    .name = "osu_neighbor_allgatherv",
    .title = "OSU MPI%s Neighborhood Allgatherv Latency Test",
    NHBR_BLOCKING,
    .setup = setup_neighbor_allgatherv,
};

static const osu_prog osu_neighbor_alltoall = {
    .name = "osu_neighbor_alltoall",
    .title = "OSU MPI%s Neighborhood Alltoall Latency Test",
    NHBR_BLOCKING,
    .setup = setup_neighbor_alltoall,
};

static const osu_prog osu_neighbor_alltoallv = {
    .name = "osu_neighbor_alltoallv",
    .title = "OSU MPI%s Neighborhood All-to-Allv Latency Test",
    NHBR_BLOCKING,
    .setup = setup_neighbor_alltoallv,
};

static const osu_prog osu_neighbor_alltoallw = {
    .name = "osu_neighbor_alltoallw",
    .title = "OSU MPI%s All-to-Allw Personalized Exchange Latency Test",
    NHBR_BLOCKING,
    .setup = setup_neighbor_alltoallw,
};

static const osu_prog osu_ineighbor_allgather = {
    .name = "osu_ineighbor_allgather",
    .title = "OSU MPI%s Non-blocking Neighborhood Allgather Latency Test",
    NHBR_NONBLOCKING,
    .setup = setup_ineighbor_allgather,
};

static const osu_prog osu_ineighbor_allgatherv = {
    .name = "osu_ineighbor_allgatherv",
    .title = "OSU MPI%s Non-blocking Neighborhood Allgatherv Latency Test",
    NHBR_NONBLOCKING,
    .setup = setup_ineighbor_allgatherv,
};

static const osu_prog osu_ineighbor_alltoall = {
    .name = "osu_ineighbor_alltoall",
    .title = "OSU MPI%s Non-blocking Neighborhood Alltoall Latency Test",
    NHBR_NONBLOCKING,
    .setup = setup_ineighbor_alltoall,
};

static const osu_prog osu_ineighbor_alltoallv = {
    .name = "osu_ineighbor_alltoallv",
    .title = "OSU MPI%s Non-blocking Neighborhood Alltoallv Latency Test",
    NHBR_NONBLOCKING,
    .setup = setup_ineighbor_alltoallv,
};

static const osu_prog osu_ineighbor_alltoallw = {
    .name = "osu_ineighbor_alltoallw",
    .title = "OSU MPI%s Non-blocking Neighborhood Alltoallw Latency Test",
    NHBR_NONBLOCKING,
    .setup = setup_ineighbor_alltoallw,
};

EB_CONSTRUCTOR(register_osu_nhbr)
{
    osu_register(&osu_neighbor_allgather);
    osu_register(&osu_neighbor_allgatherv);
    osu_register(&osu_neighbor_alltoall);
    osu_register(&osu_neighbor_alltoallv);
    osu_register(&osu_neighbor_alltoallw);
    osu_register(&osu_ineighbor_allgather);
    osu_register(&osu_ineighbor_allgatherv);
    osu_register(&osu_ineighbor_alltoall);
    osu_register(&osu_ineighbor_alltoallv);
    osu_register(&osu_ineighbor_alltoallw);
}
