#include "osu/osu_p2p.h"

#include "core/buffers.h"
#include "core/error.h"
#include "osu/osu_accel.h"

#include <stdlib.h>
#include <string.h>

/* -D indx:FILE: lines "DISPLACEMENT, BLOCK LENGTH" in elements, '#'
 * comments.  OSU reads the file for every size and passes one block less
 * than it read (the last line is lost unless the file ends with an empty
 * line); effbench reads it once and uses every block. */
static int read_index_file(osu_p2p *m, const char *path, char *err, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return eb_err(err, n, "Unable to open ddt indexed file '%s' [-D indx:%s]", path, path);
    char line[256];
    int lineno = 0, cap = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line + strspn(line, " \t\r\n");
        if (*p == '#' || *p == '\0')
            continue;
        char *end;
        long d = strtol(p, &end, 10);
        char *comma = end + strspn(end, " \t");
        long b = *comma == ',' ? strtol(comma + 1, &end, 10) : -1;
        if (d < 0 || b < 1 || d > (1L << 30) || b > (1L << 30) || end[strspn(end, " \t\r\n")]) {
            fclose(f);
            return eb_err(err, n, "%s:%d: expected 'DISPLACEMENT, BLOCK LENGTH' (whole numbers of "
                          "elements, block length at least 1) [-D indx:%s]", path, lineno, path);
        }
        if (m->nblocks == cap) {
            cap = cap ? 2 * cap : 16;
            m->blocklens = eb_realloc(m->blocklens, (size_t)cap * sizeof *m->blocklens);
            m->displs = eb_realloc(m->displs, (size_t)cap * sizeof *m->displs);
        }
        m->displs[m->nblocks] = (int)d;
        m->blocklens[m->nblocks++] = (int)b;
    }
    fclose(f);
    if (!m->nblocks)
        return eb_err(err, n, "%s holds no block [-D indx:%s]", path, path);
    return 0;
}

/* Bytes of the largest -T type times the elements an indexed type spans. */
static size_t index_span(const osu_ctx *c, const osu_p2p *m)
{
    size_t elems = 0;
    int widest = 1;
    for (int k = 0; k < m->nblocks; k++) {
        size_t e = (size_t)m->displs[k] + (size_t)m->blocklens[k];
        elems = e > elems ? e : elems;
    }
    for (int d = 0; d < c->o->ndtypes; d++) {
        int ts;
        MPI_Type_size(c->o->dtypes[d], &ts);
        widest = ts > widest ? ts : widest;
    }
    return elems * (size_t)widest;
}

static void free_buffers(osu_p2p *m)
{
    for (int j = 0; j < m->nbuf && m->s; j++) {
        osu_buf_free(m->mem, m->s[j]);
        osu_buf_free(m->mem, m->r[j]);
        m->s[j] = m->r[j] = NULL;
        if (m->hs) {
            osu_free(m->hs[j]);
            osu_free(m->hr[j]);
            m->hs[j] = m->hr[j] = NULL;
        }
    }
    m->buf_bytes = 0;
}

/* Buffers of this rank's kind (-d), and the staging host buffers beside them; -1 with the
 * seam's message when device memory runs out. */
static int alloc_buffers(osu_p2p *m, size_t bytes, char *err, size_t n)
{
    for (int j = 0; j < m->nbuf; j++) {
        m->s[j] = osu_buf_try(m->mem, bytes, err, n);
        m->r[j] = m->s[j] ? osu_buf_try(m->mem, bytes, err, n) : NULL;
        if (!m->r[j])
            return -1;
        if (m->hs) {
            m->hs[j] = osu_alloc(bytes);
            m->hr[j] = osu_alloc(bytes);
        }
    }
    m->buf_bytes = bytes;
    return 0;
}

char *osu_p2p_out(const osu_p2p *m, int j)
{
    if (!m->hs)
        return osu_p2p_s(m, j);
    char *h = m->hs[j % m->nbuf];
    eb_mem_to_host(h, m->mem, osu_p2p_s(m, j), m->span);
    return h;
}

void osu_p2p_landed(const osu_p2p *m, int j)
{
    if (m->hr)
        eb_mem_from_host(m->mem, osu_p2p_r(m, j), m->hr[j % m->nbuf], m->span);
}

/* OSU's set_buffer_pt2pt before each size, on accelerator runs: the send buffers 'a',
 * the receive buffers 'b' (host runs keep osu_alloc's zeros, as before). */
