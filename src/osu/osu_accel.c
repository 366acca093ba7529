#include "osu/osu_accel.h"

#include "core/buffers.h"
#include "core/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ------------------------------------------------------------- */

int osu_takes_accel(const osu_prog *p)
{
    if (p->threads || !strcmp(p->optstring, OSU_OPTS_PT2PT_LAT_MP) || strchr(p->optstring, 'N'))
        return 0; /* OSU's enable_accel_support leaves out LAT_MT and LAT_MP; NHBR has no d */
    return p->bench == OSU_PT2PT || p->bench == OSU_MBW_MR || p->bench == OSU_COLLECTIVE ||
           p->bench == OSU_ONE_SIDED;
}

int osu_accel_take(const osu_prog *p, osu_options *o, const char *arg, char *err, size_t n)
{
    if (!osu_takes_accel(p))
        return eb_err(err, n, "Benchmark Does Not Support Accelerator Transfers [-d %s] (%s has "
                      "no accelerator buffers in OSU 7.4)", arg, p->name);
    char word[16];
    size_t k = 0;
    for (; arg[k] && k + 1 < sizeof word; k++)
        word[k] = (char)tolower((unsigned char)arg[k]);
    word[k] = '\0';
    eb_accel a;
    if (!strcmp(word, "managed")) {
        o->accel = EB_ACCEL_CUDA;
        o->managed = 1;
    } else if (!arg[k] && eb_accel_parse(word, &a) == 0 && a != EB_ACCEL_NONE) {
        o->accel = a; /* ROCm, Level Zero, OpenACC: refused by the seam when opened */
        o->managed = 0;
    } else {
        return eb_err(err, n, "Invalid Accel Type Specified [-d %s] (cuda, managed; rocm, "
                      "openacc and level_zero are named but not built)", arg);
    }
    return 0;
}

static int pt2pt_like(const osu_prog *p) { return p->bench == OSU_PT2PT || p->bench == OSU_MBW_MR; }

/* One letter as OSU 7.4 reads it with -d: H, D, M, MH; MD refused. */
static int letter(const osu_prog *p, osu_options *o, const char *l, char out[3], char *err,
                  size_t n)
{
    int one_sided = p->bench == OSU_ONE_SIDED;
    if (l[0] == 'M' && l[1] == 'D' && !one_sided)
        return eb_err(err, n, "buffer type MD (managed memory prefetched to the device) needs "
                      "OSU's CUDA kernels, which effbench does not build: use D, MH or H");
    if (l[0] == 'M' && !l[1] && !one_sided)
        o->m_deprecated = 1; /* OSU: "Currently M flag is considered as MH" */
    if (strcmp(l, "H") && strcmp(l, "D") && strcmp(l, "M") && strcmp(l, "MH") &&
        !(one_sided && !strcmp(l, "MD")))
        return eb_err(err, n, "unknown buffer type '%s' (H host, D device, MH or M managed)",
                      l);
    snprintf(out, 3, "%s", l[0] == 'M' ? (one_sided ? "M" : "MH") : l);
    return 0;
}

static int stage_refusal(const osu_prog *p, const osu_options *o, char *err, size_t n)
{
    if (!o->accel)
        return eb_err(err, n, "--stage-through-host stages device buffers: give -d cuda and the "
                      "buffer types (e.g. -d cuda D D)");
    if (!p->stages)
        return eb_err(err, n, "--stage-through-host is built for osu_latency, osu_bw, osu_bibw "
                      "and the blocking collectives, not %s: run it without staging (an MPI "
                      "library that takes device pointers)", p->name);
    if (!osu_on_device(p, o))
        return eb_err(err, n, "--stage-through-host: no buffer is on the device (%s %s): give "
                      "D or M buffer types", o->src, o->dst);
    return 0;
}

int osu_accel_letters(const osu_prog *p, osu_options *o, const char *a, const char *b,
                      char *err, size_t n)
{
    snprintf(o->src, sizeof o->src, "H");
    snprintf(o->dst, sizeof o->dst, "H");
    if (!o->accel)
        return o->stage ? stage_refusal(p, o, err, n) : 0;
    if (a && (letter(p, o, a, o->src, err, n) || letter(p, o, b, o->dst, err, n)))
        return -1;
    int dev = o->src[0] != 'H' || o->dst[0] != 'H';
    if (pt2pt_like(p) && (o->src[0] == 'M' || o->dst[0] == 'M'))
        o->buf_multiple = 1; /* OSU's setAccel: managed buffers, multiple of them */
    if (pt2pt_like(p) && dev)
        o->managed = 0; /* OSU's setAccel: MANAGED becomes CUDA */
    if (p->bench == OSU_ONE_SIDED && o->managed && (o->src[0] == 'D' || o->dst[0] == 'D'))
        return eb_err(err, n, "-d managed with a D buffer: OSU 7.4's one-sided programs cannot "
                      "allocate device memory under -d managed; use -d cuda D D, or M M");
    return o->stage ? stage_refusal(p, o, err, n) : 0;
}

/* ---- where the buffers live ---------------------------------------------- */

static eb_mem_kind kind_of_letter(const char *l)
{
    return l[0] == 'D' ? EB_MEM_DEVICE : l[0] == 'M' ? EB_MEM_MANAGED : EB_MEM_HOST;
}

eb_mem_kind osu_side_kind(const osu_prog *p, const osu_options *o, int side)
{
    if (!o->accel)
        return EB_MEM_HOST;
    if (p->bench == OSU_COLLECTIVE) /* OSU's allocate_memory_coll: by -d alone */
        return o->managed ? EB_MEM_MANAGED : EB_MEM_DEVICE;
    return kind_of_letter(side ? o->dst : o->src);
}

