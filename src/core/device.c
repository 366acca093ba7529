/* The device-memory seam (core/device.h): host memory, and CUDA memory through
 * the CUDA driver API loaded at run time.  The declarations below are written
 * from NVIDIA's CUDA Driver API reference (the types are the ABI's: a device
 * is an int, a device pointer a 64-bit integer, a context an opaque pointer);
 * effbench builds with no CUDA toolkit. */
#include "core/device.h"

#include "core/buffers.h"
#include "core/error.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef int cu_result; /* CUresult: 0 is CUDA_SUCCESS */
typedef int cu_device;
typedef void *cu_context;
typedef unsigned long long cu_ptr; /* CUdeviceptr */
#define CU_MEM_ATTACH_GLOBAL 0x1u

/* The driver's entry points effbench calls, by the names libcuda.so.1 exports
 * (the _v2 names are the 64-bit ABI the headers map the plain names to). */
static struct {
    void *lib;
    cu_result (*init)(unsigned int);
    cu_result (*driver_version)(int *);
    cu_result (*device_count)(int *);
    cu_result (*device_get)(cu_device *, int);
    cu_result (*device_name)(char *, int, cu_device);
    cu_result (*device_bus_id)(char *, int, cu_device);
    cu_result (*device_memory)(size_t *, cu_device);
    cu_result (*ctx_retain)(cu_context *, cu_device);
    cu_result (*ctx_release)(cu_device);
    cu_result (*ctx_set_current)(cu_context);
    cu_result (*ctx_synchronize)(void);
    cu_result (*mem_alloc)(cu_ptr *, size_t);
    cu_result (*mem_free)(cu_ptr);
    cu_result (*mem_alloc_host)(void **, size_t);
    cu_result (*mem_free_host)(void *);
    cu_result (*mem_alloc_managed)(cu_ptr *, size_t, unsigned int);
    cu_result (*memset_d8)(cu_ptr, unsigned char, size_t);
    cu_result (*memcpy_htod)(cu_ptr, const void *, size_t);
    cu_result (*memcpy_dtoh)(void *, cu_ptr, size_t);
    cu_result (*memcpy_dtod)(cu_ptr, cu_ptr, size_t);
    cu_result (*memcpy_any)(cu_ptr, cu_ptr, size_t);
    cu_result (*error_name)(cu_result, const char **);
    cu_result (*error_string)(cu_result, const char **);
} cu;

static eb_device_info info;
static int opened;
static cu_device device;

int eb_accel_parse(const char *word, eb_accel *out)
{
    static const struct {
        const char *word;
        eb_accel accel;
    } words[] = {{"cuda", EB_ACCEL_CUDA},           {"rocm", EB_ACCEL_ROCM},
                 {"level_zero", EB_ACCEL_LEVEL_ZERO}, {"ze", EB_ACCEL_LEVEL_ZERO},
                 {"openacc", EB_ACCEL_OPENACC}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcasecmp(word, words[i].word))
            return *out = words[i].accel, 0;
    return -1;
}

const char *eb_accel_name(eb_accel a)
{
    static const char *const names[] = {"none", "cuda", "rocm", "level_zero", "openacc"};
    return (unsigned)a < sizeof names / sizeof names[0] ? names[a] : "?";
}

