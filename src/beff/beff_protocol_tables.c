/* The b_eff protocol's analysis tables (the original's 2nd to 5th paths and
 * the official one, SECTION-BY-*): per-process values (accumulated / P),
 * log averages over rings, random and both.  Reporter only: no MPI here. */
#include "beff/beff_protocol_tables.h"

#include "beff/beff_analysis.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>

static const int shown_len[6] = {0, 4, 8, 12, 16, 20}; /* 1 16 256 4096 L_16 L_max */

/* max over methods of b(p, l, m, rep) for one repetition */
static double best_of_rep(const beff_run *r, int p, int l, int rep)
{
    double best = NAN;
    for (int m = 0; m < r->nmeth; m++) {
        double v = r->b[beff_idx(r, p, l, m, rep)];
        if (!isnan(v) && (isnan(best) || v > best))
            best = v;
    }
    return best;
}

static double avg_len_rep(const beff_run *r, int p, int rep)
{
    double s = 0;
    for (int l = 0; l < BEFF_NLEN; l++)
        s += beff_zero_nan(best_of_rep(r, p, l, rep));
    return s / BEFF_NLEN;
}

/* Latency of one call (a step: sendrecv or equivalent) at 1 byte, in us:
 * iteration time over the number of calls. */
static double call_latency(const beff_run *r, int p, double b1)
{
    return r->messages[p] / (r->pat[p].nsteps * b1);
}

/* log averages over rings, randoms and both of per-pattern values */
static void groups(const beff_run *r, const double *v, double out[3])
{
    beff_logavg_groups(r, v, &out[0], &out[1], &out[2]);
}

static const char *group_label[3] = {"log_avg of all rings", "log_avg of all random",
                                     "log_avg(ring,random)"};

static void by_methods(FILE *f, const beff_run *r)
{
    int P = r->P, n = r->npat, nm = r->nmeth;
    double *v = eb_malloc((size_t)n * (nm + 1) * sizeof *v); /* per method, then best */
    fprintf(f, "\nSECTION-BY-METHODS-BEGIN\n\n\n");
    fprintf(f, "2nd analysis path, only as information, last row:\n");
    fprintf(f, "for all mthd: logavg_pat ( avg_L ( max_rep ( b(L) ) ) )\n");
    fprintf(f, "|| logavg_pat ( max_mthd ( avg_L ( max_rep ( b(L) ) ) ) )\n\n");
    fprintf(f, " pattern   /    methods:");
    for (int m = 0; m < nm; m++)
        fprintf(f, " %7s", beff_method_short[m]);
    fprintf(f, " -> best method -> accumulated\n\n");
    for (int p = 0; p < n; p++) {
        double best = 0;
        for (int m = 0; m < nm; m++) {
            double s = 0;
            for (int l = 0; l < BEFF_NLEN; l++)
                s += beff_zero_nan(beff_best(r, p, l, m));
            v[m * n + p] = s / BEFF_NLEN / P;
            if (v[m * n + p] > best)
                best = v[m * n + p];
        }
        v[nm * n + p] = best;
        if (p == r->nring + r->nrandom)
            fprintf(f, " -- additional patterns that are not used to compute b_eff:\n");
        fprintf(f, " p%02d %-17s :", p, r->pat[p].name);
        for (int m = 0; m < nm; m++)
            fprintf(f, " %7.3f", v[m * n + p]);
        fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", best, best * P);
    }
    double g[BEFF_MAX_METHODS + 1][3];
    for (int m = 0; m <= nm; m++)
        groups(r, v + m * n, g[m]);
    fprintf(f, "\n");
    for (int k = 0; k < 3; k++) {
        fprintf(f, " %-22s:", group_label[k]);
        for (int m = 0; m < nm; m++)
            fprintf(f, " %7.3f", g[m][k]);
        if (k < 2)
            fprintf(f, " || %7.3f -> %10.3f MByte/s\n", g[nm][k], g[nm][k] * P);
        else
            fprintf(f, " ||(%7.3f -> %10.3f)MByte/s\n", g[nm][k], g[nm][k] * P);
    }
    fprintf(f, "  * size ->\n accumulated on all pr.:");
    for (int m = 0; m < nm; m++)
        fprintf(f, " %7.3f", g[m][2] * P);
    fprintf(f, " ||(%.3f)MByte/s\n", g[nm][2] * P);
    fprintf(f, "\nSECTION-BY-METHODS-END\n\n");
    free(v);
}

