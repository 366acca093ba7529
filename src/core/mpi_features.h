/* MPI calls the library may lack (MPI-4's persistent collectives, sessions,
 * large counts), found at build time by CMake (EB_HAVE_<CALL>).  A benchmark
 * that needs one is listed with the reason and refused with a message naming
 * the call and the library; nothing is compiled out silently. */
#ifndef EB_MPI_FEATURES_H
#define EB_MPI_FEATURES_H

#include <stddef.h>

typedef enum {
    EB_MPI_NONE = 0,
    EB_MPI_PERSISTENT_COLL = 1u << 0, /* MPI_Allreduce_init and the other *_init collectives */
    EB_MPI_SESSIONS = 1u << 1,        /* MPI_Session_init */
    EB_MPI_LARGE_COUNT = 1u << 2,     /* MPI_Send_c and the other point-to-point _c calls */
    EB_MPI_LARGE_COUNT_COLL = 1u << 3, /* MPI_Allreduce_c and the other blocking collectives' */
    EB_MPI_LARGE_COUNT_NBC = 1u << 4,  /* MPI_Iallreduce_c and the other nonblocking ones' */
    EB_MPI_FEATURE_LAST = EB_MPI_LARGE_COUNT_NBC /* a new feature: move this */
} eb_mpi_feature;

/* The features of `need` this build's MPI library lacks (0: all there). */
unsigned eb_mpi_missing(unsigned need);
/* The features of this build's emulations where the library lacks them
 * (core/coll_emulated.h: persistent collectives in SMPI builds).  A runner
 * whose benchmarks use the emulation (OSU's, through eb_pcoll) needs only
 * need & ~eb_mpi_emulated(); the others still refuse. */
unsigned eb_mpi_emulated(void);
/* The MPI call that stands for a feature, e.g. "MPI_Allreduce_init (MPI-4.0)". */
const char *eb_mpi_feature_call(eb_mpi_feature f);
/* "WHAT needs MPI_Allreduce_init (MPI-4.0), which this MPI library (<version
 * string's first line>) does not have" for the first missing feature of need;
 * 0, or -1 with the message. */
int eb_mpi_refusal(unsigned need, const char *what, char *msg, size_t n);

#endif
