/* IMB-MPI1: the family record (IMB_settings.h standard-mode values, its
 * component).  The benchmarks register themselves from p2p.c, coll.c, ... */
#include "core/component_names.h"
#include "core/registry.h"
#include "imb/driver/driver.h"

/* IMB-MPI1-GPU: IMB-MPI1 built with GPU_ENABLE (IMB 2021.11's Makefile), the
 * same benchmarks with buffers on a GPU (-mem_alloc_type; imb/driver/gpu.h) */
static const eb_imb_gpu mpi1_gpu = {
    .program = "IMB-MPI1-GPU",
    .part = "MPI-1 part (GPU)", /* src_c/IMB_g_info.c */
};

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
    .gpu = &mpi1_gpu,
};

EB_CONSTRUCTOR(register_mpi1) { eb_register_imb_family(&mpi1_family); }
