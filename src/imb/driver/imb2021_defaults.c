#include "imb/driver/imb2021_defaults.h"

#include "imb/driver/cpu_exploit.h"

#include "core/error.h"
#include "core/own_coll.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "2021" -> 1, "4.0" -> 0, anything else -> -1. */
static int defaults_word(const char *s)
{
    if (strcmp(s, "2021") == 0)
        return 1;
    if (strcmp(s, "4.0") == 0)
        return 0;
    return -1;
}

void eb_imb_defaults_from_env(eb_imb_options *o)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *v = o->imb21.env_defaults;
    size_t cap = sizeof o->imb21.env_defaults;
    memset(v, 0, cap);
    if (rank == 0) {
        const char *e = getenv(EB_IMB_DEFAULTS_ENV);
        if (e && *e) /* a value too long to store is as wrong as any other */
            snprintf(v, cap, "%s", strlen(e) < cap ? e : "(too long)");
    }
    eb_own_bcast(v, (int)cap, MPI_CHAR, 0, MPI_COMM_WORLD);
}

void eb_imb_defaults_prescan(eb_imb_options *o, int argc, char **argv)
{
    int d = o->imb21.env_defaults[0] ? defaults_word(o->imb21.env_defaults) : 0;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--imb-defaults") == 0) {
            d = defaults_word(argv[i + 1]);
            break;
        }
    const eb_imb_family *f = o->family;
    if (d != 1)
        return;
    if (f->iter2021.msgspersample > 0)
        o->iter = f->iter2021;
    if (f->maxmsglog2021 > 0)
        o->msglog_max = f->maxmsglog2021;
}

int eb_imb_defaults_parse(eb_imb_options *o, int argc, char **argv, int *i, char *err,
                          size_t errlen)
{
    const char *a = argv[*i];
    if (strcmp(a, "--imb-defaults") != 0)
        return 0;
    if (o->imb21.defaults_given)
        return eb_err(err, errlen, "--imb-defaults given twice: give it once (2021 or 4.0)");
    if (*i + 1 >= argc)
        return eb_err(err, errlen, "option --imb-defaults needs a value (2021 or 4.0)");
    const char *val = argv[++*i];
    int d = defaults_word(val);
    if (d < 0)
        return eb_err(err, errlen, "--imb-defaults %s: expected 2021 (IMB 2021.11's defaults) "
                      "or 4.0 (the 4.0 guide's, the default)", val);
    o->imb21.defaults2021 = d;
    o->imb21.defaults_given = 1;
    return 1;
}

int eb_imb_defaults_finish(eb_imb_options *o, char *err, size_t errlen)
{
    eb_imb2021 *t = &o->imb21;
    if (t->env_defaults[0]) {
        int d = defaults_word(t->env_defaults);
        if (d < 0) /* wrong even when the command line decides: a job script's mistake */
            return eb_err(err, errlen, "environment variable %s=%s: expected 2021 "
                          "(IMB 2021.11's defaults) or 4.0 (the 4.0 guide's)",
                          EB_IMB_DEFAULTS_ENV, t->env_defaults);
        if (!t->defaults_given)
            t->defaults2021 = d;
    }
    if (!t->defaults2021)
        return 0;
    /* IMB 2021.11's defaults (src_cpp/MPI1/MPI1_suite.cpp and its siblings):
     * root 0, each collective repetition timed on its own with a barrier after
     * it, a warm-up before every length; -imb_barrier, -zero_size keep theirs */
    if (t->root_shift < 0)
        t->root_shift = 0;
    if (t->sync < 0 && !o->sync_window)
        t->sync = 1;
    if (t->warm_up < 0)
        t->warm_up = 1;
    /* the overlap benchmarks' CPU work: IMB 2021.11's own kernel */
    eb_cpu_use_imb2021_kernel();
    return 0;
}

const char *eb_imb_defaults_name(const eb_imb_options *o)
{
    return o->imb21.defaults2021 ? "2021" : "4.0";
}

int eb_imb2021_method(const eb_imb_options *o)
{
    return o->imb21.defaults2021 || (o->family && o->family->imb2021_defaults);
}

const char *eb_imb_methodology(const eb_imb_options *o)
{
    return o->imb21.defaults2021 ? "imb-" EB_IMB2021_VERSION : "imb-4.0";
}

int eb_imb2021_timed_out(const eb_imb_options *o, double t0, MPI_Comm active)
{
    if (!o->imb21.defaults2021)
        return 0;
    int span = o->msglen.n > o->msglog_max - o->msglog_min ? o->msglen.n
                                                           : o->msglog_max - o->msglog_min;
    double limit = (span - 1 > 1 ? span - 1 : 1) * o->iter.secs;
    int mine = MPI_Wtime() - t0 >= limit, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, active);
    return any;
}

int eb_imb_runs_by_default(const eb_imb_options *o, const eb_bench *b)
{
    if (!(b->flags & EB_F_EXPLICIT_ONLY))
        return 1;
    return o->imb21.defaults2021 && (b->flags & EB_F_DEFAULT_2021);
}

double eb_imb_mbyte_per_us(const eb_imb_options *o)
{
    return o->imb21.defaults2021 ? 1.0 : 1.048576;
}
