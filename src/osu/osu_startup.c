/* OSU's start-up programs, one line each and no message sizes:
 *   osu_init:  how long MPI_Init took, min / max / avg over the ranks, in
 *              whole ms.  effbench's main() calls MPI_Init_thread before any
 *              component runs, so it marks the moments just before and after
 *              that call (core/init_time.h, CLOCK_REALTIME as OSU) and
 *              osu_init reports that duration: the same call OSU times (with
 *              the thread level effbench asks for, MPI_THREAD_SINGLE unless
 *              -thread_level says otherwise).  With -I OSU times a session's
 *              start instead (MPI_Session_init to MPI_Comm_create_from_group):
 *              effbench times one such start, made after MPI_Init.
 *   osu_hello: "This is a test with N processes".
 * osu_init is refused in a simulation (docs/simulation.md); osu_hello runs.
 * Nothing here moves data: no checked pass.  OSU's osu_init parses its
 * options but never looks at the verdict, osu_hello parses none: both run
 * whatever the command line says (effbench warns about what it ignores). */
#include "osu/osu.h"
#include "osu/osu_text.h"

#include "core/error.h"
#include "core/init_time.h"
#include "core/own_coll.h"
#include "core/registry.h"
#include "core/smpi_build.h"

#include <stdlib.h>

typedef struct {
    long min_ms, max_ms, avg_ms; /* OSU's figures, rank 0 */
} init_figures;

static long ms_between(const struct timespec *a, const struct timespec *b)
{
    /* OSU: whole ms of the seconds, then the nanoseconds added, truncated */
    long ms = (long)((double)(b->tv_sec - a->tv_sec) * 1e3);
    return (long)((double)ms + (double)(b->tv_nsec - a->tv_nsec) / 1e6);
}

static double us_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) * 1e6 + (double)(b->tv_nsec - a->tv_nsec) / 1e3;
}

/* -I: one session start, timed as OSU times its MPI initialisation. */
static void time_session_start(struct timespec *start, struct timespec *end)
{
#ifdef EB_HAVE_MPI_SESSION_INIT
    MPI_Session s;
    MPI_Group g;
    MPI_Comm comm;
    clock_gettime(CLOCK_REALTIME, start);
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "effbench.osu_init", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
    MPI_Group_free(&g);
    clock_gettime(CLOCK_REALTIME, end);
    MPI_Comm_free(&comm);
    MPI_Session_finalize(&s);
#else
    (void)start, (void)end; /* the runner refuses -I without MPI-4 sessions */
    eb_abort("osu_init -I: no MPI_Session_init in this MPI library");
#endif
}

static int init_setup(osu_ctx *c, char *err, size_t n)
{
    if (EB_SMPI_BUILD)
        return eb_err(err, n, "osu_init: not in a simulation: it times MPI_Init on the clock, "
                      "and SMPI has started its ranks before main (their MPI_Init is no part "
                      "of the simulated machine, and the clock before it is the host's)");
    c->priv = eb_calloc(1, sizeof(init_figures));
    struct timespec a, b;
    if (!c->o->session && eb_init_time(&a, &b))
        return eb_err(err, n, "osu_init: the start of MPI_Init was not recorded");
    return 0;
}

static void init_measure(osu_ctx *c, osu_row *row)
{
    init_figures *f = c->priv;
    struct timespec a, b;
    if (c->o->session)
        time_session_start(&a, &b);
    else
        eb_init_time(&a, &b);
    long mine = ms_between(&a, &b), mn, mx, sum;
    eb_own_reduce(&mine, &mn, 1, MPI_LONG, MPI_MIN, 0, c->comm);
    eb_own_reduce(&mine, &mx, 1, MPI_LONG, MPI_MAX, 0, c->comm);
    eb_own_reduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, 0, c->comm);
    f->min_ms = mn, f->max_ms = mx, f->avg_ms = sum / c->size;
    osu_reduce_times(c, us_between(&a, &b), row); /* JSON: the same in us, unrounded */
    row->iterations = 1;
}

static void init_teardown(osu_ctx *c) { free(c->priv); }

static void title_only(const osu_ctx *c, FILE *f) { osu_text_title(c->prog, f); }

static void init_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    const init_figures *x = c->priv;
    (void)row;
    fprintf(f, "nprocs: %d, min: %ld ms, max: %ld ms, avg: %ld ms\n", c->size, x->min_ms,
            x->max_ms, x->avg_ms);
}

static const osu_prog osu_init = {
    .name = "osu_init",
    .title = "OSU MPI Init Test",
    .bench = OSU_STARTUP,
    .row = OSU_ROW_STARTUP,
    .optstring = OSU_OPTS_STARTUP_INIT,
    .setup = init_setup,
    .measure = init_measure,
    .teardown = init_teardown,
    .no_size = 1,
    .lenient = 1,
    .preamble = title_only,
    .row_text = init_row,
};

static void hello_measure(osu_ctx *c, osu_row *row)
{
    (void)row;
    MPI_Barrier(c->comm); /* every rank is up */
}

static void hello_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    (void)row;
    fprintf(f, "This is a test with %d processes\n", c->size);
}

static const osu_prog osu_hello = {
    .name = "osu_hello",
    .title = "OSU MPI Hello World Test",
    .bench = OSU_STARTUP,
    .row = OSU_ROW_STARTUP,
    .optstring = OSU_OPTS_NONE,
    .measure = hello_measure,
    .no_size = 1,
    .lenient = 1,
    .preamble = title_only,
    .row_text = hello_row,
};

EB_CONSTRUCTOR(register_osu_startup)
{
    osu_register(&osu_init);
    osu_register(&osu_hello);
}
