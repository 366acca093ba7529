/* IMB-IO as a family: its IMB_settings_io.h values, its own options and
 * its component.  The benchmarks are io.c's. */
#include "imb/io_family.h"

#include "core/component_names.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/text.h"
#include "imb/driver/cpu_exploit.h"
#include "imb/driver/driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *io_options_new(void)
{
    eb_io_options *io = eb_calloc(1, sizeof *io);
    io->filename = "IMB_out";
    return io;
}

static void io_options_free(void *family_opts)
{
    eb_io_options *io = family_opts;
    if (!io)
        return;
    eb_io_hints_free(&io->hints);
    free(io);
}

static int io_parse_option(eb_imb_options *o, int argc, char **argv, int *i, char *err,
                           size_t errlen)
{
    const char *a = argv[*i];
    int known = !strcmp(a, "-filename") || !strcmp(a, "--info") || !strcmp(a, "--target-cpu-secs");
    if (!known)
        return 0;
    if (*i + 1 >= argc)
        return eb_err(err, errlen, "option %s needs a value", a);
    const char *val = argv[++*i];
    eb_io_options *io = o->family_opts;
    if (!strcmp(a, "-filename")) {
        if (!*val)
            return eb_err(err, errlen, "-filename: empty file name");
        io->filename = val;
    } else if (!strcmp(a, "--info")) {
        char *text = eb_read_file(val, "--info", err, errlen);
        if (!text)
            return -1;
        eb_io_hints_free(&io->hints);
        int rc = eb_io_parse_hints(text, val, &io->hints, err, errlen);
        free(text);
        if (rc)
            return -1;
        io->info_file = val;
    } else {
        char *end;
        errno = 0;
        double s = strtod(val, &end);
        if (end == val || *end || errno || !(s > 0) || s > 100)
            return eb_err(err, errlen, "--target-cpu-secs %s: expected seconds in (0, 100]", val);
        io->cpu_secs = s;
    }
    return 1;
}

double eb_io_target_cpu_secs(const eb_imb_options *o)
{
    double given = eb_io_options_of(o)->cpu_secs;
    return given > 0 ? given : o->imb21.defaults2021 ? 0.01 : 0.1;
}

/* IMB 2021.11 prints the kernel's rate before the first table when an
 * I-flavour is to run (IMB_cpu_exploit's first measurement).  The
 * I-flavours are the benchmarks io.c marks EB_F_AGGR_IN_2021, the rule that
 * only they have (asking io.c instead would make the two call each other). */
static void io_print_after_list2021(const eb_imb_options *o, const eb_bench **list, int n)
{
    (void)o;
    for (int i = 0; i < n; i++)
        if (list[i]->flags & EB_F_AGGR_IN_2021) {
            printf("\n\n# For nonblocking benchmarks:\n\n"
                   "# Function CPU_Exploit obtains an undisturbed\n"
                   "# performance of %7.2f MFlops\n", eb_cpu_mflops());
            return;
        }
}

static void io_print_settings(const eb_imb_options *o)
{
    const eb_io_options *io = eb_io_options_of(o);
    printf("#\n# IMB-IO file: %s (MPI_MODE_CREATE | MPI_MODE_RDWR; _g<group> in multiple mode,\n"
           "# _<rank> for per-process files; deleted at the end)\n", io->filename);
    if (io->hints.n > 0) {
        printf("# File info hints from %s:", io->info_file);
        for (int i = 0; i < io->hints.n; i++)
            printf(" %s=%s", io->hints.key[i], io->hints.value[i]);
        printf("\n");
    } else {
        printf("# File info hints: MPI_INFO_NULL\n");
    }
    printf("# Nonblocking flavours: CPU exploit of TARGET_CPU_SECS %g s per transfer "
           "(%.0f Mflop/s on rank 0)\n", eb_io_target_cpu_secs(o), eb_cpu_mflops());
}

static const eb_imb_family io_family = {
    .component = EB_COMPONENT_IO,
    .program = "IMB-IO",
    .part = "MPI-IO part",
    .text2021 = {.banner_newline_lost = 1},
    .iter2021 = {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100,
                 .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .maxmsglog2021 = 22,
    .iter = {.msgspersample = 50, .overall_vol = 16L * 1048576L, .msgs_nonaggr = 10,
             .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .minmsglog = 0,
    .maxmsglog = 24,
    .parse_option = io_parse_option,
    .options_new = io_options_new,
    .options_free = io_options_free,
    .print_settings = io_print_settings,
    .print_after_list2021 = io_print_after_list2021,
    .help_extra = "IMB-IO options:\n"
                  "  -filename NAME            file name (default IMB_out, current directory)\n"
                  "  --info FILE               MPI_Info hints for every MPI_File_open,\n"
                  "                            one 'key value' per line, # comments\n"
                  "  --target-cpu-secs S       CPU exploit per nonblocking transfer\n"
                  "                            (TARGET_CPU_SECS, default 0.1;\n"
                  "                            0.01 under --imb-defaults 2021)\n",
    .size_label = "io portion",
    .default_npmin = 1, /* IMB-IO runs Q = 1, 2, 4, ..., P */
    .summary = "IMB-IO: MPI-IO benchmarks (S_, P_, C_ Write/Read, I-flavours, Open_Close)",
    .order = 30,
};

EB_CONSTRUCTOR(register_io_family) { eb_register_imb_family(&io_family); }
