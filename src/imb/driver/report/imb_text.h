/* IMB's text output on stdout: header, benchmark blocks, rows, the final
 * line.  Formats follow the IMB user guide and the real IMB output in
 * tests/python/data/samples/imb (13-character right-aligned columns). */
#ifndef EB_REPORT_IMB_TEXT_H
#define EB_REPORT_IMB_TEXT_H

#include "core/sysinfo.h"
#include "imb/driver/bench.h"
#include "imb/driver/options.h"
#include "imb/driver/report/reporter.h"

/* The columns of a row of bench b under the run's options, as printed
 * (terminated by header NULL). -multi 1 adds a leading group column, -check
 * a defects column, -repeat > 1 the loops' loop_min / loop_max / spread,
 * -sync_method window a `valid` column, quick mode loops, loop_min,
 * loop_max, spread, rel_err[%]. */
int eb_imb_columns(const eb_bench *b, const eb_imb_options *o, int multi, eb_column *cols,
                   int max);

void eb_imb_print_header(const eb_imb_options *o, const eb_sysinfo *s,
                         const eb_bench **list, const int *multi, int n);

/* "# Benchmarking NAME" block.  groups: ranks of each group (world ranks),
 * ngroups x q; waiting: processes outside every group. */
void eb_imb_print_block(const eb_bench *b, const char *name, const eb_imb_options *o,
                        int q, int ngroups, const int *group_ranks, int waiting,
                        const char *mode);
void eb_imb_print_table_head(const eb_bench *b, const eb_imb_options *o, int multi);
void eb_imb_print_row(const eb_row *row, const eb_imb_options *o, int multi);
void eb_imb_print_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void eb_imb_print_footer(void);

/* The functions above as a member of the reporter list. */
extern const eb_reporter eb_imb_text_reporter;

#endif
