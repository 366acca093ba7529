/* b_eff patterns, lengths and layouts: see beff_patterns.h and
 * docs/beff-spec.md for the rules implemented here. */
#include "beff/beff_patterns.h"
#include "core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long beff_lmax(long mem_mib)
{
    long lmax = mem_mib * (1048576L / 128);
    return lmax > 128L * 1048576L ? 128L * 1048576L : lmax;
}

void beff_lengths(long lmax, long len[BEFF_NLEN], double *a_out)
{
    for (int i = 0; i <= 12; i++)
        len[i] = 1L << i;
    double a = pow((double)lmax / 4096.0, 1.0 / 8.0);
    double x = 4096.0;
    for (int k = 1; k <= 8; k++) {
        x *= a; /* accumulated in floating point, as the original */
        len[12 + k] = (long)floor(x + 0.5);
    }
    len[BEFF_NLEN - 1] = lmax; /* exact even where rounding drifts */
    if (a_out)
        *a_out = a;
}

int beff_ring_target(int r, int P)
{
    int t;
    switch (r) {
    case 0: t = 2; break;
    case 1: t = 4; break;
    case 2: t = 8; break;
    case 3: t = P / 4 > 16 ? P / 4 : 16; break;
    case 4: t = P / 2 > 32 ? P / 2 : 32; break;
    default: t = P; break;
    }
    return t < P ? t : P;
}

/* Number of rings n, small size s and number h of big (s+1) rings. */
static void ring_layout(int r, int P, int *n, int *s, int *h)
{
    int t = beff_ring_target(r, P);
    int a = (int)floor((double)P / t + 0.4), b = P / 2;
    *n = a < b ? a : b;
    if (*n < 1)
        *n = 1;
    *s = P / *n;
    *h = P - *s * *n;
}

int beff_ring_sizes(int r, int P, int *sizes)
{
    int n, s, h;
    ring_layout(r, P, &n, &s, &h);
    int big_first = (s % 2 == 1) && h > 0;
    int k = 0;
    if (big_first) {
        for (int i = 0; i < h; i++)
            sizes[k++] = s + 1;
        for (int i = 0; i < n - h; i++)
            sizes[k++] = s;
    } else {
        for (int i = 0; i < n - h; i++)
            sizes[k++] = s;
        for (int i = 0; i < h; i++)
            sizes[k++] = s + 1;
    }
    return n;
}

void beff_ring_name(int r, int P, char name[BEFF_NAME_LEN])
{
    int *sizes = eb_malloc(((size_t)P / 2 + 1) * sizeof *sizes);
    int n = beff_ring_sizes(r, P, sizes);
    const char *tail = "fix";
    for (int i = 1; i < n; i++)
        if (sizes[i] != sizes[0]) {
            tail = sizes[i] > sizes[0] ? "&+1" : "&-1";
            break;
        }
    snprintf(name, BEFF_NAME_LEN, "ring-%d*%d%s", n, sizes[0], tail);
    free(sizes);
}

void beff_rng_seed(beff_rng *g, uint64_t seed) { g->state = seed; }

