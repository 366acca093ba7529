/* b_eff_io's measurement of one pattern type of one access method on one
 * partition: the file opened, every pattern (time-driven or repeated), the
 * file closed, with --check the written data read back (docs/beff-io.md
 * "The measurement", "Data and verification"). */
#include "beffio/beff_io_pattern.h"

#include "beffio/beff_io_files.h"
#include "core/progress.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    bio_run *r;
    bio_part *pt;
    int a, t, k, n;
    MPI_File fh;
    MPI_Comm comm;      /* the partition */
    MPI_Info info;
    char *buf;
    long long base;     /* bytes of the file (types 0/1) or segment/own file (2-4) so far */
    long long errors;
    unsigned long long tag;
} type_ctx;

/* File byte offset of chunk j (of l bytes) of call i of this process. */
static long long chunk_offset(const type_ctx *c, long long l, long long L, long long i, long long j)
{
    switch (c->t) {
    case 0:
        return c->base + ((i * (L / l) + j) * c->n + c->k) * l;
    case 1:
        return c->base + (i * c->n + c->k) * l;
    case 2:
        return c->base + i * l;
    default:
        return (long long)c->k * c->pt->lseg + c->base + i * l;
    }
}

/* Writes carry off/8 + tag in every 8-byte word; without --check only the
 * first and last word of each chunk are stamped per call (cheap enough not to
 * disturb the timing) and only those are verified on reading. */
static void fill_call(type_ctx *c, long long l, long long L, long long i)
{
    uint64_t *w = (uint64_t *)c->buf;
    long long wl = l / 8;
    for (long long j = 0; j < L / l; j++) {
        uint64_t first = (uint64_t)chunk_offset(c, l, L, i, j) / 8 + c->tag;
        uint64_t *chunk = w + j * wl;
        if (c->r->check) {
            for (long long x = 0; x < wl; x++)
                chunk[x] = first + (uint64_t)x;
        } else {
            chunk[0] = first;
            chunk[wl - 1] = first + (uint64_t)(wl - 1);
        }
    }
}

static void poison_call(type_ctx *c, long long l, long long L)
{
    if (c->r->check) {
        memset(c->buf, 0xff, (size_t)L);
        return;
    }
    uint64_t *w = (uint64_t *)c->buf;
    for (long long j = 0; j < L / l; j++) {
        w[j * (l / 8)] = ~(uint64_t)0;
        w[j * (l / 8) + l / 8 - 1] = ~(uint64_t)0;
    }
}

static long long verify_call(type_ctx *c, long long l, long long L, long long i)
{
    const uint64_t *w = (const uint64_t *)c->buf;
    long long wl = l / 8, bad = 0;
    for (long long j = 0; j < L / l; j++) {
        uint64_t first = (uint64_t)chunk_offset(c, l, L, i, j) / 8 + c->tag;
        const uint64_t *chunk = w + j * wl;
        if (c->r->check) {
            for (long long x = 0; x < wl; x++)
                bad += chunk[x] != first + (uint64_t)x;
        } else {
            bad += chunk[0] != first;
            bad += chunk[wl - 1] != first + (uint64_t)(wl - 1);
        }
    }
    return bad;
}

static void io_call(type_ctx *c, long long l, long long L, long long i)
{
    int count = (int)(L / 8), rc, got = -1;
    MPI_Status st;
    int write = c->a != BIO_READ;
    if (write)
        fill_call(c, l, L, i);
    else
        poison_call(c, l, L);
    switch (c->t) {
    case 0:
    case 4:
        rc = write ? MPI_File_write_all(c->fh, c->buf, count, MPI_DOUBLE, &st)
                   : MPI_File_read_all(c->fh, c->buf, count, MPI_DOUBLE, &st);
        break;
    case 1:
        rc = write ? MPI_File_write_ordered(c->fh, c->buf, count, MPI_DOUBLE, &st)
                   : MPI_File_read_ordered(c->fh, c->buf, count, MPI_DOUBLE, &st);
        break;
    default:
        rc = write ? MPI_File_write(c->fh, c->buf, count, MPI_DOUBLE, &st)
                   : MPI_File_read(c->fh, c->buf, count, MPI_DOUBLE, &st);
        break;
    }
    if (rc == MPI_SUCCESS)
        MPI_Get_count(&st, MPI_DOUBLE, &got);
    if (rc != MPI_SUCCESS || got != count)
        c->errors++;
    else if (!write)
        c->errors += verify_call(c, l, L, i);
}

