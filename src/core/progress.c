/* The progress line of long runs (see progress.h and docs/beff.md). */
#include "core/progress.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define EB_PROGRESS_EVERY_S 0.25 /* a terminal needs no more redraws */

int eb_progress_wanted(int force)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank == 0 && (force || isatty(STDERR_FILENO));
}

void eb_progress_start(eb_progress *p, const char *name, double total, int force)
{
    memset(p, 0, sizeof *p);
    p->on = eb_progress_wanted(force);
    p->name = name;
    p->total = total;
    p->t0 = MPI_Wtime();
    p->shown = -1;
    p->out = stderr;
    p->width = 0;
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (p->on && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
        p->width = ws.ws_col - 1; /* a wrapped line could not be redrawn in place */
#endif
}

static void fmt_seconds(char *buf, size_t n, double s)
{
    long v = (long)(s + 0.5);
    if (v < 100)
        snprintf(buf, n, "%ld s", v);
    else if (v < 3600)
        snprintf(buf, n, "%ld min %02ld s", v / 60, v % 60);
    else
        snprintf(buf, n, "%ld h %02ld min", v / 3600, v / 60 % 60);
}

void eb_progress_format(char *buf, size_t n, const char *name, double done, double total,
                        double elapsed_s, const char *where)
{
    double frac = total > 0 ? done / total : 1;
    if (frac > 1)
        frac = 1;
    char el[32], left[32];
    fmt_seconds(el, sizeof el, elapsed_s);
    /* the rate so far, over the work still to do */
    fmt_seconds(left, sizeof left, done > 0 ? elapsed_s * (total - done) / done : 0);
    snprintf(buf, n, "%s: %3.0f%% done, %s elapsed, about %s left (%s)", name, 100 * frac, el,
             done >= total ? "0 s" : left, where);
}

void eb_progress_add(eb_progress *p, double units, const char *where)
{
    p->done += units;
    if (!p->on)
        return;
    double now = MPI_Wtime();
    if (p->shown >= 0 && now - p->shown < EB_PROGRESS_EVERY_S && p->done < p->total)
        return;
    p->shown = now;
    char line[256];
    eb_progress_format(line, sizeof line, p->name, p->done, p->total, now - p->t0, where);
    if (p->width > 0 && strlen(line) > (size_t)p->width)
        line[p->width] = 0;
    /* "\033[K" erases what a longer line left; the cursor waits at the
     * start, so a message in between overwrites the line */
    fprintf(p->out, "\r%s\033[K\r", line);
    fflush(p->out);
}

void eb_progress_end(eb_progress *p)
{
    if (p->on && p->shown >= 0) {
        fprintf(p->out, "\033[K");
        fflush(p->out);
    }
    p->shown = -1;
}
