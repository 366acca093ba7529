/* `effbench guidelines`' command line (docs/guidelines.md): every word is
 * checked, a bad one is a user error naming it. */
#include "core/error.h"
#include "core/text.h"
#include "core/mockups.h"
#include "guidelines/gl.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const long DEFAULT_SIZES[] = {8, 1024, 65536};

void gl_usage(FILE *f)
{
    fprintf(f, "Usage: mpirun -np P effbench guidelines [options]\n\n"
               "Checks the performance guidelines of Traeff, Gropp and Thakur: each MPI\n"
               "collective against the same operation built from other collectives (PGMPI's\n"
               "mock-ups).  Exit status 1 when a guideline is violated.\n\n"
               "  --collectives=LIST  comma-separated (MPI_Bcast or bcast); default: all with\n"
               "                      mock-ups:");
    for (int c = 0; c < gl_coll_count(); c++)
        fprintf(f, "%s%s", c % 4 ? " " : "\n                        ", gl_coll_name(c));
    fprintf(f, "\n  --mockups=LIST      only these mock-ups (PGMPI's names, as mpibenchmark -h\n"
               "                      lists them); default: every one of the collectives;\n"
               "                      without --collectives, the collectives of these\n"
               "  --sizes=LIST        bytes of one block, multiples of 4 (default 8,1024,65536)\n"
               "  --rounds=N          rounds, each times every variant once (default 30)\n"
               "  --reps=N            repetitions averaged into one time (default 5)\n"
               "  --alpha=X           significance level after Holm's correction (default 0.05)\n"
               "  --seed=N            seed of the shuffled order within a round (default 1)\n"
               "  -check              check the data of every variant in every round\n"
               "  --json FILE         JSON Lines records (docs/json-lines.md)\n"
               "  -h                  this help\n\nMock-ups:\n");
    for (int k = 0; k < eb_mockup_count(); k++)
        fprintf(f, "  %-26s %s\n", k == 0 || strcmp(eb_mockup_at(k)->coll, eb_mockup_at(k - 1)->coll)
                ? eb_mockup_at(k)->coll : "", eb_mockup_at(k)->name);
}

static int parse_colls(gl_options *o, const char *val, char *err, size_t errlen)
{
    char *copy = eb_strdup(val), *save = NULL;
    int rc = 0;
    o->ncolls = 0;
    for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
        int c = gl_coll_find(w);
        int twice = 0;
        for (int k = 0; k < o->ncolls; k++)
            twice |= o->colls[k] == c;
        if (c < 0)
            rc = eb_err(err, errlen, "--collectives: '%s' is no collective with mock-ups "
                        "(see -h)", w);
        else if (twice)
            rc = eb_err(err, errlen, "--collectives: '%s' is listed twice", w);
        else
            o->colls[o->ncolls++] = c;
    }
    free(copy);
    if (!rc && o->ncolls == 0)
        rc = eb_err(err, errlen, "--collectives: empty list");
    return rc;
}

static int parse_sizes(gl_options *o, const char *val, char *err, size_t errlen)
{
    char *copy = eb_strdup(val), *save = NULL;
    int rc = 0;
    o->nsizes = 0;
    for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
        long v;
        if (eb_parse_long(w, 1, LONG_MAX, &v) || v % 4 || v > GL_MAX_BYTES)
            rc = eb_err(err, errlen, "--sizes: '%s' is not a positive multiple of 4 bytes "
                        "(at most %ld)", w, GL_MAX_BYTES);
        else {
            o->sizes = eb_realloc(o->sizes, (size_t)(o->nsizes + 1) * sizeof *o->sizes);
            o->sizes[o->nsizes++] = v;
        }
    }
    free(copy);
    if (!rc && o->nsizes == 0)
        rc = eb_err(err, errlen, "--sizes: empty list");
    return rc;
}

static int parse_mockups(gl_options *o, const char *val, char *err, size_t errlen)
{
    char *copy = eb_strdup(val), *save = NULL;
    int rc = 0;
    free(o->mockups);
    o->mockups = eb_calloc((size_t)eb_mockup_count() + 1, sizeof *o->mockups);
    o->nmockups = 0;
    for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
        const eb_mockup *m = eb_mockup_find(w);
        int twice = 0;
        for (int k = 0; k < o->nmockups; k++)
            twice |= o->mockups[k] == m;
        if (!m)
            rc = eb_err(err, errlen, "--mockups: unknown mock-up '%s' (see -h)", w);
        else if (twice)
            rc = eb_err(err, errlen, "--mockups: '%s' is listed twice", w);
        else
            o->mockups[o->nmockups++] = m;
    }
    free(copy);
    if (!rc && o->nmockups == 0)
        rc = eb_err(err, errlen, "--mockups: empty list");
    return rc;
}