static void set_view(type_ctx *c, long long disp, MPI_Datatype ftype)
{
    int rc = MPI_File_set_view(c->fh, (MPI_Offset)disp, MPI_DOUBLE, ftype, "native", c->info);
    if (rc != MPI_SUCCESS)
        c->errors++;
}

static void run_pattern(type_ctx *c, int p, bio_pat_res *pr)
{
    const bio_pattern *pat = &c->r->tab[c->t].pat[p];
    long long l = pat->l, L = pat->L;
    if (pat->filler)
        l = L = c->pt->filler;
    pr->l = l;
    pr->L = L;
    pr->U = pat->U;
    pr->sched_s = 0;
    pr->batches = 0;
    long long reps;
    int timed = 0;
    if (c->a == BIO_WRITE && c->t <= 2) {
        timed = pat->U > 0;
        reps = 1;
        if (timed)
            pr->sched_s = bio_pattern_seconds(c->r->T / c->r->nparts, pat->U);
    } else if (c->a == BIO_WRITE) {
        reps = c->pt->rep34[p];
    } else {
        reps = c->pt->res[BIO_WRITE][c->t].pat[p].reps;
    }
    MPI_Datatype ftype = MPI_DATATYPE_NULL;
    if (c->t == 0) {
        MPI_Datatype chunk;
        MPI_Type_contiguous((int)(l / 8), MPI_DOUBLE, &chunk);
        MPI_Type_create_resized(chunk, 0, (MPI_Aint)(l * c->n), &ftype);
        MPI_Type_commit(&ftype);
        MPI_Type_free(&chunk);
        set_view(c, c->base + c->k * l, ftype);
    } else if (c->t == 1) {
        set_view(c, c->base, MPI_DOUBLE);
    }

    double t_io = 0, t_check = 0, t_sync = 0;
    MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    if (timed) {
        /* The geometric series of repeat factors (the paper's proposal):
         * batches of 1, 1, 2, 4, ... calls, the next capped by the calls
         * predicted to fit; one MPI_Allreduce of the elapsed time (and of the
         * latest batch's time) after each
         * batch gives every process the same decision. */
        long long done = 0, batch = 1;
        while (batch > 0) {
            double tb = MPI_Wtime();
            for (long long i = done; i < done + batch; i++)
                io_call(c, l, L, i);
            double tc = MPI_Wtime();
            t_io += tc - tb;
            done += batch;
            /* Both inputs of the decision are maxima over the partition, so
             * every process computes the same next batch. */
            double el[2] = {tc - t0, tc - tb};
            MPI_Allreduce(MPI_IN_PLACE, el, 2, MPI_DOUBLE, MPI_MAX, c->comm);
            batch = bio_next_batch(done, el[0], pr->sched_s, batch, el[1]);
            t_check += MPI_Wtime() - tc;
            pr->batches++;
        }
        reps = done;
    } else {
        double tb = MPI_Wtime();
        for (long long i = 0; i < reps; i++)
            io_call(c, l, L, i);
        t_io = MPI_Wtime() - tb;
    }
    if (c->a != BIO_READ) { /* writes end with MPI_File_sync between barriers */
        MPI_Barrier(c->comm);
        double ts = MPI_Wtime();
        if (MPI_File_sync(c->fh) != MPI_SUCCESS)
            c->errors++;
        t_sync = MPI_Wtime() - ts;
    }
    MPI_Barrier(c->comm);
    double t1 = MPI_Wtime();
    pr->t = t1 - t0;
    pr->t_io = t_io;
    pr->t_check = t_check;
    pr->t_sync = t_sync;
    pr->reps = reps;
    pr->bytes = reps * L * c->n;
    if (ftype != MPI_DATATYPE_NULL)
        MPI_Type_free(&ftype);
    if (c->a == BIO_WRITE && c->t <= 2)
        c->pt->rep[c->t][p] = reps;
    c->base += c->t == 0 ? reps * L * c->n : c->t == 1 ? reps * l * c->n : reps * l;
}

static MPI_Info make_info(const bio_run *r, int t)
{
    MPI_Info info = MPI_INFO_NULL;
    for (int h = 0; h < r->nhints; h++) {
        if (!(r->hints[h].types & (1 << t)))
            continue;
        if (info == MPI_INFO_NULL)
            MPI_Info_create(&info);
        MPI_Info_set(info, r->hints[h].key, r->hints[h].value);
    }
    return info;
}

/* --hints: the value the MPI-IO library reports for every hint given to
 * type t (MPI_File_get_info on the open file), for the reporters. */
