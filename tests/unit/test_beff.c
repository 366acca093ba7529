/* b_eff pure functions: lengths, ring layouts, random patterns, Cartesian
 * grids, message counting, averaging, options (docs/beff-spec.md). */
#include "beff/beff_analysis.h"
#include "beff/beff_loops.h"
#include "beff/beff_opts.h"
#include "core/error.h"
#include "core/stats.h"
#include "unit.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>

static void test_lengths(void)
{
    long len[BEFF_NLEN];
    double a;
    CHECK_EQ_LONG(beff_lmax(64), 524288);
    beff_lengths(beff_lmax(64), len, &a);
    static const long want64[BEFF_NLEN] = {1,    2,     4,     8,     16,    32,     64,
                                           128,  256,   512,   1024,  2048,  4096,   7512,
                                           13777, 25268, 46341, 84990, 155872, 285870, 524288};
    for (int i = 0; i < BEFF_NLEN; i++)
        CHECK_EQ_LONG(len[i], want64[i]);
    CHECK(fabs(a - 1.834008) < 1e-6);

    beff_lengths(beff_lmax(128), len, &a);
    CHECK(fabs(a - 2.0) < 1e-12);
    for (int k = 1; k <= 8; k++)
        CHECK_EQ_LONG(len[12 + k], 4096L << k);

    beff_lengths(beff_lmax(4), len, &a); /* the tests' M: L_max = 32 KiB */
    CHECK_EQ_LONG(len[20], 32768);
    static const long want4[8] = {5312, 6889, 8933, 11585, 15024, 19484, 25268, 32768};
    for (int k = 0; k < 8; k++)
        CHECK_EQ_LONG(len[13 + k], want4[k]);

    /* L_max capped at 128 MiB from M = 16 GiB on */
    CHECK_EQ_LONG(beff_lmax(16384), 128L << 20);
    CHECK_EQ_LONG(beff_lmax(65536), 128L << 20);
    CHECK_EQ_LONG(beff_lmax(8192), 64L << 20);
    for (long m = 1; m <= 100000; m = m * 3 + 1) {
        beff_lengths(beff_lmax(m), len, NULL);
        CHECK_EQ_LONG(len[20], beff_lmax(m));
        for (int i = 0; i <= 12; i++)
            CHECK_EQ_LONG(len[i], 1L << i);
        for (int i = 13; i < BEFF_NLEN; i++)
            CHECK(len[i] >= len[i - 1]);
    }
}

/* "count x size" list of a ring pattern, e.g. "2x2+1x3" */
static void ring_desc(int r, int P, char *buf, size_t n)
{
    int *s = malloc(((size_t)P / 2 + 1) * sizeof *s);
    int k = beff_ring_sizes(r, P, s);
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < k;) {
        int j = i;
        while (j < k && s[j] == s[i])
            j++;
        used += (size_t)snprintf(buf + used, n - used, "%s%dx%d", i ? "+" : "", j - i, s[i]);
        i = j;
    }
    free(s);
}