eb_mem_kind osu_rank_kind(const osu_ctx *c)
{
    const osu_options *o = c->o;
    int side = c->side >= 0 ? c->side : c->rank != 0;
    if (c->prog->bench == OSU_MBW_MR) /* the first `pairs` ranks send */
        side = c->rank >= (o->pairs ? o->pairs : c->size / 2);
    return osu_side_kind(c->prog, o, side);
}

int osu_on_device(const osu_prog *p, const osu_options *o)
{
    return osu_side_kind(p, o, 0) != EB_MEM_HOST || osu_side_kind(p, o, 1) != EB_MEM_HOST;
}

int osu_staged(const osu_ctx *c) { return c->o->stage && osu_rank_kind(c) != EB_MEM_HOST; }

/* ---- text ---------------------------------------------------------------- */

const char *osu_accel_title(const osu_options *o, osu_title_at at)
{
    if (!o->accel)
        return "";
    if (o->managed)
        return at == OSU_TITLE_NBC ? "-MANAGED" : at == OSU_TITLE_VERSION ? "-CUDA MANAGED" : "";
    return o->accel == EB_ACCEL_CUDA ? "-CUDA" : "";
}

const char *osu_side_text(const osu_options *o, int side)
{
    const char *l = side ? o->dst : o->src;
    return l[0] == 'M' ? "MANAGED (M)" : l[0] == 'D' ? "DEVICE (D)" : "HOST (H)";
}

void osu_accel_staging_line(const osu_options *o, FILE *f)
{
    if (o->stage)
        fputs("# Staged through host memory (effbench --stage-through-host): device to host "
              "before each send, host to device after each receive, timed\n", f);
}

/* ---- before measuring ---------------------------------------------------- */

void osu_accel_prepare(const osu_prog *p, const osu_options *o)
{
    char err[EB_ERRLEN], msg[EB_ERRLEN + 128];
    if (!o->accel)
        return;
    const char *word = o->managed ? "managed" : eb_accel_name(o->accel);
    if (eb_device_open_all(o->accel, err, sizeof err)) {
        snprintf(msg, sizeof msg, "%s -d %s: %s", p->name, word, err);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (!osu_on_device(p, o) || o->stage)
        return;
    /* every rank asks: the answer is the library's, the same everywhere */
    if (eb_mpi_takes_device_pointers(o->accel, err, sizeof err) != 1) {
        snprintf(msg, sizeof msg, "%s -d %s: %s%s", p->name, word, err,
                 p->stages ? ", or measure with --stage-through-host (copies through host "
                             "memory, timed)" : "");
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
}

void osu_accel_release(void)
{
    if (eb_device_is_open())
        eb_device_close();
}

static void buffers_text(const osu_prog *p, const osu_options *o, char out[8])
{
    static const char L[] = {'H', 'D', 'M', 'H'}; /* by eb_mem_kind */
    snprintf(out, 8, "%c %c", L[osu_side_kind(p, o, 0)], L[osu_side_kind(p, o, 1)]);
}

void osu_accel_record(const osu_prog *p, const osu_options *o, eb_run *run)
{
    char b[8];
    buffers_text(p, o, b);
    /* "buffers" decides a --resume; the two others are new members, absent from older
     * files, so they inform only */
    eb_run_opt_str(run, "buffers", b, EB_DECIDES);
    eb_run_opt_str(run, "accelerator", o->accel ? eb_accel_name(o->accel) : NULL, EB_INFO);
    eb_run_opt_str(run, "staging", o->stage ? "through-host" : NULL, EB_INFO);
}

void osu_accel_row_json(const osu_ctx *c, eb_json *j)
{
    if (!c->o->accel)
        return;
    eb_json_object(j, "memory");
    eb_json_str(j, "send", eb_mem_kind_name(osu_side_kind(c->prog, c->o, 0)));
    eb_json_str(j, "recv", eb_mem_kind_name(osu_side_kind(c->prog, c->o, 1)));
    eb_json_close(j);
    if (c->o->stage)
        eb_json_str(j, "staging", "through-host");
}

/* ---- buffers ------------------------------------------------------------- */

void *osu_buf_try(eb_mem_kind k, size_t n, char *err, size_t errlen)
{
    if (k == EB_MEM_HOST)
        return osu_alloc(n);
    void *p = eb_mem_alloc(k, n ? n : 1, err, errlen);
    if (p)
        eb_mem_set(k, p, 0, n ? n : 1);
    return p;
}

void *osu_buf_alloc(eb_mem_kind k, size_t n)
{
    char err[EB_ERRLEN];
    void *p = osu_buf_try(k, n, err, sizeof err);
    if (!p)
        eb_abort("%s", err);
    return p;
}

void osu_buf_free(eb_mem_kind k, void *p)
{
    if (k == EB_MEM_HOST)
        osu_free(p);
    else if (p)
        eb_mem_free(k, p);
}

void osu_buf_fill(eb_mem_kind k, void *p, size_t n, int sender, long i)
{
    if (k == EB_MEM_HOST) {
        osu_fill(p, n, sender, i);
        return;
    }
    char *h = eb_malloc(n ? n : 1);
    osu_fill(h, n, sender, i);
    eb_mem_from_host(k, p, h, n);
    free(h);
}

long osu_buf_verify(eb_mem_kind k, const void *p, size_t n, int sender, long i)
{
    if (k == EB_MEM_HOST)
        return osu_verify(p, n, sender, i);
    char *h = eb_malloc(n ? n : 1);
    eb_mem_to_host(h, k, p, n);
    long bad = osu_verify(h, n, sender, i);
    free(h);
    return bad;
}
