/* The one-sided programs' buffers and windows (-w create | allocate |
 * dynamic), made per row as OSU makes them per message size, a flavour the
 * MPI library cannot create refused before the first row, and OSU's text:
 * each table has its own title, "# Window creation", "# Synchronization",
 * "# Datatype" lines and column line (print_header_one_sided's format). */
#include "osu/osu_rma_win.h"

#include "core/error.h"
#include "core/own_coll.h"
#include "core/simulate.h"
#include "osu/osu_accel.h"
#include "osu/osu_text.h"

#include <stdlib.h>
#include <string.h>

#define W OSU_FIELD_WIDTH
#define P OSU_FLOAT_PRECISION
#define ALLOCATE_BLOCK 64
#define MARK 0x5C

/* OSU's names of the window calls and synchronisations (by osu_win / osu_sync). */
static const char *const WIN_CALLS[] = {"MPI_Win_create", "MPI_Win_allocate",
                                        "MPI_Win_create_dynamic"};
static const char *const WIN_OPTS[] = {"create", "allocate", "dynamic"};
static const char *const SYNC_CALLS[] = {"MPI_Win_lock/unlock", "MPI_Win_post/start/complete/wait",
                                         "MPI_Win_fence", "MPI_Win_flush", "MPI_Win_flush_local",
                                         "MPI_Win_lock_all/unlock_all"};

static size_t ops_per_iteration(const osu_ctx *c, const rma_kind *k)
{
    return k->shape == RMA_LATENCY ? 1 : (size_t)c->o->window_size;
}

/* `n` bytes of this rank's memory kind (-d's letters), page-aligned as OSU's, every byte
 * `fill` (osu_alloc: in a simulation SMPI's shared buffer, which holds no data to fill). */
static char *filled(const osu_rma *r, size_t n, char fill)
{
    char *p = osu_buf_alloc(r->mem, n);
    if (!eb_sim_active())
        eb_mem_set(r->mem, p, fill, n ? n : 1);
    return p;
}

/* OSU's buffers of a row of `bytes`: the origin's, the fetching calls'
 * result and compare value, and the window's memory where OSU makes it
 * (under -w allocate the library makes it, and nothing touches it before
 * the row's calls: a get then reads pages never written, as OSU's does;
 * with a buffer on the device OSU makes it itself on both ranks, device
 * memory on a D or M side, and creates the window over it). */
static void make_buffers(const osu_ctx *c, osu_rma *r, size_t bytes)
{
    const rma_fill *f = &r->kind->fill;
    r->origin = filled(r, bytes, f->origin);
    r->result = r->kind->result_buf ? filled(r, bytes, f->result) : NULL;
    r->compare = r->kind->compare_buf ? filled(r, bytes, f->compare) : NULL;
    r->memory = c->o->win != OSU_WIN_ALLOCATE || osu_on_device(c->prog, c->o)
                    ? filled(r, bytes, f->window) : NULL;
}

static void free_buffers(osu_rma *r)
{
    osu_buf_free(r->mem, r->origin);
    osu_buf_free(r->mem, r->result);
    osu_buf_free(r->mem, r->compare);
    osu_buf_free(r->mem, r->memory);
    r->origin = r->result = r->compare = r->memory = NULL;
}

/* A window of `bytes` in the -w flavour; the MPI error code. */
static int create(osu_ctx *c, osu_rma *r, size_t bytes)
{
    int rc;
    MPI_Aint len = (MPI_Aint)bytes;
    switch (c->o->win) {
    case OSU_WIN_CREATE:
        r->base = r->memory;
        return MPI_Win_create(r->memory, len, 1, MPI_INFO_NULL, c->comm, &r->win);
    case OSU_WIN_ALLOCATE:
        if (r->memory) { /* device buffers: OSU's MPI_Win_create over its own memory */
            r->base = r->memory;
            return MPI_Win_create(r->memory, len, 1, MPI_INFO_NULL, c->comm, &r->win);
        }
        /* whole 64-byte blocks: MPICH 4.0.2 (ch4) puts data beside a shared-
         * memory window not a multiple of 16 bytes (docs/osu/one-sided.md) */
        len = (len + ALLOCATE_BLOCK - 1) / ALLOCATE_BLOCK * ALLOCATE_BLOCK;
        return MPI_Win_allocate(len, 1, MPI_INFO_NULL, c->comm, &r->base, &r->win);
    default:
        rc = MPI_Win_create_dynamic(MPI_INFO_NULL, c->comm, &r->win);
        if (rc != MPI_SUCCESS)
            return rc;
        r->base = r->memory;
        rc = MPI_Win_attach(r->win, r->memory, len);
        MPI_Aint mine;
        MPI_Get_address(r->memory, &mine);
        MPI_Sendrecv(&mine, 1, MPI_AINT, 1 - c->rank, 0, &r->disp, 1, MPI_AINT, 1 - c->rank, 0,
                     c->comm, MPI_STATUS_IGNORE);
        return rc;
    }
}

