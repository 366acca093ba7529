/* The b_eff protocol: the original's sections (SECTION-...-BEGIN/END) and
 * layouts (tests/python/data/samples/beff/), plus every measured value.  Printed
 * values per pattern are the accumulated bandwidth divided by the number of
 * processes, as the original prints them.  Reporter only: no MPI here. */
#include "beff/beff_protocol.h"

#include "beff/beff_protocol_tables.h"

#include <math.h>
#include <string.h>

static void head(FILE *f, const beff_run *r)
{
    int P = r->P;
    fprintf(f, "\nSECTION-HEAD-BEGIN\n\n");
    fprintf(f, "effbench %s b_eff (rules of b_eff.c Revision 3.6 and the b_eff 3.2 definition)\n\n",
            EFFBENCH_VERSION);
    fprintf(f, "MEMORY_PER_PROCESSOR = %ld MBytes  [1M = 1024*1024]%s\n", r->opt.mem_mib,
            r->opt.mem_detected ? "  (detected)" : "");
    fprintf(f, "2-dim-patterns: size = %d * %d\n", r->dims2[0], r->dims2[1]);
    fprintf(f, "3-dim-patterns: size = %d * %d * %d\n", r->dims3[0], r->dims3[1], r->dims3[2]);
    fprintf(f, "Used message lengths:\nmsglng=");
    for (int l = 0; l < BEFF_NLEN; l++)
        fprintf(f, " %ld", r->len[l]);
    fprintf(f, "\nUsed methods:");
    for (int m = 0; m < r->nmeth; m++)
        fprintf(f, "  %d=%s", m, beff_method_short[m]);
    fprintf(f, "\nUsed patterns: ");
    for (int p = 0; p < r->npat; p++) {
        if (p > 0 && p % 4 == 0)
            fprintf(f, "\n               ");
        fprintf(f, "%s%2d=%-17s", p % 4 ? " " : "", p, r->pat[p].name);
    }
    fprintf(f, "\n\n");
    int a = r->nring, b = r->nring + r->nrandom;
    static const char *what[3] = {"used for ring pattern average of b_eff",
                                  "used for random pattern average of b_eff",
                                  "only reported, not used for b_eff average"};
    int lo[3] = {0, a, b}, hi[3] = {a - 1, b - 1, r->npat - 1};
    for (int k = 0; k < 3; k++) {
        char range[32];
        if (hi[k] < lo[k])
            continue;
        if (hi[k] == lo[k])
            snprintf(range, sizeof range, "%d", lo[k]);
        else
            snprintf(range, sizeof range, "%d-%d", lo[k], hi[k]);
        fprintf(f, "               %-5s %s\n", range, what[k]);
    }
    fprintf(f, "\nRandom patterns: %d, seed = %llu (--seed repeats them)\n", r->nrandom,
            (unsigned long long)r->opt.seed);
    fprintf(f, "Loop length: %d iterations for 1 byte, then adjusted to loops of %.3g - %.3g ms\n",
            300, r->opt.loop_ms, 2 * r->opt.loop_ms);
    if (r->opt.repeat != BEFF_REPS)
        fprintf(f, "Repetitions: %d of every measurement (--repeat; b_eff's rule: %d, the fastest "
                   "counts)\n", r->opt.repeat, BEFF_REPS);
    if (r->opt.check)
        fprintf(f, "-check: every received byte verified in an untimed pass; timings are not "
                   "for publication\n");
    fprintf(f, "Processes: %d\n", P);
    fprintf(f, "\nSECTION-HEAD-END\n\n");
}