static void set_bytes(const osu_ctx *c, osu_p2p *m)
{
    if (!c->o->accel)
        return;
    for (int j = 0; j < m->nbuf; j++) {
        eb_mem_set(m->mem, m->s[j], 'a', m->span);
        eb_mem_set(m->mem, m->r[j], 'b', m->span);
    }
}

int osu_p2p_setup(osu_ctx *c, int windows, char *err, size_t errlen)
{
    const osu_options *o = c->o;
    osu_p2p *m = eb_calloc(1, sizeof *m);
    c->priv = m;
    m->type = MPI_DATATYPE_NULL;
    m->nbuf = o->buf_multiple ? windows : 1;
    m->s = eb_calloc((size_t)m->nbuf, sizeof *m->s);
    m->r = eb_calloc((size_t)m->nbuf, sizeof *m->r);
    m->mem = osu_rank_kind(c);
    if (osu_staged(c)) {
        m->hs = eb_calloc((size_t)m->nbuf, sizeof *m->hs);
        m->hr = eb_calloc((size_t)m->nbuf, sizeof *m->hr);
    }
    m->nreq = 2 * windows;
    m->req = eb_calloc((size_t)m->nreq, sizeof *m->req);
    if (o->ddt && o->ddt_kind == 2 && read_index_file(m, o->ddt_file, err, errlen))
        return -1;
    if (!o->buf_multiple) {
        size_t span = m->nblocks ? index_span(c, m) : 0;
        return alloc_buffers(m, o->max_size > span ? o->max_size : span, err, errlen);
    }
    return 0;
}

void osu_p2p_teardown(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    for (int k = 0; k < m->npersistent; k++)
        MPI_Request_free(&m->req[k]);
    if (m->derived)
        MPI_Type_free(&m->type);
    free_buffers(m);
    free(m->s);
    free(m->r);
    free(m->hs);
    free(m->hr);
    free(m->req);
    free(m->blocklens);
    free(m->displs);
    free(m);
    c->priv = NULL;
}

/* OSU's omb_ddt_assign: the -D type over the size's elements of the -T type,
 * and the bytes it carries. */
static void derived_type(const osu_ctx *c, osu_p2p *m)
{
    const osu_options *o = c->o;
    size_t n = c->count, elems;
    if (o->ddt_kind == 0) {
        MPI_Type_contiguous((int)n, c->dtype, &m->type);
        elems = n;
    } else if (o->ddt_kind == 1) {
        int blocks = (int)(n / o->ddt_stride);
        MPI_Type_vector(blocks, (int)o->ddt_block, (int)o->ddt_stride, c->dtype, &m->type);
        elems = (size_t)blocks * o->ddt_block;
    } else {
        MPI_Type_indexed(m->nblocks, m->blocklens, m->displs, c->dtype, &m->type);
        elems = 0;
        for (int k = 0; k < m->nblocks; k++)
            elems += (size_t)m->blocklens[k];
    }
    MPI_Type_commit(&m->type);
    m->derived = 1;
    m->count = 1;
    m->transmit = elems * (size_t)c->dtype_size;
    MPI_Aint lb, extent;
    MPI_Type_get_true_extent(m->type, &lb, &extent);
    size_t end = (size_t)(lb + extent);
    m->span = end > c->bytes ? end : c->bytes;
}

void osu_p2p_size(osu_ctx *c, osu_row *row)
{
    osu_p2p *m = osu_p2p_of(c);
    if (m->derived)
        MPI_Type_free(&m->type);
    m->derived = 0;
    if (c->o->ddt) {
        derived_type(c, m);
    } else {
        m->type = c->dtype;
        m->count = (int)c->count;
        m->transmit = c->count * (size_t)c->dtype_size;
        m->span = m->transmit;
    }
    if (c->o->buf_multiple) { /* OSU allocates -b multiple's buffers for each size */
        char err[EB_ERRLEN];
        free_buffers(m);
        if (alloc_buffers(m, m->span, err, sizeof err))
            eb_abort("%s", err);
    }
    set_bytes(c, m);
    if (row)
        row->transmit_size = m->transmit;
}

/* Buffers a window of w messages uses. */
static int used(const osu_p2p *m, int w) { return w < m->nbuf ? w : m->nbuf; }

void osu_p2p_prepare(osu_ctx *c, int window, long i)
{
    osu_p2p *m = osu_p2p_of(c);
    for (int j = 0; j < used(m, window); j++) {
        osu_buf_fill(m->mem, m->s[j], m->span, c->rank, i * m->nbuf + j);
        eb_mem_poison(m->mem, m->r[j], m->span);
    }
}

