/* mpibenchmark's process synchronisation (ReproMPI's process_sync/): before
 * each call an MPI_Barrier, its dissemination barrier, two MPI_Barriers, or
 * nothing; or windows on the global clock (window_sync.c): rank 0 sets the
 * first window's start to its global time plus the wait time, every process
 * waits until that global time, and each window starts where the last one
 * ended.  A process that comes to a window after its start flags the
 * repetition 1, one whose call ends after the window's end flags it 2; the
 * flagged repetitions stay in the count but never in a summary.
 *
 * The global clock is core's (core/clock.h): synchronised once per job, as
 * ReproMPI synchronises its clocks before every job, unless --clock-sync=None
 * (then the global time is the local time). */
#include "core/error.h"
#include "core/own_coll.h"
#include "reprompi/rp.h"

#include <stdlib.h>
#include <string.h>

#define RP_DISSEM_TAG 1020

void rp_sync_init(rp_sync *s, const rp_options *o)
{
    memset(s, 0, sizeof *s);
    s->o = o;
}

double rp_sync_global(const rp_sync *s, double local)
{
    return s->synced ? eb_clock_to_global(&s->clock, local) : local;
}

void rp_sync_begin(rp_sync *s, long nrep)
{
    free(s->flags);
    s->flags = eb_calloc((size_t)nrep + 1, sizeof *s->flags);
    if (s->o->clock_sync != RP_CLOCK_NONE) {
        double t0 = MPI_Wtime();
        s->clock.method = s->o->clock_method;
        eb_clock_sync(MPI_COMM_WORLD, s->o->clock_rounds, &s->clock);
        s->synced = 1;
        s->sync_s = MPI_Wtime() - t0;
    }
    if (s->o->proc_sync == RP_SYNC_WINDOW) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            s->window_start = rp_sync_global(s, MPI_Wtime()) + s->o->wait_s;
        MPI_Bcast(&s->window_start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
}

void rp_sync_start(rp_sync *s, long i)
{
    switch (s->o->proc_sync) {
    case RP_SYNC_MPI_BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case RP_SYNC_DOUBLE_BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case RP_SYNC_DISSEM_BARRIER:
        eb_dissemination_barrier(MPI_COMM_WORLD, RP_DISSEM_TAG);
        break;
    case RP_SYNC_WINDOW: {
        double local = s->synced ? eb_clock_to_local(&s->clock, s->window_start)
                                 : s->window_start;
        if (eb_wait_until(local))
            s->flags[i] |= RP_WIN_START_PASSED;
        break;
    }
    default:
        break;
    }
}

void rp_sync_stop(rp_sync *s, long i)
{
    if (s->o->proc_sync != RP_SYNC_WINDOW)
        return;
    if (rp_sync_global(s, MPI_Wtime()) > s->window_start + s->o->window_s)
        s->flags[i] |= RP_WIN_EXPIRED;
    s->window_start += s->o->window_s;
}

void rp_sync_free(rp_sync *s)
{
    free(s->flags);
    s->flags = NULL;
}