static void test_rings(void)
{
    static const struct {
        int P;
        const char *want[6];
    } ex[] = {
        {4, {"2x2", "1x4", "1x4", "1x4", "1x4", "1x4"}},
        {7, {"2x2+1x3", "1x4+1x3", "1x7", "1x7", "1x7", "1x7"}},
        {9, {"3x2+1x3", "1x4+1x5", "1x9", "1x9", "1x9", "1x9"}},
        {13, {"5x2+1x3", "2x4+1x5", "1x6+1x7", "1x13", "1x13", "1x13"}},
        {27, {"12x2+1x3", "6x4+1x3", "3x9", "1x14+1x13", "1x27", "1x27"}},
        {64, {"32x2", "16x4", "8x8", "4x16", "2x32", "1x64"}},
        {128, {"64x2", "32x4", "16x8", "4x32", "2x64", "1x128"}},
    };
    char buf[256];
    for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++)
        for (int r = 0; r < 6; r++) {
            ring_desc(r, ex[e].P, buf, sizeof buf);
            CHECK_STR(buf, ex[e].want[r]);
        }
    /* every process count: rings of at least 2 covering P */
    for (int P = 2; P <= 200; P++)
        for (int r = 0; r < 6; r++) {
            int *s = malloc(((size_t)P / 2 + 1) * sizeof *s);
            int k = beff_ring_sizes(r, P, s), sum = 0, ok = 1;
            for (int i = 0; i < k; i++) {
                sum += s[i];
                ok &= s[i] >= 2 && (s[i] == s[0] || s[i] == s[0] + 1 || s[i] == s[0] - 1);
            }
            CHECK(ok);
            CHECK_EQ_LONG(sum, P);
            free(s);
            beff_pattern pt;
            beff_make_ring_pattern(&pt, r, P);
            CHECK_EQ_LONG(pt.active, P);
            beff_pattern_free(&pt);
        }
    /* P = 1: one ring of one process, sending to itself (docs/beff.md) */
    int s1[1];
    CHECK_EQ_LONG(beff_ring_sizes(0, 1, s1), 1);
    CHECK_EQ_LONG(s1[0], 1);
    char name[BEFF_NAME_LEN];
    beff_ring_name(0, 4, name);
    CHECK_STR(name, "ring-2*2fix");
    beff_ring_name(1, 4, name);
    CHECK_STR(name, "ring-1*4fix");
    beff_ring_name(0, 7, name);
    CHECK_STR(name, "ring-3*2&+1");
    beff_ring_name(1, 7, name);
    CHECK_STR(name, "ring-2*4&-1");
    beff_ring_name(3, 27, name);
    CHECK_STR(name, "ring-2*14&-1");
    beff_ring_name(2, 27, name);
    CHECK_STR(name, "ring-3*9fix");
}

/* Every send at step s is received at step s by its target, from its sender. */
static int consistent(const beff_pattern *pt)
{
    for (int p = 0; p < pt->P; p++)
        for (int s = 0; s < BEFF_MAX_STEPS; s++) {
            int to = beff_to(pt, p, s), from = beff_from(pt, p, s);
            if (to >= 0 && (to >= pt->active || beff_from(pt, to, s) != p))
                return 0;
            if (from >= 0 && (from >= pt->active || beff_to(pt, from, s) != p))
                return 0;
            if (p >= pt->active && (to >= 0 || from >= 0))
                return 0;
        }
    return 1;
}

