#include "core/expect_placement.h"

#include "core/error.h"
#include "core/nodemap.h"
#include "core/topology.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const wheres[] = {"same-node", "different-nodes", "same-socket",
                                     "different-sockets", "different-gpus", NULL};
static const char *expected; /* one of wheres, or NULL */

int eb_expect_placement_take_option(int *argc, char **argv, char *err, size_t errlen)
{
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--expect-placement") != 0)
            continue;
        const char *v = i + 1 < *argc ? argv[i + 1] : NULL;
        expected = NULL;
        for (const char *const *w = wheres; v && *w; w++)
            if (strcmp(v, *w) == 0)
                expected = *w;
        if (!expected)
            return eb_err(err, errlen, "--expect-placement %s: expected same-node, "
                          "different-nodes, same-socket, different-sockets or different-gpus",
                          v ? v : "(missing)");
        memmove(&argv[i], &argv[i + 2], (size_t)(*argc - i - 2 + 1) * sizeof *argv);
        *argc -= 2;
        i--;
    }
    return 0;
}

const char *eb_expected_placement(void)
{
    return expected;
}

/* The one socket of a range list, -1 for none or several. */
static int one_socket(const char *s)
{
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return -1;
    return atoi(s);
}

static void where(char *out, size_t n, int r, const int *node_of, const char *const *host,
                  const char *const *sockets)
{
    const char *s = sockets[r];
    snprintf(out, n, "rank %d: host %s, %s %s", r, host[node_of[r]],
             !*s ? "socket" : one_socket(s) >= 0 ? "socket" : "sockets", *s ? s : "unknown");
}

/* The message about ranks a and b (b < 0: rank a alone). */
static int refuse(char *msg, size_t len, const char *want, const char *what, int a, int b,
                  const int *node_of, const char *const *host, const char *const *sockets)
{
    char wa[300], wb[300] = "";
    where(wa, sizeof wa, a, node_of, host, sockets);
    if (b >= 0)
        where(wb, sizeof wb, b, node_of, host, sockets);
    if (b >= 0)
        snprintf(msg, len, "--expect-placement %s: ranks %d and %d %s (%s; %s)", want, a, b, what,
                 wa, wb);
    else
        snprintf(msg, len, "--expect-placement %s: rank %d %s (%s)", want, a, what, wa);
    return 1;
}

int eb_placement_verdict(const char *want, int n, const int *node_of, const char *const *host,
                         const char *const *sockets, char *msg, size_t len)
{
    msg[0] = '\0';
    int sockets_too = !strcmp(want, "same-socket") || !strcmp(want, "different-sockets");
    if (!strcmp(want, "different-nodes")) { /* the first rank seen on each node: O(n) */
        int nodes = 0;
        for (int r = 0; r < n; r++)
            nodes = node_of[r] >= nodes ? node_of[r] + 1 : nodes;
        int *first = eb_malloc((size_t)(nodes > 0 ? nodes : 1) * sizeof *first);
        for (int k = 0; k < nodes; k++)
            first[k] = -1;
        int q = -1, r = 0;
        for (; r < n && q < 0; r++) {
            q = first[node_of[r]];
            first[node_of[r]] = q < 0 ? r : q;
        }
        free(first);
        return q < 0 ? 0 : refuse(msg, len, want, "are on one host", q, r - 1, node_of, host,
                                  sockets);
    }
    for (int r = 1; r < n; r++) /* same-node, and the socket checks, which are within a node */
        if (node_of[r] != node_of[0])
            return refuse(msg, len, want, "are on different hosts", 0, r, node_of, host,
                          sockets);
    if (!sockets_too)
        return 0;
    for (int r = 0; r < n; r++)
        if (one_socket(sockets[r]) < 0)
            return refuse(msg, len, want, *sockets[r] ? "is not bound within one socket"
                          : "has no known socket (hwloc could not read the topology)",
                          r, -1, node_of, host, sockets);
    for (int r = 1; r < n; r++)
        for (int q = 0; q < r; q++) {
            int same = one_socket(sockets[q]) == one_socket(sockets[r]);
            if (!strcmp(want, "same-socket") && !same && q == 0)
                return refuse(msg, len, want, "are on different sockets", q, r, node_of, host,
                              sockets);
            if (!strcmp(want, "different-sockets") && same)
                return refuse(msg, len, want, "are on one socket", q, r, node_of, host,
                              sockets);
        }
    return 0;
}

