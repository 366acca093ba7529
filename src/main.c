/* effbench: argv[0] (IMB-MPI1, b_eff, ...) or the first word (effbench mpi1
 * ...) picks the component; the component does everything else. */
#include "core/error.h"
#include "core/expect_placement.h"
#include "core/guard.h"
#include "core/init_time.h"
#include "core/listing.h"
#include "core/nodemap.h"
#include "core/own_coll.h"
#include "core/registry.h"
#include "core/simulate.h"
#include "core/report/jsonl.h"
#include "core/sysinfo.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "effbench %s: MPI benchmarks (IMB, b_eff, b_eff_io, SKaMPI) in one program\n\n"
               "Usage: mpirun -np P effbench COMPONENT [options]\n"
               "       mpirun -np P IMB-MPI1 [options]   (and the other program names)\n\n"
               "Components:\n", EFFBENCH_VERSION);
    for (int i = 0; i < eb_component_count(); i++) {
        const eb_component *c = eb_component_at(i);
        fprintf(f, "  %-10s", c->name);
        for (int a = 0; a < 3 && c->aliases[a]; a++)
            fprintf(f, "%s%s", a ? ", " : "(", c->aliases[a]);
        fprintf(f, "%s %s\n", c->aliases[0] ? ")" : "", c->summary);
    }
    fprintf(f, "\n`effbench --list-json` prints every benchmark of every component as one JSON\n"
               "document (docs/json-lines.md); `effbench --version` the version.\n");
    fprintf(f, "\n`effbench COMPONENT -h` lists a component's options.  Every component also\n"
               "takes --row-timeout SECONDS: a row that takes longer ends the run with a message\n"
               "naming it and the ranks that did not arrive (default: %g times the row's expected\n"
               "time, at least %g s; 0: off), and --expect-placement same-node|different-nodes|\n"
               "same-socket|different-sockets: ranks that are not placed so end the run before\n"
               "it measures, with a message naming them, their hosts and sockets (exit status 2).\n",
               EB_GUARD_FACTOR, EB_GUARD_MIN_TIMEOUT_S);
}

/* The thread level must be known before MPI_Init_thread, so scan for it:
 * -thread_level, else the component's own (osu_latency_mt's threads). */
static int requested_thread_level(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "-thread_level") == 0) {
            int l = eb_thread_level_parse(argv[i + 1]);
            return l >= 0 ? l : MPI_THREAD_SINGLE;
        }
    const char *prog = strrchr(argv[0], '/');
    prog = prog ? prog + 1 : argv[0];
    int skip = !eb_find_component(prog) && argc > 1; /* effbench COMPONENT ... */
    const eb_component *c = eb_find_component(skip ? argv[1] : prog);
    return c && c->thread_level ? c->thread_level(argc - skip, argv + skip) : MPI_THREAD_SINGLE;
}

/* Every rank parses rank 0's command line, so every rank reaches the same
 * verdict on it (IMB: "process 0 reads all command-line arguments and
 * broadcasts them"). */
static char **bcast_argv(int *argc, char **argv)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long len = 0;
    if (rank == 0)
        for (int i = 0; i < *argc; i++)
            len += (long)strlen(argv[i]) + 1;
    eb_own_bcast(argc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    eb_own_bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    char *blob = eb_malloc((size_t)len + 1);
    if (rank == 0) {
        char *p = blob;
        for (int i = 0; i < *argc; i++) {
            size_t n = strlen(argv[i]) + 1;
            memcpy(p, argv[i], n);
            p += n;
        }
    }
    eb_own_bcast(blob, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    char **out = eb_calloc((size_t)*argc + 1, sizeof *out);
    char *p = blob;
    for (int i = 0; i < *argc; i++) {
        out[i] = p;
        p += strlen(p) + 1;
    }
    return out;
}

int main(int argc, char **argv)
{
    int provided, rank;
    eb_guard_block_signals();
    eb_init_time_mark_start(); /* osu_init reports the call's duration */
    MPI_Init_thread(&argc, &argv, requested_thread_level(argc, argv), &provided);
    eb_init_time_mark_end();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* whole lines on stdout: in a job log that mixes stdout and stderr (Slurm's
     * default) no message can split a table row */
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    argv = bcast_argv(&argc, argv);
    eb_set_command_line(argc, argv);
    eb_sim_init(argc, argv);
    eb_world_nodes(); /* collective: every rank knows every rank's node from here on */
    if (eb_registry_error()) /* a build with two benchmarks of one name */
        eb_exit_all(EB_EXIT_USAGE, eb_registry_error());
    char err[EB_ERRLEN];
    if (eb_guard_take_option(&argc, argv, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    if (eb_expect_placement_take_option(&argc, argv, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    eb_expect_placement_check(); /* collective: ranks not where asked end the run here */
    if (!EB_SMPI_BUILD) /* SMPI ranks share one process: no thread may run beside them */
        eb_guard_start();

    const char *prog = strrchr(argv[0], '/');
    prog = prog ? prog + 1 : argv[0];
    const eb_component *c = eb_find_component(prog);
    if (!c && strncmp(prog, "effbench", 8) != 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "this effbench has no component called '%s' "
                 "(run `effbench --help` for the list)", prog);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (!c) {
        if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
            if (rank == 0)
                usage(argc < 2 ? stderr : stdout);
            eb_exit_all(argc < 2 ? EB_EXIT_USAGE : EB_EXIT_OK, NULL);
        }
        if (!strcmp(argv[1], "--list-json")) {
            if (rank == 0)
                eb_listing_print(stdout);
            eb_exit_all(EB_EXIT_OK, NULL);
        }
        if (!strcmp(argv[1], "--version")) {
            if (rank == 0)
                printf("effbench %s\n", EFFBENCH_VERSION);
            eb_exit_all(EB_EXIT_OK, NULL);
        }
        c = eb_find_component(argv[1]);
        if (!c) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown component '%s' (run `effbench --help` for the list)",
                     argv[1]);
            eb_exit_all(EB_EXIT_USAGE, msg);
        }
        if (eb_component_current_name(argv[1]) != argv[1]) /* an old spelling runs as the name */
            argv[1] = (char *)c->name;
        argc--;
        argv++;
    }
    int status = c->main(c, argc, argv);
    eb_exit_all(status, NULL);
}