static void test_patterns(void)
{
    beff_pattern pt;
    /* messages counted over all processes: P = 5, pattern 0 = 1x2 + 1x3 */
    beff_make_ring_pattern(&pt, 0, 5);
    CHECK_STR(pt.name, "ring-2*2&+1");
    CHECK_EQ_LONG(beff_messages(&pt), 2 + 6);
    CHECK_EQ_LONG(pt.nsteps, 2);
    CHECK(consistent(&pt));
    beff_pattern_free(&pt);
    beff_make_ring_pattern(&pt, 0, 4);
    CHECK_EQ_LONG(beff_messages(&pt), 4); /* rings of 2: the pong is dropped */
    CHECK_EQ_LONG(pt.nsteps, 1);
    beff_pattern_free(&pt);
    beff_make_ring_pattern(&pt, 5, 1); /* send to self */
    CHECK_EQ_LONG(beff_messages(&pt), 1);
    CHECK_EQ_LONG(beff_to(&pt, 0, 0), 0);
    CHECK_EQ_LONG(beff_from(&pt, 0, 0), 0);
    beff_pattern_free(&pt);

    beff_make_worst_cycle(&pt, 6); /* order 0 5 1 4 2 3 */
    CHECK_EQ_LONG(beff_to(&pt, 0, 0), 5);
    CHECK_EQ_LONG(beff_to(&pt, 5, 0), 1);
    CHECK_EQ_LONG(beff_to(&pt, 3, 0), 0);
    CHECK_EQ_LONG(beff_from(&pt, 0, 0), 3);
    CHECK(consistent(&pt));
    beff_pattern_free(&pt);

    CHECK(beff_make_bisection(&pt, 5, 1)); /* q = 4: pairs (0,3), (1,2) */
    CHECK_EQ_LONG(beff_to(&pt, 0, 0), 3);
    CHECK_EQ_LONG(beff_to(&pt, 2, 1), 1);
    CHECK_EQ_LONG(beff_messages(&pt), 4);
    CHECK_EQ_LONG(beff_used_procs(&pt), 4);
    CHECK(consistent(&pt));
    beff_pattern_free(&pt);
    CHECK(beff_make_bisection(&pt, 4, 0));
    CHECK_STR(pt.name, "best  bi-section");
    CHECK_EQ_LONG(beff_to(&pt, 2, 0), 3);
    beff_pattern_free(&pt);
    CHECK(!beff_make_bisection(&pt, 1, 0));
    CHECK(!beff_make_pingpong(&pt, 1));
    CHECK(beff_make_pingpong(&pt, 4));
    CHECK_EQ_LONG(beff_messages(&pt), 2);
    CHECK_EQ_LONG(pt.P - beff_used_procs(&pt), 2);
    CHECK(pt.sendrecv_only);
    beff_pattern_free(&pt);

    /* Cartesian grids: the sample's 2 * 2 and 2 * 2 * 1 at 4 processes */
    int dims[3];
    CHECK_EQ_LONG(beff_cart_procs(4, 2, MPI_Dims_create, dims), 4);
    CHECK_EQ_LONG(dims[0] * 10 + dims[1], 22);
    CHECK_EQ_LONG(beff_cart_procs(4, 3, MPI_Dims_create, dims), 4);
    CHECK_EQ_LONG(dims[0] * 100 + dims[1] * 10 + dims[2], 221);
    CHECK_EQ_LONG(beff_cart_procs(2, 2, MPI_Dims_create, dims), 2);
    CHECK_EQ_LONG(dims[0] * 10 + dims[1], 21);
    CHECK_EQ_LONG(beff_cart_procs(5, 2, MPI_Dims_create, dims), 4);
    CHECK_EQ_LONG(beff_cart_procs(7, 3, MPI_Dims_create, dims), 6);
    CHECK_EQ_LONG(beff_cart_procs(11, 2, MPI_Dims_create, dims), 10);
    CHECK_EQ_LONG(beff_cart_procs(9, 3, MPI_Dims_create, dims), 8);
    CHECK_EQ_LONG(dims[0] * 100 + dims[1] * 10 + dims[2], 222);
    CHECK_EQ_LONG(beff_cart_procs(13, 3, MPI_Dims_create, dims), 12);
    CHECK_EQ_LONG(beff_cart_procs(1, 2, MPI_Dims_create, dims), 1);
    CHECK_EQ_LONG(beff_cart_procs(3, 2, MPI_Dims_create, dims), 3);

    int d22[3] = {2, 2, 1};
    beff_make_cart(&pt, 4, 2, d22, -1, 1);
    CHECK_STR(pt.name, "cyclic-2dim-all");
    CHECK_EQ_LONG(pt.nsteps, 2);
    CHECK_EQ_LONG(beff_messages(&pt), 8);
    CHECK(consistent(&pt));
    beff_pattern_free(&pt);
    beff_make_cart(&pt, 4, 2, d22, -1, 0);
    CHECK_STR(pt.name, "acyclic-2dim-all");
    CHECK_EQ_LONG(pt.nsteps, 4);
    CHECK_EQ_LONG(beff_messages(&pt), 8);
    CHECK(consistent(&pt));
    beff_pattern_free(&pt);
    beff_make_cart(&pt, 4, 3, d22, 1, 1);
    CHECK_STR(pt.name, "cyclic-3dim-y");
    CHECK_EQ_LONG(beff_messages(&pt), 4);
    beff_pattern_free(&pt);
    int d332[3] = {3, 3, 2};
    beff_make_cart(&pt, 20, 3, d332, -1, 1); /* 18 of 20 processes */
    CHECK_EQ_LONG(pt.active, 18);
    CHECK_EQ_LONG(pt.nsteps, 5);
    CHECK_EQ_LONG(beff_messages(&pt), 18 * 5);
    CHECK_EQ_LONG(beff_used_procs(&pt), 18);
    CHECK(consistent(&pt));
    beff_pattern_free(&pt);

    /* all patterns consistent for every process count */
    int ok = 1;
    for (int P = 1; P <= 64; P++) {
        for (int r = 0; r < 6; r++) {
            beff_make_ring_pattern(&pt, r, P);
            ok &= consistent(&pt);
            beff_pattern_free(&pt);
        }
        int d[3];
        for (int nd = 2; nd <= 3; nd++) {
            beff_cart_procs(P, nd, MPI_Dims_create, d);
            for (int dir = -1; dir < nd; dir++)
                for (int per = 0; per < 2; per++) {
                    beff_make_cart(&pt, P, nd, d, dir, per);
                    ok &= consistent(&pt);
                    beff_pattern_free(&pt);
                }
        }
    }
    CHECK(ok);
}