/* Bytes of the packed message that differ from the sender's pattern: a
 * derived type's holes are not part of the message (a device buffer: packed from a host copy). */
static long verify_packed(const osu_p2p *m, MPI_Comm comm, const char *dev, int sender, long seed)
{
    int packed;
    MPI_Pack_size(1, m->type, comm, &packed);
    char *want = osu_alloc(m->span), *a = osu_alloc((size_t)packed), *b = osu_alloc((size_t)packed);
    char *copy = m->mem != EB_MEM_HOST ? osu_alloc(m->span) : NULL;
    const char *got = copy ? copy : dev;
    if (copy)
        eb_mem_to_host(copy, m->mem, dev, m->span);
    osu_fill(want, m->span, sender, seed);
    int pa = 0, pb = 0;
    MPI_Pack(got, 1, m->type, a, packed, &pa, comm);
    MPI_Pack(want, 1, m->type, b, packed, &pb, comm);
    long bad = 0;
    for (int k = 0; k < pa; k++)
        bad += a[k] != b[k];
    osu_free(want);
    osu_free(a);
    osu_free(b);
    osu_free(copy);
    return bad;
}

long osu_p2p_verify(osu_ctx *c, int window, int sender, long i)
{
    osu_p2p *m = osu_p2p_of(c);
    long bad = 0;
    for (int j = 0; j < used(m, window); j++) {
        long seed = i * m->nbuf + j;
        if (m->derived)
            bad += verify_packed(m, c->comm, m->r[j], sender, seed);
        else
            bad += osu_buf_verify(m->mem, m->r[j], m->transmit, sender, seed);
    }
    return bad;
}

double osu_p2p_loop(osu_ctx *c, double (*op)(osu_ctx *c), int bw, double mb)
{
    double total = 0;
    MPI_Barrier(c->comm);
    for (long i = 0; i < c->skip + c->iterations; i++) {
        double t = op(c);
        if (i < c->skip)
            continue;
        total += t;
        if (c->lat)
            c->lat[i - c->skip] = bw ? mb / t : t * 1e6 / 2;
    }
    return total;
}

void osu_p2p_latency_row(osu_ctx *c, osu_row *row, double (*op)(osu_ctx *c))
{
    double total = osu_p2p_loop(c, op, 0, 0);
    if (c->rank == 0)
        row->avg_us = total * 1e6 / (2.0 * (double)c->iterations);
    osu_percentiles(c, 0, row);
}

void osu_p2p_bandwidth_row(osu_ctx *c, osu_row *row, double (*op)(osu_ctx *c), int directions)
{
    double mb = (double)osu_p2p_of(c)->transmit / 1e6 * c->o->window_size * directions;
    double total = osu_p2p_loop(c, op, 1, mb);
    if (c->rank == 0)
        row->mb_per_s = mb * (double)c->iterations / total;
    osu_percentiles(c, 0, row);
}

long osu_p2p_windows_checked(osu_ctx *c, double (*op)(osu_ctx *c), int directions)
{
    long defects = 0;
    int w = c->o->window_size;
    for (long i = 0; i < c->iterations; i++) {
        osu_p2p_prepare(c, w, i);
        MPI_Barrier(c->comm);
        op(c);
        if (directions == 2 || c->rank == 1)
            defects += osu_p2p_verify(c, w, 1 - c->rank, i);
    }
    return defects;
}

double osu_p2p_round_trip(osu_ctx *c)
{
    osu_p2p *m = osu_p2p_of(c);
    double t0 = MPI_Wtime();
    if (c->rank == 0) {
        MPI_Send(osu_p2p_out(m, 0), m->count, m->type, 1, OSU_P2P_TAG_DATA, c->comm);
        MPI_Recv(osu_p2p_in(m, 0), m->count, m->type, 1, OSU_P2P_TAG_DATA, c->comm,
                 MPI_STATUS_IGNORE);
        osu_p2p_landed(m, 0);
    } else {
        MPI_Recv(osu_p2p_in(m, 0), m->count, m->type, 0, OSU_P2P_TAG_DATA, c->comm,
                 MPI_STATUS_IGNORE);
        osu_p2p_landed(m, 0);
        MPI_Send(osu_p2p_out(m, 0), m->count, m->type, 0, OSU_P2P_TAG_DATA, c->comm);
    }
    return MPI_Wtime() - t0;
}
