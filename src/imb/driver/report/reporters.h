/* The list of reporters of an IMB run (reporter.h is their interface): the
 * IMB text on stdout, then the JSON Lines file.  The driver and the row
 * code report through these calls, never to a reporter by name. */
#ifndef EB_REPORT_REPORTERS_H
#define EB_REPORT_REPORTERS_H

#include "imb/driver/report/reporter.h"

/* Each event to every member of the list, in list order (text, then JSON). */
void eb_report_begin(eb_report_run *run);
void eb_report_header(const eb_report_run *run);
void eb_report_table_start(const eb_report_run *run, const eb_report_table *t);
void eb_report_row(const eb_report_run *run, const eb_report_table *t, const eb_row *row);
void eb_report_stopped(const eb_report_run *run, size_t bytes, const char *text);
void eb_report_note(const eb_report_run *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void eb_report_table_end(const eb_report_run *run, const eb_report_table *t);
void eb_report_footer(const eb_report_run *run);

#endif
