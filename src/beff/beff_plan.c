/* b_eff's pattern plan: the rings, the random rings and the analysis
 * patterns of a run, in the original's order (docs/beff.md). */
#include "beff/beff_plan.h"

#include "core/error.h"
#include "core/nodemap.h"

#include <mpi.h>

/* Where ranks 0 and 1 share a node and another rank is elsewhere (or the
 * other way round), a second ping-pong pair of the other kind, (0, first such
 * rank): the summary then gives intra-node and inter-node figures apart (as
 * the paper's SR 8000 rows compare placements).  Returns the patterns added. */
static int add_other_pingpong(beff_run *r, beff_pattern *pt)
{
    if (r->pingpong < 0)
        return 0;
    const eb_nodemap *m = eb_world_nodes();
    int intra01 = m->node_of[0] == m->node_of[1];
    for (int b = 2; b < r->P; b++)
        if ((m->node_of[b] == m->node_of[0]) != intra01) {
            beff_make_pingpong_pair(pt, r->P, 0, b, intra01 ? "PingPong inter-node"
                                                            : "PingPong intra-node");
            r->pingpong_other = r->pingpong + 1;
            return 1;
        }
    return 0;
}

/* The patterns in the original's order: rings, random, then the analysis
 * patterns. */
void beff_build_patterns(beff_run *r)
{
    int P = r->P;
    int max = BEFF_NRINGS + r->opt.nrandom + 5 + 2 + 8;
    r->pat = eb_calloc((size_t)max, sizeof *r->pat);
    int n = 0;
    for (int k = 0; k < BEFF_NRINGS; k++)
        beff_make_ring_pattern(&r->pat[n++], k, P);
    r->nring = BEFF_NRINGS;
    beff_rng g;
    beff_rng_seed(&g, r->opt.seed);
    r->random_order = eb_malloc((size_t)r->opt.nrandom * P * sizeof *r->random_order);
    for (int k = 0; k < r->opt.nrandom; k++) {
        int *perm = r->random_order + (size_t)k * P;
        beff_permutation(&g, P, perm);
        beff_make_random_pattern(&r->pat[n++], P, perm);
    }
    r->nrandom = r->opt.nrandom;
    beff_make_worst_cycle(&r->pat[n++], P);
    n += beff_make_bisection(&r->pat[n], P, 0);
    n += beff_make_bisection(&r->pat[n], P, 1);
    r->pingpong = r->pingpong_other = -1;
    if (beff_make_pingpong(&r->pat[n], P))
        r->pingpong = n++;
    n += add_other_pingpong(r, &r->pat[n]);
    r->q2 = beff_cart_procs(P, 2, MPI_Dims_create, r->dims2);
    r->q3 = beff_cart_procs(P, 3, MPI_Dims_create, r->dims3);
    int has2 = r->dims2[0] > 1 || r->dims2[1] > 1;
    int has3 = r->dims3[0] > 1 || r->dims3[1] > 1 || r->dims3[2] > 1;
    if (has2)
        beff_make_cart(&r->pat[n++], P, 2, r->dims2, -1, 0);
    if (has3)
        beff_make_cart(&r->pat[n++], P, 3, r->dims3, -1, 0);
    for (int nd = 2; nd <= 3; nd++) {
        const int *dims = nd == 2 ? r->dims2 : r->dims3;
        if (!(nd == 2 ? has2 : has3))
            continue;
        for (int d = 0; d < nd; d++)
            if (dims[d] > 1)
                beff_make_cart(&r->pat[n++], P, nd, dims, d, 1);
        beff_make_cart(&r->pat[n++], P, nd, dims, -1, 1);
    }
    r->npat = n;
    r->messages = eb_malloc((size_t)n * sizeof *r->messages);
    for (int i = 0; i < n; i++)
        r->messages[i] = beff_messages(&r->pat[i]);
}
