/* IMB-P2P 2021.11's text, line for line (docs/imb-p2p.md, "Output"): the
 * title, the help and list texts, the run header, each benchmark's header,
 * rows and refusal line, the closing line.  Rank 0 prints. */
#include "imbp2p/p2p_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <time.h>

#define RULE "#----------------------------------------------------------------\n"

void p2p_text_title(FILE *f)
{
    fprintf(f, "#------------------------------------------------------------\n"
               "#    Intel(R) MPI Benchmarks %s, IMB-P2P part\n"
               "#------------------------------------------------------------\n",
            P2P_VERSION);
}

#define BOOLS "false | true | 0 | 1 | off | on | disable | enable | no | yes"

/* -help OPTION: IMB's paragraph on one option (the defaults are IMB's, as
 * it prints them before reading the command line).  0 if OPTION has none. */
static int option_help(FILE *f, const char *topic)
{
    const char *t = topic[0] == '-' ? topic + 1 : topic;
    if (!strcasecmp(t, "list"))
        fprintf(f, "#\n# Option: [-list]\n#\n"
                   "# Prints out all the benchmark names available in this IMB build.\n#\n");
    else if (!strcasecmp(t, "iter"))
        fprintf(f, "#\n# Option: [-iter max]\n# Option: [-iter max,numerator]\n#\n"
                   "# Define number of iterations per sample by the rule:\n"
                   "# number_of_iterations = (numerator * 1024 * 1024) / size\n"
                   "# number_of_iterations <= max\n# number_of_iterations >= 1\n"
                   "# Default -iter %d,%ld\n#\n", P2P_DEFAULT_ITER_MAX,
                P2P_DEFAULT_NUMERATOR / (1024 * 1024));
    else if (!strcasecmp(t, "msglen"))
        fprintf(f, "#\n# Option: [-msglen filename]\n#\n"
                   "# The argument after -msglen is a file name.\n"
                   "# The file should be in ASCII encoding and contain set of message length, "
                   "1 per line\n# The following message length suffixes are allowed: K, M, G.\n#\n");
    else if (!strcasecmp(t, "msglog"))
        fprintf(f, "#\n# Option: [-msglog n]\n# Option: [-msglog k:n]\n#\n"
                   "# Defines set of message length:\n# {0, 1, 2, 4, ..., 2^(n-1), 2^n}\n"
                   "# {2^k, 2^(k+1), ..., 2^(n-1), 2^n}\n#\n");
    else if (!strcasecmp(t, "msgsz"))
        fprintf(f, "#\n# Option: [-msgsz size]\n#\n"
                   "# The argument after -msgsz is a size of a message in bytes.\n"
                   "# The following suffixes are allowed: K, M, G.\n#\n"
                   "# Example: -msgsz 4097 -msgsize 5k -msgsize 2m \n#\n");
    else if (!strcasecmp(t, "msgwr"))
        fprintf(f, "#\n# Option: [-msgwr " BOOLS "]\n#\n"
                   "# Enable or disable touch (write) the egress buffer cache lines before send "
                   "a message\n# Default -msgwr true\n#\n");
    else if (!strcasecmp(t, "msgrd"))
        fprintf(f, "#\n# Option: [-msgrd " BOOLS "]\n#\n"
                   "# Enable or disable touch (read) the ingress buffer cache lines after "
                   "receive a message\n# Default -msgrd true\n#\n");
    else if (!strcasecmp(t, "pause"))
        fprintf(f, "#\n# Option: [-pause microseconds]\n#\n"
                   "# The argument after -pause is a microseconds time interval between runs.\n"
                   "# Default -pause %d\n#\n", P2P_DEFAULT_PAUSE_US);
    else
        return 0;
    return 1;
}

