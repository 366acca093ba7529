#include "core/sysinfo.h"

#include "core/error.h"
#include "core/nodemap.h"
#include "core/own_coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static int cmd_argc;
static char **cmd_argv;

void eb_set_command_line(int argc, char **argv)
{
    /* a copy of the word list: main takes its own options (--row-timeout) out of argv */
    cmd_argc = argc;
    cmd_argv = eb_calloc((size_t)argc + 1, sizeof *cmd_argv);
    memcpy(cmd_argv, argv, (size_t)argc * sizeof *cmd_argv);
}

char **eb_command_line(int *argc)
{
    *argc = cmd_argc;
    return cmd_argv;
}

void eb_sysinfo_collect(eb_sysinfo *s, int thread_provided)
{
    memset(s, 0, sizeof *s);
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(s->sysname, sizeof s->sysname, "%s", u.sysname);
        snprintf(s->nodename, sizeof s->nodename, "%s", u.nodename);
        snprintf(s->release, sizeof s->release, "%s", u.release);
        snprintf(s->version, sizeof s->version, "%s", u.version);
        snprintf(s->machine, sizeof s->machine, "%s", u.machine);
    }
    s->start = time(NULL);
    struct tm lt, gt;
    localtime_r(&s->start, &lt);
    gmtime_r(&s->start, &gt);
    strftime(s->date, sizeof s->date, "%a %b %e %H:%M:%S %Y", &lt);
    strftime(s->iso_start, sizeof s->iso_start, "%Y-%m-%dT%H:%M:%SZ", &gt);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[len < MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = '\0';
    /* Open MPI ends the line with ", ident: ...": keep it, it names the build */
    size_t keep = strlen(lib) < sizeof s->mpi_library ? strlen(lib) : sizeof s->mpi_library - 1;
    memcpy(s->mpi_library, lib, keep);
    s->mpi_library[keep] = '\0';
    MPI_Get_version(&s->mpi_major, &s->mpi_minor);
    s->thread_provided = thread_provided;
}

const char *eb_thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "unknown";
    }
}

int eb_thread_level_parse(const char *s)
{
    if (strcmp(s, "single") == 0) return MPI_THREAD_SINGLE;
    if (strcmp(s, "funneled") == 0) return MPI_THREAD_FUNNELED;
    if (strcmp(s, "serialized") == 0) return MPI_THREAD_SERIALIZED;
    if (strcmp(s, "multiple") == 0) return MPI_THREAD_MULTIPLE;
    return -1;
}

double eb_node_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    return pages > 0 && psize > 0 ? (double)pages * (double)psize : 0;
}

int eb_hosts(eb_json *j)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const eb_nodemap *m = eb_world_nodes();
    if (rank == 0 && j) {
        eb_json_array(j, "hosts");
        for (int n = 0; n < m->nnodes; n++) {
            eb_json_object(j, NULL);
            eb_json_str(j, "name", m->name[n]);
            eb_json_array(j, "ranks");
            for (int r = m->leader[n]; r < m->size; r++)
                if (m->node_of[r] == n)
                    eb_json_int(j, NULL, r);
            eb_json_close(j);
            eb_json_close(j);
        }
        eb_json_close(j);
    }
    return m->count[m->node_of[rank]];
}

int eb_warn_oversubscription(void)
{
    int local = eb_hosts(NULL), worst;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int over = cores > 0 && local > cores ? local : 0;
    eb_own_allreduce(&over, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    static int warned; /* a component that needs the count (SKaMPI) asks again */
    if (worst > 0 && !warned++)
        eb_warn("%d ranks share a node with %ld cores: ranks are time-sliced, so timings include "
                "waiting for a core and vary from run to run. Run at most %ld ranks per node for "
                "numbers to publish.", worst, cores, cores);
    return worst;
}
