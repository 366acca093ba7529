/* Preloaded by scripts/simulate (docs/simulation.md, "the settings scripts/simulate
 * passes"): two things SMPI 3.32 does on the host that effbench's simulation mode
 * has no use for.  Both are left to SimGrid when EFFBENCH_SIM_MODE=off (plain SMPI).
 *
 * - The thread's CPU clock around every MPI call (smpi_bench_end and
 *   smpi_bench_begin, through xbt_os_threadtimer_stop and _start), read to inject
 *   the time between calls as simulated computation.  That clock is a system call
 *   on every kernel (no vDSO for CLOCK_THREAD_CPUTIME_ID): two per MPI call, 7.7
 *   million for b_eff at 64 ranks.  Simulation mode turns the injection off
 *   (smpi/simulate-computation:no), so the readings are never used.
 * - MAP_POPULATE on the mappings of SMPI_SHARED_MALLOC: every shared message
 *   buffer is mapped onto one small file, and SMPI asks the kernel to fill in
 *   every page-table entry of it at once.  An Alltoall at 1024 ranks allocates
 *   2 x 1024 buffers of 1024 x L bytes per length: at L = 512 KB, 268 million
 *   entries, 12 s of system time, for pages that nothing reads (SMPI copies no
 *   payload between shared buffers).  Without the flag a page is mapped when it
 *   is first touched; the mapping is otherwise the same. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef void (*timer_fn)(void *timer);

static int sim_mode_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *m = getenv("EFFBENCH_SIM_MODE");
        on = !(m && strcmp(m, "off") == 0);
    }
    return on;
}

/* SimGrid's own function `name` (found once, in *real), unless simulation mode is on */
static void pass_on(timer_fn *real, const char *name, void *timer)
{
    if (sim_mode_on())
        return;
    if (!*real)
        *real = (timer_fn)dlsym(RTLD_NEXT, name);
    (*real)(timer);
}

void xbt_os_threadtimer_start(void *timer)
{
    static timer_fn real;
    pass_on(&real, "xbt_os_threadtimer_start", timer);
}

void xbt_os_threadtimer_stop(void *timer)
{
    static timer_fn real;
    pass_on(&real, "xbt_os_threadtimer_stop", timer);
}

/* ---- the shared buffers' address ranges --------------------------------------
 * SMPI maps every shared buffer onto its one file with MAP_SHARED | MAP_FIXED |
 * MAP_POPULATE, a signature of its own.  The ranges so mapped are kept here,
 * sorted and disjoint, and taken out again by any later mmap, munmap or mremap of
 * their addresses.  SimGrid runs every rank in this one thread. */
typedef struct {
    uintptr_t lo, hi;
} range;
static range *shared;
static size_t nshared, capshared;

/* index of the first range that ends after a */
static size_t first_after(uintptr_t a)
{
    size_t lo = 0, hi = nshared;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (shared[mid].hi <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int reserve(size_t n)
{
    if (n <= capshared)
        return 0;
    size_t cap = capshared ? 2 * capshared : 1024;
    while (cap < n)
        cap *= 2;
    void *p = (void *)syscall(SYS_mmap, NULL, cap * sizeof *shared, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    memmove(p, shared, nshared * sizeof *shared);
    if (shared)
        syscall(SYS_munmap, shared, capshared * sizeof *shared);
    shared = p;
    capshared = cap;
    return 0;
}

/* [lo, hi) is no longer (or not only) a shared buffer */
static void forget(uintptr_t lo, uintptr_t hi)
{
    size_t i = first_after(lo);
    while (i < nshared && shared[i].lo < hi) {
        range r = shared[i];
        if (r.lo < lo && r.hi > hi) { /* split */
            if (reserve(nshared + 1)) {
                nshared = 0; /* no room to be exact: keep no range at all */
                return;
            }
            memmove(shared + i + 2, shared + i + 1, (nshared - i - 1) * sizeof *shared);
            nshared++;
            shared[i].hi = lo;
            shared[i + 1] = (range){hi, r.hi};
            return;
        }
        if (r.lo < lo) {
            shared[i++].hi = lo;
        } else if (r.hi > hi) {
            shared[i].lo = hi;
            return;
        } else {
            memmove(shared + i, shared + i + 1, (nshared - i - 1) * sizeof *shared);
            nshared--;
        }
    }
}

static void remember(uintptr_t lo, uintptr_t hi)
{
    forget(lo, hi);
    if (reserve(nshared + 1))
        return;
    size_t i = first_after(lo);
    memmove(shared + i + 1, shared + i, (nshared - i) * sizeof *shared);
    shared[i] = (range){lo, hi};
    nshared++;
}

static int in_shared(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    size_t i = first_after(a);
    return i < nshared && shared[i].lo <= a && a + n <= shared[i].hi;
}

static uintptr_t page_end(uintptr_t a, size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    return (a + len + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
}

/* The system calls themselves, not dlsym's next mmap: dlsym may allocate, and the
 * allocator (jemalloc, preloaded beside this) maps its memory with mmap. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    const int smpi_shared = MAP_SHARED | MAP_FIXED | MAP_POPULATE;
    int is_shared = (flags & smpi_shared) == smpi_shared && fd >= 0 && sim_mode_on();
    if (is_shared)
        flags &= ~MAP_POPULATE;
    void *p = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED) {
        uintptr_t a = (uintptr_t)p;
        if (is_shared)
            remember(a, page_end(a, len));
        else if (nshared)
            forget(a, page_end(a, len));
    }
    return p;
}

int munmap(void *addr, size_t len)
{
    int r = (int)syscall(SYS_munmap, addr, len);
    if (r == 0 && nshared)
        forget((uintptr_t)addr, page_end((uintptr_t)addr, len));
    return r;
}

void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
    void *want = NULL;
    if (flags & MREMAP_FIXED) {
        va_list ap;
        va_start(ap, flags);
        want = va_arg(ap, void *);
        va_end(ap);
    }
    void *p = (void *)syscall(SYS_mremap, old, old_len, new_len, flags, want);
    if (p != MAP_FAILED && nshared) {
        forget((uintptr_t)old, page_end((uintptr_t)old, old_len));
        forget((uintptr_t)p, page_end((uintptr_t)p, new_len));
    }
    return p;
}

/* SMPI 3.32 copies every message below smpi/send-is-detached-thresh (64 KB) into a
 * buffer of its own when it is sent, so that the sender may reuse its buffer; from a
 * shared buffer the copy is of pages that hold no data, to a receiver whose shared
 * buffer SMPI then leaves as it is.  Those copies are skipped: at 1024 ranks an
 * Alltoall of 32 KB copies 32 GB, each page of the source and of the new buffer
 * faulted in first. */
#define MIN_SKIPPED_COPY 256 /* below, a copy is cheaper than the look-up */
void *memcpy(void *dst, const void *src, size_t n)
{
    if (n >= MIN_SKIPPED_COPY && nshared && in_shared(src, n))
        return dst;
    return memmove(dst, src, n);
}
