/* IMB-MT's threads on one process: the buffers of each (-malloc_algo,
 * -malloc_align), the barrier of -barrier, and one thread's part of a row
 * (IMB-MT's run_instance). */
#include "imbmt/imbmt.h"
#include "core/error.h"
#include "core/own_coll.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IMB-MT's aligned allocation: zeroed, moved 1 to `align` bytes up to the
 * next multiple of align.  The block to free is kept in *base. */
static void *aligned(size_t n, size_t align, void **base)
{
    char *p = eb_malloc(n + align);
    memset(p, 0, n + align);
    *base = p;
    return p + (align - (uintptr_t)p % align);
}

static void alloc_thread(int tid, void *arg)
{
    mt_run *r = arg;
    mt_thread *th = &r->th[tid];
    size_t al = (size_t)r->o->malloc_align;
    th->in = aligned(r->size_a, al, &th->base_in);
    th->out = aligned(r->size_b, al, &th->base_out);
}

void mt_alloc_buffers(mt_run *r)
{
    size_t al = (size_t)r->o->malloc_align;
    if (r->o->malloc_algo == MT_MALLOC_PARALLEL) { /* each thread its own: first touch */
        eb_team_run(&r->team, alloc_thread, r);
    } else if (r->o->malloc_algo == MT_MALLOC_CONTINUOUS) { /* one block of all threads' */
        char *a = aligned(r->size_a * (size_t)r->nthreads, al, &r->block_a);
        char *b = aligned(r->size_b * (size_t)r->nthreads, al, &r->block_b);
        for (int k = 0; k < r->nthreads; k++) {
            r->th[k].in = a + (size_t)k * r->size_a;
            r->th[k].out = b + (size_t)k * r->size_b;
        }
    } else {
        for (int k = 0; k < r->nthreads; k++)
            alloc_thread(k, r);
    }
    for (int k = 0; k < r->nthreads; k++)
        if (r->b->flags & MT_WINDOW)
            r->th[k].requests = eb_calloc(2 * (size_t)r->o->window_size, sizeof(MPI_Request));
}

void mt_free_buffers(mt_run *r)
{
    for (int k = 0; k < r->nthreads; k++) {
        free(r->th[k].base_in);
        free(r->th[k].base_out);
        free(r->th[k].requests);
    }
    free(r->block_a);
    free(r->block_b);
}

static void world_barrier(mt_barrier b)
{
    if (b == MT_BARR_SPECIAL)
        eb_dissemination_barrier(MPI_COMM_WORLD, 1010); /* IMB-MT's special barrier */
    else
        MPI_Barrier(MPI_COMM_WORLD);
}

/* -barrier on|special: the threads meet, thread 0 synchronises the
 * processes over MPI_COMM_WORLD, the threads meet again; off: nothing. */
void mt_sync(mt_thread *th)
{
    mt_run *r = th->run;
    if (r->o->barrier == MT_BARR_OFF)
        return;
    if (!r->o->multiple) {
        world_barrier(r->o->barrier);
        return;
    }
    eb_team_barrier(&r->team);
    if (th->tid == 0)
        world_barrier(r->o->barrier);
    eb_team_barrier(&r->team);
}

/* One thread's part of a row: the point-to-point kernels run the warm-up,
 * meet -barrier and are timed as a whole; the collectives time themselves. */
void mt_thread_main(int tid, void *arg)
{
    mt_run *r = arg;
    mt_thread *th = &r->th[tid];
    const mt_options *o = r->o;
    th->failures = 0;
    if (r->b->flags & MT_COLLECTIVE) {
        th->result = r->b->kernel(th, o->repeat, o->warmup);
    } else {
        if (o->warmup > 0) /* IMB-MT runs 0 warm-up iterations too: -check then counts
                            * the untouched receive buffer as wrong */
            r->b->kernel(th, o->warmup, 0);
        mt_sync(th);
        double t = MPI_Wtime();
        th->result = r->b->kernel(th, o->repeat, 0);
        th->t = MPI_Wtime() - t;
    }
    if (!th->result)
        th->t = 0;
    if (th->failures)
        printf("CHECK FAILURES: rank %d: %ld\n", th->rank, th->failures);
}
