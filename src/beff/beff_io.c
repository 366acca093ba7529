/* b_eff_io: the effective I/O bandwidth benchmark through MPI-IO (section 5
 * and 6 of the b_eff/b_eff_io paper, rules in ../shared/beff-spec.md).
 * Options, the measurement loop and the clean-up; the reporters live in
 * beff_io_report.c and the pure rules in beff_io_plan.c. */
#include "beff/beff_io.h"

#include "core/guard.h"
#include "core/error.h"
#include "core/text.h"
#include "core/registry.h"
#include "core/report/jsonl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bio_run *the_run; /* for the clean-up exit hook */

static void usage(void)
{
    printf("Usage: mpirun -np P effbench beff-io [options]   (or b_eff_io [options])\n\n"
           "The effective I/O bandwidth b_eff_io through MPI-IO (see docs/beff-io.md).\n\n"
           "  -T, --time SEC          scheduled time for all partitions together (default 1800)\n"
           "  --partitions LIST       `auto` (default) or a comma list of process counts\n"
           "  --path DIR              directory for the benchmark files (default .)\n"
           "  --hints FILE            MPI_Info hints per pattern type: lines `TYPES KEY VALUE`\n"
           "  --fs-cache MIB          file-system cache size: warn when an access method\n"
           "                          moves less than 20 times as much\n"
           "  --rewrite-type0-only    release 2.0 mode: rewrite only pattern type 0\n"
           "  --mem-per-proc MIB      memory per process (default: node memory / ranks per node)\n"
           "  --mem-per-node MIB      memory per node (divided by the ranks per node)\n"
           "  --mem-total MIB         total memory MT of the system (default: memory per\n"
           "                          process x processes)\n"
           "  --check                 write and verify every byte (not for publication)\n"
           "  --keep                  keep the files\n"
           "  --progress              the progress line on stderr also when it is not a\n"
           "                          terminal (under mpirun, which gives ranks a pipe)\n"
           "  --json FILE             JSON Lines output\n"
           "  --resume FILE           continue the --json FILE of an interrupted run with the\n"
           "                          same options: partitions it finished are kept\n"
           "  -h, --help              this text\n");
}

/* ---- options ------------------------------------------------------------ */

static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (a[n] == '=')
        return a + n + 1;
    if (*i + 1 >= argc) {
        char msg[EB_ERRLEN];
        snprintf(msg, sizeof msg, "%s: missing value", name);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    return argv[++*i];
}

static int is_opt(const char *a, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

static double parse_number(const char *name, const char *v, double min)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x >= min)) {
        char msg[EB_ERRLEN];
        snprintf(msg, sizeof msg, "%s %s: expected a number >= %g", name, v, min);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    return x;
}

