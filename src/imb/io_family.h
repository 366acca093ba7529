/* IMB-IO's family: its own options (-filename, --info, --target-cpu-secs),
 * kept in the parsed options (eb_imb_options.family_opts). */
#ifndef EB_IMB_IO_FAMILY_H
#define EB_IMB_IO_FAMILY_H

#include "core/options.h"
#include "imb/io_util.h"

typedef struct {
    const char *filename;  /* IMB_settings_io.h FILENAME */
    const char *info_file; /* --info: hints for every MPI_File_open */
    eb_io_hints hints;
    double cpu_secs;       /* TARGET_CPU_SECS */
} eb_io_options;

/* The IMB-IO settings of a run's options. */
static inline const eb_io_options *eb_io_options_of(const eb_imb_options *o)
{
    return (const eb_io_options *)o->family_opts;
}

#endif