static void test_random(void)
{
    int P = 37, a[37], b[37], seen[37] = {0};
    beff_rng g1, g2;
    beff_rng_seed(&g1, 12345);
    beff_rng_seed(&g2, 12345);
    int same = 1, differs = 0;
    for (int k = 0; k < 30; k++) {
        beff_permutation(&g1, P, a);
        beff_permutation(&g2, P, b);
        for (int i = 0; i < P; i++) {
            same &= a[i] == b[i];
            differs |= a[i] != i;
        }
    }
    CHECK(same);
    CHECK(differs);
    for (int i = 0; i < P; i++)
        seen[a[i]]++;
    int perm = 1;
    for (int i = 0; i < P; i++)
        perm &= seen[i] == 1;
    CHECK(perm);
    /* a different seed gives a different sequence */
    beff_rng_seed(&g2, 12346);
    beff_permutation(&g2, P, b);
    beff_rng_seed(&g1, 12345);
    beff_permutation(&g1, P, a);
    int diff = 0;
    for (int i = 0; i < P; i++)
        diff |= a[i] != b[i];
    CHECK(diff);
    /* the stream is fixed: splitmix64 of seed 0 */
    beff_rng_seed(&g1, 0);
    CHECK(beff_rng_next(&g1) == 0xE220A8397B1DCDAFULL);
    beff_pattern pt;
    beff_make_random_pattern(&pt, P, a);
    CHECK(consistent(&pt));
    CHECK_EQ_LONG(beff_messages(&pt), 2 * P);
    CHECK_EQ_LONG(beff_to(&pt, a[0], 0), a[1]);
    beff_pattern_free(&pt);
}

static void test_averaging(void)
{
    double v[3] = {1, 10, 100};
    CHECK(fabs(eb_logavg(v, 3) - 10) < 1e-12);
    double w[2] = {4, 9};
    CHECK(fabs(eb_logavg(w, 2) - 6) < 1e-12);

    /* b_eff of a synthetic run: 2 rings... values chosen so the answer is exact */
    beff_run r = {0};
    r.P = 2;
    r.nmeth = 3;
    r.npat = 4;
    r.nring = 2;
    r.nrandom = 1;
    r.pingpong = 3;
    r.messages = (long[]){2, 2, 2, 2};
    beff_pattern pats[4];
    for (int p = 0; p < 4; p++)
        pats[p].nsteps = 1;
    r.pat = pats;
    size_t n = (size_t)r.npat * BEFF_NLEN * r.nmeth * BEFF_REPS;
    r.b = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        r.b[i] = NAN;
    double per_pat[4] = {100, 400, 25, 7};
    for (int p = 0; p < 4; p++)
        for (int l = 0; l < BEFF_NLEN; l++)
            for (int m = 0; m < 3; m++)
                for (int rep = 0; rep < BEFF_REPS; rep++)
                    if (p != 3 || m == 0)
                        /* the maximum (method 1, rep 2) is per_pat * (l + 1) */
                        r.b[beff_idx(&r, p, l, m, rep)] =
                            per_pat[p] * (l + 1) * (m == 1 && rep == 2 ? 1.0 : 0.5);
    beff_summary s;
    beff_summarize(&r, &s);
    /* avg over L of (l+1) = 11 */
    CHECK(fabs(s.b_rings - 200 * 11) < 1e-9);
    CHECK(fabs(s.b_random - 25 * 11) < 1e-9);
    CHECK(fabs(s.b_eff - sqrt(200.0 * 11 * 25 * 11)) < 1e-9);
    CHECK(fabs(s.lmax_rings - 200 * 21) < 1e-9);
    CHECK(fabs(s.lmax_all - sqrt(200.0 * 21 * 25 * 21)) < 1e-9);
    CHECK(fabs(s.latency_rings_us - 2 / 200.0) < 1e-12);
    CHECK(fabs(s.pingpong_bw - 7 * 21 * 0.5) < 1e-12); /* Sendrecv only */
    CHECK(fabs(s.pingpong_latency_us - 1 / 3.5) < 1e-12);
    free(r.b);
}

