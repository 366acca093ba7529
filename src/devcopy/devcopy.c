/* `effbench devcopy`: host-device copy bandwidth, what a site checks first on
 * a new GPU node (as CUDA's bandwidthTest and NVIDIA's nvbandwidth measure
 * it): host to device, device to host, device to device; the host side in
 * page-locked (pinned) and pageable memory; each size; GB/s.  It needs no MPI
 * library's GPU support.  Every rank measures its own device (core/device.h:
 * by its rank on the node), one rank after another, so no two copies share a
 * link; rank 0 prints and records every rank's rows (docs/gpu.md). */
#include "core/component_names.h"
#include "core/component_run.h"

#include "core/device.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/report/jsonl.h"
#include "core/text.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H2D, D2H, D2D, NDIRS };
enum { PINNED, PAGEABLE, NHOST };
static const char *const dir_names[NDIRS] = {"host_to_device", "device_to_host",
                                             "device_to_device"};
static const char *const dir_titles[NDIRS] = {"Host to device", "Device to host",
                                              "Device to device"};
static const char *const host_names[NHOST] = {"pinned", "pageable"};

typedef struct {
    long min, max; /* bytes: min, 2 min, 4 min, ... up to max */
    long iterations, warmup;
    unsigned dirs, hosts; /* bit sets of the directions and host memory kinds */
    eb_accel accel;
    const char *json_path;
    int help;
} devcopy_options;

typedef struct {
    int rank, dir, host; /* host: -1 for device to device */
    long bytes, iterations;
    double t_avg, t_min, t_max; /* seconds per copy */
} devcopy_row;

#define DEFAULT_MIN 1024L
#define DEFAULT_MAX (64L << 20)

static void print_help(void)
{
    printf("Usage: mpirun -np P effbench devcopy [options]\n\n"
           "Host-device copy bandwidth of each rank's GPU, one rank after another: host to\n"
           "device, device to host (pinned and pageable host memory), device to device.\n\n"
           "  -d cuda               the accelerator (default cuda)\n"
           "  -m [MIN:]MAX          sizes in bytes, MIN doubling up to MAX (default %ld:%ld)\n"
           "  -i N                  timed copies per size (default 20)\n"
           "  -x N                  warm-up copies per size (default 2)\n"
           "  --direction LIST      h2d,d2h,d2d (default all)\n"
           "  --host-memory LIST    pinned,pageable (default both)\n"
           "  --json FILE           JSON Lines records (docs/json-lines.md)\n",
           DEFAULT_MIN, DEFAULT_MAX);
}

/* A comma list of words into a bit set; -1 for a word not in names. */
static int word_set(const char *list, const char *const *names, int n, unsigned *out)
{
    *out = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < n && strcmp(w, names[k]))
            k++;
        if (k == n)
            return -1;
        *out |= 1u << k;
    }
    return *out ? 0 : -1;
}

static int sizes(devcopy_options *o, const char *v, char *err, size_t n)
{
    const char *colon = strchr(v, ':');
    char lo[32] = "";
    if (colon && (size_t)(colon - v) < sizeof lo)
        memcpy(lo, v, (size_t)(colon - v));
    if ((colon && eb_parse_long(lo, 1, 1L << 40, &o->min)) ||
        eb_parse_long(colon ? colon + 1 : v, 1, 1L << 40, &o->max) || o->min > o->max)
        return eb_err(err, n, "devcopy: -m %s: expected [MIN:]MAX, whole numbers of bytes "
                      "with 1 <= MIN <= MAX", v);
    return 0;
}

static int option_value(devcopy_options *o, const char *a, const char *v, char *err, size_t n)
{
    static const char *const dir_words[NDIRS] = {"h2d", "d2h", "d2d"};
    if (!strcmp(a, "--json"))
        o->json_path = v;
    else if (!strcmp(a, "-d") && eb_accel_parse(v, &o->accel))
        return eb_err(err, n, "devcopy: -d %s: unknown accelerator (cuda, rocm, level_zero)", v);
    else if (!strcmp(a, "-m"))
        return sizes(o, v, err, n);
    else if ((!strcmp(a, "-i") || !strcmp(a, "-x")) &&
             eb_parse_long(v, !strcmp(a, "-i"), 1000000, a[1] == 'i' ? &o->iterations
                                                                      : &o->warmup))
        return eb_err(err, n, "devcopy: %s %s: expected a whole number from %d to 1000000", a,
                      v, !strcmp(a, "-i"));
    else if (!strcmp(a, "--direction") && word_set(v, dir_words, NDIRS, &o->dirs))
        return eb_err(err, n, "devcopy: --direction %s: expected a list of h2d, d2h, d2d", v);
    else if (!strcmp(a, "--host-memory") && word_set(v, host_names, NHOST, &o->hosts))
        return eb_err(err, n, "devcopy: --host-memory %s: expected a list of pinned, pageable",
                      v);
    return 0;
}