static void close_window(const osu_ctx *c, osu_rma *r)
{
    if (!r->win_open)
        return;
    if (c->o->win == OSU_WIN_DYNAMIC)
        MPI_Win_detach(r->win, r->memory);
    MPI_Win_free(&r->win);
    r->win_open = 0;
}

/* "Open MPI v4.1.4" out of the library's version string. */
static void library_name(char *out, size_t n)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, ",\n")] = '\0';
    for (char *t = lib; *t; t++) /* MPICH's "Version:\t4.0.2" */
        if (*t == '\t')
            *t = ' ';
    snprintf(out, n, "%s", lib);
}

/* Does a put of rank 0 land at both ends of rank 1's window of `bytes`?  Not asked in
 * a simulation: the windows of -w create and dynamic are shared buffers (osu_alloc), into
 * which SMPI moves no data. */
static int lands_in_window(osu_ctx *c, osu_rma *r, size_t bytes)
{
    if (eb_sim_active())
        return 1;
    unsigned char mark = MARK;
    int ok = 1, all_ok;
    /* the two bytes only: the rest of the window stays untouched, so the
     * probe costs no resident memory of a window's size */
    eb_mem_set(r->mem, r->base, 0, 1);
    eb_mem_set(r->mem, r->base + bytes - 1, 0, 1);
    MPI_Win_fence(0, r->win);
    if (c->rank == 0) {
        MPI_Put(&mark, 1, MPI_CHAR, 1, r->disp, 1, MPI_CHAR, r->win);
        MPI_Put(&mark, 1, MPI_CHAR, 1, r->disp + (MPI_Aint)bytes - 1, 1, MPI_CHAR, r->win);
    }
    MPI_Win_fence(0, r->win);
    if (c->rank == 1) {
        unsigned char ends[2];
        eb_mem_to_host(&ends[0], r->mem, r->base, 1);
        eb_mem_to_host(&ends[1], r->mem, r->base + bytes - 1, 1);
        ok = ends[0] == MARK && ends[1] == MARK;
    }
    eb_own_allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->comm);
    return all_ok;
}

/* Before the first row: can the library make this flavour here (Open MPI
 * 4.1's osc/rdma cannot MPI_Win_create in a container), and does data land
 * in a window of the first row's size? */
static int probe_flavour(osu_ctx *c, osu_rma *r, char *err, size_t n)
{
    size_t bytes = r->kind->window_per_max ? c->o->max_size
                                           : c->o->min_size * ops_per_iteration(c, r->kind);
    MPI_Errhandler old;
    MPI_Comm_get_errhandler(c->comm, &old);
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    make_buffers(c, r, bytes);
    int rc = create(c, r, bytes), bad = rc != MPI_SUCCESS, any_bad, lands = 1;
    eb_own_allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, c->comm);
    if (!any_bad) {
        r->win_open = 1;
        lands = lands_in_window(c, r, bytes);
        close_window(c, r);
    }
    free_buffers(r);
    /* SMPI 3.32 answers MPI_ERRHANDLER_NULL for MPI_COMM_WORLD's default handler */
    MPI_Comm_set_errhandler(c->comm, old != MPI_ERRHANDLER_NULL ? old : MPI_ERRORS_ARE_FATAL);
    if (old != MPI_ERRHANDLER_NULL)
        MPI_Errhandler_free(&old);
    r->disp = 0;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], why[MPI_MAX_ERROR_STRING];
    int len;
    library_name(lib, sizeof lib);
    if (!lands)
        return eb_err(err, n, "%s: under %s a put into a window of -w %s (%s) of %zu bytes "
                      "does not land in the target's window (checked before the first row): "
                      "-w %s with -s %s is not possible with this library", c->prog->name, lib,
                      WIN_OPTS[c->o->win], WIN_CALLS[c->o->win], bytes, WIN_OPTS[c->o->win],
                      osu_rma_sync_name(c->o->sync));
    if (!bad)
        return 0;
    MPI_Error_string(rc, why, &len);
    return eb_err(err, n, "%s: the window of -w %s (%s) for -s %s cannot be made under %s: "
                  "%s%s", c->prog->name, WIN_OPTS[c->o->win], WIN_CALLS[c->o->win],
                  osu_rma_sync_name(c->o->sync), lib, why,
                  strncmp(lib, "Open MPI", 8) ? ""
                  : " (Open MPI's osc/rdma makes none here; OMPI_MCA_osc=pt2pt makes every "
                    "flavour, see docs/osu/one-sided.md)");
}