static void elapsed(FILE *f, const beff_run *r)
{
    double e = r->elapsed_s;
    fprintf(f, "\nSECTION-ELAPSED-BEGIN\n\n");
    if (r->nresumed > 0)
        fprintf(f, "--resume %s: %ld measurements read back from the interrupted run, not "
                   "measured again; the times below are of this run's loops only\n\n",
                r->opt.json_path, r->nresumed);
    if (!(e > 0))
        e = 1e-9; /* nothing measured (everything resumed) */
    fprintf(f, "measurment loop: elapsed time               = %7.3f sec\n\n", e);
    fprintf(f, "  sum of max elapsed time per entries above = %7.3f sec\n", r->sum_loop_s);
    fprintf(f, "  difference to elapsed time                = %7.3f sec = %.1f%%\n\n",
            e - r->sum_loop_s, 100 * (e - r->sum_loop_s) / e);
    fprintf(f, "  sum based on fastest repetition           = %7.3f sec\n", r->sum_fastest_s);
    fprintf(f, "  difference to elapsed time                = %7.3f sec = %.1f%%\n\n",
            e - r->sum_fastest_s, 100 * (e - r->sum_fastest_s) / e);
    if (r->sum_loop_s > 0 && ((e - r->sum_loop_s) / e > 0.05 || (e - r->sum_fastest_s) / e > 0.05))
        fprintf(f, "  CAUTION: A difference above is more than 5 %%. There may be problems with "
                   "the MPI implementation or processes weren't on dedicated processors\n");
    fprintf(f, "\nSECTION-ELAPSED-END\n\n");
}

static void patterns(FILE *f, const beff_run *r)
{
    fprintf(f, "\nSECTION-PATTERN-BEGIN\n\n\n");
    fprintf(f, "Pattern parameters: sendrecv  total number  messages/  messages/  unused  best method\n");
    fprintf(f, "                       calls   of messages  used node  node&call   nodes  per repetition\n");
    fprintf(f, "---- ----------------- -----  ------------  ---------  ---------  ------  --------------\n");
    for (int p = 0; p < r->npat; p++) {
        const beff_pattern *pt = &r->pat[p];
        int used = beff_used_procs(pt);
        int best[BEFF_REPS];
        for (int rep = 0; rep < r->opt.repeat; rep++) {
            double bv = -1;
            best[rep] = -1;
            for (int m = 0; m < r->nmeth; m++) {
                double s = 0;
                for (int l = 0; l < BEFF_NLEN; l++)
                    s += beff_zero_nan(r->b[beff_idx(r, p, l, m, rep)]);
                if (s > bv) {
                    bv = s;
                    best[rep] = m;
                }
            }
        }
        double per_node = used ? (double)r->messages[p] / used : 0;
        fprintf(f, " p%02d %-17s %5d  %12ld  %9.2f  %9.2f  %6d  (", p, pt->name, pt->nsteps,
                r->messages[p], per_node, pt->nsteps ? per_node / pt->nsteps : 0, r->P - used);
        for (int rep = 0; rep < r->opt.repeat; rep++)
            fprintf(f, " %d", best[rep]);
        fprintf(f, " )\n");
    }
    fprintf(f, "\n(best method per repetition: the method with the largest average over the "
               "lengths)\n");
    fprintf(f, "\nRandom patterns, ranks in ring order (seed %llu):\n",
            (unsigned long long)r->opt.seed);
    for (int k = 0; k < r->nrandom; k++) {
        fprintf(f, " p%02d:", r->nring + k);
        for (int i = 0; i < r->P; i++)
            fprintf(f, " %d", r->random_order[(size_t)k * r->P + i]);
        fprintf(f, "\n");
    }
    fprintf(f, "\nSECTION-PATTERN-END\n\n");
}

static void measurements_head(FILE *f)
{
    fprintf(f, "\nSECTION-MEASUREMENTS-BEGIN\n\n");
    fprintf(f, "every measurement b(pat,L,mthd,rep) = L * messages * looplength / max time;\n");
    fprintf(f, "times per iteration in microsec over the active processes, b in MByte/s "
               "(1e6 Byte/s), accumulated\n\n");
    fprintf(f, " pat pattern           mthd      rep   msglng  looplen        t_min        t_avg"
               "        t_max       b(accum.)\n");
}

