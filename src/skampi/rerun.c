/* Crash-surviving reruns and the output files of a series (skampi/rerun.h). */
#include "skampi/rerun.h"

#include "core/error.h"
#include "core/own_coll.h"
#include "skampi/logfile.h"
#include "skampi/output.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The name of output file k of a series: BASE, BASE.1, BASE.2, ... */
static void series_name(char *buf, size_t n, const char *base, int k)
{
    if (k == 0)
        snprintf(buf, n, "%.480s", base);
    else
        snprintf(buf, n, "%.480s.%d", base, k);
}

/* Rank 0: the suites to run after what the log says of an earlier run
 * (finished ones are skipped, the ones that were running at a crash go
 * last), and this run's output file (the crashed run's, or the next free
 * name of the series). */
static void order_from_log(sk_rerun *rr, const sk_config *cfg, const sk_logstate *st)
{
    rr->resume = st->resume;
    if (rr->resume) {
        snprintf(rr->outfile, sizeof rr->outfile, "%s", st->outfile);
    } else {
        for (int k = 0;; k++) { /* a new run gets the next free name */
            series_name(rr->outfile, sizeof rr->outfile, cfg->outfile, k);
            if (access(rr->outfile, F_OK))
                break;
        }
    }
    for (int i = 0; i < cfg->nsuites; i++) {
        const char *nm = cfg->suites[i].name;
        if (!sk_logstate_has(st->done, st->ndone, nm) &&
            !sk_logstate_has(st->crashed, st->ncrashed, nm))
            rr->order[rr->norder++] = i;
    }
    for (int c = 0; c < st->ncrashed; c++)
        for (int i = 0; i < cfg->nsuites; i++)
            if (!strcmp(cfg->suites[i].name, st->crashed[c])) {
                rr->retried[rr->norder] = 1;
                rr->order[rr->norder++] = i;
            }
}

void sk_rerun_plan(sk_rerun *rr, const sk_config *cfg)
{
    int rank, n = cfg->nsuites;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(rr, 0, sizeof *rr);
    rr->order = eb_malloc((size_t)n * sizeof *rr->order);
    rr->retried = eb_calloc((size_t)n, sizeof *rr->retried);
    if (rank == 0) {
        sk_logstate st;
        sk_read_log(cfg->logfile, &st);
        order_from_log(rr, cfg, &st);
        sk_logstate_free(&st);
    }
    eb_own_bcast(&rr->resume, 1, MPI_INT, 0, MPI_COMM_WORLD);
    eb_own_bcast(&rr->norder, 1, MPI_INT, 0, MPI_COMM_WORLD);
    eb_own_bcast(rr->order, n, MPI_INT, 0, MPI_COMM_WORLD);
    eb_own_bcast(rr->retried, n, MPI_INT, 0, MPI_COMM_WORLD);
    eb_own_bcast(rr->outfile, sizeof rr->outfile, MPI_CHAR, 0, MPI_COMM_WORLD);
}

void sk_rerun_open_log(const sk_rerun *rr, const sk_config *cfg)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char msg[EB_ERRLEN], all[EB_ERRLEN];
    const char *local = NULL;
    if (rank == 0 && sk_log_open(cfg->logfile, rr->resume)) {
        snprintf(msg, sizeof msg, "@LOGFILE %.400s: cannot write", cfg->logfile);
        local = msg;
    }
    if (eb_any_error(local, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
}

void sk_rerun_free(sk_rerun *rr)
{
    free(rr->order);
    free(rr->retried);
    rr->order = rr->retried = NULL;
}

FILE *sk_outfile_open(const sk_rerun *rr, const sk_config *cfg, const char *cfgpath,
                      const eb_sysinfo *si)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    FILE *sko = NULL;
    char msg[EB_ERRLEN], all[EB_ERRLEN];
    const char *local = NULL;
    if (rank == 0) {
        int fresh = 1;
        if (rr->resume) {
            char crashed[256] = "";
            int rows = sk_truncate_open_block(rr->outfile, crashed, sizeof crashed);
            if (rows > 0 || crashed[0])
                sk_log("note: removed the unfinished result \"%s\" (%d rows) from %s", crashed,
                       rows > 0 ? rows : 0, rr->outfile);
            fresh = access(rr->outfile, F_OK) != 0;
        }
        sko = fopen(rr->outfile, fresh ? "w" : "a");
        if (!sko) {
            snprintf(msg, sizeof msg, "@OUTFILE %.400s: cannot write", rr->outfile);
            local = msg;
        } else if (fresh) {
            sk_write_header(sko, si->date);
            fprintf(sko, "# configuration %s: @MACHINE %s, @NODE %s, @NETWORK %s, @MPIVERSION %s, "
                         "@USER %s, @MEMORY %ld KB, @CACHEWARMUP %d\n# MPI library: %s\n\n",
                    cfgpath, cfg->machine, cfg->node, cfg->network, cfg->mpiversion, cfg->user,
                    cfg->memory_kb, cfg->cachewarmup, si->mpi_library);
            fflush(sko);
        }
    }
    if (eb_any_error(local, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
    return sko;
}

void sk_postprocess_series(const sk_config *cfg)
{
    char *files[256], name[512];
    int n = 0;
    for (int k = 0; k < 256; k++) {
        series_name(name, sizeof name, cfg->outfile, k);
        if (access(name, F_OK))
            break;
        files[n++] = eb_strdup(name);
    }
    char post[600];
    snprintf(post, sizeof post, "%s.median", cfg->outfile);
    FILE *f = fopen(post, "w");
    char err[EB_ERRLEN];
    if (!f || sk_postprocess(files, n, f, err, sizeof err))
        eb_warn("@POSTPROC: %s", f ? err : "cannot write the median file");
    else
        sk_log("note: @POSTPROC: medians of %d output files in %s", n, post);
    if (f)
        fclose(f);
    for (int i = 0; i < n; i++)
        free(files[i]);
}
