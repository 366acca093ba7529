#include "core/clock.h"

#include "core/own_coll.h"

#include <sched.h>

#define TAG_SYNC 7700

void eb_clock_sync(MPI_Comm comm, int rounds, eb_clock_model *m)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double best_offset = 0, best_rtt = 1e30, t_mid_local = MPI_Wtime();
    for (int peer = 1; peer < size; peer++) {
        MPI_Barrier(comm);
        for (int k = 0; k < rounds; k++) {
            if (rank == 0) {
                double t0 = MPI_Wtime(), t_remote;
                MPI_Send(&t0, 1, MPI_DOUBLE, peer, TAG_SYNC, comm);
                MPI_Recv(&t_remote, 1, MPI_DOUBLE, peer, TAG_SYNC, comm, MPI_STATUS_IGNORE);
                double t2 = MPI_Wtime(), msg[2] = {t0, t2};
                MPI_Send(msg, 2, MPI_DOUBLE, peer, TAG_SYNC, comm);
            } else if (rank == peer) {
                double t0, msg[2];
                MPI_Recv(&t0, 1, MPI_DOUBLE, 0, TAG_SYNC, comm, MPI_STATUS_IGNORE);
                double t1 = MPI_Wtime();
                MPI_Send(&t1, 1, MPI_DOUBLE, 0, TAG_SYNC, comm);
                MPI_Recv(msg, 2, MPI_DOUBLE, 0, TAG_SYNC, comm, MPI_STATUS_IGNORE);
                double rtt = msg[1] - msg[0];
                if (rtt < best_rtt) {
                    /* rank 0's clock read (t0 + t2) / 2 when ours read t1 */
                    best_rtt = rtt;
                    best_offset = 0.5 * (msg[0] + msg[1]) - t1;
                    t_mid_local = t1;
                }
            }
        }
    }
    if (rank == 0) {
        best_offset = 0;
        best_rtt = 0;
    }
    if (m->t_ref > 0 && t_mid_local - m->t_ref > 0.5)
        m->drift = (best_offset - m->offset) / (t_mid_local - m->t_ref);
    m->offset = best_offset;
    m->t_ref = t_mid_local;
    double err = 0.5 * best_rtt;
    eb_own_allreduce(&err, &m->error, 1, MPI_DOUBLE, MPI_MAX, comm);
}

double eb_clock_to_global(const eb_clock_model *m, double local)
{
    return local + m->offset + m->drift * (local - m->t_ref);
}

double eb_clock_to_local(const eb_clock_model *m, double global)
{
    /* invert global = local (1 + drift) + offset - drift * t_ref */
    return (global - m->offset + m->drift * m->t_ref) / (1.0 + m->drift);
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
