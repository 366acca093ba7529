/* The node-pair matrix: every pair meets exactly once in nm_rounds rounds,
 * no node is in two pairs of a round, and the flagging rule finds the slow
 * node, the slow link, and nothing in a noisy but healthy matrix. */
#include "nodes/node_matrix.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_rounds(void)
{
    for (int n = 2; n <= 33; n++) {
        int R = nm_rounds(n);
        CHECK(R == (n % 2 ? n : n - 1));
        int *met = calloc((size_t)n * n, sizeof *met);
        for (int r = 0; r < R; r++)
            for (int i = 0; i < n; i++) {
                int p = nm_partner(n, r, i);
                if (p < 0)
                    continue;
                CHECK(p != i && p < n);
                CHECK(nm_partner(n, r, p) == i); /* pairs are mutual within a round */
                met[i * n + p]++;
            }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                CHECK(met[i * n + j] == (i != j));
        free(met);
    }
    CHECK(nm_rounds(1) == 0 && nm_partner(1, 0, 0) == -1);
}

static void fill(int n, double *m, double base, unsigned seed)
{
    srand(seed);
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            double v = i == j ? NAN : base * (1 + 0.1 * ((double)rand() / RAND_MAX - 0.5));
            m[i * n + j] = m[j * n + i] = v;
        }
}

static void test_flags(void)
{
    nm_rule rule = {NM_DEFAULT_Z, NM_DEFAULT_RATIO};
    for (int n = 3; n <= 12; n++) {
        double *m = malloc(sizeof(double) * n * n);
        int *nf = malloc(sizeof(int) * n), *lf = malloc(sizeof(int) * n * n);
        /* healthy: +-5 % noise flags nothing */
        fill(n, m, 50.0, (unsigned)n);
        CHECK(nm_flag(n, m, 1, rule, nf, lf) == 0);
        CHECK(nm_flag(n, m, 0, rule, nf, lf) == 0);
        /* one slow node (every link of node 1 five times the latency): only it */
        for (int j = 0; j < n; j++)
            if (j != 1)
                m[1 * n + j] = m[j * n + 1] = 250.0;
        CHECK(nm_flag(n, m, 1, rule, nf, lf) == 1);
        for (int i = 0; i < n; i++)
            CHECK(nf[i] == (i == 1));
        /* the same node as low bandwidth */
        fill(n, m, 1000.0, (unsigned)n + 100);
        for (int j = 0; j < n; j++)
            if (j != n - 1)
                m[(n - 1) * n + j] = m[j * n + n - 1] = 100.0;
        CHECK(nm_flag(n, m, 0, rule, nf, lf) == 1 && nf[n - 1] == 1);
        /* one bad cable between 0 and 2 among healthy nodes (n >= 4: a link of
         * three nodes is half of each node's links) */
        if (n >= 5) {
            fill(n, m, 50.0, (unsigned)n + 200);
            m[0 * n + 2] = m[2 * n + 0] = 400.0;
            CHECK(nm_flag(n, m, 1, rule, nf, lf) == 1);
            CHECK(lf[0 * n + 2] == 1 && lf[2 * n + 0] == 1 && nf[0] == 0 && nf[2] == 0);
        }
        free(m);
        free(nf);
        free(lf);
    }
    double two[4] = {NAN, 10, 10, NAN};
    int nf[2], lf[4];
    CHECK(nm_flag(2, two, 1, rule, nf, lf) == 0); /* two nodes: nothing to compare */
    double v[5] = {3, NAN, 1, 2, 10};
    CHECK(nm_median(v, 5) == 2.5);
}

int main(void)
{
    test_rounds();
    test_flags();
    UNIT_DONE();
}
