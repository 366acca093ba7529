/* The neighbourhood of OSU's neighbourhood collectives (-N):
 *   cart:DIM:RAD  a periodic DIM-dimensional grid of the processes
 *                 (MPI_Dims_create), every process within RAD steps in each
 *                 dimension a neighbour, both ways ((2 RAD + 1)^DIM - 1 of
 *                 them), as OSU's omb_neighborhood_create builds it;
 *   graph:FILE    OSU's adjacency list: "source, destination" lines of ranks,
 *                 '#' lines comments (c/util/nhbrhd_graph.adj).
 * Either becomes a distributed graph communicator
 * (MPI_Dist_graph_create_adjacent, no reordering), timed as OSU times it; in
 * SMPI builds, which abort in it, the lists alone (core/coll_emulated.h's
 * eb_nhbr_p2p on c->comm), and the time printed is that of building them. */
#ifndef EB_OSU_NHBR_TOPO_H
#define EB_OSU_NHBR_TOPO_H

#include "osu/osu_coll.h"

#include <stdio.h>

/* Every rank of c->comm: the topology of c->o's -N into a (comm, degrees,
 * sources, destinations, dims, create_us; SMPI builds: p2p, comm unchanged).
 * 0, or -1 with a user error in err (a radius too large for the grid, an
 * unreadable or malformed file, a rank beyond the process count). */
int osu_nhbr_topo_create(osu_ctx *c, coll_state *a, char *err, size_t errlen);

/* OSU's lines before the title: "Dimensions size = 2 2 " (cart) and
 * "Time took to create topology graph:12.34 us." */
void osu_nhbr_topo_print(const osu_ctx *c, const coll_state *a, FILE *f);

/* The edges of an adjacency-list file for rank `me` of `np`: in-edges'
 * sources and out-edges' destinations in file order (arrays allocated).
 * Pure, no MPI: 0, or -1 with err naming the file and line. */
int osu_nhbr_read_graph(const char *path, int me, int np, int **sources, int *indegree,
                        int **destinations, int *outdegree, char *err, size_t errlen);

#endif
