/* IMB-EXT: the MPI-2 one-sided benchmarks of the IMB user guide with
 * active-target (fence) synchronisation, in IMB's list order (the guide's
 * Sample 4, IMB_bnames_ext.h): Window, Unidir_Get, Unidir_Put, Bidir_Get,
 * Bidir_Put and Accumulate, each also as Multi-.
 *
 * One sample of M transfers (M = n_sample aggregate, M = 1 non-aggregate)
 * is completed by MPI_Win_fence, the guide's "assured completion" of
 * IMB-EXT.  As IMB's code, every transfer uses the window's one section
 * (with -off_cache, IMB's cycling sections: eb_rma_sections).  Data are
 * IMB-EXT's float BUF_VALUE(rank, i) = 0.1*(rank+1) + i; transfer lengths
 * are whole floats, as the real IMB-EXT prints them (0, 4, 8, ...). */
#include "core/buffers.h"
#include "core/component_names.h"
#include "core/error.h"
#include "core/registry.h"
#include "imb/driver/bench.h"
#include "imb/driver/driver.h"
#include "imb/rma_win.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    eb_rma_win w;
    size_t x;
} ext_state;

static ext_state *st(const eb_ctx *c) { return c->priv; }
static size_t off(const eb_ctx *c, long i)
{
    return eb_rma_section_offset(i, st(c)->w.nsec, st(c)->w.stride);
}
static char *win_sec(const eb_ctx *c, long i) { return st(c)->w.mem + off(c, i); }
static char *loc_sec(const eb_ctx *c, long i) { return st(c)->w.local + off(c, i); }
static MPI_Aint disp(const eb_ctx *c, long i) { return (MPI_Aint)off(c, i); }

/* The driver's send / receive buffers are not used: the window and the
 * local sections hold the data. */
static void no_extents(size_t x, int np, size_t *s_len, size_t *r_len)
{
    (void)x;
    (void)np;
    *s_len = 0;
    *r_len = 0;
}

/* IMB's window of one section (-off_cache: its cycling sections,
 * eb_rma_sections); every section (window and local) holds this rank's
 * BUF_VALUE data; the first access epoch is opened by a fence (guide,
 * "Window (IMB-EXT and IMB-RMA)"). */
static int ext_prepare(eb_ctx *c)
{
    ext_state *s = eb_calloc(1, sizeof *s);
    c->priv = s;
    s->x = c->x;
    size_t stride;
    long nsec = eb_rma_sections(c, c->x, &stride);
    size_t area = eb_rma_area(nsec, stride, c->x);
    eb_rma_win_create(&s->w, c, area, area);
    s->w.nsec = nsec;
    s->w.stride = stride;
    for (long k = 0; k < nsec; k++) {
        eb_fill_buf_values(win_sec(c, k), c->x, c->rank);
        eb_fill_buf_values(loc_sec(c, k), c->x, c->rank);
    }
    MPI_Win_fence(0, s->w.win);
    return 0;
}

static void ext_release(eb_ctx *c)
{
    ext_state *s = st(c);
    eb_rma_win_free(&s->w);
    free(s);
    c->priv = NULL;
}

typedef enum { PUT, GET } direction;

/* Under -check, the area a transfer of repetition i writes is poisoned
 * first; the fence separates these local stores from the transfer's epoch. */
static void poison_before(eb_ctx *c, long i, int window_side, int local_side)
{
    if (window_side)
        eb_poison(win_sec(c, i), c->x);
    if (local_side)
        eb_poison(loc_sec(c, i), c->x);
    MPI_Win_fence(0, st(c)->w.win);
}

/* Rank 0 (and rank 1 too if bidirectional) transfers; both fence. */
static void onesided(eb_ctx *c, long first, long n, direction d, int bidir)
{
    MPI_Win win = st(c)->w.win;
    int origin = c->rank == 0 || bidir, peer = 1 - c->rank, x = (int)c->x;
    if (c->checking)
        poison_before(c, first, d == PUT && (c->rank == 1 || bidir), d == GET && origin);
    for (long i = first; i < first + n; i++) {
        if (origin) {
            if (d == PUT)
                MPI_Put(loc_sec(c, i), x, MPI_BYTE, peer, disp(c, i), x, MPI_BYTE, win);
            else
                MPI_Get(loc_sec(c, i), x, MPI_BYTE, peer, disp(c, i), x, MPI_BYTE, win);
        }
        if (!c->aggregate)
            MPI_Win_fence(0, win);
    }
    if (c->aggregate)
        MPI_Win_fence(0, win);
}

static void unidir_put(eb_ctx *c, long first, long n) { onesided(c, first, n, PUT, 0); }
static void unidir_get(eb_ctx *c, long first, long n) { onesided(c, first, n, GET, 0); }
static void bidir_put(eb_ctx *c, long first, long n) { onesided(c, first, n, PUT, 1); }
static void bidir_get(eb_ctx *c, long first, long n) { onesided(c, first, n, GET, 1); }

/* The target window holds exactly the origin's bytes; a get returns the
 * target's. */
static long check_unidir_put(eb_ctx *c, long i)
{
    return c->rank == 1 ? eb_check_buf_values(win_sec(c, i), c->x, 0) : 0;
}
static long check_unidir_get(eb_ctx *c, long i)
{
    return c->rank == 0 ? eb_check_buf_values(loc_sec(c, i), c->x, 1) : 0;
}
static long check_bidir_put(eb_ctx *c, long i)
{
    return eb_check_buf_values(win_sec(c, i), c->x, 1 - c->rank);
}
static long check_bidir_get(eb_ctx *c, long i)
{
    return eb_check_buf_values(loc_sec(c, i), c->x, 1 - c->rank);
}