static int parse_options(devcopy_options *o, int argc, char **argv, char *err, size_t n)
{
    *o = (devcopy_options){.min = DEFAULT_MIN, .max = DEFAULT_MAX, .iterations = 20,
                           .warmup = 2, .dirs = 7, .hosts = 3, .accel = EB_ACCEL_CUDA};
    static const char *const valued[] = {"-d", "-m", "-i", "-x", "--direction",
                                         "--host-memory", "--json", NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            o->help = 1;
            continue;
        }
        int k = 0;
        while (valued[k] && strcmp(valued[k], a))
            k++;
        if (!valued[k])
            return eb_err(err, n, "devcopy: unknown option '%s' (see effbench devcopy --help)",
                          a);
        if (i + 1 >= argc)
            return eb_err(err, n, "devcopy: %s needs a value", a);
        if (option_value(o, a, argv[++i], err, n))
            return -1;
    }
    return 0;
}

/* One size of one direction: warm-up, then each copy timed on its own (the
 * seam's copy returns when the device has the data, core/device.c). */
static void time_copies(const devcopy_options *o, eb_mem_kind dk, void *dst, eb_mem_kind sk,
                        const void *src, devcopy_row *row)
{
    for (long k = 0; k < o->warmup; k++)
        eb_mem_copy(dk, dst, sk, src, (size_t)row->bytes);
    double sum = 0;
    row->t_min = 1e300;
    row->t_max = 0;
    for (long k = 0; k < o->iterations; k++) {
        double t0 = MPI_Wtime();
        eb_mem_copy(dk, dst, sk, src, (size_t)row->bytes);
        double t = MPI_Wtime() - t0;
        sum += t;
        row->t_min = t < row->t_min ? t : row->t_min;
        row->t_max = t > row->t_max ? t : row->t_max;
    }
    row->t_avg = sum / (double)o->iterations;
    /* the sum's rounding: keep min <= avg <= max (equal copies can sum a last bit low) */
    row->t_avg = row->t_avg < row->t_min ? row->t_min : row->t_avg > row->t_max ? row->t_max
                                                                                : row->t_avg;
    row->iterations = o->iterations;
}

static int count_sizes(const devcopy_options *o)
{
    int n = 0;
    for (long b = o->min; b <= o->max && b > 0; b *= 2)
        n++;
    return n;
}

typedef struct {
    void *dev, *dev2, *host[NHOST];
} devcopy_buffers;

/* Collective: every rank's buffers for the largest size, or every rank exits
 * with the first failing rank's message (a size past the device's memory). */
static void allocate(const devcopy_options *o, devcopy_buffers *b)
{
    char err[EB_ERRLEN] = "", first[EB_ERRLEN];
    size_t top = (size_t)o->max;
    b->dev = eb_mem_alloc(EB_MEM_DEVICE, top, err, sizeof err);
    b->dev2 = b->dev ? eb_mem_alloc(EB_MEM_DEVICE, top, err, sizeof err) : NULL;
    b->host[PINNED] = b->dev2 ? eb_mem_alloc(EB_MEM_PINNED, top, err, sizeof err) : NULL;
    b->host[PAGEABLE] = b->host[PINNED] ? eb_mem_alloc(EB_MEM_HOST, top, err, sizeof err) : NULL;
    if (eb_any_error(b->host[PAGEABLE] ? NULL : err, first, sizeof first))
        eb_exit_all(EB_EXIT_USAGE, first);
    eb_mem_set(EB_MEM_DEVICE, b->dev, 1, top);
    eb_mem_set(EB_MEM_DEVICE, b->dev2, 2, top);
    memset(b->host[PINNED], 3, top); /* touched: no first-touch page faults timed */
    memset(b->host[PAGEABLE], 4, top);
}