static void by_repetitions(FILE *f, const beff_run *r)
{
    int P = r->P, n = r->npat, nr = r->opt.repeat; /* slot nr: the best repetition */
    double *v = eb_malloc((size_t)n * (nr + 1) * sizeof *v);
    fprintf(f, "\nSECTION-BY-REPETITIONS-BEGIN\n\n\n");
    fprintf(f, "3rd analysis path, only as information, last row:\n");
    fprintf(f, "for all rep.:logavg_pat ( avg_L ( max_mthd ( b(L) ) ) )\n");
    fprintf(f, "|| logavg_pat ( max_rep ( avg_L ( max_mthd ( b(L) ) ) ) )\n\n");
    fprintf(f, " pattern  /  repetition:");
    for (int rep = 0; rep < nr; rep++)
        fprintf(f, "   rep.%d", rep);
    fprintf(f, " -> best repetition -> accumulated\n\n");
    for (int p = 0; p < n; p++) {
        double best = 0;
        for (int rep = 0; rep < nr; rep++) {
            v[rep * n + p] = avg_len_rep(r, p, rep) / P;
            if (v[rep * n + p] > best)
                best = v[rep * n + p];
        }
        v[nr * n + p] = best;
        if (p == r->nring + r->nrandom)
            fprintf(f, " -- additional patterns that are not used to compute b_eff:\n");
        fprintf(f, " p%02d %-17s :", p, r->pat[p].name);
        for (int rep = 0; rep < nr; rep++)
            fprintf(f, " %7.3f", v[rep * n + p]);
        fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", best, best * P);
    }
    double g[BEFF_REPS + 1][3];
    for (int k = 0; k <= nr; k++)
        groups(r, v + k * n, g[k]);
    fprintf(f, "\n");
    for (int k = 0; k < 3; k++) {
        fprintf(f, " %-22s:", group_label[k]);
        for (int rep = 0; rep < nr; rep++)
            fprintf(f, " %7.3f", g[rep][k]);
        if (k < 2)
            fprintf(f, " || %7.3f -> %10.3f MByte/s\n", g[nr][k], g[nr][k] * P);
        else
            fprintf(f, " ||(%7.3f -> %10.3f)MByte/s\n", g[nr][k], g[nr][k] * P);
    }
    fprintf(f, "  * size ->\n accumulated on all pr.:");
    for (int rep = 0; rep < nr; rep++)
        fprintf(f, " %7.3f", g[rep][2] * P);
    fprintf(f, " ||(%.3f)MByte/s\n", g[nr][2] * P);
    fprintf(f, "\nSECTION-BY-REPETITIONS-END\n\n");
    free(v);
}

static void len_header(FILE *f, const beff_run *r, const char *title)
{
    fprintf(f, "%s", title);
    for (int k = 0; k < 6; k++)
        fprintf(f, " %7ld", r->len[shown_len[k]]);
    fprintf(f, " -> average -> accumulated\n");
    fprintf(f, "                        (latency of one sendrecv (or equivalent method) in microsec)\n");
}

static void by_mthd_msglng(FILE *f, const beff_run *r)
{
    int P = r->P, n = r->npat, nm = r->nmeth;
    fprintf(f, "\nSECTION-BY-MTHD-MSGLNG-BEGIN\n\n\n");
    fprintf(f, "4th analysis path, only as information, last 3 rows:\n");
    fprintf(f, "for all methods and some msglng L: logavg_pat ( max_rep ( b(L) ) )\n");
    fprintf(f, "for all methods: logavg_pat ( avg_L ( max_rep ( b(L) ) ) )\n\n");
    len_header(f, r, " pattern & method / msg:         ");
    /* v[(m * 7 + k) * n + p]: k = 0..5 shown lengths, 6 = average */
    double *v = eb_malloc((size_t)nm * 7 * n * sizeof *v);
    for (int p = 0; p < n; p++) {
        fprintf(f, " p%02d %-17s\n", p, r->pat[p].name);
        for (int m = 0; m < nm; m++) {
            double b1 = beff_best(r, p, 0, m);
            fprintf(f, " p%02d method %d =%-8s:(%7.3f)", p, m, beff_method_short[m],
                    isnan(b1) ? 0.0 : call_latency(r, p, b1));
            for (int k = 0; k < 6; k++) {
                v[(m * 7 + k) * n + p] = beff_zero_nan(beff_best(r, p, shown_len[k], m)) / P;
                fprintf(f, " %7.3f", v[(m * 7 + k) * n + p]);
            }
            double s = 0;
            for (int l = 0; l < BEFF_NLEN; l++)
                s += beff_zero_nan(beff_best(r, p, l, m));
            v[(m * 7 + 6) * n + p] = s / BEFF_NLEN / P;
            fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", s / BEFF_NLEN / P, s / BEFF_NLEN);
        }
    }
    fprintf(f, "\n");
    static const char *what[3] = {"ring,", "random,", "average,"};
    double (*g)[7][3] = eb_malloc((size_t)nm * sizeof *g);
    for (int m = 0; m < nm; m++)
        for (int k = 0; k < 7; k++)
            groups(r, v + (m * 7 + k) * n, g[m][k]);
    for (int gi = 0; gi < 3; gi++) {
        fprintf(f, " %-22s\n", group_label[gi]);
        for (int m = 0; m < nm; m++) {
            fprintf(f, " - %-10s method %d = %-7s:", what[gi], m, beff_method_short[m]);
            for (int k = 0; k < 6; k++)
                fprintf(f, " %7.3f", g[m][k][gi]);
            fprintf(f, " || %7.3f -> %10.3f MByte/s\n", g[m][6][gi], g[m][6][gi] * P);
        }
    }
    fprintf(f, "  * size ->\n accumulated on all processes:\n");
    for (int m = 0; m < nm; m++) {
        fprintf(f, " - accumulated, mthd %d = %-7s:", m, beff_method_short[m]);
        for (int k = 0; k < 6; k++)
            fprintf(f, " %7.3f", g[m][k][2] * P);
        fprintf(f, " || %.3f MByte/s\n", g[m][6][2] * P);
    }
    fprintf(f, "\nSECTION-BY-MTHD-MSGLNG-END\n\n");
    free(g);
    free(v);
}

