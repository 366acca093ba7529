/* IMB-IO: the MPI-IO benchmarks of the IMB user guide (4.0) on the core
 * driver.  S_ (one process, its own file), P_ (all processes; common file
 * with individual / explicit / shared pointers, or one private file each),
 * C_ (collective access to a common file), each as Write and Read and as
 * nonblocking I-flavours, plus Open_Close.
 *
 * An I/O portion of X bytes is split among the processes in whole ints
 * (eb_io_portion); repetition i uses the i-th X-block of the common file
 * (tiled view for _indv, offsets for _expl, a shared pointer for _shared),
 * or the i-th portion of a process's own file (S_, _priv).  Writes end
 * with IMB's assured completion MPI_File_sync / MPI_Barrier / MPI_File_sync,
 * after every transfer (non-aggregate) or after all M (aggregate).
 *
 * Here: the benchmark table, the transfers, their timing and checks; the
 * file of a process set is io_file.c's, the family and its options are
 * io_family.c's. */
#include "core/component_names.h"
#include "imb/io_file.h"
#include "imb/io_family.h"
#include "imb/io_util.h"

#include "core/error.h"
#include "core/registry.h"
#include "imb/driver/bench.h"
#include "imb/driver/cpu_exploit.h"
#include "imb/driver/driver.h"
#include "imb/driver/overlap.h"
#include "imb/driver/repeat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the benchmark table ----------------------------------------------------- */

#define IO_NBENCH 37
static eb_bench benches[IO_NBENCH];
static eb_io_kind kinds[IO_NBENCH];
static char names[IO_NBENCH][24];

static const eb_io_kind *kind_of(const eb_ctx *c) { return &kinds[c->bench - benches]; }

/* ---- the CPU exploit of the I-flavours ---------------------------------------- */

static eb_cpu_work cpu_work;
static double cpu_dedicated; /* seconds of cpu_work run undisturbed */
static int cpu_ready;

/* The fastest of a few runs: what the work takes when running dedicated. */
static double dedicated_time(void)
{
    double best = eb_cpu_run(&cpu_work);
    for (int i = 0; i < 2; i++) {
        double t = eb_cpu_run(&cpu_work);
        best = t < best ? t : best;
    }
    return best;
}

/* IMB_cpu_exploit's initialize mode.  On a shared node one calibration run
 * can be preempted, so the work is rescaled until its dedicated time is
 * within 25% of the target (at most three times).  IMB 2021.11 times one run
 * of the calibrated work (its tCPU, the t_CPU of every row): imb2021. */
static void calibrate_cpu(double target, int imb2021)
{
    cpu_work = eb_cpu_calibrate(target);
    if (imb2021) {
        cpu_dedicated = eb_cpu_run(&cpu_work);
        return;
    }
    for (int round = 0; round < 3; round++) {
        cpu_dedicated = dedicated_time();
        if (cpu_dedicated > 0.8 * target && cpu_dedicated < 1.25 * target)
            return;
        long p = (long)((double)cpu_work.passes * target / cpu_dedicated + 0.5);
        cpu_work.passes = p > 0 ? p : 1;
    }
    cpu_dedicated = dedicated_time();
}

/* The file of the table, and the CPU exploit of the I-flavours, calibrated
 * once. */
static int io_open_set(eb_ctx *c, char *err, size_t errlen)
{
    if (eb_io_open_set(c, kind_of(c), err, errlen) != 0)
        return -1;
    if (kind_of(c)->nb && !cpu_ready) {
        calibrate_cpu(eb_io_target_cpu_secs(c->opt), c->opt->imb21.defaults2021);
        cpu_ready = 1;
    }
    return 0;
}

/* ---- transfers ------------------------------------------------------------- */

/* Repetition i's block: writes never reuse one (disjoint sections); reads
 * cycle through the prepared ones. */
static long block_of(const eb_io_state *st, long i)
{
    return st->k->acc == IO_READ ? i % st->nblocks : i;
}