static void release(devcopy_buffers *b)
{
    eb_mem_free(EB_MEM_DEVICE, b->dev);
    eb_mem_free(EB_MEM_DEVICE, b->dev2);
    eb_mem_free(EB_MEM_PINNED, b->host[PINNED]);
    eb_mem_free(EB_MEM_HOST, b->host[PAGEABLE]);
}

/* This rank's rows: every direction and host kind asked, every size. */
static devcopy_row *measure(const devcopy_options *o, const devcopy_buffers *b, int rank,
                            int *nrows)
{
    int nsizes = count_sizes(o), n = 0;
    devcopy_row *rows = eb_calloc((size_t)NDIRS * (NHOST + 1) * (size_t)nsizes, sizeof *rows);
    for (int d = 0; d < NDIRS; d++)
        for (int h = 0; h < (d == D2D ? 1 : NHOST); h++) {
            if (!(o->dirs & (1u << d)) || (d != D2D && !(o->hosts & (1u << h))))
                continue;
            eb_mem_kind hk = h == PINNED ? EB_MEM_PINNED : EB_MEM_HOST;
            for (long bytes = o->min; bytes <= o->max && bytes > 0; bytes *= 2) {
                devcopy_row *r = &rows[n++];
                *r = (devcopy_row){.rank = rank, .dir = d, .host = d == D2D ? -1 : h,
                                   .bytes = bytes};
                if (d == H2D)
                    time_copies(o, EB_MEM_DEVICE, b->dev, hk, b->host[h], r);
                else if (d == D2H)
                    time_copies(o, hk, b->host[h], EB_MEM_DEVICE, b->dev, r);
                else
                    time_copies(o, EB_MEM_DEVICE, b->dev2, EB_MEM_DEVICE, b->dev, r);
            }
        }
    *nrows = n;
    return rows;
}

static double gb_per_s(const devcopy_row *r) { return (double)r->bytes / r->t_avg / 1e9; }

static void row_json(const devcopy_row *r)
{
    eb_json j;
    eb_jsonl_begin(&j, "result");
    eb_json_str(&j, "component", EB_COMPONENT_DEVCOPY);
    eb_json_str(&j, "benchmark", dir_names[r->dir]);
    eb_json_int(&j, "procs", 1); /* one rank copies at a time */
    eb_json_int(&j, "rank", r->rank);
    eb_json_str(&j, "host_memory", r->host < 0 ? NULL : host_names[r->host]);
    eb_json_int(&j, "bytes", r->bytes);
    eb_json_int(&j, "repetitions", r->iterations);
    eb_json_num(&j, "t_avg_us", r->t_avg * 1e6);
    eb_json_num(&j, "t_min_us", r->t_min * 1e6);
    eb_json_num(&j, "t_max_us", r->t_max * 1e6);
    eb_json_num(&j, "gb_per_s", gb_per_s(r));
    eb_jsonl_emit(&j);
}

/* Rank 0: one table per rank, direction and host memory kind. */
static void report(const devcopy_row *rows, int n, const eb_device_info *d)
{
    for (int i = 0; i < n; i++) {
        const devcopy_row *r = &rows[i];
        if (i == 0 || r->rank != rows[i - 1].rank || r->dir != rows[i - 1].dir ||
            r->host != rows[i - 1].host) {
            if (i == 0 || r->rank != rows[i - 1].rank)
                printf("\n# rank %d: %s device %d\n", r->rank,
                       eb_accel_name(d[r->rank].accel), d[r->rank].ordinal);
            printf("# %s%s%s\n", dir_titles[r->dir], r->host < 0 ? "" : ", host memory ",
                   r->host < 0 ? "" : host_names[r->host]);
            printf("%-12s%14s%14s%14s%12s\n", "# Size (B)", "t_avg[usec]", "t_min[usec]",
                   "t_max[usec]", "GB/s");
        }
        printf("%-12ld%14.2f%14.2f%14.2f%12.2f\n", r->bytes, r->t_avg * 1e6, r->t_min * 1e6,
               r->t_max * 1e6, gb_per_s(r));
        row_json(r);
    }
    fflush(stdout);
}

/* Every rank's device, as rank 0 prints them. */
static eb_device_info *gather_devices(int rank, int size)
{
    eb_device_info *all = rank == 0 ? eb_malloc((size_t)size * sizeof *all) : NULL;
    MPI_Gather(eb_device_info_get(), (int)sizeof *all, MPI_CHAR, all, (int)sizeof *all,
               MPI_CHAR, 0, MPI_COMM_WORLD);
    return all;
}

