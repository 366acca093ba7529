/* The run's @LOGFILE (skampi/logfile.h). */
#include "skampi/logfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static FILE *log_file;

int sk_log_open(const char *path, int append)
{
    log_file = fopen(path, append ? "a" : "w");
    return log_file ? 0 : -1;
}

void sk_log(const char *fmt, ...)
{
    if (!log_file)
        return;
    char ts[32];
    time_t now = time(NULL);
    struct tm g;
    gmtime_r(&now, &g);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &g);
    fprintf(log_file, "%s ", ts);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(log_file, fmt, ap);
    va_end(ap);
    fputc('\n', log_file);
    fflush(log_file);
}

void sk_log_close(void)
{
    if (log_file)
        fclose(log_file);
    log_file = NULL;
}
