/* Hierarchical clock synchronisation (HCA3, after Hunold and Carpen-Amarie,
 * "Hierarchical Clock Synchronization in MPI", CLUSTER 2018): in O(log P)
 * rounds of a binomial tree every process learns a linear model (offset and
 * drift) of the reference clock from its parent, which already has one.
 * Also the two-level variant: HCA3 over one leader per node, then HCA3
 * inside every node from its leader.  docs/clock-sync.md. */
#include "core/clock_methods.h"

#include "core/error.h"
#include "core/nodemap.h"

#include <stdlib.h>

/* The parent's side of one fit point: `n` answers, each its global time and
 * its own uncertainty, to the child's pings. */
static void hca_answer(MPI_Comm comm, int child, int n, const eb_clock_model *m, double my_err)
{
    for (int k = 0; k < n; k++) {
        double t;
        MPI_Recv(&t, 1, MPI_DOUBLE, child, EB_TAG_CLOCK_HCA, comm, MPI_STATUS_IGNORE);
        double r[2] = {eb_clock_to_global(m, MPI_Wtime()), my_err};
        MPI_Send(r, 2, MPI_DOUBLE, child, EB_TAG_CLOCK_HCA, comm);
    }
}

/* The child's side: n pings; of the one with the shortest round trip, x is
 * the middle of the round trip on the local clock and y the parent's global
 * time then minus x. */
typedef struct {
    double x, y, rtt, parent_err;
} hca_point;

static hca_point hca_ping(MPI_Comm comm, int parent, int n)
{
    hca_point p = {.rtt = 1e30};
    for (int k = 0; k < n; k++) {
        double t0 = MPI_Wtime(), r[2];
        MPI_Send(&t0, 1, MPI_DOUBLE, parent, EB_TAG_CLOCK_HCA, comm);
        MPI_Recv(r, 2, MPI_DOUBLE, parent, EB_TAG_CLOCK_HCA, comm, MPI_STATUS_IGNORE);
        double t2 = MPI_Wtime();
        if (t2 - t0 < p.rtt) {
            p.rtt = t2 - t0;
            p.x = 0.5 * (t0 + t2);
            p.y = r[0] - p.x;
            p.parent_err = r[1];
        }
    }
    return p;
}

/* Least squares y = a + b (x - mean x) over n points. */
static double fit_slope(const double *x, const double *y, int n)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    for (int i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

/* One pair: `fit` points give the drift (the slope of the fit), one more
 * point the offset at its time (HCA3 measures the intercept again after the
 * fit).  The child's uncertainty is its parent's plus half its round trip. */
static void hca_learn(MPI_Comm comm, int parent, int child, int rounds, int fit, eb_clock_model *m,
                      double *err)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == parent) {
        for (int j = 0; j <= fit; j++)
            hca_answer(comm, child, rounds, m, *err);
        return;
    }
    double *x = eb_malloc((size_t)fit * sizeof *x), *y = eb_malloc((size_t)fit * sizeof *y);
    for (int j = 0; j < fit; j++) {
        hca_point p = hca_ping(comm, parent, rounds);
        x[j] = p.x;
        y[j] = p.y;
    }
    hca_point last = hca_ping(comm, parent, rounds);
    m->drift = fit > 1 ? fit_slope(x, y, fit) : 0;
    m->offset = last.y;
    m->t_ref = last.x;
    *err = last.parent_err + 0.5 * last.rtt;
    free(x);
    free(y);
}

/* HCA3's tree over comm from its rank 0, whose model (and err) stays as it
 * is: with Q the largest power of two <= P, rounds for step Q/2, Q/4, .., 1
 * in which every rank r < Q with r % 2step == 0 teaches r + step; then every
 * rank r >= Q learns from r - Q. */
static void hca3_tree(MPI_Comm comm, int rounds, int fit, eb_clock_model *m, double *err)
{
    int rank, size, q = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    while (2 * q <= size)
        q *= 2;
    for (int step = q / 2; step >= 1 && rank < q; step /= 2) {
        if (rank % (2 * step) == 0)
            hca_learn(comm, rank, rank + step, rounds, fit, m, err);
        else if (rank % (2 * step) == step)
            hca_learn(comm, rank - step, rank, rounds, fit, m, err);
    }
    if (rank >= q)
        hca_learn(comm, rank - q, rank, rounds, fit, m, err);
    else if (rank < size - q)
        hca_learn(comm, rank, rank + q, rounds, fit, m, err);
}

static void identity(eb_clock_model *m, double *err)
{
    m->offset = 0;
    m->drift = 0;
    m->t_ref = MPI_Wtime();
    *err = 0;
}

static int fitpoints(const eb_clock_model *m)
{
    return m->fitpoints > 0 ? m->fitpoints : EB_CLOCK_FITPOINTS;
}

void eb_clock_hca3(MPI_Comm comm, int rounds, eb_clock_model *m, double *err)
{
    identity(m, err);
    hca3_tree(comm, rounds > 0 ? rounds : 1, fitpoints(m), m, err);
}

/* Leaders: the lowest rank of every node (core/nodemap.h), so comm's rank 0
 * leads its node and is rank 0 of the leaders too. */
void eb_clock_hca3_2level(MPI_Comm comm, int rounds, eb_clock_model *m, double *err)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    eb_nodemap nm;
    eb_nodemap_build(&nm, comm);
    int node = nm.node_of[rank], leads = nm.leader[node] == rank;
    eb_nodemap_free(&nm);
    MPI_Comm leaders, local;
    MPI_Comm_split(comm, leads ? 0 : MPI_UNDEFINED, rank, &leaders);
    MPI_Comm_split(comm, node, rank, &local);
    identity(m, err);
    if (rounds < 1)
        rounds = 1;
    if (leads) {
        hca3_tree(leaders, rounds, fitpoints(m), m, err);
        MPI_Comm_free(&leaders);
    }
    hca3_tree(local, rounds, fitpoints(m), m, err);
    MPI_Comm_free(&local);
}
