/* b_eff_io: pattern table, partitions, schedule and averaging (no MPI). */
#include "beffio/beff_io_plan.h"

#include "core/error.h"
#include "core/text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bio_type_names[BIO_NTYPES] = {"scatter", "shared", "separate", "segmented",
                                                "seg-coll"};
const char *const bio_access_names[BIO_NACCESS] = {"write", "rewrite", "read"};

long long bio_mpart(double mem_per_proc_bytes)
{
    double m = mem_per_proc_bytes / 128.0;
    if (m < 2.0 * BIO_MIB)
        m = 2.0 * BIO_MIB;
    if (m > 1024.0 * BIO_MIB)
        m = 1024.0 * BIO_MIB;
    return ((long long)m) / 8 * 8;
}

#define K 1024LL
#define M BIO_MIB

static void add(bio_type_table *t, long long l, long long L, int U, int row)
{
    bio_pattern *p = &t->pat[t->npat++];
    p->l = l;
    p->L = L;
    p->U = U;
    p->row = row;
    p->filler = 0;
}

/* Rows of the summary table: 0 1k, 1 1k+8, 2 32k, 3 32k+8, 4 1M, 5 1M+8, 6 M_PART. */
static void non_scatter(bio_type_table *t, long long mpart, int u_mpart, int u_small)
{
    add(t, M, M, 0, -1);
    add(t, mpart, mpart, u_mpart, 6);
    add(t, M, M, 2, 4);
    add(t, 32 * K, 32 * K, u_small, 2);
    add(t, K, K, u_small, 0);
    add(t, 32 * K + 8, 32 * K + 8, u_small, 3);
    add(t, K + 8, K + 8, u_small, 1);
    add(t, M + 8, M + 8, 2, 5);
}

void bio_pattern_table(long long mpart, bio_type_table tab[BIO_NTYPES])
{
    memset(tab, 0, sizeof(bio_type_table) * BIO_NTYPES);
    bio_type_table *t = &tab[0];
    add(t, M, M, 0, -1);
    add(t, mpart, mpart, 4, 6);
    add(t, M, 2 * M, 4, -1); /* the original leaves it out of the table too */
    add(t, M, M, 4, 4);
    add(t, 32 * K, M, 2, 2);
    add(t, K, M, 2, 0);
    add(t, 32 * K + 8, M + 256, 2, 3);   /* 32 chunks */
    add(t, K + 8, M + 8 * K, 2, 1);      /* 1024 chunks */
    add(t, M + 8, M + 8, 2, 5);
    non_scatter(&tab[1], mpart, 4, 1);
    non_scatter(&tab[2], mpart, 2, 1);
    for (int ty = 3; ty < 5; ty++) {
        non_scatter(&tab[ty], mpart, 2, 1);
        add(&tab[ty], 0, 0, 0, -1);
        tab[ty].pat[tab[ty].npat - 1].filler = 1;
    }
}

int bio_type_units(const bio_type_table *t)
{
    int u = 0;
    for (int p = 0; p < t->npat; p++)
        u += t->pat[p].U;
    return u;
}

static int add_unique(int *out, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (out[i] == v)
            return n;
    out[n] = v;
    return n + 1;
}

int bio_default_partitions(int P, int out[BIO_MAX_PARTS])
{
    if (P <= 1) {
        out[0] = 1;
        return 1;
    }
    if (P == 2) {
        out[0] = 1;
        out[1] = 2;
        return 2;
    }
    double lg = log2((double)P);
    int small = 1 << (int)lround(0.35 * lg);
    int medium = 1 << (int)lround(0.70 * lg);
    if (P == 3)
        small = 1;
    if (P == 4)
        medium = 3;
    int n = 0;
    n = add_unique(out, n, small);
    n = add_unique(out, n, medium);
    n = add_unique(out, n, P);
    return n;
}

int bio_parse_partitions(const char *s, int P, int out[BIO_MAX_PARTS], char *err, size_t errlen)
{
    if (!strcmp(s, "auto"))
        return bio_default_partitions(P, out);
    int n = 0;
    const char *p = s;
    while (1) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || (*end && *end != ','))
            return eb_err(err, errlen, "--partitions %s: expected `auto` or a comma list of "
                                       "process counts", s);
        if (v < 1 || v > P)
            return eb_err(err, errlen, "--partitions %s: %ld is not between 1 and %d processes",
                          s, v, P);
        for (int i = 0; i < n; i++)
            if (out[i] == v)
                return eb_err(err, errlen, "--partitions %s: %ld appears twice", s, v);
        if (n == BIO_MAX_PARTS)
            return eb_err(err, errlen, "--partitions %s: more than %d partitions", s,
                          BIO_MAX_PARTS);
        out[n++] = (int)v;
        if (!*end)
            break;
        p = end + 1;
    }
    return n;
}

double bio_pattern_seconds(double T_partition, int U)
{
    return T_partition / 3.0 * U / 64.0;
}

