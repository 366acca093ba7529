/* IMB 2021.11's header lines under --imb-defaults 2021 (imb2021_text.c),
 * used by imb_text.c's header and "# Benchmarking" block. */
#ifndef EB_REPORT_IMB2021_TEXT_H
#define EB_REPORT_IMB2021_TEXT_H

#include "core/sysinfo.h"
#include "imb/driver/bench.h"
#include "imb/driver/options.h"
#include "imb/driver/report/reporter.h"

/* IMB's system lines, both modes' headers: "# Date" to "# MPI Version". */
void eb_imb_print_system_lines(const eb_sysinfo *s);
/* The header of --imb-defaults 2021, up to "# List of Benchmarks to run:"
 * (report/imb2021_text.c). */
void eb_imb2021_print_text_header(const eb_imb_options *o, const eb_sysinfo *s);
/* Its "# Benchmarking NAME" line and the process lines after it (groups, -map). */
void eb_imb2021_print_procs(const eb_imb_options *o, const char *name, int q, int ngroups,
                            const int *ranks);

#endif
