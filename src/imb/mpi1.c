/* IMB-MPI1: the family record (IMB_settings.h standard-mode values, its
 * component).  The benchmarks register themselves from p2p.c, coll.c, ... */
#include "core/component_names.h"
#include "core/registry.h"
#include "imb/driver/driver.h"

static const eb_imb_family mpi1_family = {
    .component = EB_COMPONENT_MPI1,
    .program = "IMB-MPI1",
    .part = "MPI-1 part",
    .iter = {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100,
             .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .minmsglog = 0,
    .maxmsglog = 22,
    .text2021 = {.cmd_space = 1, .min_zero_size = 1, .typed = 1, .close_space = 1},
    .summary = "IMB-MPI1: point-to-point and collective benchmarks",
    .order = 10,
};

EB_CONSTRUCTOR(register_mpi1) { eb_register_imb_family(&mpi1_family); }