const char *eb_mem_kind_name(eb_mem_kind k)
{
    static const char *const names[] = {"host", "device", "managed", "pinned"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* "CUDA_ERROR_OUT_OF_MEMORY (2: out of memory)" */
static const char *cu_error(cu_result r)
{
    static char text[160];
    const char *name = NULL, *what = NULL;
    if (cu.error_name)
        cu.error_name(r, &name);
    if (cu.error_string)
        cu.error_string(r, &what);
    snprintf(text, sizeof text, "%s (%d: %s)", name ? name : "CUDA error", r,
             what ? what : "no description");
    return text;
}

/* A failure inside a measurement, where the other ranks cannot be told. */
static void cu_check(cu_result r, const char *call)
{
    if (r != 0)
        eb_abort("CUDA driver call %s failed on device %d (%s): %s", call, info.ordinal,
                 info.name, cu_error(r));
}

static int load_symbols(char *err, size_t n)
{
    static const struct {
        const char *name;
        size_t offset;
    } syms[] = {
#define SYM(field, name) {name, offsetof(__typeof__(cu), field)}
        SYM(init, "cuInit"), SYM(driver_version, "cuDriverGetVersion"),
        SYM(device_count, "cuDeviceGetCount"), SYM(device_get, "cuDeviceGet"),
        SYM(device_name, "cuDeviceGetName"), SYM(device_bus_id, "cuDeviceGetPCIBusId"),
        SYM(device_memory, "cuDeviceTotalMem_v2"), SYM(ctx_retain, "cuDevicePrimaryCtxRetain"),
        SYM(ctx_release, "cuDevicePrimaryCtxRelease_v2"), SYM(ctx_set_current, "cuCtxSetCurrent"),
        SYM(ctx_synchronize, "cuCtxSynchronize"), SYM(mem_alloc, "cuMemAlloc_v2"),
        SYM(mem_free, "cuMemFree_v2"), SYM(mem_alloc_host, "cuMemAllocHost_v2"),
        SYM(mem_free_host, "cuMemFreeHost"), SYM(mem_alloc_managed, "cuMemAllocManaged"),
        SYM(memset_d8, "cuMemsetD8_v2"), SYM(memcpy_htod, "cuMemcpyHtoD_v2"),
        SYM(memcpy_dtoh, "cuMemcpyDtoH_v2"), SYM(memcpy_dtod, "cuMemcpyDtoD_v2"),
        SYM(memcpy_any, "cuMemcpy"), SYM(error_name, "cuGetErrorName"),
        SYM(error_string, "cuGetErrorString"),
#undef SYM
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *f = dlsym(cu.lib, syms[i].name);
        if (!f)
            return eb_err(err, n, "the CUDA driver library %s has no %s: it is not a CUDA "
                          "driver this effbench can use", info.library, syms[i].name);
        memcpy((char *)&cu + syms[i].offset, &f, sizeof f);
    }
    return 0;
}

static int load_driver(char *err, size_t n)
{
    if (cu.lib)
        return 0;
    const char *path = getenv("EFFBENCH_LIBCUDA");
    snprintf(info.library, sizeof info.library, "%s", path && *path ? path : "libcuda.so.1");
    cu.lib = dlopen(info.library, RTLD_NOW | RTLD_LOCAL);
    if (!cu.lib)
        return eb_err(err, n, "CUDA device buffers need NVIDIA's driver library %s, which "
                      "cannot be loaded here (%s): run on a node with an NVIDIA GPU and its "
                      "driver, or without the device buffer options", info.library, dlerror());
    if (load_symbols(err, n)) {
        dlclose(cu.lib);
        cu.lib = NULL;
        return -1;
    }
    return 0;
}

static int open_cuda(int local_rank, char *err, size_t n)
{
    if (load_driver(err, n))
        return -1;
    cu_result r = cu.init(0);
    if (r != 0)
        return eb_err(err, n, "the CUDA driver (%s) found no usable GPU: cuInit: %s",
                      info.library, cu_error(r));
    cu.driver_version(&info.driver_version);
    if ((r = cu.device_count(&info.count)) != 0 || info.count < 1)
        return eb_err(err, n, "the CUDA driver (%s) shows this process no GPU%s%s%s",
                      info.library, r ? ": " : "", r ? cu_error(r) : "",
                      getenv("CUDA_VISIBLE_DEVICES") ? " (CUDA_VISIBLE_DEVICES is set)" : "");
    /* by its rank on the node: CUDA_VISIBLE_DEVICES, as given, decides what the
     * driver shows; several ranks share a GPU when the node has fewer GPUs */
    info.ordinal = local_rank % info.count;
    cu_context ctx;
    if ((r = cu.device_get(&device, info.ordinal)) != 0 ||
        (r = cu.ctx_retain(&ctx, device)) != 0 || (r = cu.ctx_set_current(ctx)) != 0)
        return eb_err(err, n, "cannot use CUDA device %d of %d: %s", info.ordinal, info.count,
                      cu_error(r));
    size_t bytes = 0;
    cu.device_name(info.name, (int)sizeof info.name, device);
    cu.device_bus_id(info.pci_bus_id, (int)sizeof info.pci_bus_id, device);
    cu.device_memory(&bytes, device);
    info.memory_bytes = bytes;
    return 0;
}

int eb_device_open(eb_accel a, int local_rank, char *err, size_t n)
{
    if (opened)
        return 0;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    snprintf(info.visible_devices, sizeof info.visible_devices, "%s", visible ? visible : "");
    info.accel = a;
    switch (a) {
    case EB_ACCEL_CUDA:
        if (open_cuda(local_rank, err, n))
            return -1;
        opened = 1;
        return 0;
    case EB_ACCEL_ROCM:
    case EB_ACCEL_LEVEL_ZERO:
    case EB_ACCEL_OPENACC:
        return eb_err(err, n, "%s device buffers are not built in effbench yet: no such GPU "
                      "has been at hand to test them on (docs/gpu.md); CUDA is (-d cuda)",
                      eb_accel_name(a));
    default:
        return eb_err(err, n, "no accelerator named");
    }
}

int eb_device_is_open(void) { return opened; }

const eb_device_info *eb_device_info_get(void) { return opened ? &info : NULL; }

void eb_device_close(void)
{
    if (!opened)
        return;
    cu.ctx_synchronize();
    cu.ctx_release(device);
    opened = 0;
}

static int on_device(eb_mem_kind k) { return k == EB_MEM_DEVICE || k == EB_MEM_MANAGED; }

static int need_device(eb_mem_kind k, char *err, size_t n)
{
    if (k != EB_MEM_HOST && !opened)
        return eb_err(err, n, "%s memory asked for before a CUDA device was opened",
                      eb_mem_kind_name(k));
    return 0;
}

void *eb_mem_alloc(eb_mem_kind k, size_t n, char *err, size_t errlen)
{
    size_t bytes = n ? n : 1; /* a size-0 row still gets a valid pointer */
    if (need_device(k, err, errlen))
        return NULL;
    void *p = NULL;
    cu_ptr d = 0;
    cu_result r = 0;
    switch (k) {
    case EB_MEM_HOST:
        if (posix_memalign(&p, 4096, bytes))
            p = NULL;
        if (!p)
            eb_err(err, errlen, "cannot allocate %zu bytes of host memory", bytes);
        return p;
    case EB_MEM_DEVICE:
        r = cu.mem_alloc(&d, bytes);
        break;
    case EB_MEM_MANAGED:
        r = cu.mem_alloc_managed(&d, bytes, CU_MEM_ATTACH_GLOBAL);
        break;
    case EB_MEM_PINNED:
        r = cu.mem_alloc_host(&p, bytes);
        break;
    }
    if (r != 0) {
        eb_err(err, errlen, "cannot allocate %zu bytes of %s memory on CUDA device %d (%s, "
               "%llu bytes): %s", bytes, eb_mem_kind_name(k), info.ordinal, info.name,
               info.memory_bytes, cu_error(r));
        return NULL;
    }
    return k == EB_MEM_PINNED ? p : (void *)(uintptr_t)d;
}

void eb_mem_free(eb_mem_kind k, void *p)
{
    if (!p)
        return;
    if (k == EB_MEM_HOST)
        free(p);
    else if (k == EB_MEM_PINNED)
        cu_check(cu.mem_free_host(p), "cuMemFreeHost");
    else
        cu_check(cu.mem_free((cu_ptr)(uintptr_t)p), "cuMemFree");
}

void eb_mem_set(eb_mem_kind k, void *p, int byte, size_t n)
{
    if (!on_device(k)) {
        memset(p, byte, n);
        return;
    }
    cu_check(cu.memset_d8((cu_ptr)(uintptr_t)p, (unsigned char)byte, n), "cuMemsetD8");
    cu_check(cu.ctx_synchronize(), "cuCtxSynchronize");
}

void eb_mem_poison(eb_mem_kind k, void *p, size_t n)
{
    if (k == EB_MEM_HOST)
        eb_poison(p, n);
    else
        eb_mem_set(k, p, EB_POISON_BYTE, n);
}

void eb_mem_copy(eb_mem_kind dst_kind, void *dst, eb_mem_kind src_kind, const void *src,
                 size_t n)
{
    cu_ptr d = (cu_ptr)(uintptr_t)dst, s = (cu_ptr)(uintptr_t)src;
    if (n == 0)
        return;
    if (!on_device(dst_kind) && !on_device(src_kind)) {
        memcpy(dst, src, n);
        return;
    }
    /* the explicit directions where both kinds say them, as bandwidthTest
     * copies; managed memory through the unified-address copy */
    if (dst_kind == EB_MEM_DEVICE && !on_device(src_kind))
        cu_check(cu.memcpy_htod(d, src, n), "cuMemcpyHtoD");
    else if (src_kind == EB_MEM_DEVICE && !on_device(dst_kind))
        cu_check(cu.memcpy_dtoh(dst, s, n), "cuMemcpyDtoH");
    else if (dst_kind == EB_MEM_DEVICE && src_kind == EB_MEM_DEVICE)
        cu_check(cu.memcpy_dtod(d, s, n), "cuMemcpyDtoD");
    else
        cu_check(cu.memcpy_any(d, s, n), "cuMemcpy");
    /* a copy from pageable memory may return before the device has it, and a
     * device-to-device copy runs asynchronously: done means done */
    cu_check(cu.ctx_synchronize(), "cuCtxSynchronize");
}

void eb_mem_to_host(void *host, eb_mem_kind k, const void *src, size_t n)
{
    eb_mem_copy(EB_MEM_HOST, host, k, src, n);
}

void eb_mem_from_host(eb_mem_kind k, void *dst, const void *host, size_t n)
{
    eb_mem_copy(k, dst, EB_MEM_HOST, host, n);
}

void eb_device_sync(void)
{
    if (opened)
        cu_check(cu.ctx_synchronize(), "cuCtxSynchronize");
}