long long bio_next_batch(long long done, double elapsed, double target, long long last,
                         double last_s)
{
    if (elapsed >= target || done <= 0)
        return 0;
    /* The latest batch predicts best: the first call of a pattern often pays
     * for extending the file or filling the cache and would skew an average. */
    double per_call = last > 0 && last_s > 0 ? last_s / (double)last : elapsed / (double)done;
    double fit = per_call > 0 ? (target - elapsed) / per_call : (double)done;
    if (fit >= 2.0 * (double)done + 2.0)
        return done; /* halved below, still all: and no cast of a -T of 1e300's fit */
    long long predicted = (long long)floor(fit + 0.5);
    if (predicted < 1)
        return 0;
    /* Aim at half the remaining time: when the calls slow down (a full
     * write-back cache throttles), a batch overshoots by less. */
    if (predicted >= 4)
        predicted /= 2;
    return predicted < done ? predicted : done;
}

/* Type-0 pattern with the l of each type-1/2/3 pattern (the 1M/1M one, not 1M/2M). */
static const int scatter_of[8] = {0, 1, 3, 4, 5, 6, 7, 8};

long long bio_segment(const bio_type_table tab[BIO_NTYPES], long long rep[BIO_NTYPES][BIO_MAX_PAT],
                      long long rep34[BIO_MAX_PAT], long long *filler)
{
    const bio_type_table *t3 = &tab[3];
    long long sum = 0;
    for (int p = 0; p < t3->npat; p++) {
        if (t3->pat[p].filler)
            continue;
        const bio_pattern *s = &tab[0].pat[scatter_of[p]];
        long long r = rep[0][scatter_of[p]] * (s->L / s->l);
        if (10 * rep[1][p] < r)
            r = 10 * rep[1][p];
        if (rep[2][p] < r)
            r = rep[2][p];
        rep34[p] = r;
        sum += r * t3->pat[p].l;
    }
    long long lseg = (sum + BIO_MIB - 1) / BIO_MIB * BIO_MIB;
    *filler = lseg - sum;
    rep34[t3->npat - 1] = *filler > 0 ? 1 : 0;
    return lseg;
}

double bio_method_value(const double bw[BIO_NTYPES])
{
    return (2.0 * bw[0] + bw[1] + bw[2] + bw[3] + bw[4]) / 6.0;
}

double bio_partition_value(double write, double rewrite, double read)
{
    return 0.25 * write + 0.25 * rewrite + 0.5 * read;
}

double bio_rel21_value(const double w[BIO_NTYPES], double rewrite_type0, double read_method)
{
    double W = (w[0] + w[1] + w[2] + w[3] + w[4] + rewrite_type0) / 6.0;
    return sqrt(W * read_method);
}

int bio_parse_hints(const char *text, const char *fname, bio_hint out[BIO_MAX_HINTS], char *err,
                    size_t errlen)
{
    int n = 0, lineno = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        lineno++;
        if (len >= sizeof line)
            return eb_err(err, errlen, "%s:%d: line too long", fname, lineno);
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *s = eb_trim(line);
        if (!*s)
            continue;
        char types[64], key[256], value[256];
        int used = 0, key_at = 0, key_end = 0;
        if (sscanf(s, "%63s %n%*s%n %n", types, &key_at, &key_end, &used) != 1 || !used ||
            !s[used])
            return eb_err(err, errlen, "%s:%d: expected `TYPES KEY VALUE` (TYPES = all or "
                                       "e.g. 0,3), got `%s`", fname, lineno, s);
        /* too long for the record: refused, not cut */
        if ((size_t)(key_end - key_at) >= sizeof key || strlen(eb_trim(s + used)) >= sizeof value)
            return eb_err(err, errlen, "%s:%d: the key and the value may have at most %zu "
                                       "characters each", fname, lineno, sizeof key - 1);
        snprintf(key, sizeof key, "%.*s", key_end - key_at, s + key_at);
        snprintf(value, sizeof value, "%s", eb_trim(s + used));
        int mask = 0;
        if (!strcmp(types, "all")) {
            mask = (1 << BIO_NTYPES) - 1;
        } else {
            for (char *q = types; *q; q++) {
                if (*q >= '0' && *q <= '4' && (q[1] == ',' || !q[1]) &&
                    (q == types || q[-1] == ',')) {
                    mask |= 1 << (*q - '0');
                } else if (*q != ',') {
                    return eb_err(err, errlen, "%s:%d: `%s` is not `all` or a list of pattern "
                                               "types 0..4", fname, lineno, types);
                }
            }
            if (!mask)
                return eb_err(err, errlen, "%s:%d: `%s` names no pattern type", fname, lineno,
                              types);
        }
        if (n == BIO_MAX_HINTS)
            return eb_err(err, errlen, "%s:%d: more than %d hints", fname, lineno, BIO_MAX_HINTS);
        out[n].types = mask;
        out[n].line = lineno;
        snprintf(out[n].key, sizeof out[n].key, "%s", key);
        snprintf(out[n].value, sizeof out[n].value, "%s", value);
        n++;
    }
    return n;
}

long long bio_planned_rows(const bio_type_table tab[BIO_NTYPES], int nparts, int rewrite0)
{
    long long rows = 0;
    for (int a = 0; a < BIO_NACCESS; a++)
        for (int t = 0; t < BIO_NTYPES; t++)
            if (!(a == BIO_REWRITE && rewrite0 && t > 0))
                rows += tab[t].npat + 1;
    return rows * nparts;
}

unsigned long long bio_word_tag(int type, int rank)
{
    unsigned long long tag = (unsigned long long)(type + 1) << 56;
    if (type == 2)
        tag |= (unsigned long long)rank << 40;
    return tag;
}
