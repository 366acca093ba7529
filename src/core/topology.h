/* Where a rank is bound, in the node's hardware terms (hwloc): the cores,
 * sockets (hwloc's packages) and NUMA nodes its CPU binding touches, and the
 * CPU it was on.  The topology is hwloc's view of the node, so HWLOC_SYNTHETIC
 * or HWLOC_XMLFILE in the environment replace it (the tests do; with
 * HWLOC_THISSYSTEM=1 a launcher binds to it), docs/json-lines.md. */
#ifndef EB_TOPOLOGY_H
#define EB_TOPOLOGY_H

#include "core/json.h"

#define EB_TOPO_SETLEN 192

/* One rank's place; sets as lists of ranges ("0-3,8"), "" when the topology
 * could not be read or a list does not fit (known = 0). */
typedef struct {
    int known;
    int cpu;                       /* the OS CPU it was on, -1 if unknown */
    int cpu_numa;                  /* the NUMA node of that CPU, -1 if unknown */
    char cores[EB_TOPO_SETLEN];    /* hwloc logical indexes of the cores (0.. on the node) */
    char sockets[EB_TOPO_SETLEN];  /* OS indexes of the packages (Linux's physical id) */
    char numa[EB_TOPO_SETLEN];     /* OS indexes of the NUMA nodes (Linux's node numbers) */
} eb_rank_topo;

/* This process's place (local; the topology is read once). */
void eb_rank_topo_get(eb_rank_topo *t);

/* A range list as JSON integers of the current array/object member `key`
 * ("0-2,5" -> [0,1,2,5]); null when the list is empty. */
void eb_json_int_list(eb_json *j, const char *key, const char *ranges);

/* The run record's "topology" of this (rank 0's) node: {"hwloc": version,
 * "source": "this system" | "synthetic: DESC" | "xml: FILE", "packages",
 * "numa_nodes", "cores", "pus"}, or null when hwloc could not read it. */
void eb_topology_json(eb_json *j);

#endif