static void read_back_hints(bio_run *r, int t, MPI_File fh)
{
    MPI_Info used = MPI_INFO_NULL;
    if (MPI_File_get_info(fh, &used) != MPI_SUCCESS)
        used = MPI_INFO_NULL;
    for (int h = 0; h < r->nhints; h++) {
        r->hint_found[h] = 0;
        if (used != MPI_INFO_NULL && (r->hints[h].types & (1 << t)))
            MPI_Info_get(used, r->hints[h].key, (int)sizeof r->hint_used[h] - 1,
                         r->hint_used[h], &r->hint_found[h]);
    }
    if (used != MPI_INFO_NULL)
        MPI_Info_free(&used);
}

/* --check, after a write or rewrite: the file, closed, is opened again and
 * every process reads its share back (MPI_File_read_at, default view) and
 * compares every word with offset/8 + tag, so the data of every write is
 * proven when it is written, not only by the read phase, which sees what
 * the rewrite left.  `size`: the bytes the patterns claim to have written
 * (type 2: this process's file).  Collective over the file's communicator.
 * Returns the wrong or missing words, plus 1 when the file's size differs;
 * *checked gets the bytes compared. */
static long long verify_written(const type_ctx *c, MPI_Comm fcomm, const char *name,
                                long long size, long long *checked)
{
    long long words = size / 8, w0 = 0, w1 = words;
    if (c->t != 2) { /* one shared file: a contiguous share per process */
        w0 = words * c->k / c->n;
        w1 = words * (c->k + 1) / c->n;
    }
    long long bad = 0, x = w0;
    struct stat st;
    if ((c->t == 2 || c->k == 0) && (stat(name, &st) != 0 || st.st_size != size))
        bad++;
    MPI_File fh;
    int failed = MPI_File_open(fcomm, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS;
    int any = failed;
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, fcomm);
    if (any) { /* counted as missing below */
        if (!failed)
            MPI_File_close(&fh);
    } else {
        const long long block = BIO_MIB / 8; /* words per call; the buffer holds more */
        uint64_t *w = (uint64_t *)c->buf;
        while (x < w1) {
            int n = (int)(w1 - x < block ? w1 - x : block), got = 0;
            MPI_Status st_;
            if (MPI_File_read_at(fh, (MPI_Offset)(x * 8), w, n, MPI_DOUBLE, &st_) == MPI_SUCCESS)
                MPI_Get_count(&st_, MPI_DOUBLE, &got);
            if (got <= 0)
                break;
            for (int i = 0; i < got; i++)
                bad += w[i] != (uint64_t)(x + i) + c->tag;
            x += got;
        }
        MPI_File_close(&fh);
    }
    bad += w1 - x; /* words that could not be read are missing */
    *checked = (x - w0) * 8;
    return bad;
}

/* The progress line (rank 0, which is in every partition). */
static void pattern_done(bio_run *r, const bio_part *pt, int a, int t, int p)
{
    char where[96] = "";
    if (r->progress.on)
        snprintf(where, sizeof where, "%s, %d process%s, type %d %s, pattern %d/%d",
                 bio_access_names[a], pt->n, pt->n == 1 ? "" : "es", t, bio_type_names[t],
                 p + 1, r->tab[t].npat);
    eb_progress_add(&r->progress, r->tab[t].pat[p].U, where);
}

/* The open failed on some process: the file closed where it opened, one
 * message for the whole job. */
static const char *open_error(type_ctx *c, int rc, const char *name, char *err, size_t errlen)
{
    char es[MPI_MAX_ERROR_STRING] = "failed on another process";
    int len;
    if (rc != MPI_SUCCESS)
        MPI_Error_string(rc, es, &len);
    else
        MPI_File_close(&c->fh);
    if (c->info != MPI_INFO_NULL)
        MPI_Info_free(&c->info);
    for (char *q = es; *q; q++) /* MPICH's strings hold an error stack: one line */
        if (*q == '\n')
            *q = ' ';
    snprintf(err, errlen, "MPI_File_open %.300s (%s): %s", name, bio_access_names[c->a], es);
    return err;
}

/* The type's times as the slowest process saw them (span: open .. close
 * without reading the hints back, the open, the close), --check's reading
 * back of what was written, the bytes and the errors. */