static void header(const devcopy_options *o, const eb_device_info *all, int size)
{
    printf("# effbench devcopy: host-device copy bandwidth, one rank after another\n"
           "# GB/s = bytes / mean time of one copy / 10^9 (each copy waits for its end)\n"
           "# timed copies per size: %ld, warm-up: %ld\n", o->iterations, o->warmup);
    for (int r = 0; r < size; r++)
        printf("# rank %d: %s device %d of %d: %s, PCI %s, %llu bytes (driver %s)\n", r,
               eb_accel_name(all[r].accel), all[r].ordinal, all[r].count, all[r].name,
               all[r].pci_bus_id, all[r].memory_bytes, all[r].library);
}

typedef struct {
    devcopy_options o;
    devcopy_buffers b;
} devcopy_state;

static int options_step(void *state, eb_run *run, int argc, char **argv)
{
    devcopy_options *o = &((devcopy_state *)state)->o;
    char err[EB_ERRLEN];
    if (parse_options(o, argc, argv, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    if (o->help) {
        if (run->rank == 0)
            print_help();
        return 1;
    }
    run->json_path = o->json_path;
    return 0;
}

/* Collective: every rank's device (the run record names them), then its buffers. */
static void prepare_step(void *state, eb_run *run)
{
    (void)run;
    devcopy_state *d = state;
    char err[EB_ERRLEN];
    if (eb_device_open_all(d->o.accel, err, sizeof err))
        eb_exit_all(EB_EXIT_USAGE, err);
    allocate(&d->o, &d->b);
}

static void record_step(void *state, eb_run *run)
{
    const devcopy_options *o = &((devcopy_state *)state)->o;
    eb_run_opt_str(run, "accelerator", eb_accel_name(o->accel), EB_DECIDES);
    eb_run_opt_int(run, "min_bytes", o->min, EB_DECIDES);
    eb_run_opt_int(run, "max_bytes", o->max, EB_DECIDES);
    eb_run_opt_int(run, "iterations", o->iterations, EB_DECIDES);
    eb_run_opt_int(run, "warmup", o->warmup, EB_DECIDES);
}

/* Rank after rank measures; rank 0 prints and records every rank's rows. */
static int measure_step(void *state, eb_run *run, char *msg, size_t msglen)
{
    (void)msg;
    (void)msglen;
    devcopy_state *d = state;
    int rank = run->rank, size = run->procs;
    eb_device_info *all = gather_devices(rank, size);
    if (rank == 0)
        header(&d->o, all, size);
    for (int r = 0; r < size; r++) {
        if (r == rank) {
            int n;
            devcopy_row *rows = measure(&d->o, &d->b, rank, &n);
            if (rank != 0) {
                MPI_Send(&n, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
                MPI_Send(rows, n * (int)sizeof *rows, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
            } else {
                report(rows, n, all);
            }
            free(rows);
        } else if (rank == 0) {
            int n;
            MPI_Recv(&n, 1, MPI_INT, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            devcopy_row *rows = eb_malloc((size_t)n * sizeof *rows);
            MPI_Recv(rows, n * (int)sizeof *rows, MPI_CHAR, r, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            report(rows, n, all);
            free(rows);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* the next rank starts when this one is done */
    }
    free(all);
    return EB_EXIT_OK;
}

static void release_step(void *state)
{
    release(&((devcopy_state *)state)->b);
    eb_device_close();
}

static const eb_component_steps devcopy_steps = {
    .component = EB_COMPONENT_DEVCOPY,
    .options = options_step,
    .prepare = prepare_step,
    .record = record_step,
    .measure = measure_step,
    .release = release_step,
};

static int devcopy_main(const eb_component *self, int argc, char **argv)
{
    (void)self;
    devcopy_state d;
    memset(&d, 0, sizeof d);
    return eb_component_run(&devcopy_steps, &d, argc, argv);
}

static const eb_component devcopy_component = {
    .name = EB_COMPONENT_DEVCOPY,
    .summary = "host-device copy bandwidth of each rank's GPU (pinned, pageable, device)",
    .order = 85,
    .main = devcopy_main,
};

EB_CONSTRUCTOR(register_devcopy)
{
    eb_register_component(&devcopy_component);
}
