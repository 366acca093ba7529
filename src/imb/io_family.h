/* IMB-IO's family: its own options (-filename, --info, --target-cpu-secs),
 * kept in the parsed options (eb_imb_options.family_opts). */
#ifndef EB_IMB_IO_FAMILY_H
#define EB_IMB_IO_FAMILY_H

#include "imb/driver/bench.h"
#include "imb/driver/options.h"
#include "imb/io_util.h"

typedef struct {
    const char *filename;  /* IMB_settings_io.h FILENAME */
    const char *info_file; /* --info: hints for every MPI_File_open */
    eb_io_hints hints;
    double cpu_secs;       /* --target-cpu-secs; 0: not given (eb_io_target_cpu_secs) */
} eb_io_options;

/* The IMB-IO settings of a run's options. */
static inline const eb_io_options *eb_io_options_of(const eb_imb_options *o)
{
    return (const eb_io_options *)o->family_opts;
}

/* TARGET_CPU_SECS: --target-cpu-secs, else the guide's 0.1 s (IMB_settings_io.h
 * in its listing) or, under --imb-defaults 2021, IMB 2021.11's 0.01 s. */
double eb_io_target_cpu_secs(const eb_imb_options *o);

#endif