static void parse_options(bio_run *r, int argc, char **argv)
{
    const char *partitions = "auto";
    double mem_proc = 0, mem_node = 0, mem_total = 0;
    r->T = 1800;
    r->path = ".";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            int rank;
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
            if (rank == 0)
                usage();
            eb_exit_all(EB_EXIT_OK, NULL);
        } else if (!strcmp(a, "-T") || is_opt(a, "--time")) {
            r->T = parse_number(a[1] == 'T' ? "-T" : "--time",
                                opt_value(argc, argv, &i, a[1] == 'T' ? "-T" : "--time"), 0);
            if (r->T <= 0)
                eb_exit_all(EB_EXIT_USAGE, "-T: the scheduled time must be positive");
        } else if (is_opt(a, "--partitions")) {
            partitions = opt_value(argc, argv, &i, "--partitions");
        } else if (is_opt(a, "--path")) {
            r->path = opt_value(argc, argv, &i, "--path");
        } else if (is_opt(a, "--hints")) {
            r->hints_path = opt_value(argc, argv, &i, "--hints");
        } else if (is_opt(a, "--fs-cache")) {
            r->fs_cache_mib = parse_number("--fs-cache", opt_value(argc, argv, &i, "--fs-cache"), 0);
        } else if (!strcmp(a, "--rewrite-type0-only")) {
            r->rewrite0 = 1;
        } else if (is_opt(a, "--mem-per-proc")) {
            mem_proc = parse_number("--mem-per-proc", opt_value(argc, argv, &i, "--mem-per-proc"), 1);
        } else if (is_opt(a, "--mem-per-node")) {
            mem_node = parse_number("--mem-per-node", opt_value(argc, argv, &i, "--mem-per-node"), 1);
        } else if (is_opt(a, "--mem-total")) {
            mem_total = parse_number("--mem-total", opt_value(argc, argv, &i, "--mem-total"), 1);
        } else if (!strcmp(a, "--progress")) {
            r->progress_forced = 1;
        } else if (!strcmp(a, "--keep")) {
            r->keep = 1;
        } else if (!strcmp(a, "--check")) {
            r->check = 1;
        } else if (is_opt(a, "--json") || is_opt(a, "--resume")) {
            const char *v = opt_value(argc, argv, &i, a[2] == 'j' ? "--json" : "--resume");
            if (r->json_path)
                eb_exit_all(EB_EXIT_USAGE, "--json and --resume name one file, once");
            r->json_path = v;
            r->resume = a[2] == 'r';
        } else {
            char msg[EB_ERRLEN];
            snprintf(msg, sizeof msg, "unknown option '%s' (see `effbench beff-io --help`)", a);
            eb_exit_all(EB_EXIT_USAGE, msg);
        }
    }
    if (mem_proc > 0 && mem_node > 0)
        eb_exit_all(EB_EXIT_USAGE, "--mem-per-proc and --mem-per-node exclude each other");
    char err[EB_ERRLEN];
    r->nparts = bio_parse_partitions(partitions, r->P, r->parts, err, sizeof err);
    if (r->nparts < 0)
        eb_exit_all(EB_EXIT_USAGE, err);

    /* Memory per process: the smallest over all ranks, so all agree on M_PART. */
    int per_node = eb_hosts(NULL);
    double m;
    if (mem_proc > 0)
        m = mem_proc;
    else if (mem_node > 0)
        m = mem_node / per_node;
    else {
        m = eb_node_memory_bytes() / (double)BIO_MIB / per_node;
        r->mem_detected = 1;
        if (m < 1)
            m = 1;
    }
    MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    r->mem_mib = (long long)m;
    r->mpart = bio_mpart((double)r->mem_mib * BIO_MIB);
    bio_pattern_table(r->mpart, r->tab);
    /* MT: only printed (header, share of the total memory moved), as the
     * original's -MT; M_PART follows the memory per process. */
    r->mem_total_mib = r->mem_mib * r->P;
    if (mem_total > 0) {
        if ((long long)mem_total < r->mem_total_mib) {
            snprintf(err, sizeof err, "--mem-total %lld: less than the memory of the %d "
                     "processes (%d x %lld MiB = %lld MiB)", (long long)mem_total, r->P, r->P,
                     r->mem_mib, r->mem_total_mib);
            eb_exit_all(EB_EXIT_USAGE, err);
        }
        r->mem_total_mib = (long long)mem_total;
        r->mem_total_given = 1;
    }

    if (r->hints_path) {
        char *text = eb_read_file(r->hints_path, "--hints", err, sizeof err);
        if (!text)
            eb_exit_all(EB_EXIT_USAGE, err);
        r->nhints = bio_parse_hints(text, r->hints_path, r->hints, err, sizeof err);
        free(text);
        if (r->nhints < 0)
            eb_exit_all(EB_EXIT_USAGE, err);
        /* MPI_Info_set would fail (fatally, by default) on a longer key */
        for (int h = 0; h < r->nhints; h++)
            if (strlen(r->hints[h].key) >= MPI_MAX_INFO_KEY) {
                snprintf(err, sizeof err, "%s:%d: key `%s` is longer than the %d characters "
                         "this MPI library allows (MPI_MAX_INFO_KEY)", r->hints_path,
                         r->hints[h].line, r->hints[h].key, MPI_MAX_INFO_KEY - 1);
                eb_exit_all(EB_EXIT_USAGE, err);
            }
    }
}

/* Every rank creates a file in --path (type 2 writes one file per process),
 * so an unusable directory is a clear user error instead of failed opens. */
