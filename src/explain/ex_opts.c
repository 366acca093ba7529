/* The command line of `effbench explain OPERATION [SIZES] [options]`
 * (docs/methods.md, "effbench explain"). */
#include "core/error.h"
#include "core/text.h"
#include "explain/ex.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const op_names[EX_NOPS] = {"PingPong", "Bcast", "Allreduce", "Barrier",
                                              "Reduce", "Allgather", "Alltoall", "bw",
                                              "PingPing", "Sendrecv", "Exchange"};

const char *ex_op_name(ex_op op) { return op_names[op]; }

void ex_usage(FILE *f)
{
    fprintf(f,
            "usage: effbench explain OPERATION [SIZES] [options]\n"
            "  OPERATION     PingPong, PingPing, Sendrecv, Exchange, bw, Bcast, Allreduce, Barrier,\n"
            "                Reduce, Allgather, Alltoall\n"
            "                (bw: streaming bandwidth between ranks 0 and 1, as osu_bw)\n"
            "  SIZES         message sizes in bytes, comma separated (default 1024; Barrier: "
            "none)\n"
            "  --rounds N    rounds, each row once per round in a shuffled order (default 5)\n"
            "  --seed S      the shuffle's seed (default 1)\n"
            "  --reps N      calls per row and round (default 100, 20 above 65536 bytes)\n"
            "  --reference M the method the others are explained against (default "
            "reprompi-window)\n"
            "  --window-us W window length per call (default: 1000, or 4 times the "
            "barrier-synchronised median if larger)\n"
            "  --json FILE   JSON Lines records\n"
            "methods: reprompi-window reprompi-barrier imb-4.0 imb-4.0-off_cache imb-2021 "
            "osu-7.4 skampi b_eff\n"
            "         (osu-7.4: not on PingPing, Sendrecv, Exchange; b_eff: PingPong, bw,\n"
            "         PingPing, Sendrecv on 2 processes, Exchange on 3 or more)\n");
}

long ex_reps(const ex_options *o, long size)
{
    return o->reps ? o->reps : size > 65536 ? 20 : 100;
}

static int parse_sizes(ex_options *o, const char *s, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return eb_err(err, errlen, "sizes '%.40s...': too long", s);
    strcpy(buf, s);
    o->nsizes = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long v;
        if (o->nsizes >= EX_MAX_SIZES)
            return eb_err(err, errlen, "sizes '%s': at most %d sizes", s, EX_MAX_SIZES);
        if (eb_parse_long(t, 0, 1L << 30, &v))
            return eb_err(err, errlen, "sizes '%s': '%s' is not a size in bytes (0 to 2^30)", s,
                          t);
        o->sizes[o->nsizes++] = v;
    }
    if (!o->nsizes)
        return eb_err(err, errlen, "sizes '%s': no size", s);
    return 0;
}

static int value_of(int argc, char **argv, int *i, const char **v, char *err, size_t errlen)
{
    if (*i + 1 >= argc)
        return eb_err(err, errlen, "%s needs a value", argv[*i]);
    *v = argv[++*i];
    return 0;
}

static int option(ex_options *o, int argc, char **argv, int *i, const char **ref, char *err,
                  size_t errlen)
{
    const char *a = argv[*i], *v = NULL;
    long n;
    double d;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        o->help = 1;
        return 0;
    }
    if (value_of(argc, argv, i, &v, err, errlen))
        return -1;
    if (!strcmp(a, "--rounds")) {
        if (eb_parse_long(v, 1, 1000, &n))
            return eb_err(err, errlen, "--rounds %s: expected an integer from 1 to 1000", v);
        o->rounds = (int)n;
    } else if (!strcmp(a, "--reps")) {
        if (eb_parse_long(v, 1, 1000000, &n))
            return eb_err(err, errlen, "--reps %s: expected an integer from 1 to 1000000", v);
        o->reps = n;
    } else if (!strcmp(a, "--seed")) {
        if (eb_parse_long(v, 0, 4294967295L, &n))
            return eb_err(err, errlen, "--seed %s: expected an integer from 0 to 4294967295", v);
        o->seed = (unsigned)n;
    } else if (!strcmp(a, "--window-us")) {
        if (eb_parse_positive(v, &d))
            return eb_err(err, errlen, "--window-us %s: expected a positive number", v);
        o->window_s = d * 1e-6;
    } else if (!strcmp(a, "--reference"))
        *ref = v;
    else if (!strcmp(a, "--json"))
        o->json = v;
    else
        return eb_err(err, errlen, "unknown option '%s' (see -h)", a);
    return 0;
}

int ex_parse(ex_options *o, int argc, char **argv, int procs, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->rounds = 5;
    o->seed = 1;
    o->op = EX_NOPS;
    const char *ref = NULL, *sizes = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-') {
            if (option(o, argc, argv, &i, &ref, err, errlen))
                return -1;
        } else if (o->op == EX_NOPS) {
            for (int k = 0; k < EX_NOPS; k++)
                if (!strcasecmp(a, op_names[k]))
                    o->op = (ex_op)k;
            if (o->op == EX_NOPS)
                return eb_err(err, errlen, "unknown operation '%s' (see -h)", a);
        } else if (!sizes)
            sizes = a;
        else
            return eb_err(err, errlen, "unexpected argument '%s' (see -h)", a);
    }
    if (o->help)
        return 0;
    if (o->op == EX_NOPS)
        return eb_err(err, errlen, "no operation given (see -h)");
    if (o->op == EX_OP_BARRIER && sizes)
        return eb_err(err, errlen, "Barrier takes no sizes ('%s')", sizes);
    if (sizes && parse_sizes(o, sizes, err, errlen))
        return -1;
    if (!sizes) {
        o->nsizes = 1;
        o->sizes[0] = o->op == EX_OP_BARRIER ? 0 : 1024;
    }
    o->procs = procs;
    o->reference = ex_method_find(o->op, procs, ref ? ref : "reprompi-window");
    if (procs < 2)
        return eb_err(err, errlen, "%s needs at least 2 processes", op_names[o->op]);
    if (o->reference < 0)
        return eb_err(err, errlen, "--reference %s: not a method of %s on %d processes (see -h)",
                      ref, op_names[o->op], procs);
    return 0;
}
