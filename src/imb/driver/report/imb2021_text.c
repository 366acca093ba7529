/* The header of an IMB run under --imb-defaults 2021, line for line as IMB
 * 2021.11's programs print theirs (src_c/IMB_g_info.c, src_cpp/<X>/<X>_suite.cpp),
 * but naming effbench in the banner (docs/imb.md). */
#include "imb/driver/report/imb2021_text.h"

#include "imb/driver/imb2021_defaults.h"
#include "imb/driver/imb2021_options.h"

#include <stdio.h>
#include <string.h>

static void banner(const eb_imb_options *o)
{
    const char *bar = "#----------------------------------------------------------------";
    const eb_imb_family *f = o->family;
    printf("%s\n#    effbench %s (Intel(R) MPI Benchmarks %s methodology), %s", bar,
           EFFBENCH_VERSION, EB_IMB2021_VERSION, f->part);
    /* IMB-IO 2021.11's format string ends "partn" for "part\n": kept, so that
     * the files have the same lines */
    printf(f->text2021.banner_newline_lost ? "n" : "\n");
    printf("%s\n", bar);
}

void eb_imb_print_system_lines(const eb_sysinfo *s)
{
    printf("# Date                  : %s\n", s->date);
    printf("# Machine               : %s\n", s->machine);
    printf("# System                : %s\n", s->sysname);
    printf("# Release               : %s\n", s->release);
    printf("# Version               : %s\n", s->version);
    printf("# MPI Version           : %d.%d\n", s->mpi_major, s->mpi_minor);
}

/* IMB_general_info(): the system; the thread line stays empty (IMB 2021.11
 * prints the level only when built with USE_MPI_INIT_THREAD, which it is not) */
static void general_info(const eb_sysinfo *s)
{
    eb_imb_print_system_lines(s);
    printf("# MPI Thread Environment: \n");
}

static void lengths(const eb_imb_options *o)
{
    const eb_imb2021_text *t = &o->family->text2021;
    int io = o->family->size_label != NULL;
    if (o->msglen.n > 0) {
        printf("# %s lengths were user defined\n", io ? "IO" : "Message");
        return;
    }
    size_t min = t->min_zero_size && !o->imb21.zero_size ? (size_t)1 << o->msglog_min : 0;
    printf("# Minimum %s in bytes:   %zu\n", io ? "io portion" : "message length", min);
    printf("# Maximum %s in bytes:   %zu\n", io ? "io portion" : "message length",
           (size_t)1 << o->msglog_max);
}

void eb_imb2021_print_text_header(const eb_imb_options *o, const eb_sysinfo *s)
{
    const eb_imb2021_text *t = &o->family->text2021;
    banner(o);
    general_info(s);
    int argc;
    char **argv = eb_command_line(&argc);
    printf("\n\n# Calling sequence was: \n\n#");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("%s\n\n", t->cmd_space ? " " : "");
    lengths(o);
    printf("#\n");
    if (o->family->size_label) {
        printf("#\n#\n");
    } else {
        printf("# MPI_Datatype                   :   %s \n",
               t->typed ? eb_dtype_mpi_name(o->imb21.data_type) : "MPI_BYTE");
        if (t->typed)
            printf("# MPI_Datatype for reductions    :   %s \n",
                   eb_dtype_mpi_name(o->imb21.red_data_type));
        else
            printf("# MPI_Datatype for reductions    :   MPI_FLOAT\n");
        printf("# MPI_Op                         :   MPI_SUM  \n");
        printf(t->close_space ? "# \n# \n" : "#\n#\n");
    }
    printf("\n# List of Benchmarks to run:\n\n");
}

/* IMB_print_array's rows: " %4d" per rank, 16 to a row, each row closed by
 * "\n# ", the whole by "\n" (so a "# " line follows the ranks). */
static void rank_rows(const int *ranks, int n)
{
    for (int r = 0; r < n; r += 16) {
        for (int k = r; k < n && k < r + 16; k++)
            printf(" %4d", ranks[k]);
        printf("\n# ");
    }
    printf("\n");
}

void eb_imb2021_print_procs(const eb_imb_options *o, const char *name, int q, int ngroups,
                            const int *ranks)
{
    /* one group is no multiple mode to IMB: the plain name and process count */
    if (ngroups == 1 && strncmp(name, "Multi-", 6) == 0)
        name += 6;
    printf("# Benchmarking %s \n", name);
    if (ngroups > 1) {
        printf("# ( %d groups of %d processes each running simultaneous ) \n", ngroups, q);
        for (int g = 0; g < ngroups; g++) {
            printf("# Group  %d: ", g);
            rank_rows(ranks + (size_t)g * (size_t)q, q);
        }
    } else if (o->map_p > 0) {
        printf("# #processes = %d; rank order (rowwise): \n", q);
        for (int k = 0; k < q; k += o->map_q) {
            printf("# ");
            rank_rows(ranks + k, k + o->map_q <= q ? o->map_q : q - k);
        }
    } else {
        printf("# #processes = %d \n", q);
    }
}
