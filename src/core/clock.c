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

#define CHECK_ROUNDS 5

/* Rank 0's half of one check exchange with peer, on global clocks. */
static void check_ref(MPI_Comm comm, int peer, const eb_clock_model *m)
{
    double g0 = eb_clock_to_global(m, MPI_Wtime()), g1;
    MPI_Send(&g0, 1, MPI_DOUBLE, peer, EB_TAG_CLOCK_CHECK, comm);
    MPI_Recv(&g1, 1, MPI_DOUBLE, peer, EB_TAG_CLOCK_CHECK, comm, MPI_STATUS_IGNORE);
    double msg[2] = {g0, eb_clock_to_global(m, MPI_Wtime())};
    MPI_Send(msg, 2, MPI_DOUBLE, peer, EB_TAG_CLOCK_CHECK, comm);
}

/* The check: rank 0 probes every rank in turn (CHECK_ROUNDS exchanges,
 * the shortest round trip kept); a rank's offset is its global clock minus
 * the reference's global clock at the same moment, (g0 + g2) / 2. */
static void check(MPI_Comm comm, const eb_clock_model *m, double *offset, double *err)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double best = INFINITY;
    *offset = *err = 0;
    for (int peer = 1; peer < size; peer++)
        for (int k = 0; k < CHECK_ROUNDS; k++) {
            if (rank == 0) {
                check_ref(comm, peer, m);
            } else if (rank == peer) {
                double g0, msg[2];
                MPI_Recv(&g0, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_CHECK, comm, MPI_STATUS_IGNORE);
                double g1 = eb_clock_to_global(m, MPI_Wtime());
                MPI_Send(&g1, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_CHECK, comm);
                MPI_Recv(msg, 2, MPI_DOUBLE, 0, EB_TAG_CLOCK_CHECK, comm, MPI_STATUS_IGNORE);
                if (msg[1] - msg[0] < best) {
                    best = msg[1] - msg[0];
                    *offset = g1 - 0.5 * (msg[0] + msg[1]);
                    *err = 0.5 * best;
                }
            }
        }
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
            "check_us %.3f check_error_us %.3f check_max_us %.3f error_us %.3f local_s %.9f\n",
            eb_clock_method_name(m->method), world, rank,
            1e6 * (eb_clock_to_global(m, now) - now), 1e6 * m->drift, 1e6 * m->check_self,
            1e6 * m->check_error, 1e6 * m->check_max, 1e6 * m->error, now);
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
    double took = MPI_Wtime() - t0, off, check_err;
    check(comm, m, &off, &check_err);
    double mine[5] = {err, took, fabs(off), check_err, fabs(m->drift)}, all[5];
    eb_own_allreduce(mine, all, 5, MPI_DOUBLE, MPI_MAX, comm);
    m->error = all[0];
    m->sync_s = all[1];
    m->check_max = all[2];
    m->check_error = all[3];
    m->drift_max = all[4];
    m->check_self = off;
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
