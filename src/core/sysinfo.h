/* What a result header and the JSON `run` record say about the machine. */
#ifndef EB_SYSINFO_H
#define EB_SYSINFO_H

#include "core/json.h"

#include <mpi.h>
#include <time.h>

typedef struct {
    char sysname[128], nodename[256], release[256], version[256], machine[128];
    char date[64];          /* "Sun Nov 22 03:10:02 2026", as IMB's header */
    char iso_start[32];     /* "2026-11-22T03:10:02Z" */
    char mpi_library[256];  /* first line of MPI_Get_library_version */
    int mpi_major, mpi_minor;
    int thread_provided;
    time_t start;
} eb_sysinfo;

/* The command as typed (main, before the `effbench mpi1` form drops its
 * first word or `quick` adds -quick; every rank holds rank 0's), for the
 * IMB header's calling sequence and the JSON `run` record. */
void eb_set_command_line(int argc, char **argv);
char **eb_command_line(int *argc);

/* Collect on the calling rank (call after MPI_Init). */
void eb_sysinfo_collect(eb_sysinfo *s, int thread_provided);

const char *eb_thread_level_name(int level);
/* "single", "funneled", "serialized", "multiple" -> MPI_THREAD_*; -1 if unknown. */
int eb_thread_level_parse(const char *s);

/* Memory of this node in bytes (sysconf), 0 if unknown. */
double eb_node_memory_bytes(void);

/* Collective over MPI_COMM_WORLD: ranks per node.  Returns the number of
 * ranks sharing this rank's host (all ranks), and on rank 0 appends the
 * `hosts` array to j when j != NULL. */
int eb_hosts(eb_json *j);

/* Collective: warn (rank 0) when more ranks share a node than it has cores,
 * since time-slicing then shows up in every timing; once per process, later
 * calls only count.  Returns the largest number of ranks on such a node (all
 * ranks), 0 when none is oversubscribed. */
int eb_warn_oversubscription(void);

#endif