void beff_protocol_rows(FILE *f, const beff_run *r, int rep, int l)
{
    for (int p = 0; p < r->npat; p++)
        for (int m = 0; m < r->nmeth; m++) {
            size_t i = beff_idx(r, p, l, m, rep);
            if (isnan(r->b[i]))
                continue;
            fprintf(f, " p%02d %-17s %d=%-7s %3d %8ld %8ld %12.3f %12.3f %12.3f %15.3f\n", p,
                    r->pat[p].name, m, beff_method_short[m], rep, r->len[l], r->loop[i],
                    r->tmin[i] * 1e6, r->tavg[i] * 1e6, r->tmax[i] * 1e6, r->b[i]);
        }
}

static void measurements(FILE *f, const beff_run *r)
{
    measurements_head(f);
    for (int rep = 0; rep < r->opt.repeat; rep++)
        for (int l = 0; l < BEFF_NLEN; l++)
            beff_protocol_rows(f, r, rep, l);
    fprintf(f, "\nSECTION-MEASUREMENTS-END\n\n");
}

static void fmt_or_dash(char *buf, size_t n, const char *fmt, double v, int width)
{
    if (isnan(v))
        snprintf(buf, n, "%*s", width, "-");
    else
        snprintf(buf, n, fmt, v);
}

static void beff_section(FILE *f, const beff_run *r, const beff_summary *s)
{
    int P = r->P;
    double lmax_mb = r->lmax / 1048576.0;
    fprintf(f, "\nSECTION-BEFF-BEGIN\n\n\n");
    fprintf(f, "The effective bandwidth is b_eff = %10.3f MByte/s on %d processes\n", s->b_eff, P);
    fprintf(f, "                               ( = %10.3f MByte/s  * %d processes)\n",
            s->b_eff / P, P);
    fprintf(f, "Latency: %8.3f microsec\n\n", s->latency_us);
    fprintf(f, "Lmax: %9.3f MB\n", lmax_mb);
    fprintf(f, "b_eff at Lmax: %10.3f MByte/s on %d processes\n", s->lmax_all, P);
    fprintf(f, "           ( : %10.3f MByte/s * %d processes)\n\n", s->lmax_all / P, P);
    fprintf(f, "b_eff at Lmax (ring pattern): %11.3f MByte/s on %d processes\n", s->lmax_rings, P);
    fprintf(f, "                          ( : %11.3f MByte/s * %d processes)\n",
            s->lmax_rings / P, P);
    fprintf(f, "Latency ring pattern:         %10.3f microsec\n", s->latency_rings_us);
    if (isnan(s->pingpong_bw)) {
        fprintf(f, "Ping-pong latency:                   - (needs 2 processes)\n");
        fprintf(f, "Ping-pong bandwidth at Lmax:         - (needs 2 processes)\n");
    } else {
        fprintf(f, "Ping-pong latency:          %10.3f microsec\n", s->pingpong_latency_us);
        fprintf(f, "Ping-pong bandwidth at Lmax: %10.3f MByte/s at Lmax= %6.3f MB\n",
                s->pingpong_bw, lmax_mb);
        if (!isnan(s->link_bw[0]) && !isnan(s->link_bw[1]))
            for (int k = 0; k < 2; k++)
                fprintf(f, "Ping-pong %s-node pair:   latency %10.3f microsec, bandwidth at "
                        "Lmax %10.3f MByte/s\n", k ? "inter" : "intra", s->link_latency_us[k],
                        s->link_bw[k]);
    }
    if (r->opt.rmax_gflops > 0)
        fprintf(f, "\nBalance factor: b_eff / R_max = %.3f MByte/s / %.3f GFLOPS = %.6f Byte/Flop\n",
                s->b_eff, r->opt.rmax_gflops, s->b_eff / (r->opt.rmax_gflops * 1e3));
    fprintf(f, "\n (MByte/s=1e6 Byte/s)  (MB=2**20 Byte)\n");
    fprintf(f, "system parameters  : %d nodes, %ld MB/node\n", P, r->opt.mem_mib);
    fprintf(f, "       system name : %s\n", r->si.sysname);
    fprintf(f, "       hostname    : %s\n", r->si.nodename);
    fprintf(f, "       OS release  : %s\n", r->si.release);
    fprintf(f, "       OS version  : %s\n", r->si.version);
    fprintf(f, "       machine     : %s\n\n", r->si.machine);
    fprintf(f, "Date of measurement: %s\n\n", r->si.date);
    fprintf(f, "Total execution wall clock time = %5.0f seconds\n\n", r->elapsed_s);
    fprintf(f, "            | number  |   b_eff   |  Lmax  |   b_eff   |   b_eff   | Latency | Latency | Latency | ping-pong  \n");
    fprintf(f, "            | of pro  |           |        |  at Lmax  |  at Lmax  | rings & |  rings  |  ping-  | bandwith   \n");
    fprintf(f, "            | cessors |           |        |  rings &  |   rings   | random  |  only   |  pong   |            \n");
    fprintf(f, "            |         |           |        |  random   |   only    | micro-  | micro-  | micro-  |            \n");
    fprintf(f, "            |         |  MByte/s  |        |  MByte/s  |  MByte/s  |  sec    |  sec    |  sec    |  MByte/s   \n");
    fprintf(f, "--------------------------------------------------------------------------------------------------------------\n");
    fprintf(f, "            |                                                                                                 \n");
    char ppl[32], ppb[32];
    fmt_or_dash(ppl, sizeof ppl, "%8.3f", s->pingpong_latency_us, 8);
    fmt_or_dash(ppb, sizeof ppb, "%8.0f", s->pingpong_bw, 8);
    /* L_max in the 4 characters of the original's "%4d MB" */
    char lm[16];
    snprintf(lm, sizeof lm, lmax_mb >= 10 ? "%4.0f" : lmax_mb >= 1 ? "%4.1f" : "%4.2f", lmax_mb);
    fprintf(f, "accumulated |%7d      %7.0f  %s MB    %7.0f      %7.0f  %8.3f  %8.3f  %s     %s                    \n",
            P, s->b_eff, lm, s->lmax_all, s->lmax_rings, s->latency_us,
            s->latency_rings_us, ppl, ppb);
    fprintf(f, "            |                                                                                                 \n");
    fprintf(f, "per process |             %7.0f            %7.0f      %7.0f                                                      \n",
            s->b_eff / P, s->lmax_all / P, s->lmax_rings / P);
    fprintf(f, "\n\nSECTION-BEFF-END\n\n");
}