uint64_t beff_rng_next(beff_rng *g)
{
    uint64_t z = (g->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void beff_permutation(beff_rng *g, int P, int *perm)
{
    for (int i = 0; i < P; i++)
        perm[i] = i;
    for (int i = P - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(beff_rng_next(g) % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

int beff_cart_procs(int P, int ndims, beff_dims_fn dims_create, int dims[3])
{
    for (int q = P; q >= 1; q--) {
        int d[3] = {0, 0, 0};
        dims_create(q, ndims, d);
        int all_gt1 = 1;
        for (int i = 0; i < ndims; i++)
            all_gt1 &= d[i] > 1;
        if (all_gt1 || (q < 8 && q % 2 == 0) || q < 4) {
            for (int i = 0; i < 3; i++)
                dims[i] = i < ndims ? d[i] : 1;
            return q;
        }
    }
    dims[0] = dims[1] = dims[2] = 1;
    return 1;
}

void beff_pattern_init(beff_pattern *pt, const char *name, enum beff_kind kind, int P, int active)
{
    memset(pt, 0, sizeof *pt);
    snprintf(pt->name, sizeof pt->name, "%s", name);
    pt->kind = kind;
    pt->P = P;
    pt->active = active;
    size_t n = (size_t)P * BEFF_MAX_STEPS;
    pt->to = eb_malloc(n * sizeof *pt->to);
    pt->from = eb_malloc(n * sizeof *pt->from);
    for (size_t i = 0; i < n; i++)
        pt->to[i] = pt->from[i] = -1;
}

void beff_pattern_free(beff_pattern *pt)
{
    free(pt->to);
    free(pt->from);
    pt->to = pt->from = NULL;
}

static void set_step(beff_pattern *pt, int p, int s, int to, int from)
{
    if (s >= BEFF_MAX_STEPS)
        eb_abort("b_eff: pattern %s: more than %d steps", pt->name, BEFF_MAX_STEPS);
    pt->to[p * BEFF_MAX_STEPS + s] = to;
    pt->from[p * BEFF_MAX_STEPS + s] = from;
    if (s + 1 > pt->nsteps)
        pt->nsteps = s + 1;
}

void beff_add_ring(beff_pattern *pt, const int *order, int k)
{
    for (int i = 0; i < k; i++) {
        int x = order[i], right = order[(i + 1) % k], left = order[(i - 1 + k) % k];
        set_step(pt, x, 0, right, left);
        if (right != left)
            set_step(pt, x, 1, left, right);
    }
}

void beff_make_ring_pattern(beff_pattern *pt, int r, int P)
{
    char name[BEFF_NAME_LEN];
    beff_ring_name(r, P, name);
    beff_pattern_init(pt, name, BEFF_RING, P, P);
    int *sizes = eb_malloc(((size_t)P / 2 + 1) * sizeof *sizes);
    int *order = eb_malloc((size_t)P * sizeof *order);
    for (int i = 0; i < P; i++)
        order[i] = i;
    int n = beff_ring_sizes(r, P, sizes), b = 0;
    for (int i = 0; i < n; i++) {
        beff_add_ring(pt, order + b, sizes[i]);
        b += sizes[i];
    }
    free(order);
    free(sizes);
}

void beff_make_random_pattern(beff_pattern *pt, int P, const int *perm)
{
    beff_pattern_init(pt, "random-cyc-1dim", BEFF_RANDOM, P, P);
    beff_add_ring(pt, perm, P);
}

void beff_make_worst_cycle(beff_pattern *pt, int P)
{
    beff_pattern_init(pt, "worst-cyc-1dim", BEFF_ANALYSIS, P, P);
    int *order = eb_malloc((size_t)P * sizeof *order);
    for (int i = 0, lo = 0, hi = P - 1; i < P; i++)
        order[i] = i % 2 == 0 ? lo++ : hi--;
    beff_add_ring(pt, order, P);
    free(order);
}

static void add_pair(beff_pattern *pt, int a, int b)
{
    set_step(pt, a, 0, b, -1);
    set_step(pt, b, 0, -1, a);
    set_step(pt, a, 1, -1, b);
    set_step(pt, b, 1, a, -1);
}

int beff_make_bisection(beff_pattern *pt, int P, int worst)
{
    int q = P - P % 2;
    if (q < 2)
        return 0;
    beff_pattern_init(pt, worst ? "worst bi-section" : "best  bi-section", BEFF_ANALYSIS, P, q);
    for (int i = 0; i < q / 2; i++) {
        if (worst)
            add_pair(pt, i, q - 1 - i);
        else
            add_pair(pt, 2 * i, 2 * i + 1);
    }
    return 1;
}

int beff_make_pingpong(beff_pattern *pt, int P)
{
    if (P < 2)
        return 0;
    beff_make_pingpong_pair(pt, P, 0, 1, "one PingPong Pair");
    return 1;
}

void beff_make_pingpong_pair(beff_pattern *pt, int P, int a, int b, const char *name)
{
    beff_pattern_init(pt, name, BEFF_ANALYSIS, P, b + 1);
    pt->sendrecv_only = 1;
    add_pair(pt, a, b);
}

void beff_make_cart(beff_pattern *pt, int P, int ndims, const int dims[3], int dir, int periodic)
{
    static const char *dirname[3] = {"x", "y", "z"};
    char name[BEFF_NAME_LEN];
    snprintf(name, sizeof name, "%scyclic-%ddim-%s", periodic ? "" : "a", ndims,
             dir < 0 ? "all" : dirname[dir]);
    int q = 1, stride[3];
    for (int d = ndims - 1; d >= 0; d--) { /* row-major, as MPI_Cart_create */
        stride[d] = q;
        q *= dims[d];
    }
    beff_pattern_init(pt, name, BEFF_ANALYSIS, P, q);
    for (int p = 0; p < q; p++) {
        int s = 0;
        for (int d = 0; d < ndims; d++) {
            if (dims[d] < 2 || (dir >= 0 && d != dir))
                continue;
            int c = (p / stride[d]) % dims[d];
            int plus = -1, minus = -1;
            if (c + 1 < dims[d])
                plus = p + stride[d];
            else if (periodic)
                plus = p - c * stride[d];
            if (c > 0)
                minus = p - stride[d];
            else if (periodic)
                minus = p + (dims[d] - 1) * stride[d];
            set_step(pt, p, s++, plus, minus);
            if (!(periodic && dims[d] == 2))
                set_step(pt, p, s++, minus, plus);
        }
    }
}

long beff_messages(const beff_pattern *pt)
{
    long n = 0;
    for (int p = 0; p < pt->P; p++)
        n += beff_sends(pt, p);
    return n;
}

int beff_sends(const beff_pattern *pt, int p)
{
    int n = 0;
    for (int s = 0; s < BEFF_MAX_STEPS; s++)
        n += beff_to(pt, p, s) >= 0;
    return n;
}

int beff_recvs(const beff_pattern *pt, int p)
{
    int n = 0;
    for (int s = 0; s < BEFF_MAX_STEPS; s++)
        n += beff_from(pt, p, s) >= 0;
    return n;
}

int beff_used_procs(const beff_pattern *pt)
{
    int n = 0;
    for (int p = 0; p < pt->P; p++)
        n += beff_sends(pt, p) + beff_recvs(pt, p) > 0;
    return n;
}
