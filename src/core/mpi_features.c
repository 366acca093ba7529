#include "core/mpi_features.h"

#include "core/coll_emulated.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

unsigned eb_mpi_missing(unsigned need)
{
    unsigned have = 0;
#ifdef EB_HAVE_MPI_ALLREDUCE_INIT
    have |= EB_MPI_PERSISTENT_COLL;
#endif
#ifdef EB_HAVE_MPI_SESSION_INIT
    have |= EB_MPI_SESSIONS;
#endif
#ifdef EB_HAVE_MPI_SEND_C
    have |= EB_MPI_LARGE_COUNT;
#endif
#ifdef EB_HAVE_MPI_ALLREDUCE_C
    have |= EB_MPI_LARGE_COUNT_COLL;
#endif
#ifdef EB_HAVE_MPI_IALLREDUCE_C
    have |= EB_MPI_LARGE_COUNT_NBC;
#endif
    return need & ~have;
}

unsigned eb_mpi_emulated(void) { return eb_pcoll_emulated() ? EB_MPI_PERSISTENT_COLL : 0; }

const char *eb_mpi_feature_call(eb_mpi_feature f)
{
    switch (f) {
    case EB_MPI_PERSISTENT_COLL:
        return "MPI_Allreduce_init (MPI-4.0 persistent collectives)";
    case EB_MPI_SESSIONS:
        return "MPI_Session_init (MPI-4.0 sessions)";
    case EB_MPI_LARGE_COUNT:
        return "MPI_Send_c (MPI-4.0 large counts)";
    case EB_MPI_LARGE_COUNT_COLL:
        return "MPI_Allreduce_c (MPI-4.0 large-count collectives)";
    case EB_MPI_LARGE_COUNT_NBC:
        return "MPI_Iallreduce_c (MPI-4.0 large-count nonblocking collectives)";
    default:
        return "nothing";
    }
}

int eb_mpi_refusal(unsigned need, const char *what, char *msg, size_t n)
{
    unsigned missing = eb_mpi_missing(need);
    if (!missing)
        return 0;
    unsigned f = missing & -missing; /* the lowest missing feature */
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n,")] = '\0';
    snprintf(msg, n, "%s needs %s, which this MPI library (%s) does not have", what,
             eb_mpi_feature_call((eb_mpi_feature)f), lib);
    return -1;
}
