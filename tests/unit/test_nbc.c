/* IMB-NBC pure parts: the overlap formula at its edges, the CPU-exploit
 * kernel's calibration, and the Reduce_scatter split both families use. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "imb/coll.h"
#include "imb/driver/cpu_exploit.h"
#include "imb/driver/overlap.h"
#include "imb/nbc.h"
#include "unit.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void test_overlap(void)
{
    /* perfect overlap: t_ovrl = max(t_pure, t_CPU) */
    CHECK(NEAR(eb_overlap_percent(10, 10, 10), 100));
    CHECK(NEAR(eb_overlap_percent(10, 4, 10), 100));
    CHECK(NEAR(eb_overlap_percent(4, 10, 10), 100));
    /* none: t_ovrl = t_pure + t_CPU, and worse is clamped to 0 */
    CHECK(NEAR(eb_overlap_percent(10, 10, 20), 0));
    CHECK(NEAR(eb_overlap_percent(10, 10, 35), 0));
    /* faster than perfect (noise) is clamped to 100 */
    CHECK(NEAR(eb_overlap_percent(10, 10, 5), 100));
    /* partial: (10 + 10 - 15) / 10 */
    CHECK(NEAR(eb_overlap_percent(10, 10, 15), 50));
    /* t_CPU > t_pure: divided by the smaller one, t_pure: (4 + 12 - 14) / 4 */
    CHECK(NEAR(eb_overlap_percent(4, 12, 14), 50));
    /* and the other way round: (12 + 4 - 15) / 4 */
    CHECK(NEAR(eb_overlap_percent(12, 4, 15), 25));
    /* nothing to overlap with */
    CHECK(NEAR(eb_overlap_percent(0, 5, 5), 0));
    CHECK(NEAR(eb_overlap_percent(5, 0, 5), 0));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Initialize mode is arithmetic on the rate measured once: passes =
 * target / seconds per pass, rounded, at least 1; checked exactly.  How
 * close the work then comes to the target in time is a figure, printed by
 * bench/cpu_exploit, not a test: on the CI VM the kernel's speed changes up
 * to 2.2x within tens of milliseconds (between the calibration and the run,
 * and between a speed measurement and the run next to it): a 20 % check
 * failed in CI, and 3 times in 30 on the development VM even when held to
 * the speed measured next to the runs.  What is held here is the order of magnitude
 * (a factor 3, the fastest of 7 runs, or the thread CPU time of the fastest
 * when every run was preempted, best of 3 attempts), which catches a wrong
 * unit or a wrong pass count without timing the host. */
static void test_cpu_calibration(double target)
{
    double per_pass = 2.0 * EB_CPU_N * EB_CPU_N / (eb_cpu_mflops() * 1e6);
    eb_cpu_work w = eb_cpu_calibrate(target);
    CHECK(NEAR(w.target, target));
    long expected = target > per_pass ? (long)(target / per_pass + 0.5) : 1;
    CHECK_EQ_LONG(w.passes, expected);
    CHECK_EQ_LONG(eb_cpu_calibrate(target).passes, w.passes); /* measured once */
    if (w.passes == 1)
        return;
    CHECK(fabs((double)w.passes * per_pass - target) <= 0.5 * per_pass);

    double best = INFINITY, wall = 0, cpu = 0;
    for (int attempt = 0; attempt < 3 && best > 3; attempt++) {
        double t[7], c[7];
        for (int k = 0; k < 7; k++) {
            double c0 = thread_cpu_seconds();
            t[k] = eb_cpu_run(&w);
            c[k] = thread_cpu_seconds() - c0;
        }
        qsort(t, 7, sizeof t[0], cmp_double);
        qsort(c, 7, sizeof c[0], cmp_double);
        double t_best = fabs(t[0] - target) < fabs(c[0] - target) ? t[0] : c[0];
        double factor = t_best > target ? t_best / target : target / t_best;
        if (factor < best) {
            best = factor;
            wall = t[0];
            cpu = c[0];
        }
    }
    printf("CPU kernel calibrated to %g ms: %ld passes; fastest run %.3f ms wall, "
           "%.3f ms CPU (a factor %.2f from the target)\n",
           target * 1e3, w.passes, wall * 1e3, cpu * 1e3, best);
    CHECK(best <= 3);
}

static void test_reduce_scatter_split(void)
{
    size_t counts[4], displs[4];
    /* L = 10 on 4: r = 2, s = 2 -> 3 3 2 2 */
    eb_reduce_scatter_split(10, 4, counts, displs);
    CHECK_EQ_LONG(counts[0], 3);
    CHECK_EQ_LONG(counts[1], 3);
    CHECK_EQ_LONG(counts[2], 2);
    CHECK_EQ_LONG(counts[3], 2);
    CHECK_EQ_LONG(displs[0], 0);
    CHECK_EQ_LONG(displs[1], 3);
    CHECK_EQ_LONG(displs[2], 6);
    CHECK_EQ_LONG(displs[3], 8);
    /* fewer items than ranks: 1 1 0 */
    eb_reduce_scatter_split(2, 3, counts, displs);
    CHECK_EQ_LONG(counts[0], 1);
    CHECK_EQ_LONG(counts[1], 1);
    CHECK_EQ_LONG(counts[2], 0);
    CHECK_EQ_LONG(displs[2], 2);
    /* even split */
    eb_reduce_scatter_split(8, 4, counts, displs);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_LONG(counts[i], 2);
    /* past INT_MAX items (MPI-4's _c calls take them): 64-bit counts and offsets */
    eb_reduce_scatter_split((size_t)1 << 32 | 1, 2, counts, displs);
    CHECK_EQ_LONG(counts[0], (1L << 31) + 1);
    CHECK_EQ_LONG(counts[1], 1L << 31);
    CHECK_EQ_LONG(displs[1], (1L << 31) + 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv); /* MPI_Wtime times the kernel */
    test_overlap();
    test_reduce_scatter_split();
    CHECK(eb_cpu_mflops() > 0);
    test_cpu_calibration(0.001);
    test_cpu_calibration(0.010);
    test_cpu_calibration(1e-12); /* below one pass: still one pass */
    /* linear in the target */
    long p1 = eb_cpu_calibrate(0.001).passes, p10 = eb_cpu_calibrate(0.010).passes;
    CHECK(labs(p10 - 10 * p1) <= 5);
    MPI_Finalize();
    UNIT_DONE();
}