/* Accumulate: every active process adds its x bytes of floats into rank
 * 0's window (MPI_FLOAT, MPI_SUM). */
static void accumulate(eb_ctx *c, long first, long n)
{
    MPI_Win win = st(c)->w.win;
    int count = (int)(c->x / sizeof(float));
    if (c->checking) {
        if (c->rank == 0)
            memset(win_sec(c, first), 0, c->x);
        MPI_Win_fence(0, win);
    }
    for (long i = first; i < first + n; i++) {
        MPI_Accumulate(loc_sec(c, i), count, MPI_FLOAT, 0, disp(c, i), count, MPI_FLOAT,
                       MPI_SUM, win);
        if (!c->aggregate)
            MPI_Win_fence(0, win);
    }
    if (c->aggregate)
        MPI_Win_fence(0, win);
}

static long check_accumulate(eb_ctx *c, long i)
{
    if (c->rank != 0)
        return 0;
    return eb_check_float_accumulate((const float *)win_sec(c, i), c->x / sizeof(float), c->size,
                                     0, 0);
}

/* Window: MPI_Win_create (size x) / MPI_Win_fence / a 1-byte MPI_Put into
 * the window / MPI_Win_free.  The put goes into the process's own window
 * (the "negligible non-trivial action inside the window"); the closing
 * fence completes it, as MPI requires before MPI_Win_free. */
typedef struct {
    char *mem;
    char byte;
} window_state;

static int window_prepare(eb_ctx *c)
{
    window_state *s = eb_calloc(1, sizeof *s);
    if (MPI_Alloc_mem((MPI_Aint)(c->x ? c->x : 1), MPI_INFO_NULL, &s->mem) != MPI_SUCCESS)
        eb_abort("MPI_Alloc_mem of %zu bytes failed", c->x);
    memset(s->mem, 0, c->x ? c->x : 1);
    eb_fill_buf_values(&s->byte, 1, c->rank);
    c->priv = s;
    return 0;
}

static void window_release(eb_ctx *c)
{
    window_state *s = c->priv;
    MPI_Free_mem(s->mem);
    free(s);
    c->priv = NULL;
}

static void window(eb_ctx *c, long first, long n)
{
    window_state *s = c->priv;
    if (c->checking && c->x > 0)
        eb_poison(s->mem, 1);
    for (long i = first; i < first + n; i++) {
        MPI_Win w;
        MPI_Win_create(s->mem, (MPI_Aint)c->x, 1, MPI_INFO_NULL, c->comm, &w);
        MPI_Win_fence(0, w);
        if (c->x > 0)
            MPI_Put(&s->byte, 1, MPI_BYTE, c->rank, 0, 1, MPI_BYTE, w);
        MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
        MPI_Win_free(&w);
    }
}

static long check_window(eb_ctx *c, long i)
{
    (void)i;
    window_state *s = c->priv;
    return c->x > 0 && s->mem[0] != s->byte;
}

#define EXT_SINGLE(nm, ord, kern, chk)                                                          \
    {.component = EB_COMPONENT_EXT, .name = nm, .order = ord, .cls = EB_SINGLE_TRANSFER,       \
     .flags = EB_F_MODES | EB_F_REDUCTION, .fixed_procs = 2, .nmsg = 1,                        \
     .extents = no_extents, .prepare = ext_prepare, .kernel = kern, .check = chk,              \
     .release = ext_release}

static const eb_bench ext_benches[] = {
    {.component = EB_COMPONENT_EXT, .name = "Window", .order = 100, .cls = EB_COLLECTIVE,
     .flags = EB_F_NONAGGR_COUNTS | EB_F_REDUCTION, .extents = no_extents,
     .prepare = window_prepare, .kernel = window, .check = check_window,
     .release = window_release},
    EXT_SINGLE("Unidir_Get", 110, unidir_get, check_unidir_get),
    EXT_SINGLE("Unidir_Put", 120, unidir_put, check_unidir_put),
    EXT_SINGLE("Bidir_Get", 130, bidir_get, check_bidir_get),
    EXT_SINGLE("Bidir_Put", 140, bidir_put, check_bidir_put),
    {.component = EB_COMPONENT_EXT, .name = "Accumulate", .order = 150, .cls = EB_COLLECTIVE,
     .flags = EB_F_MODES | EB_F_REDUCTION, .extents = no_extents, .prepare = ext_prepare,
     .kernel = accumulate, .check = check_accumulate, .release = ext_release},
};

static const eb_imb_family ext_family = {
    .component = EB_COMPONENT_EXT,
    .program = "IMB-EXT",
    .part = "MPI-2 part",
    .iter = {.msgspersample = 1000, .overall_vol = 40L * 1048576L, .msgs_nonaggr = 100,
             .policy = EB_ITER_DYNAMIC, .secs = 10.0},
    .minmsglog = 0,
    .maxmsglog = 22,
    .summary = "IMB-EXT: one-sided communication with fence epochs (MPI-2)",
    .order = 20,
};

EB_CONSTRUCTOR(register_ext)
{
    eb_register_imb_family(&ext_family);
    for (size_t i = 0; i < sizeof ext_benches / sizeof ext_benches[0]; i++)
        eb_register_bench(&ext_benches[i]);
}