static void type_totals(type_ctx *c, bio_type_res *tr, const double span[3], MPI_Comm fcomm,
                        const char *name)
{
    bio_part *pt = c->pt;
    int np = tr->npat;
    double tm[4 * BIO_MAX_PAT + 3];
    for (int p = 0; p < np; p++) {
        tm[4 * p] = tr->pat[p].t;
        tm[4 * p + 1] = tr->pat[p].t_io;
        tm[4 * p + 2] = tr->pat[p].t_check;
        tm[4 * p + 3] = tr->pat[p].t_sync;
    }
    for (int k = 0; k < 3; k++)
        tm[4 * np + k] = span[k];
    MPI_Allreduce(MPI_IN_PLACE, tm, 4 * np + 3, MPI_DOUBLE, MPI_MAX, pt->comm);
    long long checked[2] = {0, 0}; /* bytes compared, wrong words */
    tr->verified_bytes = -1;
    int check_written = c->r->check && c->a != BIO_READ;
    if (check_written) {
        long long size = c->t <= 2 ? c->base : (long long)pt->n * pt->lseg;
        checked[1] = verify_written(c, fcomm, name, size, &checked[0]);
    }
    long long errors[3] = {c->errors, checked[0], checked[1]};
    MPI_Allreduce(MPI_IN_PLACE, errors, 3, MPI_LONG_LONG, MPI_SUM, pt->comm);
    if (check_written)
        tr->verified_bytes = errors[1];
    tr->bytes = 0;
    for (int p = 0; p < np; p++) {
        tr->pat[p].t = tm[4 * p];
        tr->pat[p].t_io = tm[4 * p + 1];
        tr->pat[p].t_check = tm[4 * p + 2];
        tr->pat[p].t_sync = tm[4 * p + 3];
        tr->bytes += tr->pat[p].bytes;
    }
    tr->t = tm[4 * np];
    tr->t_open = tm[4 * np + 1];
    tr->t_close = tm[4 * np + 2];
    tr->bw = tr->bytes / tr->t / 1e6;
    tr->errors = errors[0] + errors[2];
    tr->ran = 1;
    pt->errors += tr->errors;
}

/* One pattern type of one access method on one partition (members only).
 * Returns NULL or an error message for the whole job. */
const char *bio_run_type(bio_run *r, bio_part *pt, int a, int t, char *buf, char *err,
                         size_t errlen)
{
    bio_type_res *tr = &pt->res[a][t];
    const bio_type_table *tab = &r->tab[t];
    type_ctx c = {.r = r, .pt = pt, .a = a, .t = t, .n = pt->n, .comm = pt->comm, .buf = buf};
    MPI_Comm_rank(pt->comm, &c.k);
    c.tag = bio_word_tag(t, c.k);
    c.info = make_info(r, t);
    char name[4200];
    bio_file_name(r, pt->n, t, c.k, name, sizeof name);
    bio_leaf_name(r->prefix, pt->n, t, c.k, tr->file, sizeof tr->file);
    MPI_Comm fcomm = t == 2 ? MPI_COMM_SELF : pt->comm;
    int amode = a == BIO_READ    ? MPI_MODE_RDONLY
                : a == BIO_WRITE ? MPI_MODE_WRONLY | MPI_MODE_CREATE
                                 : MPI_MODE_WRONLY; /* never MPI_MODE_UNIQUE_OPEN */
    if (a == BIO_WRITE && (t == 2 || c.k == 0))
        unlink(name); /* an initial write starts from no file */

    MPI_Barrier(pt->comm);
    double t0 = MPI_Wtime();
    int rc = MPI_File_open(fcomm, name, amode, c.info, &c.fh);
    double t_opened = MPI_Wtime();
    int bad = rc != MPI_SUCCESS;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, pt->comm);
    if (bad)
        return open_error(&c, rc, name, err, errlen);
    /* the hints in use, on rank 0 (in every partition); not part of the
     * measured time */
    double t_hints = 0;
    if (c.info != MPI_INFO_NULL && c.k == 0) {
        double th = MPI_Wtime();
        read_back_hints(r, t, c.fh);
        t_hints = MPI_Wtime() - th;
    }
    if (t == 2)
        set_view(&c, 0, MPI_DOUBLE);
    else if (t >= 3)
        set_view(&c, (long long)c.k * pt->lseg, MPI_DOUBLE);

    tr->npat = tab->npat;
    for (int p = 0; p < tab->npat; p++) {
        run_pattern(&c, p, &tr->pat[p]);
        pattern_done(r, pt, a, t, p);
    }

    double tc = MPI_Wtime();
    if (MPI_File_close(&c.fh) != MPI_SUCCESS)
        c.errors++;
    double t_end = MPI_Wtime();
    if (c.info != MPI_INFO_NULL)
        MPI_Info_free(&c.info);

    double span[3] = {t_end - t0 - t_hints, t_opened - t0, t_end - tc};
    type_totals(&c, tr, span, fcomm, name);
    return NULL;
}
