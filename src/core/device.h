/* The device-memory seam (DESIGN.md, "Methods, clocks, devices and verdicts"):
 * where a benchmark's buffers live.  Host memory always; CUDA device, managed
 * and page-locked host memory through the CUDA driver API, loaded at run time
 * (dlopen of libcuda.so.1, as IMB-MPI1-GPU loads its library), so that one
 * effbench binary builds with no CUDA toolkit and runs on machines with and
 * without GPUs.  ROCm (HIP) and Level Zero are named here and refused until a
 * machine to test them on is at hand.  Kernels get buffers from here and never
 * call a device API themselves; a data check reads a host copy outside the
 * timed loop (eb_mem_to_host).
 *
 * EFFBENCH_LIBCUDA names the driver library to load instead of libcuda.so.1:
 * the tests load their driver double (tests/support/cuda_double.c, device
 * memory that is host memory, every call counted), which is how the options,
 * the staging method's accounting and the records are tested on machines
 * without a GPU.  A record says which library was loaded (docs/gpu.md). */
#ifndef EB_DEVICE_H
#define EB_DEVICE_H

#include "core/json.h"

#include <stddef.h>

typedef enum {
    EB_ACCEL_NONE = 0,
    EB_ACCEL_CUDA,
    EB_ACCEL_ROCM,
    EB_ACCEL_LEVEL_ZERO,
    EB_ACCEL_OPENACC,
} eb_accel;

typedef enum {
    EB_MEM_HOST = 0, /* malloc'd host memory (pageable) */
    EB_MEM_DEVICE,   /* cuMemAlloc */
    EB_MEM_MANAGED,  /* cuMemAllocManaged, attached globally */
    EB_MEM_PINNED,   /* cuMemAllocHost: page-locked host memory */
} eb_mem_kind;

/* "cuda", "rocm", "level_zero" (also "ze"), "openacc"; -1 for another word. */
int eb_accel_parse(const char *word, eb_accel *out);
const char *eb_accel_name(eb_accel a);
const char *eb_mem_kind_name(eb_mem_kind k); /* "host", "device", "managed", "pinned" */

/* What this rank's device is (after eb_device_open). */
typedef struct {
    eb_accel accel;
    int ordinal;               /* the driver's device number this rank uses */
    int count;                 /* devices the driver shows this process */
    char name[128];            /* "NVIDIA H100 80GB HBM3" */
    char pci_bus_id[32];       /* "0000:19:00.0" */
    unsigned long long memory_bytes;
    int driver_version;        /* cuDriverGetVersion: 12040 for 12.4 */
    char library[256];         /* the file loaded: "libcuda.so.1" or $EFFBENCH_LIBCUDA */
    char visible_devices[128]; /* CUDA_VISIBLE_DEVICES as given, "" if unset */
} eb_device_info;

/* Load the driver, pick this rank's device (local_rank modulo the devices
 * the driver shows, so CUDA_VISIBLE_DEVICES as given is honoured), make its
 * primary context current.  Local, not collective.  Returns 0, or -1 with a
 * message that names what is missing and what to do (no driver library, no
 * device, an accelerator effbench cannot drive yet). */
int eb_device_open(eb_accel a, int local_rank, char *err, size_t n);

/* Collective over MPI_COMM_WORLD: every rank opens its device by its rank on
 * its node; when any rank fails, every rank returns -1 with the first failing
 * rank's message (prefixed "rank R on HOST: "), so no rank is left waiting. */
int eb_device_open_all(eb_accel a, char *err, size_t n);

int eb_device_is_open(void);
const eb_device_info *eb_device_info_get(void); /* NULL before eb_device_open */
void eb_device_close(void);

/* Buffers of kind k.  EB_MEM_HOST needs no open device.  Alloc returns NULL
 * with a message naming the kind, the size and the driver's error. */
void *eb_mem_alloc(eb_mem_kind k, size_t n, char *err, size_t errlen);
void eb_mem_free(eb_mem_kind k, void *p);
/* Every byte of p[0..n) set to `byte`, done when this returns. */
void eb_mem_set(eb_mem_kind k, void *p, int byte, size_t n);
/* eb_mem_set with EB_POISON_BYTE (core/buffers.h): -check's "nothing arrived
 * yet"; host memory through eb_poison, which a simulation skips. */
void eb_mem_poison(eb_mem_kind k, void *p, size_t n);
/* Copies between any two kinds, done when they return. */
void eb_mem_copy(eb_mem_kind dst_kind, void *dst, eb_mem_kind src_kind, const void *src,
                 size_t n);
void eb_mem_to_host(void *host, eb_mem_kind k, const void *src, size_t n);
void eb_mem_from_host(eb_mem_kind k, void *dst, const void *host, size_t n);
/* Wait for the device's outstanding work (cuCtxSynchronize); no-op on host. */
void eb_device_sync(void);

/* Whether the MPI library takes device pointers of accelerator a, asked
 * before measuring: MPIX_Query_cuda_support where the library has it (Open
 * MPI), Intel MPI's I_MPI_OFFLOAD, MPICH's MPIX_GPU_query_support.  Returns 1
 * yes, 0 no (why: the library and what to set), -1 unknown (why says so); a
 * caller adds its own way round (OSU's --stage-through-host, IMB's host kinds). */
int eb_mpi_takes_device_pointers(eb_accel a, char *why, size_t n);

/* Collective over MPI_COMM_WORLD, called by eb_jsonl_run_begin for every run
 * record (components do not call it; they open their devices before the run
 * record is written): rank 0 appends
 *   "devices": [{"rank", "host", "accel", "ordinal", "count", "name",
 *                "pci_bus_id", "memory_bytes", "driver_version", "library",
 *                "visible_devices"}, ...]
 * or null when no device was opened (every rank calls it either way). */
void eb_device_json(eb_json *j);

#endif