/* Repetition i reads block 0 again: the pointer must be set back there. */
static int cycles_back(const eb_io_state *st, long i)
{
    return st->k->acc == IO_READ && block_of(st, i) == 0;
}

/* Put the file pointer of pointer-based access at block b. */
static void position(eb_ctx *c, eb_io_state *st, long b)
{
    if (st->k->ptr == IO_SHARED)
        eb_io_check_rc(MPI_File_seek_shared(st->fh, (MPI_Offset)((size_t)b * c->x), MPI_SEEK_SET),
                       "MPI_File_seek_shared", st);
    else if (st->k->ptr != IO_EXPL)
        eb_io_check_rc(MPI_File_seek(st->fh, (MPI_Offset)((size_t)b * st->len), MPI_SEEK_SET),
                       "MPI_File_seek", st);
}

/* File offset of this rank's part of block b (its disjoint section). */
static MPI_Offset file_offset(const eb_ctx *c, const eb_io_state *st, long b)
{
    size_t len;
    return (MPI_Offset)eb_io_section(c->x, st->nio, st->iorank, eb_io_own_file(st->k), b, &len);
}

enum { BLOCKING, NONBLOCKING, OVERLAPPED };

/* Repetition i's data: written from the send buffer, read into the receive one. */
static void *buffer(eb_ctx *c, const eb_io_state *st, long i)
{
    return st->k->acc == IO_WRITE ? eb_sbuf(c, i) : eb_rbuf(c, i);
}

/* One elementary I/O action of repetition i on block b: blocking, or
 * initiate, (exploit the CPU), complete. */
static void transfer(eb_ctx *c, eb_io_state *st, long i, long b, int how)
{
    void *buf = buffer(c, st, i);
    if (how == BLOCKING) {
        eb_io_blocking(st, buf, file_offset(c, st, b));
        return;
    }
    MPI_Request req = eb_io_start(st, buf, file_offset(c, st, b));
    if (how == OVERLAPPED)
        eb_cpu_run(&cpu_work);
    eb_io_complete(st, buf, &req);
}

/* IMB 2021.11's aggregate overlapped run of independent (not collective)
 * I-flavours: all of a batch's transfers initiated, the CPU work run once
 * per transfer, then one MPI_Waitall.  A batch ends where reads cycle back
 * to block 0 (the pointer is set again only with nothing in flight). */
static void overlapped_batches(eb_ctx *c, eb_io_state *st, long first, long n)
{
    MPI_Request *reqs = eb_malloc((size_t)(n > 0 ? n : 1) * sizeof *reqs);
    for (long i = first; i < first + n;) {
        long k = 0;
        do
            reqs[k++] = eb_io_start(st, buffer(c, st, i), file_offset(c, st, block_of(st, i)));
        while (++i < first + n && !cycles_back(st, i));
        for (long j = 0; j < k; j++)
            eb_cpu_run(&cpu_work);
        eb_io_check_rc(MPI_Waitall((int)k, reqs, MPI_STATUSES_IGNORE),
                       "completing nonblocking I/O", st);
        if (i < first + n)
            position(c, st, 0);
    }
    free(reqs);
}

/* n repetitions from index first (file pointers already at block_of(first)
 * unless seek), each writes' assured completion per mode. */
static void transfers(eb_ctx *c, eb_io_state *st, long first, long n, int how, int seek)
{
    if (seek)
        position(c, st, block_of(st, first));
    if (how == OVERLAPPED && c->aggregate && st->k->cls != IO_C) {
        overlapped_batches(c, st, first, n);
    } else {
        for (long i = first; i < first + n; i++) {
            if (i > first && cycles_back(st, i))
                position(c, st, 0); /* reads cycle through the prepared blocks */
            transfer(c, st, i, block_of(st, i), how);
            if (st->k->acc == IO_WRITE && !c->aggregate)
                eb_io_assure(st);
        }
    }
    if (st->k->acc == IO_WRITE && c->aggregate)
        eb_io_assure(st);
}

