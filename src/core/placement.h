/* Where the ranks ran and what was in force: what a person needs to
 * reproduce a number on a cluster (the JSON `run` record, docs/json-lines.md). */
#ifndef EB_PLACEMENT_H
#define EB_PLACEMENT_H

#include "core/json.h"

#include <stddef.h>

/* The CPUs this process may run on as a list of ranges ("0-3,8"). */
void eb_cpu_binding(char *out, size_t n);

/* The model name of the CPU (/proc/cpuinfo), "" if unknown. */
void eb_cpu_model(char *out, size_t n);

/* Collective over MPI_COMM_WORLD: rank 0 appends to the run record
 *   "placement": [{"rank", "host", "cpus", "numa", "cpu", "cores", "sockets",
 *                  "numa_nodes"}, ...]   (every rank; core/topology.h)
 *   "topology": {...} of rank 0's node (hwloc), or null,
 *   "expect_placement": --expect-placement's value or null,
 *   "network": {NAME: value}  (the settings that name network devices),
 *   "cpu_model": "...",
 *   "environment": {NAME: value}  (MPI and fabric variables, Slurm job facts),
 *   "slurm": {"job_id", "partition", "nodelist", "nnodes", "ntasks", "cluster"} or null
 * where numa is the NUMA node of the CPU the rank was on, cpu (null if unknown). */
void eb_placement_json(eb_json *j);

/* Whether an environment variable belongs in the run record: MPI libraries'
 * and fabrics' settings (OMPI_MCA_*, UCX_*, FI_*, MPIR_CVAR_*, I_MPI_*, ...)
 * and the facts of a Slurm job (not the per-task ones). */
int eb_env_recorded(const char *name);

#endif
