/* The clock synchronisations in which rank 0 probes every other rank in
 * turn (P-1 sequential rounds): effbench's linear scheme and SKaMPI's. */
#include "core/clock_methods.h"

#include <math.h>

/* Rank 0's half of one linear probe of peer: ping, pong, then the two times. */
static void linear_ref(MPI_Comm comm, int peer)
{
    double t0 = MPI_Wtime(), t_remote;
    MPI_Send(&t0, 1, MPI_DOUBLE, peer, EB_TAG_CLOCK_LINEAR, comm);
    MPI_Recv(&t_remote, 1, MPI_DOUBLE, peer, EB_TAG_CLOCK_LINEAR, comm, MPI_STATUS_IGNORE);
    double t2 = MPI_Wtime(), msg[2] = {t0, t2};
    MPI_Send(msg, 2, MPI_DOUBLE, peer, EB_TAG_CLOCK_LINEAR, comm);
}

void eb_clock_linear(MPI_Comm comm, int rounds, eb_clock_model *m, double *err)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double best_offset = 0, best_rtt = 1e30, t_mid_local = MPI_Wtime();
    for (int peer = 1; peer < size; peer++) {
        MPI_Barrier(comm);
        for (int k = 0; k < rounds; k++) {
            if (rank == 0) {
                linear_ref(comm, peer);
            } else if (rank == peer) {
                double t0, msg[2];
                MPI_Recv(&t0, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_LINEAR, comm, MPI_STATUS_IGNORE);
                double t1 = MPI_Wtime();
                MPI_Send(&t1, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_LINEAR, comm);
                MPI_Recv(msg, 2, MPI_DOUBLE, 0, EB_TAG_CLOCK_LINEAR, comm, MPI_STATUS_IGNORE);
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
    *err = 0.5 * best_rtt;
}

/* SKaMPI's exchange between rank 0 (ref) and one client: a chain of
 * messages, each carrying its sender's clock.  A message of ref's sent at s
 * and received at the client's t bounds the offset o = ref - client from
 * below (o > s - t); one of the client's sent at t and received at ref's s
 * bounds it from above (o < s - t).  Each of ref's messages carries the time
 * it received the client's last one, so the client keeps both bounds; the
 * estimate is the middle of the narrowest interval, its error half the width. */
static void skampi_ref(MPI_Comm comm, int client, int rounds)
{
    double s = MPI_Wtime(), t;
    MPI_Send(&s, 1, MPI_DOUBLE, client, EB_TAG_CLOCK_SKAMPI, comm);
    for (int k = 0; k < rounds; k++) {
        MPI_Recv(&t, 1, MPI_DOUBLE, client, EB_TAG_CLOCK_SKAMPI, comm, MPI_STATUS_IGNORE);
        s = MPI_Wtime();
        MPI_Send(&s, 1, MPI_DOUBLE, client, EB_TAG_CLOCK_SKAMPI, comm);
    }
}

static void skampi_client(MPI_Comm comm, int rounds, double *offset, double *err, double *at)
{
    double s, t_sent = 0, lower = -INFINITY, upper = INFINITY;
    for (int k = 0; k <= rounds; k++) {
        MPI_Recv(&s, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_SKAMPI, comm, MPI_STATUS_IGNORE);
        double t = MPI_Wtime();
        lower = fmax(lower, s - t);
        if (k > 0)
            upper = fmin(upper, s - t_sent);
        if (k < rounds) {
            t_sent = t;
            MPI_Send(&t_sent, 1, MPI_DOUBLE, 0, EB_TAG_CLOCK_SKAMPI, comm);
        }
        *at = t;
    }
    *offset = 0.5 * (lower + upper);
    *err = 0.5 * (upper - lower);
}

void eb_clock_skampi(MPI_Comm comm, int rounds, eb_clock_model *m, double *err)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rounds < 1)
        rounds = 1;
    double offset = 0, at = MPI_Wtime();
    *err = 0;
    for (int peer = 1; peer < size; peer++) {
        if (rank == 0)
            skampi_ref(comm, peer, rounds);
        else if (rank == peer)
            skampi_client(comm, rounds, &offset, err, &at);
    }
    m->offset = offset; /* SKaMPI's model is an offset only */
    m->drift = 0;
    m->t_ref = at;
}