void p2p_text_help(FILE *f, const char *topic)
{
    p2p_text_title(f);
    if (topic && option_help(f, topic))
        return;
    fprintf(f, "#\n"
               "# Usage: IMB-P2P [-help]\n"
               "#                [-help option]\n"
               "#                [-list]\n"
               "#                [-iter max]\n"
               "#                [-iter max,numerator]\n"
               "#                [-msglen filename]\n"
               "#                [-msglog n]\n"
               "#                [-msglog k:n]\n"
               "#                [-msgsz size]\n"
               "#                [-msgrd " BOOLS "]\n"
               "#                [-msgwr " BOOLS "]\n"
               "#                [-pause microseconds]\n"
               "#                [benchmark[,benchmark,[...]]]\n"
               "#\n");
    fprintf(f, P2P_EFFBENCH_HELP);
}

void p2p_text_list(FILE *f)
{
    p2p_text_title(f);
    fprintf(f, "# List of Benchmarks to run:\n#\n");
    for (int b = 0; b < p2p_bench_default_count(); b++) /* IMB-P2P's own: its -list */
        fprintf(f, "# %s\n", p2p_bench_at(b)->name);
    fprintf(f, "#\n");
}

void p2p_text_header(FILE *f, const p2p_options *o, int argc, char **argv)
{
    time_t now = time(NULL);
    struct utsname u;
    int version, subversion;
    uname(&u);
    MPI_Get_version(&version, &subversion);
    p2p_text_title(f);
    fprintf(f, "# Date                  : %s", asctime(localtime(&now)));
    fprintf(f, "# Machine               : %s\n# System                : %s\n"
               "# Release               : %s\n# Version               : %s\n",
            u.machine, u.sysname, u.release, u.version);
    fprintf(f, "# MPI Version           : %d.%d\n# MPI Thread Environment:\n#\n"
               "# Calling sequence was:\n#\n#", version, subversion);
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n#\n# List of Benchmarks to run:\n#\n");
    for (int k = 0; k < o->nbenchmarks; k++)
        fprintf(f, "# %s\n", p2p_bench_at(o->benchmarks[k])->name);
    fprintf(f, "#\n# Minimum message length in bytes:   %zu\n"
               "# Maximum message length in bytes:   %zu\n#\n", o->min_size, o->max_size);
    if (o->check)
        fprintf(f, "# CHECK: -check is on: every received byte is verified in an extra,\n"
                   "# untimed step after each length's timed loop; defects are counted in\n"
                   "# the last column.  Timings of a checked run are not for publication.\n#\n");
}

void p2p_text_table(FILE *f, const p2p_bench *b, const p2p_ctx *c, int check)
{
    fprintf(f, "\n" RULE "# Benchmarking %s", b->name);
    if (b->ndims == 2)
        fprintf(f, " (%d x %d)", c->grid[0], c->grid[1]);
    else if (b->ndims == 3)
        fprintf(f, " (%d x %d x %d)", c->grid[0], c->grid[1], c->grid[2]);
    fprintf(f, "\n# #processes = %d\n" RULE, c->nranks);
    fprintf(f, " %12s %12s %12s %12s %12s", "#bytes", "#repetitions", "t[usec]", "Mbytes/sec",
            "Msg/sec");
    if (check)
        fprintf(f, " %12s", "defects");
    fprintf(f, "\n");
}

void p2p_text_invalid(FILE *f, const p2p_bench *b, int nranks)
{
    fprintf(f, "\n");
    fprintf(f, b->invalid_text, b->name, nranks);
    fprintf(f, "\n");
}

void p2p_text_row(FILE *f, const p2p_row *r, int check)
{
    fprintf(f, " %12zu %12ld %12.2f %12.2f %12.0f", r->bytes, r->repetitions, r->t_usec,
            r->mb_per_s, r->messages_per_s);
    if (check)
        fprintf(f, " %12ld", r->defects);
    fprintf(f, "\n");
}

void p2p_text_footer(FILE *f) { fprintf(f, "\n\n# All processes entering MPI_Finalize\n\n"); }
