/* mpibenchmark's text (ReproMPI's bench_info_output.c and results_output.c):
 * the "#@key=value" settings, the table of one run-time per repetition (with
 * the window's error code), the summary table (--summary) and -v's start and
 * end times of every process.  The run-time of a repetition
 * (runtimes_computation.c): local, the largest of the processes' end - start;
 * global, the latest end minus the earliest start on the global clock.  The
 * summary is over the repetitions without an error code: GSL's mean, median
 * (the mean of the middle two of an even count), min, max, the sample variance
 * (n - 1) and its square root. */
#include "core/error.h"
#include "reprompi/rp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The ReproMPI source whose method and text effbench follows. */
#define RP_FOLLOWS "d40429c283ca80d541a583f44fcb67901a13086f"
#define RP_CHUNK 3000 /* -v gathers this many repetitions at a time, as ReproMPI */

void rp_print_settings(FILE *f, const rp_options *o, int procs)
{
    MPI_Aint lb, extent;
    int size;
    MPI_Type_get_extent(o->type, &lb, &extent);
    MPI_Type_size(o->type, &size);
    if (!o->input_file) {
        fprintf(f, "#MPI calls:\n");
        for (int k = 0; k < o->ncalls; k++)
            fprintf(f, "#\t%s\n", rp_call_name(o->calls[k]));
        fprintf(f, "#Message sizes:\n");
        for (int k = 0; k < o->nmsizes; k++)
            fprintf(f, "#\t%ld\n", o->msizes[k]);
    }
    fprintf(f, "#@operation=%s\n#@datatype=%s\n#@datatype_extent_bytes=%ld\n"
            "#@datatype_size_bytes=%d\n#@root_proc=%d\n",
            o->op_name, o->type_name, (long)extent, size, o->root);
    if (o->shuffle)
        fprintf(f, "#@job_shuffling_enabled=1\n");
    if (o->pingpong[0] >= 0)
        fprintf(f, "#@pingpong_ranks=%d,%d\n", o->pingpong[0], o->pingpong[1]);
    fprintf(f, "#@reproMPIcommitSHA1=%s\n#@nprocs=%d\n#@clock=MPI_Wtime\n#@clock_tick=%1.10f\n",
            RP_FOLLOWS, procs, MPI_Wtick());
    fprintf(f, "#@clocksync=%s\n#@procsync=%s\n", rp_clock_sync_name(o),
            rp_proc_sync_name(o->proc_sync));
    if (o->proc_sync == RP_SYNC_WINDOW)
        fprintf(f, "#@window_s=%.10f\n#@wait_time_s=%.10f\n", o->window_s, o->wait_s);
    for (int c = 0; c < rp_call_count(); c++) /* effbench's: the mock-ups measured */
        if (o->module[c])
            fprintf(f, "#@pgmpi_module=%s:%s\n", rp_call_name(c), o->module[c]->name);
    fprintf(f, "#@runtime_type=%s\n", o->runtime == RP_RUNTIME_GLOBAL ? "global" : "local");
    if (o->nrep > 0)
        fprintf(f, "#@nrep=%ld\n", o->nrep);
}

/* The summary's header goes to stdout; the repetitions' header where the
 * repetitions go (the output file, or stdout without a summary). */
void rp_print_header(const rp_options *o, FILE *out)
{
    if (o->summary) {
        printf("%50s %12s %10s %10s ", "test", "count", "total_nrep", "valid_nrep");
        for (int k = 0; k < RP_NSUM; k++)
            if (o->summary & (1 << k))
                printf("%10s_sec ", rp_summary_names[k]);
        printf("\n");
    }
    if (!out)
        return;
    if (o->verbose)
        fprintf(out, "process ");
    if (o->proc_sync == RP_SYNC_WINDOW)
        fprintf(out, "%50s %10s %12s %10s ", "test", "nrep", "count", "errorcode");
    else
        fprintf(out, "%50s %10s %12s ", "test", "nrep", "count");
    if (o->verbose && o->clock_sync != RP_CLOCK_NONE)
        fprintf(out, "%14s %14s %14s %14s \n", "loc_tstart_sec", "loc_tend_sec", "gl_tstart_sec",
                "gl_tend_sec");
    else if (o->verbose)
        fprintf(out, "%14s %14s \n", "loc_tstart_sec", "loc_tend_sec");
    else
        fprintf(out, "%14s \n", "runtime_sec");
}