int eb_gpu_verdict(int n, const int *node_of, const char *const *host,
                   const char *const *bus_id, char *msg, size_t len)
{
    msg[0] = '\0';
    for (int r = 0; r < n; r++)
        if (!*bus_id[r])
            return snprintf(msg, len, "--expect-placement different-gpus: rank %d (host %s) "
                            "uses no GPU: the run has no device buffers (OSU's -d cuda, "
                            "IMB-MPI1-GPU, effbench devcopy)", r, host[node_of[r]]), 1;
    for (int r = 1; r < n; r++) /* pairs on one node: a node has few ranks */
        for (int q = 0; q < r; q++)
            if (node_of[q] == node_of[r] && !strcmp(bus_id[q], bus_id[r]))
                return snprintf(msg, len, "--expect-placement different-gpus: ranks %d and %d "
                                "share the GPU at PCI %s on host %s (set CUDA_VISIBLE_DEVICES "
                                "per rank, or start no more ranks per node than it has GPUs)",
                                q, r, bus_id[r], host[node_of[r]]), 1;
    return 0;
}

typedef int (*verdict_fn)(const char *want, int n, const int *node_of, const char *const *host,
                          const char *const *items, char *msg, size_t len);

/* Collective over MPI_COMM_WORLD: every rank's `mine` (a string of `width`
 * bytes: its sockets, its GPU's bus id) to rank 0, which judges them all with
 * `judge`; a refusal ends every rank with status 2 and rank 0's message. */
static void judge_everywhere(const char *mine, int width, verdict_fn judge)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *all = rank == 0 ? eb_malloc((size_t)size * (size_t)width) : NULL;
    MPI_Gather(mine, width, MPI_CHAR, all, width, MPI_CHAR, 0, MPI_COMM_WORLD);
    char msg[1024] = "";
    int refused = 0;
    if (rank == 0) {
        const eb_nodemap *m = eb_world_nodes();
        const char **items = eb_malloc((size_t)size * sizeof *items);
        for (int r = 0; r < size; r++)
            items[r] = all + (size_t)r * (size_t)width;
        refused = judge(expected, size, m->node_of, (const char *const *)m->name, items, msg,
                        sizeof msg);
        free(items);
        free(all);
    }
    MPI_Bcast(&refused, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (refused)
        eb_exit_all(EB_EXIT_USAGE, msg);
}

static int gpu_verdict(const char *want, int n, const int *node_of, const char *const *host,
                       const char *const *bus_id, char *msg, size_t len)
{
    (void)want; /* different-gpus */
    return eb_gpu_verdict(n, node_of, host, bus_id, msg, len);
}

void eb_expect_gpus_check(const char *bus_id)
{
    if (!expected || strcmp(expected, "different-gpus"))
        return;
    char mine[EB_BUS_ID_LEN] = "";
    snprintf(mine, sizeof mine, "%s", bus_id ? bus_id : "");
    judge_everywhere(mine, EB_BUS_ID_LEN, gpu_verdict);
}

void eb_expect_placement_check(void)
{
    if (!expected || !strcmp(expected, "different-gpus")) /* eb_expect_gpus_check's */
        return;
    eb_rank_topo t;
    eb_rank_topo_get(&t);
    judge_everywhere(t.sockets, EB_TOPO_SETLEN, eb_placement_verdict);
}
