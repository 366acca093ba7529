/* OSU 7.4's command line run: OSU's defaults, effbench's own options taken
 * out, getopt_long over the program's letters (the table of osu_options.c
 * gives each its long name and parser), the positional buffer letters, and
 * -h's text. */
#define _GNU_SOURCE /* getopt_long: OSU parses with it, so its quirks are OSU's */
#include "osu/osu_options.h"

#include "core/error.h"
#include "osu/osu_accel.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The letters of OSU's getopt string, and the long options among them. */
static int in_optstring(const char *s, int c)
{
    for (; *s; s++)
        if (*s == c && *s != ':' && *s != '+')
            return 1;
    return 0;
}

static void osu_defaults(const osu_prog *p, osu_options *o)
{
    memset(o, 0, sizeof *o);
    o->min_size = p->default_min_size;
    o->max_size = p->default_max_size ? p->default_max_size
                  : p->bench == OSU_COLLECTIVE ? (size_t)1 << 20 : (size_t)1 << 22;
    o->iterations = p->loops.iterations;
    o->skip = p->loops.skip;
    o->iterations_large = p->loops.iterations_large;
    o->skip_large = p->loops.skip_large;
    o->window_size = 64;
    o->print_rate = 1;
    o->warmup_validation = 5;
    o->mem_limit = (size_t)512 << 20;
    o->nhbr_dim = 1;
    o->nhbr_rad = 1;
    o->ddt_block = 4;
    o->ddt_stride = 8;
    o->senders = p->threads ? -1 : 2; /* osu_latency_mt: 1 sender thread, unless -t S:R */
    o->receivers = 2;
    o->win = (osu_win)p->default_win;
    o->sync = (osu_sync)p->default_sync;
}

/* effbench's own options out of argv (in place): -check, --json FILE,
 * --resume FILE.  Returns the new argc, or -1 with err. */
static int take_effbench_options(osu_options *o, int argc, char **argv, int *check, char *err,
                                 size_t n)
{
    int out = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-check") || !strcmp(a, "--check")) {
            *check = 1;
        } else if (!strcmp(a, "--stage-through-host")) {
            o->stage = 1;
        } else if (!strcmp(a, "--json") || !strcmp(a, "--resume")) {
            if (i + 1 >= argc)
                return eb_err(err, n, "%s needs a file name", a);
            o->json_path = argv[++i];
            o->resume = a[2] == 'r';
        } else if (!strncmp(a, "--json=", 7) || !strncmp(a, "--resume=", 9)) {
            o->resume = a[2] == 'r';
            o->json_path = strchr(a, '=') + 1;
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    return out;
}

/* Positional buffer arguments.  OSU 7.4 built without accelerators reads
 * them only after -d, so "D D" or "M M" alone runs on host buffers there:
 * ReFrame's hpctestlib check runs `osu_bw ... -c D D` on CPU partitions and
 * expects Pass.  effbench takes them alike and keeps what was typed in
 * o->buffers_asked (the run record and a note on stderr say so).  With -d
 * they say where the buffers are (osu_accel_letters): H, D, M, MH. */
static int buffer_args(const osu_prog *p, osu_options *o, int argc, char **argv, int first,
                       char *err, size_t n)
{
    int buffer_type = argc > first && strlen(argv[first]) <= 2 && strchr("HDM", argv[first][0]);
    if (argc > first && !buffer_type)
        return eb_err(err, n, "unexpected argument '%s': OSU stops reading options there and "
                      "ignores the rest (an optional value is attached: -z50,99, -clog)",
                      argv[first]);
    if (argc - first != 0 && argc - first != 2)
        return eb_err(err, n, "buffer types come as a pair (e.g. H H), not '%s' alone",
                      argv[first]);
    const char *a = argc - first == 2 ? argv[first] : NULL, *b = a ? argv[first + 1] : NULL;
    if (o->accel)
        return osu_accel_letters(p, o, a, b, err, n);
    for (int i = first; i < argc; i++)
        if (strcmp(argv[i], "H") && strcmp(argv[i], "D") && strcmp(argv[i], "M"))
            return eb_err(err, n, "unknown buffer type '%s' (H host, D device, M managed)",
                          argv[i]);
    if (a)
        snprintf(o->buffers_asked, sizeof o->buffers_asked, "%s %s", a, b);
    return osu_accel_letters(p, o, NULL, NULL, err, n);
}

