/* eb_clock_sync: the chosen method (core/clock_methods.h), timed, then one
 * more round that measures what it achieved; the conversions between local
 * and global time; waiting for a time.  docs/clock-sync.md. */
#include "core/clock.h"

#include "core/clock_methods.h"
#include "core/own_coll.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* Exchanges per rank in the check: at least CHECK_ROUNDS, and more while
 * the last CHECK_ROUNDS brought no shorter round trip, up to CHECK_MAX_ROUNDS.
 * Of them the one with the shortest round trip counts: on a loaded machine
 * most exchanges wait for a time slice, and the more there are, the likelier
 * one that did not. */
#define CHECK_ROUNDS 10
#define CHECK_MAX_ROUNDS 100

/* Rank 0's side of the check with peer, on global clocks: exchanges until
 * the rule above says stop; the last message of each tells the peer whether
 * another follows. */
static void check_ref(MPI_Comm comm, int peer, const eb_clock_model *m)
{
    double best = INFINITY;
    for (int k = 0, since_best = 0; k < CHECK_MAX_ROUNDS; k++) {
        double g0 = eb_clock_to_global(m, MPI_Wtime()), g1;
        MPI_Send(&g0, 1, MPI_DOUBLE, peer, EB_TAG_CLOCK_CHECK, comm);
        MPI_Recv(&g1, 1, MPI_DOUBLE, peer, EB_TAG_CLOCK_CHECK, comm, MPI_STATUS_IGNORE);
        double g2 = eb_clock_to_global(m, MPI_Wtime());
        since_best = g2 - g0 < best ? 0 : since_best + 1;
        best = g2 - g0 < best ? g2 - g0 : best;
        int more = k + 1 < CHECK_MAX_ROUNDS && (k + 1 < CHECK_ROUNDS || since_best < CHECK_ROUNDS);
        double msg[3] = {g0, g2, more};
        MPI_Send(msg, 3, MPI_DOUBLE, peer, EB_TAG_CLOCK_CHECK, comm);
        if (!more)
            break;
    }
}

/* The peer's side: its global time g1 between rank 0's g0 and g2.  Of the
 * exchange with the shortest round trip g2 - g0, the offset g1 - (g0 + g2) / 2
 * is within (g2 - g0) / 2 of the true one at the moment g1 was read (the
 * local time *at): causality puts the reference's clock then between g0 and
 * g2.  That bound comes from the same exchange as the offset. */
static void check_peer(MPI_Comm comm, const eb_clock_model *m, double *offset, double *err,
                       double *at)
{
    double best = INFINITY, msg[3] = {0, 0, 1};
    while (msg[2] != 0) {
        double g0;
        MPI_Recv(&g0, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_CHECK, comm, MPI_STATUS_IGNORE);
        double t1 = MPI_Wtime(), g1 = eb_clock_to_global(m, t1);
        MPI_Send(&g1, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_CHECK, comm);
        MPI_Recv(msg, 3, MPI_DOUBLE, 0, EB_TAG_CLOCK_CHECK, comm, MPI_STATUS_IGNORE);
        if (msg[1] - msg[0] < best) {
            best = msg[1] - msg[0];
            *offset = g1 - 0.5 * (msg[0] + msg[1]);
            *err = 0.5 * best;
            *at = t1;
        }
    }
}

/* The check: rank 0 probes every rank in turn (CHECK_ROUNDS to
 * CHECK_MAX_ROUNDS exchanges each, the shortest round trip kept); a rank's
 * offset is its global clock minus the reference's at the same moment.  The reference's own
 * offset is 0 by definition, measured at the end of the round. */
static void check(MPI_Comm comm, const eb_clock_model *m, double *offset, double *err, double *at)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    *offset = *err = 0;
    *at = MPI_Wtime();
    for (int peer = 1; peer < size; peer++) {
        if (rank == 0)
            check_ref(comm, peer, m);
        else if (rank == peer)
            check_peer(comm, m, offset, err, at);
    }
    if (rank == 0)
        *at = MPI_Wtime();
}

/* Tests (EFFBENCH_TEST_CLOCK_TRACE): one line per rank and estimate. */
static void trace(MPI_Comm comm, const eb_clock_model *m)
{
    if (!getenv("EFFBENCH_TEST_CLOCK_TRACE"))
        return;
    int rank, world;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    double now = MPI_Wtime();
    fprintf(stderr,
            "effbench clock: method %s world_rank %d rank %d offset_us %.3f drift_ppm %.3f "
            "check_us %.6f check_error_us %.6f check_max_us %.3f error_us %.3f local_s %.9f "
            "check_local_s %.9f check_self_error_us %.6f model_at_check_us %.6f\n",
            eb_clock_method_name(m->method), world, rank,
            1e6 * (eb_clock_to_global(m, now) - now), 1e6 * m->drift, 1e6 * m->check_self,
            1e6 * m->check_error, 1e6 * m->check_max, 1e6 * m->error, now, m->check_at,
            1e6 * m->check_self_error, 1e6 * (eb_clock_to_global(m, m->check_at) - m->check_at));
    fflush(stderr);
}

void eb_clock_sync(MPI_Comm comm, int rounds, eb_clock_model *m)
{
    double err = 0, t0 = MPI_Wtime();
    switch (m->method) {
    case EB_CLOCK_SKAMPI: eb_clock_skampi(comm, rounds, m, &err); break;
    case EB_CLOCK_HCA3: eb_clock_hca3(comm, rounds, m, &err); break;
    case EB_CLOCK_HCA3_2LEVEL: eb_clock_hca3_2level(comm, rounds, m, &err); break;
    case EB_CLOCK_NONE:
        m->offset = m->drift = 0;
        m->t_ref = t0;
        break;
    default: eb_clock_linear(comm, rounds, m, &err); break;
    }
    double took = MPI_Wtime() - t0, off, check_err, at;
    check(comm, m, &off, &check_err, &at);
    double mine[5] = {err, took, fabs(off), check_err, fabs(m->drift)}, all[5];
    eb_own_allreduce(mine, all, 5, MPI_DOUBLE, MPI_MAX, comm);
    m->error = all[0];
    m->sync_s = all[1];
    m->check_max = all[2];
    m->check_error = all[3];
    m->drift_max = all[4];
    m->check_self = off;
    m->check_self_error = check_err;
    m->check_at = at;
    trace(comm, m);
}

int eb_wait_until(double t)
{
    double now = MPI_Wtime();
    if (now > t)
        return 1;
    while (t - now > 50e-6) { /* far away: let other ranks have the core */
        sched_yield();
        now = MPI_Wtime();
    }
    while (MPI_Wtime() < t)
        ;
    return 0;
}
