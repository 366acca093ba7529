#include "core/nodemap.h"

#include "core/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Node numbers in order of first appearance; an open-addressing table keeps
 * this O(P) at thousands of simulated ranks. */
static void number_nodes(eb_nodemap *m, const uint64_t *hash)
{
    size_t cap = 4;
    while (cap < 2 * (size_t)m->size)
        cap *= 2;
    uint64_t *key = eb_calloc(cap, sizeof *key);
    int *val = eb_malloc(cap * sizeof *val);
    char *used = eb_calloc(cap, 1);
    m->leader = eb_malloc((size_t)m->size * sizeof *m->leader);
    m->count = eb_calloc((size_t)m->size, sizeof *m->count);
    m->nnodes = 0;
    for (int r = 0; r < m->size; r++) {
        size_t i = (size_t)(hash[r] & (cap - 1));
        while (used[i] && key[i] != hash[r])
            i = (i + 1) & (cap - 1);
        if (!used[i]) {
            used[i] = 1;
            key[i] = hash[r];
            val[i] = m->nnodes;
            m->leader[m->nnodes++] = r;
        }
        m->node_of[r] = val[i];
        m->count[val[i]]++;
    }
    free(key);
    free(val);
    free(used);
}

/* Test-only: EFFBENCH_TEST_RANKS_PER_NODE=K names the node of rank r
 * "HOST-nodeR/K", so one machine can stand for several nodes in the tests of
 * node-aware output (docs/testing.md); never set in a real run. */
static void test_node_name(char *name, MPI_Comm comm)
{
    const char *k = getenv("EFFBENCH_TEST_RANKS_PER_NODE");
    int per = k ? atoi(k) : 0;
    if (per < 1)
        return;
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t len = strlen(name);
    snprintf(name + len, MPI_MAX_PROCESSOR_NAME - len, "-node%d", rank / per);
}

void eb_nodemap_build(eb_nodemap *m, MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &m->size);
    char name[MPI_MAX_PROCESSOR_NAME] = {0};
    int len;
    MPI_Get_processor_name(name, &len);
    test_node_name(name, comm);
    uint64_t mine = name_hash(name);
    uint64_t *hash = eb_malloc((size_t)m->size * sizeof *hash);
    MPI_Allgather(&mine, 1, MPI_UINT64_T, hash, 1, MPI_UINT64_T, comm);
    m->node_of = eb_malloc((size_t)m->size * sizeof *m->node_of);
    number_nodes(m, hash);
    free(hash);
    /* names: only rank 0 prints them */
    char *all = rank == 0 ? eb_malloc((size_t)m->size * MPI_MAX_PROCESSOR_NAME) : NULL;
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
               comm);
    m->name = NULL;
    if (rank == 0) {
        m->name = eb_malloc((size_t)m->nnodes * sizeof *m->name);
        for (int n = 0; n < m->nnodes; n++)
            m->name[n] = eb_strdup(all + (size_t)m->leader[n] * MPI_MAX_PROCESSOR_NAME);
        free(all);
    }
}

void eb_nodemap_free(eb_nodemap *m)
{
    if (m->name)
        for (int n = 0; n < m->nnodes; n++)
            free(m->name[n]);
    free(m->name);
    free(m->node_of);
    free(m->leader);
    free(m->count);
    memset(m, 0, sizeof *m);
}

static eb_nodemap world;
static int world_built;

const eb_nodemap *eb_world_nodes(void)
{
    if (!world_built) {
        eb_nodemap_build(&world, MPI_COMM_WORLD);
        world_built = 1;
    }
    return &world;
}

const char *eb_link_label(int a, int b)
{
    const eb_nodemap *m = eb_world_nodes();
    return m->node_of[a] == m->node_of[b] ? "intra" : "inter";
}