int osu_parse(const osu_prog *p, osu_options *o, int argc, char **argv, char *err, size_t n)
{
    osu_defaults(p, o);
    char **av = eb_calloc((size_t)argc + 1, sizeof *av);
    memcpy(av, argv, (size_t)argc * sizeof *av);
    int check = 0;
    int ac = take_effbench_options(o, argc, av, &check, err, n);
    if (ac < 0) {
        free(av);
        return OSU_PARSE_ERROR;
    }
    /* the program's letters, plus the accelerator ones for a clear refusal */
    char optstring[96];
    snprintf(optstring, sizeof optstring, "%s%s", p->optstring,
             strchr(p->optstring, 'd') ? "" : "d:r:");
    struct option *longs = eb_calloc((size_t)osu_letter_count() + 1, sizeof *longs);
    for (int i = 0, nl = 0; i < osu_letter_count(); i++) {
        const osu_letter *l = osu_letter_at(i);
        if (in_optstring(optstring, l->c))
            longs[nl++] = (struct option){l->name, l->arg, NULL, l->c};
    }
    optind = 0; /* glibc: a full re-initialisation */
    opterr = 0;
    int c, status = OSU_PARSE_RUN;
    while (status == OSU_PARSE_RUN && (c = getopt_long(ac, av, optstring, longs, NULL)) != -1) {
        if (c == ':')
            status = eb_err(err, n, "Option Missing Required Argument [-%c]", optopt);
        else if (c == '?')
            status = optopt ? eb_err(err, n, "Invalid option [-%c]", optopt)
                            : eb_err(err, n, "Invalid option [%s]", av[optind - 1]);
        else
            status = osu_take(p, o, c, optarg, err, n);
    }
    if (status == OSU_PARSE_RUN && buffer_args(p, o, ac, av, optind, err, n))
        status = OSU_PARSE_ERROR;
    if (status == OSU_PARSE_RUN && o->min_size > o->max_size)
        status = eb_err(err, n, "Invalid Message Size: minimum %zu above maximum %zu [-m]",
                        o->min_size, o->max_size);
    if (!o->ndtypes)
        o->dtypes[o->ndtypes++] = MPI_CHAR;
    o->validate |= check;
    if (!o->validate)
        o->warmup_validation = 0;
    free(longs);
    free(av);
    return status;
}

void osu_print_help(const osu_prog *p, FILE *f)
{
    if (p->usage)
        fputs(p->usage, f);
    else
        fprintf(f, "Usage: %s [options]\nOptions:\n", p->name);
    for (const char *s = p->optstring; *s; s++) {
        if (*s == ':' || *s == '+')
            continue;
        const osu_letter *l = osu_letter_of(*s);
        if (l)
            fprintf(f, "  -%c, --%-20s%s\n", *s, l->name, l->help);
    }
    /* the letters listed are OSU's build without accelerators (its help text); OSU's
     * accelerator build's -d and [SRC DST] come with effbench's own */
    fprintf(f, "effbench adds: -check (the data check of -c), --json FILE (JSON Lines "
               "records), --resume FILE, --row-timeout SECONDS, --expect-placement WHERE\n");
    if (osu_takes_accel(p))
        fprintf(f, "and OSU's accelerator options: -d, --%s %s%s%s\n", osu_long_name('d'),
                osu_letter_of('d')->help,
                p->bench != OSU_COLLECTIVE ? "; [SRC DST] buffer types with -d, rank 0's and "
                                             "rank 1's: D device, H host, MH (or M) managed" : "",
                p->stages ? "; --stage-through-host (with -d)" : "");
}
