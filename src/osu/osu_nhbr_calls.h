/* The neighbourhood collectives' calls (osu_nhbr_calls.c): the blocking
 * ones have .call, the non-blocking ones .start (osu_nbc.h). */
#ifndef EB_OSU_NHBR_CALLS_H
#define EB_OSU_NHBR_CALLS_H

#include "osu/osu_nbc.h"

extern const osu_nbc_call osu_call_neighbor_allgather, osu_call_neighbor_allgatherv,
    osu_call_neighbor_alltoall, osu_call_neighbor_alltoallv, osu_call_neighbor_alltoallw;
extern const osu_nbc_call osu_call_ineighbor_allgather, osu_call_ineighbor_allgatherv,
    osu_call_ineighbor_alltoall, osu_call_ineighbor_alltoallv, osu_call_ineighbor_alltoallw;

#endif
