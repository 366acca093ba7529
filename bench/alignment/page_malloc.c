/* LD_PRELOAD experiment (bench/alignment/README.md): every malloc of 64 KiB or more is
 * returned page-aligned, as effbench allocates its message buffers, so that a reference
 * program can be run with its buffers placed as effbench's are and nothing else changed.
 * Small blocks keep glibc's malloc.
 * Build: cc -O2 -fno-builtin -shared -fPIC page_malloc.c -o page_malloc.so */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t k, size_t n);

enum { LARGE = 64 * 1024, PAGE = 4096 };

void *malloc(size_t n)
{
    if (n < LARGE)
        return __libc_malloc(n);
    void *p = NULL;
    return posix_memalign(&p, PAGE, n) == 0 ? p : NULL;
}

void *calloc(size_t k, size_t n)
{
    if (n && k > (size_t)-1 / n)
        return NULL;
    if (k * n < LARGE)
        return __libc_calloc(k, n);
    /* posix_memalign, not malloc: GCC turns malloc + memset into a call of calloc */
    void *p = NULL;
    if (posix_memalign(&p, PAGE, k * n) != 0)
        return NULL;
    memset(p, 0, k * n);
    return p;
}