static void probe_path(bio_run *r)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char probe[4096], err[EB_ERRLEN];
    const char *msg = NULL;
    struct stat st;
    if (stat(r->path, &st) != 0) {
        snprintf(err, sizeof err, "--path %s: cannot use: %s", r->path, strerror(errno));
        msg = err;
    } else if (!S_ISDIR(st.st_mode)) {
        snprintf(err, sizeof err, "--path %s: not a directory", r->path);
        msg = err;
    } else {
        snprintf(probe, sizeof probe, "%s/.%s_probe.%d", r->path, r->prefix, rank);
        int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0) {
            snprintf(err, sizeof err, "--path %s: cannot create files: %s", r->path,
                     strerror(errno));
            msg = err;
        } else {
            close(fd);
            unlink(probe);
        }
    }
    char all[EB_ERRLEN];
    if (eb_any_error(msg, all, sizeof all))
        eb_exit_all(EB_EXIT_USAGE, all);
}

/* ---- files -------------------------------------------------------------- */

/* The file of pattern type `type` on partition n (type 2: of partition rank k). */
static void leaf_name(const char *prefix, int n, int type, int k, char *out, size_t len)
{
    if (type == 2)
        snprintf(out, len, "%s_n%03d_t2.%03d", prefix, n, k);
    else
        snprintf(out, len, "%s_n%03d_t%d", prefix, n, type);
}

static void file_name(const bio_run *r, int n, int type, int k, char *out, size_t len)
{
    char leaf[80];
    leaf_name(r->prefix, n, type, k, leaf, sizeof leaf);
    snprintf(out, len, "%s/%s", r->path, leaf);
}

/* The files of a run with this prefix (each rank removes its own). */
static void remove_prefix_files(bio_run *r, const char *prefix)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[4200];
    for (int i = 0; i < r->nparts; i++) {
        int n = r->parts[i];
        if (rank >= n)
            continue;
        for (int t = 0; t < BIO_NTYPES; t++) {
            if (t != 2 && rank != 0)
                continue;
            char leaf[80];
            leaf_name(prefix, n, t, rank, leaf, sizeof leaf);
            snprintf(name, sizeof name, "%s/%s", r->path, leaf);
            unlink(name);
        }
    }
}

static void remove_files(void)
{
    bio_run *r = the_run;
    if (r && !r->keep)
        remove_prefix_files(r, r->prefix);
}

static void cleanup_hook(int status, const char *msg)
{
    (void)status;
    (void)msg;
    remove_files();
}

/* ---- one pattern ---------------------------------------------------------- */

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

/* Time units U of everything this run measures (partitions kept by --resume
 * are not measured again). */
static double planned_units(const bio_run *r)
{
    double units = 0;
    for (int i = 0; i < r->nparts; i++)
        for (int a = 0; a < BIO_NACCESS && !r->part[i].kept; a++)
            for (int t = 0; t < BIO_NTYPES; t++)
                if (!(a == BIO_REWRITE && r->rewrite0 && t > 0))
                    units += bio_type_units(&r->tab[t]);
    return units;
}

/* One pattern type of one access method on one partition (members only).
 * Returns NULL or an error message for the whole job. */