/* Warm-up-free probes and the -check pass; the checked pass of an
 * I-flavour verifies its nonblocking routines. */
static void io_kernel(eb_ctx *c, long first, long n)
{
    eb_io_state *st = c->priv;
    transfers(c, st, first, n, st->k->nb && c->checking ? NONBLOCKING : BLOCKING, 1);
}

/* Seconds per repetition of n repetitions from block 0: the pointers are
 * set and the group synchronised outside the timed region. */
static double timed(eb_ctx *c, eb_io_state *st, long n, int how)
{
    position(c, st, 0);
    MPI_Barrier(c->comm);
    double t0 = MPI_Wtime();
    transfers(c, st, 0, n, how, 0);
    return (MPI_Wtime() - t0) / (double)n;
}

static double io_measure(eb_ctx *c, long n)
{
    eb_io_state *st = c->priv;
    double t_pure = timed(c, st, n, BLOCKING);
    if (!st->k->nb)
        return t_pure;
    /* the guide: t_pure from the blocking benchmark, close and reopen the
     * file, resynchronise, then the nonblocking run against the CPU kernel */
    MPI_File_close(&st->fh);
    eb_io_open_file(st);
    eb_io_set_view(st, c->x);
    /* t_CPU: the calibrated work run dedicated now, in this row's
     * conditions (a busy node makes the start-up figure stale); IMB 2021.11
     * prints its first rank's calibration time in every row */
    double t_cpu = cpu_dedicated;
    if (c->opt->imb21.defaults2021)
        MPI_Bcast(&t_cpu, 1, MPI_DOUBLE, 0, c->comm);
    else
        t_cpu = eb_cpu_run(&cpu_work);
    for (int i = 0; i < EB_N_BARR; i++)
        MPI_Barrier(c->comm);
    double t_ovrl = timed(c, st, n, OVERLAPPED);
    c->extra[0] = t_ovrl * 1e6;
    c->extra[1] = t_pure * 1e6;
    c->extra[2] = t_cpu * 1e6;
    c->extra[3] = eb_overlap_percent(t_pure, t_cpu, t_ovrl);
    return t_ovrl;
}

/* ---- -check ------------------------------------------------------------------ */

/* Shared-pointer reads: which rank reads which part of block b is up to the
 * library, but together the ranks read the block exactly once.  Rank 0
 * gathers every rank's part and checks that they tile the file's block. */
static long check_read_shared(eb_ctx *c, eb_io_state *st, const void *got, long b)
{
    size_t x = c->x, *lens = NULL;
    int *counts = NULL, *displs = NULL;
    unsigned char *all = NULL;
    if (c->rank == 0) {
        lens = eb_malloc((size_t)st->nio * sizeof *lens);
        counts = eb_malloc((size_t)st->nio * sizeof *counts);
        displs = eb_malloc((size_t)st->nio * sizeof *displs);
        for (int r = 0; r < st->nio; r++) {
            size_t o;
            eb_io_portion(x, st->nio, r, &o, &lens[r]);
            counts[r] = (int)lens[r];
            displs[r] = (int)o;
        }
        all = eb_malloc(x ? x : 1);
    }
    MPI_Gatherv(got, (int)st->len, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, c->comm);
    long bad = 0;
    if (c->rank == 0) {
        const unsigned char **piece = eb_malloc((size_t)st->nio * sizeof *piece);
        for (int r = 0; r < st->nio; r++)
            piece[r] = all + displs[r];
        eb_io_fill(st->tmp, x, st->owner, (size_t)b * x);
        bad = eb_io_check_tiling(st->tmp, x, st->nio, piece, lens);
        free(piece);
        free(all);
        free(displs);
        free(counts);
        free(lens);
    }
    return bad;
}

