/* mpibenchmark's jobs (ReproMPI's benchmark_job.c): one per MPI call and
 * message size, sizes outer and calls inner, or the lines of an input file
 * ("MPI_CALL MSIZE NREP" each), in a shuffled order with --shuffle-jobs; and
 * its help. */
#include "core/error.h"
#include "reprompi/rp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void rp_usage(FILE *f)
{
    fprintf(f,
            "\nUSAGE: mpibenchmark [options]   (effbench's ReproMPI, docs/reprompi.md)\n"
            "options:\n"
            "%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n"
            "%-40s %s\n%-40s %s\n%-40s %s\n",
            "-h", "print this help",
            "-v", "print the times measured by each process",
            "-f | --input-file=<path>", "input file of jobs, one \"MPI_CALL MSIZE NREP\" a line",
            "--output-file=<path>", "results file (the per-repetition lines)",
            "--msizes-list=<values>", "comma-separated message sizes in bytes",
            "--msize-interval=min=<a>,max=<b>,step=<c>", "sizes 2^a, 2^(a+c), ... 2^b",
            "--pingpong-ranks=<rank1,rank2>", "the two ranks of the ping-pong operations",
            "--root-proc=<process_id>", "root of the rooted collectives (default 0)",
            "--operation=<mpi_op>", "MPI_BOR (default), MPI_BAND, MPI_LOR, MPI_LAND, MPI_MIN, "
            "MPI_MAX, MPI_SUM, MPI_PROD",
            "--datatype=<mpi_type>", "MPI_BYTE (default), MPI_CHAR, MPI_INT, MPI_FLOAT, "
            "MPI_DOUBLE",
            "--shuffle-jobs", "run the jobs in a random order");
    fprintf(f, "%-40s %s\n%-40s %s\n", "--params=<k1>:<v1>,<k2>:<v2>",
            "key:value pairs (checked, not printed, as ReproMPI d40429c)",
            "--calls-list=<args>", "comma-separated calls to measure:");
    fprintf(f, "%-40s ", "");
    for (int c = 0; c < rp_call_count(); c++)
        fprintf(f, "%s%s", rp_call_name(c), c + 1 < rp_call_count() ? ", " : "\n");
    fprintf(f,
            "\nSynchronization options:\n"
            "%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n%-40s %s\n",
            "--proc-sync=<sync>", "MPI_Barrier (default), dissem_barrier, Double_MPI_Barrier, "
            "window, None",
            "--clock-sync=<sync>", "Linear (default), SKaMPI, HCA3, HCA3_2level, None "
            "(core's methods: docs/clock-sync.md)",
            "--exchanges=<n>", "ping-pongs per process of a clock synchronisation (default 10)",
            "--window-size=<win>", "window size in microseconds (default: 1 ms)",
            "--wait-time=<wait>", "wait before the first window in microseconds (default: 1 ms)",
            "--runtime-type=<type>", "local (default: max over the processes' times), global "
            "(max end - min start on the global clock)");
    fprintf(f, "\nPGMPI's guideline mock-ups (measured under the call's name):\n%-40s %s\n",
            "--module=<coll>=alg:<mockup>", "e.g. --module=allreduce=alg:allreduce_as_reduce_bcast");
    for (int k = 0; k < eb_mockup_count(); k++)
        fprintf(f, "%-40s %s\n", k == 0 || strcmp(eb_mockup_at(k)->coll, eb_mockup_at(k - 1)->coll)
                ? eb_mockup_at(k)->coll : "", eb_mockup_at(k)->name);
    fprintf(f,
            "\nSpecific options for the benchmark execution:\n"
            "%-40s %s\n%-40s %s\n"
            "\neffbench's options: --json FILE (JSON Lines), -check (verify the data of one "
            "extra call per job), --row-timeout SECONDS\n\n",
            "--nrep=<nrep>", "set number of experiment repetitions",
            "--summary[=<args>]", "comma-separated summaries (mean, median, min, max, var, "
            "stddev; none named: all)");
}

