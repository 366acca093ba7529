/* The tests' CUDA driver double: the CUDA driver API calls effbench's device
 * seam makes (src/core/device.c), over host memory, so that the device
 * options, the staging method's accounting and the records are tested on
 * machines without a GPU.  Loaded with EFFBENCH_LIBCUDA=<build>/libeb_cuda_double.so;
 * never a measurement of a GPU: the device is named "effbench CUDA driver
 * double" and the run record names this file.
 *
 * Settings (environment):
 *   EB_CUDA_DOUBLE_DEVICES=N   devices shown (default 2; 0: none)
 *   EB_CUDA_DOUBLE_MEMORY=B    bytes of memory per device (default 1 GiB): an
 *                              allocation past it fails with CUDA_ERROR_OUT_OF_MEMORY
 *   EB_CUDA_DOUBLE_NO_INIT=1   cuInit fails with CUDA_ERROR_NO_DEVICE
 *   EB_CUDA_DOUBLE_PROTECT=1   device memory (not managed) is inaccessible to the
 *                              host (PROT_NONE) outside the double's own copies: a
 *                              host read or write of a device pointer (by effbench,
 *                              or by MPI under --stage-through-host) is a SIGSEGV
 *   EB_CUDA_DOUBLE_LOG=PREFIX  at exit, each process writes PREFIX.<pid> with one
 *                              "name count bytes" line per counted call
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int cu_result;
typedef unsigned long long cu_ptr;
#define OK 0
#define ERR_INVALID_VALUE 1
#define ERR_OUT_OF_MEMORY 2
#define ERR_NOT_INITIALIZED 3
#define ERR_NO_DEVICE 100
#define ERR_INVALID_DEVICE 101

enum { C_ALLOC, C_FREE, C_ALLOC_HOST, C_ALLOC_MANAGED, C_MEMSET, C_HTOD, C_DTOH, C_DTOD,
       C_ANY, C_SYNC, C_COUNT };
static const char *const call_names[C_COUNT] = {
    "cuMemAlloc", "cuMemFree", "cuMemAllocHost", "cuMemAllocManaged", "cuMemsetD8",
    "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD", "cuMemcpy", "cuCtxSynchronize"};
static unsigned long long counts[C_COUNT], bytes[C_COUNT];
static int initialised, current = -1;
static unsigned long long used;

/* device allocations: size, and whether the host may touch them */
#define MAX_BLOCKS 4096
static struct {
    char *p;
    size_t n, mapped;
    int protect;
} blocks[MAX_BLOCKS];
static int nblocks; /* blocks[nblocks..] have never been used */

static long setting(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? atol(v) : dflt;
}

static void count(int c, size_t n)
{
    counts[c]++;
    bytes[c] += n;
}

__attribute__((destructor)) static void write_log(void)
{
    const char *prefix = getenv("EB_CUDA_DOUBLE_LOG");
    if (!prefix || !*prefix)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%ld", prefix, (long)getpid());
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (int c = 0; c < C_COUNT; c++)
        fprintf(f, "%s %llu %llu\n", call_names[c], counts[c], bytes[c]);
    fclose(f);
}

static int find(const void *p)
{
    for (int i = 0; i < nblocks; i++)
        if (blocks[i].p && (const char *)p >= blocks[i].p &&
            (const char *)p < blocks[i].p + (blocks[i].n ? blocks[i].n : 1))
            return i;
    return -1;
}

/* Let the double itself reach a protected block for one copy. */
static void reach(const void *p, size_t n, int open)
{
    int i = find(p);
    if (i < 0 || !blocks[i].protect || n == 0)
        return;
    mprotect(blocks[i].p, blocks[i].mapped, open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

static cu_result new_block(void **out, size_t n, int protect)
{
    if (!initialised)
        return ERR_NOT_INITIALIZED;
    if (current < 0)
        return ERR_INVALID_DEVICE;
    if (used + n > (unsigned long long)setting("EB_CUDA_DOUBLE_MEMORY", 1L << 30))
        return ERR_OUT_OF_MEMORY;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), mapped = (n + page - 1) / page * page;
    char *p = mmap(NULL, mapped ? mapped : page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return ERR_OUT_OF_MEMORY;
    for (int i = 0; i < MAX_BLOCKS; i++)
        if (!blocks[i].p) {
            blocks[i].p = p, blocks[i].n = n, blocks[i].mapped = mapped ? mapped : page;
            blocks[i].protect = protect && setting("EB_CUDA_DOUBLE_PROTECT", 0);
            if (blocks[i].protect)
                mprotect(p, blocks[i].mapped, PROT_NONE);
            used += n;
            nblocks = i >= nblocks ? i + 1 : nblocks;
            *out = p;
            return OK;
        }
    munmap(p, mapped ? mapped : page);
    return ERR_OUT_OF_MEMORY;
}

static cu_result drop_block(const void *p)
{
    int i = find(p);
    if (i < 0 || blocks[i].p != p)
        return ERR_INVALID_VALUE;
    munmap(blocks[i].p, blocks[i].mapped);
    used -= blocks[i].n;
    blocks[i].p = NULL;
    return OK;
}

static cu_result copy(int c, void *dst, const void *src, size_t n)
{
    if (!initialised)
        return ERR_NOT_INITIALIZED;
    count(c, n);
    reach(dst, n, 1);
    reach(src, n, 1);
    memmove(dst, src, n);
    reach(dst, n, 0);
    reach(src, n, 0);
    return OK;
}

cu_result cuInit(unsigned flags)
{
    if (flags != 0)
        return ERR_INVALID_VALUE;
    if (setting("EB_CUDA_DOUBLE_NO_INIT", 0) || setting("EB_CUDA_DOUBLE_DEVICES", 2) <= 0)
        return ERR_NO_DEVICE;
    initialised = 1;
    return OK;
}

cu_result cuDriverGetVersion(int *v) { return *v = 13000, OK; }

cu_result cuDeviceGetCount(int *n)
{
    if (!initialised)
        return ERR_NOT_INITIALIZED;
    return *n = (int)setting("EB_CUDA_DOUBLE_DEVICES", 2), OK;
}

cu_result cuDeviceGet(int *dev, int ordinal)
{
    if (!initialised)
        return ERR_NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= setting("EB_CUDA_DOUBLE_DEVICES", 2))
        return ERR_INVALID_DEVICE;
    return *dev = ordinal, OK;
}

cu_result cuDeviceGetName(char *name, int len, int dev)
{
    snprintf(name, (size_t)len, "effbench CUDA driver double %d", dev);
    return OK;
}

cu_result cuDeviceGetPCIBusId(char *id, int len, int dev)
{
    snprintf(id, (size_t)len, "0000:%02x:00.0", 0x10 + dev);
    return OK;
}

cu_result cuDeviceTotalMem_v2(size_t *n, int dev)
{
    (void)dev;
    return *n = (size_t)setting("EB_CUDA_DOUBLE_MEMORY", 1L << 30), OK;
}

cu_result cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    if (!initialised)
        return ERR_NOT_INITIALIZED;
    *ctx = (void *)(intptr_t)(dev + 1);
    return OK;
}