static long io_check(eb_ctx *c, long iter)
{
    eb_io_state *st = c->priv;
    const eb_io_kind *k = st->k;
    long b = block_of(st, iter);
    int shuffled = k->ptr == IO_SHARED && k->cls != IO_C; /* order not defined */
    size_t x = c->x;
    if (k->acc == IO_READ) {
        const void *got = eb_rbuf(c, iter);
        if (shuffled)
            return check_read_shared(c, st, got, b);
        return eb_io_check(got, st->len, st->owner, (size_t)file_offset(c, st, b));
    }
    /* writes: read back what this repetition left in the file */
    if (shuffled) {
        if (c->rank != 0)
            return 0;
        eb_io_check_rc(MPI_File_read_at(st->fh, (MPI_Offset)((size_t)b * x), st->tmp, (int)x,
                                        MPI_BYTE, MPI_STATUS_IGNORE), "reading back", st);
        size_t *lens = eb_malloc((size_t)st->nio * sizeof *lens), o;
        for (int r = 0; r < st->nio; r++)
            eb_io_portion(x, st->nio, r, &o, &lens[r]);
        long bad = eb_io_check_shuffled(st->tmp, x, st->nio, lens);
        free(lens);
        return bad;
    }
    /* _indv on the common file reads back through its tiled view, the
     * others at the section's file offset */
    MPI_Offset at = k->ptr == IO_INDV && !eb_io_own_file(k) ? (MPI_Offset)((size_t)b * st->len)
                                                      : file_offset(c, st, b);
    eb_io_check_rc(MPI_File_read_at(st->fh, at, st->tmp, (int)st->len, MPI_BYTE, MPI_STATUS_IGNORE),
                   "reading back", st);
    return eb_io_check(st->tmp, st->len, st->iorank, 0);
}

/* ---- Open_Close ---------------------------------------------------------------- */

/* One int of data: the "negligible non-trivial action" writes its byte. */
static void oc_extents(size_t x, int np, size_t *s_len, size_t *r_len)
{
    (void)x;
    (void)np;
    *s_len = EB_IO_UNIT;
    *r_len = EB_IO_UNIT;
}

static int oc_prepare(eb_ctx *c)
{
    ((eb_io_state *)c->priv)->used = 1;
    for (long s = 0; s < c->s.slots; s++)
        eb_io_fill(eb_sbuf(c, s), EB_IO_UNIT, c->rank, 0);
    return 0;
}

static void oc_kernel(eb_ctx *c, long first, long n)
{
    eb_io_state *st = c->priv;
    for (long i = first; i < first + n; i++) {
        eb_io_check_rc(MPI_File_open(c->comm, st->name, MPI_MODE_CREATE | MPI_MODE_RDWR, st->info,
                                     &st->fh), "MPI_File_open", st);
        eb_io_check_rc(MPI_File_write(st->fh, eb_sbuf(c, i), 1, MPI_BYTE, MPI_STATUS_IGNORE),
                       "MPI_File_write", st);
        eb_io_check_rc(MPI_File_close(&st->fh), "MPI_File_close", st);
    }
}

