/* IMB-MPI4 (IMB 2021.11): the MPI-4 persistent collectives.  Per length, the
 * operation's *_init outside the timing, on repetition 0's arguments (the
 * first buffers, root 0), as IMB makes it; every repetition is then
 * MPI_Start + MPI_Wait of that one request, freed after the length.
 * - Name_persist (default): IMB-NBC's overlap method (t_ovrl t_pure t_CPU
 *   overlap[%]) with the persistent request;
 * - Name_persist_pure (by name or -include): start + wait, t_min/t_max/t_avg.
 * IMB-MPI4 exists only in IMB 2021: its -sync on (each repetition timed on
 * its own, a barrier after it; Barrier times its loop whole) and -warm_up on
 * are the defaults.  The operations (arguments, extents, checks) are
 * IMB-MPI1's (coll.c), the *_init calls OSU's (core/coll_calls.h). */
#include "core/component_names.h"
#include "core/error.h"
#include "core/mpi_features.h"
#include "core/registry.h"
#include "imb/coll.h"
#include "imb/driver/driver.h"
#include "imb/nbc.h"

/* The row's persistent request, on repetition 0's arguments. */
static int persist_prepare(eb_ctx *c)
{
    if (eb_coll_prepare(c) != 0)
        return -1;
#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
    eb_coll_state *st = c->priv;
    eb_coll_args a;
    eb_coll_args_at(c, 0, &a);
    eb_coll_forms_of(eb_coll_mpi_call_of(eb_coll_kind_of(c)))->init(&a, c->comm, &st->req);
    return 0;
#else
    /* the driver refuses IMB-MPI4 before it measures (the family's needs) */
    eb_abort("%s: this build has no MPI-4 persistent collectives", c->bench->name);
#endif
}

static void persist_release(eb_ctx *c)
{
    eb_coll_state *st = c->priv;
    if (st && st->req != MPI_REQUEST_NULL)
        MPI_Request_free(&st->req);
    eb_coll_release(c);
}

/* Repetition i is the request started again: same buffers, same root.  The
 * checked pass poisons what it receives into first, so stale data from the
 * repetition before cannot pass for this one's (-off_cache moves the
 * driver's poison to other slots). */
static MPI_Request *persist_start(eb_ctx *c, long i)
{
    eb_coll_state *st = c->priv;
    (void)i;
    if (c->checking)
        eb_poison(eb_rbuf(c, 0), c->r.len);
    MPI_Start(&st->req);
    return &st->req;
}

static void persist_kernel(eb_ctx *c, long first, long n)
{
    eb_nbc_loop(c, first, n, persist_start);
}

static double persist_overlap(eb_ctx *c, long n) { return eb_nbc_overlap(c, n, persist_start); }

/* Every repetition received with repetition 0's arguments. */
static long persist_check(eb_ctx *c, long i)
{
    (void)i;
    return eb_coll_check(c, 0);
}

#define MPI4_COMMON(nm, ord) \
    .component = EB_COMPONENT_MPI4, .name = nm, .order = ord, .kernel = persist_kernel

#define OVERLAP(nm, ord, k)                                                              \
    {.b = {MPI4_COMMON(nm, ord), .columns = eb_nbc_overlap_columns,                      \
           .extra_json = EB_NBC_OVERLAP_JSON, .measure = persist_overlap},               \
     .kind = k}

#define PURE(nm, ord, k) {.b = {MPI4_COMMON(nm, ord), .flags = EB_F_EXPLICIT_ONLY}, .kind = k}

#define BOTH(nm, ord, k) OVERLAP(nm "_persist", ord, k), PURE(nm "_persist_pure", ord + 200, k)

/* IMB 2021.11's IMB-MPI4 order; the _pure flavours after all overlap ones.  Its
 * program (src_cpp/MPI4/MPI4_benchmark.cpp) runs Allgather_persist by name only. */
static eb_coll_bench mpi4_benches[] = {
    BOTH("Bcast", 100, EB_COLL_BCAST),
    {.b = {MPI4_COMMON("Allgather_persist", 110), .flags = EB_F_EXPLICIT_ONLY,
           .columns = eb_nbc_overlap_columns, .extra_json = EB_NBC_OVERLAP_JSON,
           .measure = persist_overlap},
     .kind = EB_COLL_ALLGATHER},
    PURE("Allgather_persist_pure", 310, EB_COLL_ALLGATHER),
    BOTH("Allgatherv", 120, EB_COLL_ALLGATHERV),
    BOTH("Gather", 130, EB_COLL_GATHER),
    BOTH("Gatherv", 140, EB_COLL_GATHERV),
    BOTH("Scatter", 150, EB_COLL_SCATTER),
    BOTH("Scatterv", 160, EB_COLL_SCATTERV),
    BOTH("Alltoall", 170, EB_COLL_ALLTOALL),
    BOTH("Alltoallv", 180, EB_COLL_ALLTOALLV),
    BOTH("Reduce", 190, EB_COLL_REDUCE),
    BOTH("Reduce_scatter", 200, EB_COLL_REDUCE_SCATTER),
    BOTH("Allreduce", 210, EB_COLL_ALLREDUCE),
    BOTH("Barrier", 220, EB_COLL_BARRIER),
};

/* IMB_settings.h: IMB-MPI4 uses the MPI-1 standard-mode values. */
static const eb_imb_family mpi4_family = {
    .component = EB_COMPONENT_MPI4,
    .program = "IMB-MPI4",
    .part = "MPI-4 part",
    .iter = {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100,
             .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .minmsglog = 0,
    .maxmsglog = 22,
    .print_settings = eb_nbc_print_settings,
    .needs = EB_MPI_PERSISTENT_COLL,
    .imb2021_defaults = 1,
    .text2021 = {.min_zero_size = 1, .close_space = 1}, /* MPI4_suite.cpp */
    .summary = "IMB-MPI4: MPI-4 persistent collectives, overlap and pure communication time",
    .order = 45,
};

EB_CONSTRUCTOR(register_mpi4)
{
    eb_register_imb_family(&mpi4_family);
    for (size_t i = 0; i < sizeof mpi4_benches / sizeof mpi4_benches[0]; i++) {
        eb_coll_bench *cb = &mpi4_benches[i];
        eb_coll_describe(cb);
        cb->b.prepare = persist_prepare;
        cb->b.release = persist_release;
        if (cb->b.check)
            cb->b.check = persist_check;
        if (cb->b.measure && (cb->b.flags & EB_F_NO_BYTES))
            cb->b.columns = eb_nbc_overlap_columns_nobytes; /* Barrier_persist */
        eb_register_bench(&cb->b);
    }
}