static const char *run_type(bio_run *r, bio_part *pt, int a, int t, char *buf, char *err,
                            size_t errlen)
{
    bio_type_res *tr = &pt->res[a][t];
    const bio_type_table *tab = &r->tab[t];
    type_ctx c = {.r = r, .pt = pt, .a = a, .t = t, .n = pt->n, .comm = pt->comm, .buf = buf};
    MPI_Comm_rank(pt->comm, &c.k);
    c.tag = bio_word_tag(t, c.k);
    c.info = make_info(r, t);
    char name[4200];
    file_name(r, pt->n, t, c.k, name, sizeof name);
    leaf_name(r->prefix, pt->n, t, c.k, tr->file, sizeof tr->file);
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
    if (bad) {
        char es[MPI_MAX_ERROR_STRING] = "failed on another process";
        int len;
        if (rc != MPI_SUCCESS)
            MPI_Error_string(rc, es, &len);
        else
            MPI_File_close(&c.fh);
        if (c.info != MPI_INFO_NULL)
            MPI_Info_free(&c.info);
        for (char *q = es; *q; q++) /* MPICH's strings hold an error stack: one line */
            if (*q == '\n')
                *q = ' ';
        snprintf(err, errlen, "MPI_File_open %.300s (%s): %s", name, bio_access_names[a], es);
        return err;
    }
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

    /* Times as the slowest process saw them. */
    int np = tab->npat;
    double tm[4 * BIO_MAX_PAT + 3];
    for (int p = 0; p < np; p++) {
        tm[4 * p] = tr->pat[p].t;
        tm[4 * p + 1] = tr->pat[p].t_io;
        tm[4 * p + 2] = tr->pat[p].t_check;
        tm[4 * p + 3] = tr->pat[p].t_sync;
    }
    tm[4 * np] = t_end - t0 - t_hints;
    tm[4 * np + 1] = t_opened - t0;
    tm[4 * np + 2] = t_end - tc;
    MPI_Allreduce(MPI_IN_PLACE, tm, 4 * np + 3, MPI_DOUBLE, MPI_MAX, pt->comm);
    long long checked[2] = {0, 0}; /* bytes compared, wrong words */
    tr->verified_bytes = -1;
    if (r->check && a != BIO_READ) {
        long long size = t <= 2 ? c.base : (long long)pt->n * pt->lseg;
        checked[1] = verify_written(&c, fcomm, name, size, &checked[0]);
    }
    long long errors[3] = {c.errors, checked[0], checked[1]};
    MPI_Allreduce(MPI_IN_PLACE, errors, 3, MPI_LONG_LONG, MPI_SUM, pt->comm);
    if (r->check && a != BIO_READ)
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
    return NULL;
}

/* ---- the run ------------------------------------------------------------ */

static void compute_values(bio_run *r)
{
    r->b_eff_io = r->rel21 = -1;
    r->errors = 0;
    for (int i = 0; i < r->nparts; i++) {
        bio_part *pt = &r->part[i];
        for (int a = 0; a < BIO_NACCESS; a++) {
            double bw[BIO_NTYPES];
            pt->method_bytes[a] = 0;
            pt->method_time[a] = 0;
            for (int t = 0; t < BIO_NTYPES; t++) {
                bw[t] = pt->res[a][t].bw;
                pt->method_bytes[a] += pt->res[a][t].bytes;
                pt->method_time[a] += pt->res[a][t].t;
            }
            pt->method[a] = (a == BIO_REWRITE && r->rewrite0) ? bw[0] : bio_method_value(bw);
        }
        pt->value = bio_partition_value(pt->method[BIO_WRITE], pt->method[BIO_REWRITE],
                                        pt->method[BIO_READ]);
        double w[BIO_NTYPES];
        for (int t = 0; t < BIO_NTYPES; t++)
            w[t] = pt->res[BIO_WRITE][t].bw;
        pt->rel21 = bio_rel21_value(w, pt->res[BIO_REWRITE][0].bw, pt->method[BIO_READ]);
        if (pt->value > r->b_eff_io) {
            r->b_eff_io = pt->value;
            r->best = i;
        }
        /* each formula's maximum over the partitions, with its own partition */
        if (pt->rel21 > r->rel21) {
            r->rel21 = pt->rel21;
            r->best21 = i;
        }
        r->errors += pt->errors;
    }
}

static void options_json(eb_json *j, const bio_run *r)
{
    eb_json_object(j, "options");
    eb_guard_plan_rows(bio_planned_rows(r->tab, r->nparts, r->rewrite0));
    eb_json_int(j, "planned_rows", bio_planned_rows(r->tab, r->nparts, r->rewrite0));
    eb_json_num(j, "T_s", r->T);
    eb_json_array(j, "partitions");
    for (int i = 0; i < r->nparts; i++)
        eb_json_int(j, NULL, r->parts[i]);
    eb_json_close(j);
    eb_json_str(j, "path", r->path);
    eb_json_str(j, "hints", r->hints_path);
    if (r->fs_cache_mib > 0)
        eb_json_num(j, "fs_cache_mib", r->fs_cache_mib);
    else
        eb_json_null(j, "fs_cache_mib");
    eb_json_bool(j, "rewrite_type0_only", r->rewrite0);
    eb_json_int(j, "mem_per_proc_mib", r->mem_mib);
    eb_json_bool(j, "mem_detected", r->mem_detected);
    eb_json_int(j, "mem_total_mib", r->mem_total_mib);
    eb_json_bool(j, "mem_total_given", r->mem_total_given);
    eb_json_int(j, "m_part_bytes", r->mpart);
    eb_json_bool(j, "keep", r->keep);
    eb_json_close(j);
}