/* Every process wrote its first byte at offset 0: one of them must be there. */
static long oc_check(eb_ctx *c, long iter)
{
    (void)iter;
    eb_io_state *st = c->priv;
    if (c->rank != 0)
        return 0;
    MPI_File fh;
    unsigned char got = 0;
    MPI_Status status;
    int count = 0;
    eb_io_check_rc(MPI_File_open(MPI_COMM_SELF, st->name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
                   "MPI_File_open", st);
    eb_io_check_rc(MPI_File_read_at(fh, 0, &got, 1, MPI_BYTE, &status), "reading back", st);
    MPI_Get_count(&status, MPI_BYTE, &count);
    MPI_File_close(&fh);
    for (int r = 0; r < c->size && count == 1; r++)
        if (got == eb_io_byte(r, 0))
            return 0;
    return 1;
}

/* ---- registration -------------------------------------------------------------- */

static const eb_column overlap_columns[] = {
    {EB_COL_BYTES, "#bytes"},          {EB_COL_REPS, "#repetitions"},
    {EB_COL_EXTRA + 0, "t_ovrl[usec]"}, {EB_COL_EXTRA + 1, "t_pure[usec]"},
    {EB_COL_EXTRA + 2, "t_CPU[usec]"},  {EB_COL_EXTRA + 3, "overlap[%]"},
    {0, NULL}};

static void add_bench(int *n, eb_io_class cls, eb_io_access acc, eb_io_pointer ptr, int nb)
{
    static const char *ptr_names[] = {"Indv", "Expl", "Shared", "Priv"};
    int i = (*n)++;
    kinds[i] = (eb_io_kind){cls, acc, ptr, nb};
    snprintf(names[i], sizeof names[i], "%c_%s%s_%s", "SPC"[cls], nb ? "I" : "",
             acc == IO_WRITE ? "Write" : "Read", ptr_names[ptr]);
    eb_bench *b = &benches[i];
    *b = (eb_bench){.component = EB_COMPONENT_IO, .name = names[i], .order = 100 + 10 * i,
                    .cls = cls == IO_S ? EB_SINGLE_TRANSFER
                           : cls == IO_P ? EB_PARALLEL_TRANSFER : EB_COLLECTIVE,
                    .fixed_procs = cls == IO_S ? 1 : 0, .nmsg = nb ? 0 : 1,
                    .prepare = eb_io_prepare, .kernel = io_kernel, .check = io_check,
                    .release = eb_io_release, .measure = io_measure, .open_set = io_open_set,
                    .close_set = eb_io_close_set};
    /* writes: aggregate and non-aggregate; reads: one (aggregate) table as
     * IMB prints it; nonblocking flavours: non-aggregate only (the guide),
     * aggregate only under --imb-defaults 2021 (IMB 2021.11's code) */
    b->flags = EB_F_NO_WARMUP | (nb ? EB_F_NONAGGR_ONLY | EB_F_AGGR_IN_2021
                                    : acc == IO_WRITE ? EB_F_MODES : EB_F_AGGR_ONLY);
    if (nb) {
        b->columns = overlap_columns;
        b->extra_json[0] = "t_ovrl_us";
        b->extra_json[1] = "t_pure_us";
        b->extra_json[2] = "t_cpu_us";
        b->extra_json[3] = "overlap_pct";
    }
}

EB_CONSTRUCTOR(register_io)
{
    /* IMB's list order (IMB_bnames_io.h): writes, then reads, then Open_Close */
    static const struct { eb_io_class cls; eb_io_pointer ptr; } shapes[] = {
        {IO_S, IO_INDV}, {IO_S, IO_EXPL}, {IO_P, IO_INDV}, {IO_P, IO_SHARED}, {IO_P, IO_PRIV},
        {IO_P, IO_EXPL}, {IO_C, IO_INDV}, {IO_C, IO_SHARED}, {IO_C, IO_EXPL}};
    int n = 0;
    for (int acc = IO_WRITE; acc <= IO_READ; acc++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int nb = 0; nb <= 1; nb++)
                add_bench(&n, shapes[s].cls, (eb_io_access)acc, shapes[s].ptr, nb);
    kinds[n] = (eb_io_kind){IO_C, IO_NONE, IO_EXPL, 0};
    snprintf(names[n], sizeof names[n], "Open_Close");
    benches[n] = (eb_bench){.component = EB_COMPONENT_IO, .name = names[n], .order = 100 + 10 * n,
                            .cls = EB_COLLECTIVE, .flags = EB_F_NO_BYTES | EB_F_NO_WARMUP,
                            .extents = oc_extents, .prepare = oc_prepare, .kernel = oc_kernel,
                            .check = oc_check, .open_set = io_open_set,
                            .close_set = eb_io_close_set};
    n++;
    for (int i = 0; i < n; i++)
        eb_register_bench(&benches[i]);
}