/* With --mockups: the collectives default to theirs, and each one asked needs one. */
static int match_mockups(gl_options *o, int colls_given, char *err, size_t errlen)
{
    if (!o->mockups)
        return 0;
    if (!colls_given) {
        o->ncolls = 0;
        for (int c = 0; c < gl_coll_count(); c++)
            for (int k = 0; k < o->nmockups; k++)
                if (!strcmp(o->mockups[k]->coll, gl_coll_name(c))) {
                    o->colls[o->ncolls++] = c;
                    break;
                }
    }
    for (int i = 0; i < o->ncolls; i++) {
        int found = 0;
        for (int k = 0; k < o->nmockups; k++)
            found |= !strcmp(o->mockups[k]->coll, gl_coll_name(o->colls[i]));
        if (!found)
            return eb_err(err, errlen, "--mockups names no mock-up of %s, which --collectives "
                          "asks for", gl_coll_name(o->colls[i]));
    }
    return 0;
}

static int long_option(gl_options *o, const char *name, const char *val, char *err, size_t n)
{
    long v;
    if (!val)
        return eb_err(err, n, "--%s needs a value (--%s=...)", name, name);
    if (!strcmp(name, "collectives"))
        return parse_colls(o, val, err, n);
    if (!strcmp(name, "sizes"))
        return parse_sizes(o, val, err, n);
    if (!strcmp(name, "mockups"))
        return parse_mockups(o, val, err, n);
    if (!strcmp(name, "rounds") || !strcmp(name, "reps") || !strcmp(name, "seed")) {
        int rounds = !strcmp(name, "rounds");
        if (eb_parse_long(val, 1, LONG_MAX, &v) || v > 1000000 || (rounds && v < 2))
            return eb_err(err, n, "--%s: '%s' is not an integer in [%d, 1000000]", name, val,
                          rounds ? 2 : 1);
        if (rounds)
            o->rounds = (int)v;
        else if (!strcmp(name, "reps"))
            o->reps = (int)v;
        else
            o->seed = (unsigned long)v;
        return 0;
    }
    if (!strcmp(name, "alpha")) {
        char *end;
        double x = strtod(val, &end);
        if (end == val || *end || !(x > 0 && x < 1))
            return eb_err(err, n, "--alpha: '%s' is not a number between 0 and 1", val);
        o->alpha = x;
        return 0;
    }
    return eb_err(err, n, "unknown option '--%s' (see -h)", name);
}

int gl_parse(gl_options *o, int argc, char **argv, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->colls = eb_calloc((size_t)gl_coll_count() + 1, sizeof *o->colls);
    for (int c = 0; c < gl_coll_count(); c++)
        o->colls[o->ncolls++] = c;
    o->nsizes = (int)(sizeof DEFAULT_SIZES / sizeof *DEFAULT_SIZES);
    o->sizes = eb_calloc((size_t)o->nsizes, sizeof *o->sizes);
    memcpy(o->sizes, DEFAULT_SIZES, sizeof DEFAULT_SIZES);
    o->rounds = 30, o->reps = 5, o->alpha = 0.05, o->seed = 1;
    int colls_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            o->help = 1;
        else if (!strcmp(a, "-check"))
            o->check = 1;
        else if (!strcmp(a, "--json")) {
            if (i + 1 >= argc)
                return eb_err(err, errlen, "--json needs a file name");
            o->json = argv[++i];
        } else if (!strncmp(a, "--", 2) && a[2]) {
            char name[32];
            const char *eq = strchr(a, '=');
            size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (n >= sizeof name)
                return eb_err(err, errlen, "unknown option '%s' (see -h)", a);
            memcpy(name, a + 2, n);
            name[n] = '\0';
            if (long_option(o, name, eq ? eq + 1 : NULL, err, errlen))
                return -1;
            colls_given |= !strcmp(name, "collectives");
        } else
            return eb_err(err, errlen, "unknown option or argument '%s' (see -h)", a);
    }
    return match_mockups(o, colls_given, err, errlen);
}

void gl_options_free(gl_options *o)
{
    free(o->colls);
    free(o->sizes);
    free(o->mockups);
}
