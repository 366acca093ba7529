/* EB_SMPI_BUILD: 1 when compiled by SimGrid's smpicc (recognised by SMPI's own
 * macro SMPI_SHARED_MALLOC in its mpi.h), else 0.  Simulation mode is in
 * core/simulate.h; this header only names the build, so that modules below
 * core/error (core/own_coll) can ask too. */
#ifndef EB_SMPI_BUILD_H
#define EB_SMPI_BUILD_H

#include <mpi.h>

#if defined(SMPI_SHARED_MALLOC)
#define EB_SMPI_BUILD 1
#else
#define EB_SMPI_BUILD 0
#endif

#endif