void beff_result_line(char *buf, size_t n, const beff_run *r, const beff_summary *s)
{
    snprintf(buf, n, "b_eff = %10.3f MB/s = %7.3f * %3d PEs with %3ld MB/PE on %s %s %s %s %s",
             s->b_eff, s->b_eff / r->P, r->P, r->opt.mem_mib, r->si.sysname, r->si.nodename,
             r->si.release, r->si.version, r->si.machine);
}

void beff_protocol_head(FILE *f, const beff_run *r) { head(f, r); }

void beff_protocol_live_begin(FILE *f, const beff_run *r)
{
    head(f, r);
    measurements_head(f);
}

void beff_protocol_rest(FILE *f, const beff_run *r, const beff_summary *s)
{
    elapsed(f, r);
    patterns(f, r);
    measurements(f, r);
    fprintf(f, "\nPrinting accumulated bandwidth / number of processes\n");
    fprintf(f, "         = bandwidth per process   (in MBytes/sec = 1e6 Bytes/sec)\n");
    fprintf(f, "Additionally the accumulated value processes is printed in the last column\n\n");
    fprintf(f, "Only the ring and random patterns are used to compute b_eff,\n");
    fprintf(f, "the other patterns are only as information.\n");
    beff_protocol_tables(f, r);
    beff_section(f, r, s);
    char line[2048];
    beff_result_line(line, sizeof line, r, s);
    fprintf(f, "%s\n", line);
}

void beff_write_protocol(FILE *f, const beff_run *r, const beff_summary *s)
{
    head(f, r);
    beff_protocol_rest(f, r, s);
}