static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* --resume: a partition is kept when all its pattern types of all access
 * methods (write, rewrite, read) are in the file with all their patterns.
 * Rows of an unfinished partition are dropped and it is measured again from
 * its initial write: its files may hold anything the crash left.  The same
 * on every rank (all parse the same rows).  old_prefix: the interrupted
 * run's file prefix ("" if no row names one). */
static void load_resumed(bio_run *r, eb_resume *rs, const char *path, char *old_prefix,
                         size_t plen)
{
    static char seen[BIO_MAX_PARTS][BIO_NACCESS][BIO_NTYPES][BIO_MAX_PAT + 1];
    memset(seen, 0, sizeof seen);
    int *part_of = eb_malloc(((size_t)rs->nrows + 1) * sizeof *part_of);
    char msg[EB_ERRLEN] = "";
    old_prefix[0] = 0;
    for (int k = 0; k < rs->nrows && !msg[0]; k++) {
        const char *row = rs->rows[k];
        char acc[16] = "", level[16] = "", file[80] = "";
        eb_jsonl_str(row, "access", acc, sizeof acc);
        eb_jsonl_str(row, "level", level, sizeof level);
        eb_jsonl_str(row, "file", file, sizeof file);
        long long n = eb_jsonl_int(row, "procs", -1), t = eb_jsonl_int(row, "pattern_type", -1);
        long long g = eb_jsonl_int(row, "pattern", -1);
        int i = -1, a = name_index(bio_access_names, BIO_NACCESS, acc);
        int pattern_level = strcmp(level, "pattern") == 0;
        for (int x = 0; x < r->nparts; x++)
            if (r->parts[x] == n)
                i = x;
        long long p = g;
        for (int u = 0; u < t && u < BIO_NTYPES; u++)
            p -= r->tab[u].npat;
        long line = rs->line[k];
        if (i < 0) {
            snprintf(msg, sizeof msg, "--resume %s:%ld: a partition of %lld processes is not in "
                     "this run's --partitions", path, line, n);
            break;
        }
        if (a < 0 || t < 0 || t >= BIO_NTYPES || (!pattern_level && strcmp(level, "type")) ||
            (pattern_level && (p < 0 || p >= r->tab[t].npat)) ||
            (a == BIO_REWRITE && r->rewrite0 && t > 0)) {
            snprintf(msg, sizeof msg, "--resume %s:%ld: not a measurement of this run (access "
                     "'%s', pattern type %lld, level '%s')", path, line, acc, t, level);
            break;
        }
        char *s = &seen[i][a][t][pattern_level ? p : BIO_MAX_PAT];
        if (*s) {
            if (pattern_level)
                snprintf(msg, sizeof msg, "--resume %s:%ld: pattern %lld of %s on %lld processes "
                         "is in the file twice", path, line, g, acc, n);
            else
                snprintf(msg, sizeof msg, "--resume %s:%ld: the total of %s pattern type %lld on "
                         "%lld processes is in the file twice", path, line, acc, t, n);
            break;
        }
        *s = 1;
        part_of[k] = i;
        bio_part *pt = &r->part[i];
        bio_type_res *tr = &pt->res[a][t];
        if (pattern_level) {
            bio_pat_res *q = &tr->pat[p];
            q->l = eb_jsonl_int(row, "chunk_disk_bytes", 0);
            q->L = eb_jsonl_int(row, "chunk_mem_bytes", 0);
            q->U = (int)eb_jsonl_int(row, "units", 0);
            q->sched_s = eb_jsonl_num(row, "scheduled_s");
            q->reps = eb_jsonl_int(row, "repetitions", 0);
            q->batches = (int)eb_jsonl_int(row, "batches", 0);
            q->bytes = eb_jsonl_int(row, "moved_bytes", 0);
            q->t = eb_jsonl_num(row, "t_us") * 1e-6;
            q->t_io = eb_jsonl_num(row, "t_io_us") * 1e-6;
            q->t_check = eb_jsonl_num(row, "t_check_us") * 1e-6;
            q->t_sync = eb_jsonl_num(row, "t_sync_us") * 1e-6;
        } else {
            tr->ran = 1;
            tr->npat = r->tab[t].npat;
            tr->bytes = eb_jsonl_int(row, "moved_bytes", 0);
            tr->t = eb_jsonl_num(row, "t_us") * 1e-6;
            tr->t_open = eb_jsonl_num(row, "t_open_us") * 1e-6;
            tr->t_close = eb_jsonl_num(row, "t_close_us") * 1e-6;
            tr->bw = eb_jsonl_num(row, "mb_per_s");
            tr->errors = eb_jsonl_int(row, "errors", 0);
            tr->verified_bytes = eb_jsonl_int(row, "verified_bytes", -1);
            snprintf(tr->file, sizeof tr->file, "%s", file);
            if (t == 3 && a == BIO_WRITE)
                pt->lseg = eb_jsonl_int(row, "segment_bytes", 0);
            char *cut = strstr(file, "_n");
            if (cut && !old_prefix[0] && (size_t)(cut - file) < plen)
                snprintf(old_prefix, plen, "%.*s", (int)(cut - file), file);
        }
    }
    if (msg[0])
        eb_exit_all(EB_EXIT_USAGE, msg);
    for (int i = 0; i < r->nparts; i++) {
        bio_part *pt = &r->part[i];
        int complete = 1;
        for (int a = 0; a < BIO_NACCESS; a++)
            for (int t = 0; t < BIO_NTYPES; t++) {
                if (a == BIO_REWRITE && r->rewrite0 && t > 0)
                    continue;
                for (int p = 0; p < r->tab[t].npat; p++)
                    complete &= seen[i][a][t][p];
                complete &= seen[i][a][t][BIO_MAX_PAT];
            }
        pt->kept = complete;
        if (!complete) {
            memset(pt->res, 0, sizeof pt->res);
            pt->lseg = 0;
            for (int k = 0; k < rs->nrows; k++)
                if (part_of[k] == i)
                    rs->drop[k] = 1;
            continue;
        }
        pt->errors = 0;
        for (int a = 0; a < BIO_NACCESS; a++)
            for (int t = 0; t < BIO_NTYPES; t++)
                pt->errors += pt->res[a][t].errors;
    }
    free(part_of);
}

