#include "osu/osu_nbc_compute.h"

#include "core/simulate.h"

/* OSU's chunk: one pass over a 25 x 25 float matrix (625 multiply-adds), so
 * the compute overshoots its target by less than a microsecond, as OSU's. */
#define CHUNK_N 25

static float mat[CHUNK_N][CHUNK_N], acc[CHUNK_N], add[CHUNK_N];
static int ready;
/* read by nothing: keeps the compiler from dropping the work */
volatile float osu_nbc_sink;

static void chunk(void)
{
    if (!ready) {
        for (int i = 0; i < CHUNK_N; i++) {
            add[i] = 1.0f / (float)(i + 1);
            for (int j = 0; j < CHUNK_N; j++)
                mat[i][j] = 0.5f;
        }
        ready = 1;
    }
    for (int i = 0; i < CHUNK_N; i++) {
        float s = acc[i] * 0.5f; /* bounded: the values never overflow */
        for (int j = 0; j < CHUNK_N; j++)
            s += mat[i][j] * mat[j][i] + add[j];
        acc[i] = s * 1e-3f;
    }
    osu_nbc_sink = acc[0];
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

double osu_nbc_compute(double seconds, int probes, MPI_Request *req)
{
    if (probes <= 0) {
        compute_for(seconds);
        return 0;
    }
    double test = 0, part = seconds / probes;
    for (int k = 0; k < probes; k++) {
        compute_for(part);
        int flag;
        double t0 = MPI_Wtime();
        MPI_Test(req, &flag, MPI_STATUS_IGNORE);
        test += MPI_Wtime() - t0;
    }
    return test;
}
