#include "imb/driver/report/reporters.h"

#include "imb/driver/report/imb_text.h"
#include "imb/driver/report/imb_jsonl.h"

#include <stdarg.h>
#include <stdio.h>

/* The members: a new output format is one more entry. */
static const eb_reporter *const reporters[] = {&eb_imb_text_reporter, &eb_jsonl_reporter};
#define N_REPORTERS ((int)(sizeof reporters / sizeof reporters[0]))

void eb_report_begin(eb_report_run *run)
{
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->begin)
            reporters[i]->begin(run);
}

void eb_report_header(const eb_report_run *run)
{
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->header)
            reporters[i]->header(run);
}

void eb_report_table_start(const eb_report_run *run, const eb_report_table *t)
{
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->table_start)
            reporters[i]->table_start(run, t);
}

void eb_report_row(const eb_report_run *run, const eb_report_table *t, const eb_row *row)
{
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->row)
            reporters[i]->row(run, t, row);
}

void eb_report_stopped(const eb_report_run *run, size_t bytes, const char *text)
{
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->stopped)
            reporters[i]->stopped(run, bytes, text);
}

void eb_report_note(const eb_report_run *run, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->note)
            reporters[i]->note(run, text);
}

void eb_report_table_end(const eb_report_run *run, const eb_report_table *t)
{
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->table_end)
            reporters[i]->table_end(run, t);
}

void eb_report_footer(const eb_report_run *run)
{
    for (int i = 0; i < N_REPORTERS; i++)
        if (reporters[i]->footer)
            reporters[i]->footer(run);
}
