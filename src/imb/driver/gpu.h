/* IMB-MPI1-GPU and IMB-RMA-GPU (docs/imb.md, "IMB-MPI1-GPU and IMB-RMA-GPU"):
 * IMB 2021.11's GPU builds of IMB-MPI1 and IMB-RMA, run by effbench under
 * their program names as aliases of the components mpi1 and rma.  Here: the
 * program, its option -mem_alloc_type, the benchmarks it leaves out, the
 * device opened and the MPI library asked before anything is measured, the
 * header lines and the run record's fields.  The buffers themselves come
 * from core's device seam through imb/driver/membuf.h; the kernels never
 * call a device API. */
#ifndef EB_IMB_GPU_H
#define EB_IMB_GPU_H

#include "core/json.h"
#include "imb/driver/bench.h"
#include "imb/driver/imb_option_types.h"

#include <stddef.h>

/* The family to run for program name argv0: when argv0 (a path or a
 * name) is f's GPU program, *copy made f's copy that names the GPU program
 * and its banner part; else f. */
const eb_imb_family *eb_imb_gpu_variant(const eb_imb_family *f, const char *argv0,
                                        eb_imb_family *copy);

/* -mem_alloc_type WORD (IMB 2021.11's MPI1_suite.cpp / RMA_suite.cpp; the
 * option is IMB-MPI1's and IMB-RMA's, imb/driver/imb2021_options.c): in the
 * GPU program device (cuMemAlloc, the default), host (page-locked host
 * memory, cudaMallocHost in IMB), shared (managed memory) or cpu (plain
 * host memory); in IMB-MPI1 and IMB-RMA cpu only, what they have.  0, or -1
 * with err for another word. */
int eb_imb_gpu_set_mem(eb_imb_options *o, const char *word, char *err, size_t errlen);

/* Is benchmark b one of the program's?  IMB-RMA-GPU leaves out
 * Fetch_and_op and Compare_and_swap (IMB_parse_name_rma.c). */
int eb_imb_gpu_has(const eb_imb_options *o, const eb_bench *b);

/* Collective, before any buffer is allocated, in a GPU program only: open
 * every rank's CUDA device (refused, exit 2, as IMB refuses without a GPU
 * library), then for device and managed memory ask whether the MPI library
 * takes device pointers (refused on every rank, exit 2, with what to set). */
void eb_imb_gpu_open(const eb_imb_options *o);

/* The 4.0 header's lines for the buffers and the device (none outside a
 * GPU program; IMB 2021.11's own text has none either). */
void eb_imb_gpu_print_header(const eb_imb_options *o);

/* The run record's "program", "accelerator" and "mem_alloc_type" (a GPU
 * program only; its "devices" are core's, eb_jsonl_run_begin). */
void eb_imb_gpu_json(eb_json *rec, const eb_imb_options *o);

/* The help's lines for -mem_alloc_type (a GPU program only). */
void eb_imb_gpu_print_help(const eb_imb_options *o);

#endif