int rp_read_job_file(const char *path, rp_jobs *j, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return eb_err(err, errlen, "--input-file: cannot open '%s'", path);
    char line[512];
    int lineno = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        char call[128], extra[2];
        long msize, nrep;
        lineno++;
        int n = sscanf(line, "%127s %ld %ld %1s", call, &msize, &nrep, extra);
        if (n <= 0)
            continue; /* a blank line */
        if (n != 3 || msize <= 0 || nrep <= 0)
            rc = eb_err(err, errlen, "%s:%d: not \"MPI_CALL MSIZE NREP\" with positive numbers "
                        "(Incorrectly formatted input file)", path, lineno);
        else if (rp_call_find(call) < 0)
            rc = eb_err(err, errlen, "%s:%d: unknown MPI call '%s'", path, lineno, call);
        else {
            j->jobs = eb_realloc(j->jobs, (size_t)(j->njobs + 1) * sizeof *j->jobs);
            j->jobs[j->njobs++] = (rp_job){.call = rp_call_find(call), .msize = msize,
                                           .nrep = nrep};
        }
    }
    fclose(f);
    if (!rc && j->njobs == 0)
        rc = eb_err(err, errlen, "%s: no jobs (No experiments defined)", path);
    return rc;
}

/* Every rank: rank 0's jobs. */
static void share(rp_jobs *j)
{
    MPI_Bcast(&j->njobs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    long *flat = eb_calloc((size_t)j->njobs * 3 + 1, sizeof *flat);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int k = 0; rank == 0 && k < j->njobs; k++) {
        flat[3 * k] = j->jobs[k].call;
        flat[3 * k + 1] = j->jobs[k].msize;
        flat[3 * k + 2] = j->jobs[k].nrep;
    }
    MPI_Bcast(flat, j->njobs * 3, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank != 0)
        j->jobs = eb_calloc((size_t)j->njobs, sizeof *j->jobs);
    for (int k = 0; k < j->njobs; k++)
        j->jobs[k] = (rp_job){.call = (int)flat[3 * k], .msize = flat[3 * k + 1],
                              .nrep = flat[3 * k + 2]};
    free(flat);
}

/* Rank 0 shuffles (Fisher-Yates, seeded by the time as ReproMPI), all get it. */
static void order(const rp_options *o, rp_jobs *j)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    j->order = eb_calloc((size_t)j->njobs, sizeof *j->order);
    for (int k = 0; k < j->njobs; k++)
        j->order[k] = k;
    if (o->shuffle && rank == 0) {
        srand((unsigned)time(NULL));
        for (int k = j->njobs - 1; k > 0; k--) {
            int r = rand() % (k + 1), t = j->order[k];
            j->order[k] = j->order[r];
            j->order[r] = t;
        }
    }
    MPI_Bcast(j->order, j->njobs, MPI_INT, 0, MPI_COMM_WORLD);
}

void rp_make_jobs(const rp_options *o, rp_jobs *j)
{
    char err[EB_ERRLEN];
    int rank, rc = 0, tsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(j, 0, sizeof *j);
    if (o->input_file) {
        if (rank == 0)
            rc = rp_read_job_file(o->input_file, j, err, sizeof err);
        if (eb_any_error(rc ? err : NULL, err, sizeof err))
            eb_exit_all(EB_EXIT_USAGE, err);
        share(j);
    } else {
        j->jobs = eb_calloc((size_t)o->nmsizes * (size_t)o->ncalls, sizeof *j->jobs);
        for (int s = 0; s < o->nmsizes; s++)
            for (int c = 0; c < o->ncalls; c++)
                j->jobs[j->njobs++] = (rp_job){.call = o->calls[c], .msize = o->msizes[s],
                                               .nrep = o->nrep};
    }
    MPI_Type_size(o->type, &tsize);
    int procs;
    MPI_Comm_size(MPI_COMM_WORLD, &procs);
    for (int k = 0; k < j->njobs; k++) {
        rp_job *jb = &j->jobs[k];
        jb->count = jb->msize / tsize;
        if (jb->count > INT_MAX / procs) { /* a buffer of P blocks must count in an int */
            snprintf(err, sizeof err, "Message size %ld for %s: %ld elements on %d processes "
                     "pass the int counts ReproMPI's calls take", jb->msize,
                     rp_call_name(jb->call), jb->count, procs);
            eb_exit_all(EB_EXIT_USAGE, err);
        }
        if (jb->count * tsize != jb->msize) {
            snprintf(err, sizeof err, "Message size %ld for %s is not a multiple of the datatype "
                     "size (%d)", jb->msize, rp_call_name(jb->call), tsize);
            eb_exit_all(EB_EXIT_USAGE, err);
        }
        if (rp_call_is_pingpong(jb->call) && o->pingpong[0] < 0)
            eb_exit_all(EB_EXIT_USAGE, "the ping-pong operations need --pingpong-ranks=<rank1,"
                        "rank2> (Invalid ping-pong ranks)");
    }
    order(o, j);
}

void rp_jobs_free(rp_jobs *j)
{
    free(j->jobs);
    free(j->order);
}
