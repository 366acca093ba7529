/* IMB-RMA's window state of one length: the windows and local areas of
 * each pattern, and the presets and checks of -check. */
#include "imb/rma_state.h"

#include "core/buffers.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

/* The driver's send / receive buffers are unused: windows hold the data. */
void eb_rma_no_extents(size_t x, int np, size_t *s_len, size_t *r_len)
{
    (void)x;
    (void)np;
    *s_len = 0;
    *r_len = 0;
}

void eb_rma_release(eb_ctx *c)
{
    eb_rma_win_free(&rma_st(c)->w);
    free(c->priv);
    c->priv = NULL;
}

static eb_rma_state *create(eb_ctx *c, long nsec, size_t stride, size_t win_bytes,
                            size_t local_bytes)
{
    eb_rma_state *s = eb_calloc(1, sizeof *s);
    c->priv = s;
    eb_rma_win_create(&s->w, c, win_bytes, local_bytes);
    s->w.nsec = nsec;
    s->w.stride = stride;
    eb_rma_host_begin(&s->w); /* the prepare's fills: prepared() ends them */
    return s;
}

/* The end of a prepare: its fills in place (copied in under IMB-RMA-GPU). */
static int prepared(eb_ctx *c)
{
    eb_rma_host_end(&rma_st(c)->w, 1);
    return 0;
}

/* Single transfer: IMB's sections of x bytes (eb_rma_sections) on both
 * sides, the window and the local sections holding this rank's byte
 * pattern. */
int eb_rma_prepare_single(eb_ctx *c)
{
    size_t stride;
    long nsec = eb_rma_sections(c, c->x, &stride);
    size_t area = eb_rma_area(nsec, stride, c->x);
    create(c, nsec, stride, area, area);
    for (long k = 0; k < nsec; k++) {
        eb_fill_pattern(rma_win_sec(c, k), c->x, c->rank, 0);
        eb_fill_pattern(rma_loc_sec(c, k), c->x, c->rank, 0);
    }
    return prepared(c);
}

/* Reductions (MPI_FLOAT): window sections and origin values are BUF_VALUE
 * floats; a second local area receives fetched values. */
int eb_rma_prepare_float(eb_ctx *c)
{
    size_t stride;
    long nsec = eb_rma_sections(c, c->x, &stride);
    size_t area = eb_rma_area(nsec, stride, c->x);
    create(c, nsec, stride, area, 2 * area);
    for (long k = 0; k < nsec; k++) {
        eb_fill_buf_values(rma_win_sec(c, k), c->x, c->rank);
        eb_fill_buf_values(rma_loc_sec(c, k), c->x, c->rank);
    }
    return prepared(c);
}

/* Compare_and_swap (MPI_INT): local areas origin value | compare | result;
 * the window holds this rank's value, the compare value is the peer's. */
/* Open MPI 4.1's osc/pt2pt hangs when more than about 100
 * MPI_Compare_and_swap are outstanding in one passive-target epoch (a
 * 20-line reproducer in docs/imb-rma.md; MPICH and other operations are
 * fine), which is what the aggregate mode does.  There the repetitions are
 * capped, which the #repetitions column shows, rather than hang the run. */
#define CAS_PT2PT_MAX_OUTSTANDING 100

static int osc_is_pt2pt(void)
{
#ifdef OPEN_MPI
    const char *osc = getenv("OMPI_MCA_osc");
    return osc && strstr(osc, "pt2pt") && !strstr(osc, "^");
#else
    return 0;
#endif
}

int eb_rma_prepare_cas(eb_ctx *c)
{
    static int warned;
    if (c->aggregate && osc_is_pt2pt()) {
        c->max_reps = CAS_PT2PT_MAX_OUTSTANDING;
        if (!warned)
            eb_warn("Compare_and_swap, aggregate mode: at most %d repetitions, because Open MPI's "
                    "osc/pt2pt (OMPI_MCA_osc=pt2pt) hangs with more outstanding compare-and-swaps "
                    "in one epoch (docs/imb-rma.md)", CAS_PT2PT_MAX_OUTSTANDING);
        warned = 1;
    }
    size_t stride;
    long nsec = eb_rma_sections(c, sizeof(int), &stride);
    size_t area = eb_rma_area(nsec, stride, sizeof(int));
    create(c, nsec, stride, area, 3 * (size_t)nsec * sizeof(int));
    int *lo = (int *)rma_st(c)->w.local;
    for (long k = 0; k < nsec; k++) {
        *(int *)rma_win_sec(c, k) = eb_buf_value_int(c->rank, 0);
        lo[k] = eb_buf_value_int(c->rank, 0);
        lo[nsec + k] = eb_buf_value_int(1 - c->rank, 0);
    }
    return prepared(c);
}

/* One / all to all puts: one slot of x bytes per origin rank in every
 * window, so concurrent origins never write the same bytes. */
int eb_rma_prepare_put_all(eb_ctx *c)
{
    eb_rma_state *s = create(c, 1, c->x, (size_t)c->size * c->x, c->x);
    eb_fill_pattern(s->w.local, c->x, c->rank, 0);
    return prepared(c);
}

/* One / all to all gets: the window holds x bytes of the rank's pattern,
 * the origin one slot per target. */
int eb_rma_prepare_get_all(eb_ctx *c)
{
    eb_rma_state *s = create(c, 1, c->x, c->x, (size_t)c->size * c->x);
    eb_fill_pattern(s->w.mem, c->x, c->rank, 0);
    return prepared(c);
}

/* Exchange: 2x bytes on both sides (one half per neighbour), the pattern
 * running on over both halves. */
int eb_rma_prepare_exchange(eb_ctx *c)
{
    eb_rma_state *s = create(c, 1, 2 * c->x, 2 * c->x, 2 * c->x);
    eb_fill_pattern(s->w.mem, 2 * c->x, c->rank, 0);
    eb_fill_pattern(s->w.local, 2 * c->x, c->rank, 0);
    return prepared(c);
}

/* ---- -check: presets before, verification after a checked repetition ---- */

/* Local stores into the own window under an exclusive self-lock, so they
 * are ordered before any origin's access (the kernel barriers next). */
void eb_rma_poison_own(eb_ctx *c, void *p, size_t n)
{
    eb_rma_self_begin(&rma_st(c)->w, c->rank);
    eb_poison(p, n);
    eb_rma_self_end(&rma_st(c)->w, c->rank);
}

long eb_rma_check_own(eb_ctx *c, const void *p, size_t n, int from, size_t off)
{
    eb_rma_self_begin(&rma_st(c)->w, c->rank);
    long bad = eb_check_pattern(p, n, from, off);
    eb_rma_self_end(&rma_st(c)->w, c->rank);
    return bad;
}

void eb_rma_preset_put(eb_ctx *c, long i, int bidir)
{
    if (c->rank == 1 || bidir)
        eb_rma_poison_own(c, rma_win_sec(c, i), c->x);
}
void eb_rma_preset_get(eb_ctx *c, long i, int bidir)
{
    if (c->rank == 0 || bidir)
        eb_poison(rma_loc_sec(c, i), c->x);
}
long eb_rma_check_put(eb_ctx *c, long i, int bidir)
{
    return c->rank == 1 || bidir ? eb_rma_check_own(c, rma_win_sec(c, i), c->x, 1 - c->rank, 0) : 0;
}
long eb_rma_check_get(eb_ctx *c, long i, int bidir)
{
    return c->rank == 0 || bidir ? eb_check_pattern(rma_loc_sec(c, i), c->x, 1 - c->rank, 0) : 0;
}
