#include "osu/osu_nbc_compute.h"

#include "core/simulate.h"

/* OSU's chunk (compute_on_host): for every i, x[i] = x[i] + a[i][j] * a[j][i]
 * + y[j] over a 25 x 25 float matrix, in that order of additions (two
 * dependent additions a step), so a chunk takes what OSU's takes, 0.45 us
 * here; one that adds a step's terms first takes 0.29 us, and the chunk's
 * length sets how far the compute overshoots its target (docs/osu/nbc.md). */
#define CHUNK_N 25

static float a[CHUNK_N][CHUNK_N], x[CHUNK_N], y[CHUNK_N];
static int ready;
/* The values do not change the time (OSU's are zeros, in osu_ibarrier 2 and
 * 1): zeros, set at run time so that the compiler cannot fold the work away,
 * and the result goes to this sink, read by nothing */
volatile float osu_nbc_seed, osu_nbc_sink;

static void chunk(void)
{
    if (!ready) {
        for (int i = 0; i < CHUNK_N; i++) {
            x[i] = y[i] = osu_nbc_seed;
            for (int j = 0; j < CHUNK_N; j++)
                a[i][j] = osu_nbc_seed;
        }
        ready = 1;
    }
    for (int i = 0; i < CHUNK_N; i++)
        for (int j = 0; j < CHUNK_N; j++)
            x[i] = x[i] + a[i][j] * a[j][i] + y[j];
    osu_nbc_sink = x[0];
}

/* Chunks until they have taken `seconds` of wall-clock time between them
 * (time spent outside the chunks, e.g. preemption between them, does not
 * count, as in OSU).  In a simulation the target itself, injected as simulated computation:
 * the host's chunks take no simulated time, and MPI_Wtime barely moves between them. */
static void compute_for(double seconds)
{
    if (eb_sim_active()) {
        eb_sim_compute(seconds);
        return;
    }
    double spent = 0;
    while (spent < seconds) {
        double t0 = MPI_Wtime();
        chunk();
        spent += MPI_Wtime() - t0;
    }
}

double osu_nbc_compute(double seconds, int probes, void (*test_call)(void *), void *arg)
{
    if (probes <= 0) {
        compute_for(seconds);
        return 0;
    }
    double test = 0, part = seconds / probes;
    for (int k = 0; k < probes; k++) {
        compute_for(part);
        double t0 = MPI_Wtime();
        test_call(arg);
        test += MPI_Wtime() - t0;
    }
    return test;
}