const char *osu_rma_sync_name(osu_sync s)
{
    static const char *const names[] = {"lock", "pscw", "fence", "flush", "flush_local",
                                        "lock_all"};
    return names[s];
}

int osu_rma_setup(osu_ctx *c, const rma_kind *kind, char *err, size_t n)
{
    osu_rma *r = calloc(1, sizeof *r);
    if (!r)
        return eb_err(err, n, "%s: out of memory", c->prog->name);
    c->priv = r;
    r->kind = kind;
    r->mem = osu_rank_kind(c);
    MPI_Group all;
    int other = 1 - c->rank;
    MPI_Comm_group(c->comm, &all);
    MPI_Group_incl(all, 1, &other, &r->peer);
    MPI_Group_free(&all);
    return probe_flavour(c, r, err, n);
}

void osu_rma_teardown(osu_ctx *c)
{
    osu_rma *r = c->priv;
    close_window(c, r);
    free_buffers(r);
    MPI_Group_free(&r->peer);
    free(r);
    c->priv = NULL;
}

void osu_rma_open(osu_ctx *c, size_t bytes)
{
    osu_rma *r = c->priv;
    close_window(c, r);
    free_buffers(r);
    r->disp = 0;
    r->win_bytes = bytes;
    make_buffers(c, r, bytes);
    if (create(c, r, bytes) != MPI_SUCCESS)
        eb_abort("%s: %s of %zu bytes failed", c->prog->name, WIN_CALLS[c->o->win], bytes);
    r->win_open = 1;
}

/* The title comes with each table (OSU prints its header per datatype). */
void osu_rma_preamble(const osu_ctx *c, FILE *f)
{
    (void)c, (void)f;
}

void osu_rma_header(const osu_ctx *c, FILE *f)
{
    const osu_rma *r = c->priv;
    int bw = c->prog->row == OSU_ROW_BANDWIDTH;
    /* osu_get_acc_latency prints its HEADER with no accelerator suffix, and no memory line */
    int own = r->kind->no_datatype_line;
    osu_text_title_as(c->prog, own ? "" : osu_accel_title(c->o, OSU_TITLE_PREAMBLE), f);
    fprintf(f, "# Window creation: %s\n", WIN_CALLS[c->o->win]);
    fprintf(f, "# Synchronization: %s\n", SYNC_CALLS[c->o->sync]);
    if (!own)
        osu_text_datatype(c, f);
    if (!own && c->o->accel && !c->o->managed) /* OSU: CUDA, OpenACC, ROCm; not MANAGED */
        fprintf(f, "# Rank 0 Memory on %s and Rank 1 Memory on %s\n", osu_side_text(c->o, 0),
                osu_side_text(c->o, 1));
    fprintf(f, "%-*s%*s", 10, "# Size", W, bw ? "Bandwidth (MB/s)" : "Latency (us)");
    if (c->o->validate)
        fprintf(f, "%*s", W, "Validation");
    osu_text_percentile_titles(c->o, bw, f);
    fputc('\n', f);
}

void osu_rma_row(const osu_ctx *c, const osu_row *row, FILE *f)
{
    int bw = c->prog->row == OSU_ROW_BANDWIDTH;
    fprintf(f, "%-*zu%*.*f", 10, row->bytes, W, P, bw ? row->mb_per_s : row->avg_us);
    if (c->o->validate) /* OSU's one-sided words */
        fprintf(f, "%*s", W, row->defects > 0 ? "failed" : "passed");
    osu_text_percentile_values(c->o, row, f);
    fputc('\n', f);
}
