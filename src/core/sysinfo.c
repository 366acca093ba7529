#include "core/sysinfo.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static int cmd_argc;
static char **cmd_argv;

void eb_set_command_line(int argc, char **argv)
{
    cmd_argc = argc;
    cmd_argv = argv;
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
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[MPI_MAX_PROCESSOR_NAME] = {0};
    int len;
    MPI_Get_processor_name(name, &len);
    char *all = eb_malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
    MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                  MPI_CHAR, MPI_COMM_WORLD);
    int local = 0;
    for (int r = 0; r < size; r++)
        local += strcmp(all + (size_t)r * MPI_MAX_PROCESSOR_NAME, name) == 0;
    if (rank == 0 && j) {
        eb_json_array(j, "hosts");
        for (int r = 0; r < size; r++) {
            const char *h = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
            int first = 1;
            for (int q = 0; q < r; q++)
                first &= strcmp(all + (size_t)q * MPI_MAX_PROCESSOR_NAME, h) != 0;
            if (!first)
                continue;
            eb_json_object(j, NULL);
            eb_json_str(j, "name", h);
            eb_json_array(j, "ranks");
            for (int q = r; q < size; q++)
                if (strcmp(all + (size_t)q * MPI_MAX_PROCESSOR_NAME, h) == 0)
                    eb_json_int(j, NULL, q);
            eb_json_close(j);
            eb_json_close(j);
        }
        eb_json_close(j);
    }
    free(all);
    return local;
}

int eb_warn_oversubscription(void)
{
    int local = eb_hosts(NULL), worst;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int over = cores > 0 && local > cores ? local : 0;
    MPI_Allreduce(&over, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst > 0)
        eb_warn("%d ranks share a node with %ld cores: ranks are time-sliced, so timings include "
                "waiting for a core and vary from run to run. Run at most %ld ranks per node for "
                "numbers to publish.", worst, cores, cores);
    return worst;
}