static void test_options(void)
{
    beff_options o;
    char err[EB_ERRLEN];
    char *a1[] = {"beff", "--mem-per-proc", "64", "--random-patterns=2", "--seed", "42",
                  "--split-nonblocking", "--rmax", "1.5", "-check", "--json", "x.jsonl"};
    CHECK_EQ_LONG(beff_parse_options(&o, 12, a1, err, sizeof err), 0);
    CHECK_EQ_LONG(o.mem_mib, 64);
    CHECK_EQ_LONG(o.nrandom, 2);
    CHECK_EQ_LONG((long)o.seed, 42);
    CHECK(o.seed_given && o.split_nonblocking && o.check);
    CHECK(o.rmax_gflops == 1.5);
    CHECK_STR(o.json_path, "x.jsonl");
    char *a2[] = {"beff"};
    CHECK_EQ_LONG(beff_parse_options(&o, 1, a2, err, sizeof err), 0);
    CHECK_EQ_LONG(o.mem_mib, 0);
    CHECK_EQ_LONG(o.nrandom, 30);
    CHECK(o.loop_ms == 2.5);
    CHECK_EQ_LONG(o.repeat, 3);
    char *a7[] = {"beff", "--repeat=1"};
    CHECK_EQ_LONG(beff_parse_options(&o, 2, a7, err, sizeof err), 0);
    CHECK_EQ_LONG(o.repeat, 1);
    char *a8[] = {"beff", "--repeat", "1.5"};
    CHECK_EQ_LONG(beff_parse_options(&o, 3, a8, err, sizeof err), -1);
    CHECK_STR(err, "--repeat: '1.5' is not a number in 1..3");
    char *a3[] = {"beff", "--mem-per-proc", "0"};
    CHECK_EQ_LONG(beff_parse_options(&o, 3, a3, err, sizeof err), -1);
    CHECK_STR(err, "--mem-per-proc: '0' is not a whole number of MB >= 1");
    char *a4[] = {"beff", "--random-patterns"};
    CHECK_EQ_LONG(beff_parse_options(&o, 2, a4, err, sizeof err), -1);
    CHECK_STR(err, "--random-patterns: missing value");
    char *a5[] = {"beff", "--bogus"};
    CHECK_EQ_LONG(beff_parse_options(&o, 2, a5, err, sizeof err), -1);
    CHECK_STR(err, "--bogus: unknown option (see b_eff -h)");
    char *a6[] = {"beff", "--rmax", "-3"};
    CHECK_EQ_LONG(beff_parse_options(&o, 3, a6, err, sizeof err), -1);
    CHECK_STR(err, "--rmax: '-3' is not a positive number of GFLOPS");

    /* loop length: kept inside 2.5-5 ms, else scaled to 3.75 ms, >= 1 */
    CHECK_EQ_LONG(beff_next_looplength(300, 3e-3, 2.5), 300);
    CHECK_EQ_LONG(beff_next_looplength(300, 1e-3, 2.5), 1125);
    CHECK_EQ_LONG(beff_next_looplength(300, 7.5e-3, 2.5), 150);
    CHECK_EQ_LONG(beff_next_looplength(1, 1.0, 2.5), 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv); /* MPI_Dims_create */
    test_lengths();
    test_rings();
    test_patterns();
    test_random();
    test_averaging();
    test_options();
    MPI_Finalize();
    UNIT_DONE();
}