cu_result cuDevicePrimaryCtxRelease_v2(int dev)
{
    (void)dev;
    return OK;
}

cu_result cuCtxSetCurrent(void *ctx)
{
    current = ctx ? (int)(intptr_t)ctx - 1 : -1;
    return OK;
}

cu_result cuCtxSynchronize(void)
{
    count(C_SYNC, 0);
    return initialised ? OK : ERR_NOT_INITIALIZED;
}

cu_result cuMemAlloc_v2(cu_ptr *p, size_t n)
{
    void *q = NULL;
    cu_result r = new_block(&q, n, 1);
    if (r == OK)
        count(C_ALLOC, n), *p = (cu_ptr)(uintptr_t)q;
    return r;
}

cu_result cuMemAllocManaged(cu_ptr *p, size_t n, unsigned flags)
{
    void *q = NULL;
    cu_result r = flags == 1 || flags == 2 ? new_block(&q, n, 0) : ERR_INVALID_VALUE;
    if (r == OK)
        count(C_ALLOC_MANAGED, n), *p = (cu_ptr)(uintptr_t)q;
    return r;
}

cu_result cuMemAllocHost_v2(void **p, size_t n)
{
    cu_result r = new_block(p, n, 0);
    if (r == OK)
        count(C_ALLOC_HOST, n);
    return r;
}

cu_result cuMemFree_v2(cu_ptr p)
{
    count(C_FREE, 0);
    return drop_block((void *)(uintptr_t)p);
}

cu_result cuMemFreeHost(void *p)
{
    count(C_FREE, 0);
    return drop_block(p);
}

cu_result cuMemsetD8_v2(cu_ptr p, unsigned char v, size_t n)
{
    count(C_MEMSET, n);
    reach((void *)(uintptr_t)p, n, 1);
    memset((void *)(uintptr_t)p, v, n);
    reach((void *)(uintptr_t)p, n, 0);
    return OK;
}

cu_result cuMemcpyHtoD_v2(cu_ptr d, const void *h, size_t n)
{
    return copy(C_HTOD, (void *)(uintptr_t)d, h, n);
}

cu_result cuMemcpyDtoH_v2(void *h, cu_ptr d, size_t n)
{
    return copy(C_DTOH, h, (const void *)(uintptr_t)d, n);
}

cu_result cuMemcpyDtoD_v2(cu_ptr d, cu_ptr s, size_t n)
{
    return copy(C_DTOD, (void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
}

cu_result cuMemcpy(cu_ptr d, cu_ptr s, size_t n)
{
    return copy(C_ANY, (void *)(uintptr_t)d, (const void *)(uintptr_t)s, n);
}

cu_result cuGetErrorName(cu_result r, const char **s)
{
    *s = r == OK ? "CUDA_SUCCESS" : r == ERR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY"
         : r == ERR_NO_DEVICE ? "CUDA_ERROR_NO_DEVICE" : r == ERR_INVALID_DEVICE
         ? "CUDA_ERROR_INVALID_DEVICE" : r == ERR_NOT_INITIALIZED ? "CUDA_ERROR_NOT_INITIALIZED"
         : "CUDA_ERROR_INVALID_VALUE";
    return OK;
}

cu_result cuGetErrorString(cu_result r, const char **s)
{
    *s = r == OK ? "no error" : r == ERR_OUT_OF_MEMORY ? "out of memory"
         : r == ERR_NO_DEVICE ? "no CUDA-capable device is detected" : r == ERR_INVALID_DEVICE
         ? "invalid device ordinal" : r == ERR_NOT_INITIALIZED ? "initialization error"
         : "invalid argument";
    return OK;
}