void rp_runtimes(const rp_options *o, const rp_sync *s, const double *t0, const double *t1,
                 long nrep, double *runtime, int *codes)
{
    int n = (int)nrep;
    double *a = eb_calloc((size_t)nrep + 1, sizeof *a), *b = eb_calloc((size_t)nrep + 1, sizeof *b);
    double *mins = eb_calloc((size_t)nrep + 1, sizeof *mins);
    if (o->runtime == RP_RUNTIME_LOCAL) {
        for (long i = 0; i < nrep; i++)
            a[i] = t1[i] - t0[i];
        MPI_Reduce(a, runtime, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    } else {
        for (long i = 0; i < nrep; i++) {
            a[i] = rp_sync_global(s, t0[i]);
            b[i] = rp_sync_global(s, t1[i]);
        }
        MPI_Reduce(a, mins, n, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(b, runtime, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        for (long i = 0; i < nrep; i++)
            runtime[i] -= mins[i];
    }
    memset(codes, 0, (size_t)nrep * sizeof *codes);
    if (o->proc_sync == RP_SYNC_WINDOW)
        MPI_Reduce(s->flags, codes, n, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    free(a);
    free(b);
    free(mins);
}

void rp_print_reps(FILE *f, const rp_options *o, const rp_job *jb, const double *runtime,
                   const int *codes)
{
    const char *name = rp_call_name(jb->call);
    for (long i = 0; i < jb->nrep; i++) {
        if (o->proc_sync == RP_SYNC_WINDOW)
            fprintf(f, "%50s %10ld %12ld %10d %14.10f\n", name, i, jb->count, codes[i],
                    runtime[i]);
        else
            fprintf(f, "%50s %10ld %12ld %14.10f\n", name, i, jb->count, runtime[i]);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

long rp_valid(double *rt, const int *codes, long nrep, int window)
{
    long n = 0;
    for (long i = 0; i < nrep; i++)
        if (!window || codes[i] == 0)
            rt[n++] = rt[i];
    qsort(rt, (size_t)n, sizeof *rt, cmp_double);
    return n;
}

/* GSL's running mean and variance (gsl_stats_mean, gsl_stats_variance). */
void rp_summary_values(double *rt, long n, double v[RP_NSUM])
{
    double mean = 0, var = 0;
    for (long i = 0; i < n; i++)
        mean += (rt[i] - mean) / (double)(i + 1);
    for (long i = 0; i < n; i++) {
        double d = rt[i] - mean;
        var += (d * d - var) / (double)(i + 1);
    }
    var = n > 1 ? var * ((double)n / (double)(n - 1)) : n == 1 ? NAN : 0;
    v[0] = mean;
    v[1] = n == 0 ? 0 : n % 2 ? rt[n / 2] : (rt[n / 2 - 1] + rt[n / 2]) / 2;
    v[2] = n ? rt[0] : 0;
    v[3] = n ? rt[n - 1] : 0;
    v[4] = var;
    v[5] = n ? sqrt(var) : 0;
}

void rp_print_summary(FILE *f, const rp_options *o, const rp_job *jb, long valid,
                      const double v[RP_NSUM])
{
    fprintf(f, "%50s %12ld %10ld %10ld ", rp_call_name(jb->call), jb->count, jb->nrep, valid);
    for (int k = 0; k < RP_NSUM; k++)
        if (o->summary & (1 << k))
            fprintf(f, "  %.10f ", v[k]);
    fprintf(f, "\n");
}

/* One chunk of -v's lines: rank 0 prints every process's repetitions. */
static void verbose_chunk(FILE *f, const rp_options *o, const rp_job *jb, long first, int n,
                          double *const loc[2], double *const gl[2], const int *codes)
{
    int rank, procs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    size_t all = (size_t)n * (size_t)procs + 1;
    double *g[4] = {NULL, NULL, NULL, NULL};
    int *gc = rank == 0 ? eb_calloc(all, sizeof *gc) : NULL;
    for (int k = 0; k < 4; k++) {
        g[k] = rank == 0 ? eb_calloc(all, sizeof *g[k]) : NULL;
        const double *src = k < 2 ? loc[k] + first : gl[k - 2] + first;
        MPI_Gather(src, n, MPI_DOUBLE, g[k], n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    MPI_Gather(codes + first, n, MPI_INT, gc, n, MPI_INT, 0, MPI_COMM_WORLD);
    const char *name = rp_call_name(jb->call);
    for (int p = 0; rank == 0 && p < procs; p++)
        for (int i = 0; i < n; i++) {
            size_t at = (size_t)p * (size_t)n + (size_t)i;
            fprintf(f, "%7d %50s %10ld %12ld ", p, name, first + i, jb->count);
            if (o->proc_sync == RP_SYNC_WINDOW)
                fprintf(f, "%10d ", gc[at]);
            if (o->clock_sync != RP_CLOCK_NONE)
                fprintf(f, "%14.10f %14.10f %14.10f %14.10f\n", g[0][at], g[1][at], g[2][at],
                        g[3][at]);
            else
                fprintf(f, "%14.10f %14.10f\n", g[0][at], g[1][at]);
        }
    for (int k = 0; k < 4; k++)
        free(g[k]);
    free(gc);
}

void rp_print_verbose(FILE *f, const rp_options *o, const rp_sync *s, const rp_job *jb,
                      const double *t0, const double *t1)
{
    size_t n = (size_t)jb->nrep + 1;
    double *g0 = eb_calloc(n, sizeof *g0), *g1 = eb_calloc(n, sizeof *g1);
    for (long i = 0; i < jb->nrep; i++) {
        g0[i] = rp_sync_global(s, t0[i]);
        g1[i] = rp_sync_global(s, t1[i]);
    }
    double *loc[2] = {(double *)t0, (double *)t1}, *gl[2] = {g0, g1};
    for (long first = 0; first < jb->nrep; first += RP_CHUNK) {
        long left = jb->nrep - first;
        verbose_chunk(f, o, jb, first, (int)(left < RP_CHUNK ? left : RP_CHUNK), loc, gl,
                      s->flags);
    }
    free(g0);
    free(g1);
}
