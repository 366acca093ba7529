/* b_eff_io's run model: the options and every measured value of one run,
 * shared by the measurement (beff_io.c, beff_io_pattern.c), --resume and the
 * reporters (beff_io_report.c). */
#ifndef EB_BEFF_IO_RUN_H
#define EB_BEFF_IO_RUN_H

#include "beffio/beff_io_plan.h"
#include "core/progress.h"
#include "core/sysinfo.h"

#include <mpi.h>

typedef struct {
    long long l, L;       /* chunk on disk, bytes per call (per process) */
    int U;
    double sched_s;       /* scheduled time, 0 when not time-driven */
    long long reps;       /* calls per process */
    long long bytes;      /* moved by all processes */
    double t;             /* pattern time (first barrier .. after sync/barrier), max over procs */
    double t_io, t_check, t_sync; /* parts of t, max over procs */
    int batches;          /* termination checks (time-driven patterns) */
} bio_pat_res;

typedef struct {
    int ran;
    int npat;
    bio_pat_res pat[BIO_MAX_PAT];
    double t, t_open, t_close; /* open .. close, max over processes */
    long long bytes;
    double bw;                 /* MB/s (1e6 bytes/s) */
    long long errors;          /* failed calls + wrong words read or read back, all processes */
    long long verified_bytes;  /* --check, writes: bytes read back after close, all processes;
                                  -1 when not read back */
    char file[80];             /* file name without directory */
} bio_type_res;

typedef struct {
    int n;                     /* processes: ranks 0..n-1 of MPI_COMM_WORLD */
    int kept;                  /* --resume: complete in the file, not measured again */
    MPI_Comm comm;             /* MPI_COMM_NULL on ranks outside */
    int failed;
    bio_type_res res[BIO_NACCESS][BIO_NTYPES];
    long long rep[BIO_NTYPES][BIO_MAX_PAT]; /* write repeats, all members */
    long long rep34[BIO_MAX_PAT], lseg, filler;
    double method[BIO_NACCESS], value, rel21;
    long long method_bytes[BIO_NACCESS];
    double method_time[BIO_NACCESS];
    long long errors;
} bio_part;

typedef struct {
    /* options */
    double T;
    int nparts, parts[BIO_MAX_PARTS];
    const char *path, *hints_path, *json_path;
    int resume;                /* --resume: json_path is a file to continue */
    bio_hint hints[BIO_MAX_HINTS];
    int nhints;
    double fs_cache_mib;       /* 0: not stated */
    int rewrite0, keep, check;
    int progress_forced;       /* --progress: the progress line also off a terminal */
    long long mem_mib;         /* memory per process, MiB */
    int mem_detected;
    long long mem_total_mib;   /* total memory MT, MiB (default mem_mib * P) */
    int mem_total_given;       /* --mem-total */
    /* derived */
    int P;
    long long mpart;
    bio_type_table tab[BIO_NTYPES];
    char prefix[32];
    bio_part part[BIO_MAX_PARTS];
    double b_eff_io, rel21;
    int best;                  /* partition index of the maximum */
    int best21;                /* the same for release 2.1's formula (its own maximum) */
    double elapsed;
    long long errors;
    eb_progress progress;      /* units: the patterns' time units U (docs/beff-io.md) */
    eb_sysinfo si;
    /* Rank 0: the hints of the pattern type run last, as MPI_File_get_info
     * reported them after its open; the reporters print them right after.
     * hint_found[h] is 0 when the library did not report hint h. */
    int hint_found[BIO_MAX_HINTS];
    char hint_used[BIO_MAX_HINTS][256];
} bio_run;

#endif
