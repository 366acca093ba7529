/* b_eff options: long options (`--opt value` or `--opt=value`), plus the
 * single-dash `-check` of the IMB family. */
#include "beff/beff_opts.h"
#include "core/error.h"
#include "core/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void beff_print_help(FILE *f)
{
    fprintf(f,
            "Usage: mpirun -np P b_eff [options]   (or: effbench beff [options])\n\n"
            "The effective bandwidth benchmark b_eff (rings, random and analysis patterns).\n\n"
            "  --mem-per-proc MB      memory per process M in MiB (default: the node's memory\n"
            "                         divided by the processes on it); L_max = M/128, <= 128 MiB\n"
            "  --random-patterns N    random patterns in the average (default 30)\n"
            "  --seed S               seed of the random patterns (default: from the clock)\n"
            "  --split-nonblocking    add the methods Irecv+Send+Waitall and Isend+Recv+Waitall\n"
            "  --rmax GFLOPS          R_max of the machine: print the balance b_eff / R_max\n"
            "  --loop-ms T            loop time window T .. 2T ms (default 2.5, as the seeds;\n"
            "                         smaller values only for quick tests)\n"
            "  --repeat N             each measurement N times, 1..3 (default 3, b_eff's rule:\n"
            "                         the fastest counts); fewer only where repetitions agree,\n"
            "                         as in a simulation (docs/simulation.md)\n"
            "  --protocol FILE        also write the protocol to FILE\n"
            "  --json FILE            JSON Lines records (docs/json-lines.md, docs/beff.md)\n"
            "  --resume FILE          continue the --json FILE of an interrupted run with the\n"
            "                         same options: measure what is missing and append\n"
            "  --check, -check        verify every byte of every message (untimed pass)\n"
            "  --progress             the progress line on stderr also when it is not a\n"
            "                         terminal (under mpirun, which gives ranks a pipe)\n"
            "  -h, --help             this text\n");
}

/* The value of "--opt=value" or "--opt value" (advancing i); NULL with the
 * message in err when it is missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, char *err,
                             size_t errlen)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (a[n] == '=')
        return a + n + 1;
    if (*i + 1 >= argc) {
        eb_err(err, errlen, "%s: missing value", name);
        return NULL;
    }
    return argv[++*i];
}

static int is_opt(const char *a, const char *name)
{
    size_t n = strlen(name);
    return strncmp(a, name, n) == 0 && (a[n] == 0 || a[n] == '=');
}

int beff_parse_options(beff_options *o, int argc, char **argv, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->nrandom = 30;
    o->loop_ms = 2.5;
    o->repeat = BEFF_REPS;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        long lv;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
            o->help = 1;
        } else if (strcmp(a, "--check") == 0 || strcmp(a, "-check") == 0) {
            o->check = 1;
        } else if (strcmp(a, "--progress") == 0) {
            o->progress = 1;
        } else if (strcmp(a, "--split-nonblocking") == 0) {
            o->split_nonblocking = 1;
        } else if (is_opt(a, "--mem-per-proc")) {
            if (!(v = opt_value(argc, argv, &i, "--mem-per-proc", err, errlen)))
                return -1;
            if (eb_parse_long(v, 1, 1L << 40, &lv))
                return eb_err(err, errlen, "--mem-per-proc: '%s' is not a whole number of MB >= 1",
                              v);
            o->mem_mib = lv;
        } else if (is_opt(a, "--random-patterns")) {
            if (!(v = opt_value(argc, argv, &i, "--random-patterns", err, errlen)))
                return -1;
            if (eb_parse_long(v, 1, 100000, &lv))
                return eb_err(err, errlen, "--random-patterns: '%s' is not a number >= 1", v);
            o->nrandom = (int)lv;
        } else if (is_opt(a, "--seed")) {
            if (!(v = opt_value(argc, argv, &i, "--seed", err, errlen)))
                return -1;
            char *end;
            errno = 0;
            unsigned long long s = strtoull(v, &end, 10);
            if (errno || end == v || *end || v[0] == '-' || s > 0x7FFFFFFFFFFFFFFFULL)
                return eb_err(err, errlen, "--seed: '%s' is not a number in 0..2^63-1", v);
            o->seed = s;
            o->seed_given = 1;
        } else if (is_opt(a, "--rmax")) {
            if (!(v = opt_value(argc, argv, &i, "--rmax", err, errlen)))
                return -1;
            if (eb_parse_positive(v, &o->rmax_gflops))
                return eb_err(err, errlen, "--rmax: '%s' is not a positive number of GFLOPS", v);
        } else if (is_opt(a, "--loop-ms")) {
            if (!(v = opt_value(argc, argv, &i, "--loop-ms", err, errlen)))
                return -1;
            if (eb_parse_positive(v, &o->loop_ms))
                return eb_err(err, errlen, "--loop-ms: '%s' is not a positive number", v);
        } else if (is_opt(a, "--repeat")) {
            if (!(v = opt_value(argc, argv, &i, "--repeat", err, errlen)))
                return -1;
            if (eb_parse_long(v, 1, BEFF_REPS, &lv))
                return eb_err(err, errlen, "--repeat: '%s' is not a number in 1..%d", v,
                              BEFF_REPS);
            o->repeat = (int)lv;
        } else if (is_opt(a, "--json") || is_opt(a, "--resume")) {
            const char *name = a[2] == 'j' ? "--json" : "--resume";
            if (!(v = opt_value(argc, argv, &i, name, err, errlen)))
                return -1;
            if (o->json_path)
                return eb_err(err, errlen, "--json and --resume name one file, once");
            o->json_path = v;
            o->resume = a[2] == 'r';
        } else if (is_opt(a, "--protocol")) {
            if (!(v = opt_value(argc, argv, &i, "--protocol", err, errlen)))
                return -1;
            o->protocol_path = v;
        } else {
            return eb_err(err, errlen, "%s: unknown option (see b_eff -h)", a);
        }
    }
    return 0;
}