static void by_msglng(FILE *f, const beff_run *r)
{
    int P = r->P, n = r->npat, nm = r->nmeth;
    double *v = eb_malloc((size_t)n * sizeof *v);
    fprintf(f, "\nSECTION-BY-MSGLNG-BEGIN\n\n\n");
    fprintf(f, "5th analysis path only as information:\n");
    fprintf(f, "logavg_pat ( max_mthd ( max_rep ( b(L) ) ) )\n");
    fprintf(f, "and for all methods: logavg_pat ( max_rep ( b(L) ) )\n\n");
    fprintf(f, "msg length|accumulated| effective bandwidth per process:\n");
    fprintf(f, "          |  effective| average    rings   random");
    for (int m = 0; m < nm; m++)
        fprintf(f, " method_%d", m);
    fprintf(f, "\n          |  bandwidth| crt,rnd     only     only");
    for (int m = 0; m < nm; m++)
        fprintf(f, " %8s", beff_method_short[m]);
    fprintf(f, "\n");
    for (int l = 0; l < BEFF_NLEN; l++) {
        double g[3];
        for (int p = 0; p < n; p++)
            v[p] = beff_best(r, p, l, -1) / P;
        groups(r, v, g);
        fprintf(f, "%10ld  %10.3f %8.3f %8.3f %8.3f", r->len[l], g[2] * P, g[2], g[0], g[1]);
        for (int m = 0; m < nm; m++) {
            for (int p = 0; p < n; p++)
                v[p] = beff_zero_nan(beff_best(r, p, l, m)) / P;
            groups(r, v, g);
            fprintf(f, " %8.3f", g[2]);
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\nSECTION-BY-MSGLNG-END\n\n");
    free(v);
}

static void by_pattern_msglng(FILE *f, const beff_run *r)
{
    int P = r->P, n = r->npat;
    fprintf(f, "\nSECTION-BY-PATTERN-MSGLNG-BEGIN\n\n\n");
    fprintf(f, "official (1st) analysis path -- see last column:\n");
    fprintf(f, "(only columns of some message lengths are printed)\n");
    fprintf(f, "logavg_pat ( avg_L ( max_mthd ( max_rep ( b(L) ) ) ) )\n\n");
    len_header(f, r, " pattern  /  msg-length:         ");
    double *v = eb_malloc((size_t)7 * n * sizeof *v);
    for (int p = 0; p < n; p++) {
        if (p == r->nring + r->nrandom)
            fprintf(f, " -- additional patterns that are not used to compute b_eff:\n");
        fprintf(f, " p%02d %-17s :(%7.3f)", p, r->pat[p].name,
                call_latency(r, p, beff_best(r, p, 0, -1)));
        for (int k = 0; k < 6; k++) {
            v[k * n + p] = beff_best(r, p, shown_len[k], -1) / P;
            fprintf(f, " %7.3f", v[k * n + p]);
        }
        v[6 * n + p] = beff_avg_len(r, p, -1) / P;
        fprintf(f, " -> %7.3f -> %10.3f MByte/s\n", v[6 * n + p], v[6 * n + p] * P);
    }
    fprintf(f, "\n");
    double g[7][3];
    for (int k = 0; k < 7; k++)
        groups(r, v + k * n, g[k]);
    for (int gi = 0; gi < 3; gi++) {
        fprintf(f, " %-22s:         ", group_label[gi]);
        for (int k = 0; k < 6; k++)
            fprintf(f, " %7.3f", g[k][gi]);
        fprintf(f, " || %7.3f -> %10.3f MByte/s\n", g[6][gi], g[6][gi] * P);
    }
    fprintf(f, "  * size ->\n accumulated on all pr.:         ");
    for (int k = 0; k < 6; k++)
        fprintf(f, " %7.3f", g[k][2] * P);
    fprintf(f, " || %.3f MByte/s\n", g[6][2] * P);
    fprintf(f, "\nSECTION-BY-PATTERN-MSGLNG-END\n\n");
    free(v);
}

void beff_protocol_tables(FILE *f, const beff_run *r)
{
    by_methods(f, r);
    by_repetitions(f, r);
    by_mthd_msglng(f, r);
    by_msglng(f, r);
    by_pattern_msglng(f, r);
}