static int beff_io_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    static bio_run run;
    bio_run *r = &run;
    memset(r, 0, sizeof *r);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r->P);
    double t_start = MPI_Wtime();
    int provided;
    MPI_Query_thread(&provided);
    parse_options(r, argc, argv);
    int id = (int)getpid();
    MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(r->prefix, sizeof r->prefix, "b_eff_io_%d", id);
    probe_path(r);

    eb_sysinfo_collect(&r->si, provided);
    eb_warn_oversubscription();
    eb_json rj;
    eb_jsonl_run_begin(&rj, "beff_io", &r->si, r->check);
    options_json(&rj, r);
    char old_prefix[32] = "";
    if (r->resume) {
        eb_resume rs;
        eb_jsonl_resume_read(&rs, r->json_path, "beff_io");
        /* what decides the values must be as in the interrupted run */
        static const char *const same[] = {
            "procs", "check", "options.T_s", "options.partitions", "options.path",
            "options.hints", "options.rewrite_type0_only", "options.mem_per_proc_mib",
            "options.m_part_bytes", NULL};
        eb_jsonl_resume_match(&rs, r->json_path, eb_json_finish(&rj), same);
        load_resumed(r, &rs, r->json_path, old_prefix, sizeof old_prefix);
        eb_jsonl_resume_append(&rs, r->json_path);
        eb_jsonl_resume_free(&rs);
        eb_json_free(&rj);
    } else {
        eb_jsonl_open(r->json_path);
        if (rank == 0)
            eb_jsonl_emit(&rj);
        else
            eb_json_free(&rj);
    }

    the_run = r;
    eb_add_exit_hook(cleanup_hook);
    /* the files of the interrupted run are not trusted: gone, unless --keep */
    if (old_prefix[0] && strcmp(old_prefix, r->prefix) != 0 && !r->keep)
        remove_prefix_files(r, old_prefix);

    for (int i = 0; i < r->nparts; i++) {
        bio_part *pt = &r->part[i];
        pt->n = r->parts[i];
        MPI_Comm_split(MPI_COMM_WORLD, rank < pt->n ? 0 : MPI_UNDEFINED, rank, &pt->comm);
    }
    /* The largest call: M_PART, 2 MiB (type 0 pattern 2), 1 MiB + 8 kiB, the filler (< 1 MiB). */
    size_t bufsize = (size_t)(r->mpart > 2 * BIO_MIB ? r->mpart : 2 * BIO_MIB) + 8192;
    char *buf = NULL;
    if (posix_memalign((void **)&buf, 4096, bufsize) != 0)
        eb_abort("cannot allocate %zu bytes", bufsize);
    memset(buf, 0, bufsize);

    if (rank == 0) {
        bio_print_header(r);
        for (int i = 0; i < r->nparts; i++)
            if (r->part[i].kept)
                printf("--resume %s: partition n=%d is complete in the file: not measured "
                       "again\n", r->json_path, r->part[i].n);
    }
    eb_progress_start(&r->progress, "b_eff_io", planned_units(r), r->progress_forced);
    /* The paper's section 6 order: all partitions write, then rewrite, then read. */
    char err[EB_ERRLEN], all[EB_ERRLEN];
    for (int a = 0; a < BIO_NACCESS; a++) {
        if (rank == 0)
            bio_print_table_head();
        for (int i = 0; i < r->nparts; i++) {
            bio_part *pt = &r->part[i];
            const char *msg = NULL;
            if (pt->comm != MPI_COMM_NULL && !pt->kept) {
                for (int t = 0; t < BIO_NTYPES && !msg; t++) {
                    if (a == BIO_REWRITE && r->rewrite0 && t > 0)
                        continue;
                    if (a == BIO_WRITE && t == 3)
                        pt->lseg = bio_segment(r->tab, pt->rep, pt->rep34, &pt->filler);
                    msg = run_type(r, pt, a, t, buf, err, sizeof err);
                    if (!msg && rank == 0) {
                        bio_print_type(r, pt, a, t);
                        bio_json_type(r, pt, a, t);
                    }
                }
                if (!msg && rank == 0)
                    bio_print_method(r, pt, a);
            }
            if (eb_any_error(msg, all, sizeof all))
                eb_exit_all(EB_EXIT_FAILURE, all);
        }
    }
    free(buf);
    eb_progress_end(&r->progress);
    r->elapsed = MPI_Wtime() - t_start;
    MPI_Allreduce(MPI_IN_PLACE, &r->elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    remove_files();
    if (rank == 0) {
        compute_values(r);
        bio_print_summary(r);
        bio_json_summary(r);
    }
    for (int i = 0; i < r->nparts; i++)
        if (r->part[i].comm != MPI_COMM_NULL)
            MPI_Comm_free(&r->part[i].comm);
    the_run = NULL;
    /* As b_eff with a bad byte: everything measured is out, the run failed.
     * Rank 0 is in every partition: its count is the run's. */
    long long errors = r->errors;
    MPI_Bcast(&errors, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (errors > 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "I/O errors: %lld (failed or short calls, wrong data read "
                 "or read back)", errors);
        if (rank == 0)
            fprintf(stderr, "effbench: b_eff_io: %s: the result is NOT VALID\n", msg);
        eb_jsonl_end("error", msg);
        return EB_EXIT_FAILURE;
    }
    eb_jsonl_end("ok", NULL);
    return EB_EXIT_OK;
}

static const eb_component beff_io_component = {
    .name = "beff-io",
    .aliases = {"b_eff_io", "beff_io"},
    .summary = "b_eff_io: effective I/O bandwidth through MPI-IO",
    .order = 60,
    .main = beff_io_main,
};

EB_CONSTRUCTOR(register_beff_io) { eb_register_component(&beff_io_component); }
