/* b_eff_io's command line (docs/beff-io.md "Options"): the options, the
 * memory per process, the hints file and a usable --path.  User errors exit
 * with status 2 on every rank. */
#include "beffio/beff_io_options.h"

#include "core/error.h"
#include "core/text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(void)
{
    printf("Usage: mpirun -np P effbench beff_io [options]   (or b_eff_io [options])\n\n"
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

#define BIO_MAX_MEM_MIB 1073741824.0          /* 2^30 MiB (1 PiB) a process or node */
#define BIO_MAX_MEM_TOTAL_MIB 1099511627776.0  /* 2^40 MiB in all */

/* A number in min..max (max: the memory options' MiB go into a long long
 * product with the processes; every other option has none). */
static double parse_number(const char *name, const char *v, double min, double max)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x >= min) || !(x <= max)) {
        char msg[EB_ERRLEN];
        if (max < HUGE_VAL)
            snprintf(msg, sizeof msg, "%s %s: expected a number from %g to %.0f", name, v, min,
                     max);
        else
            snprintf(msg, sizeof msg, "%s %s: expected a number >= %g", name, v, min);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    return x;
}

/* Memory per process: the smallest over all ranks, so all agree on M_PART. */
static void set_memory(bio_run *r, double mem_proc, double mem_node, double mem_total)
{
    char err[EB_ERRLEN];
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
}

/* --hints FILE: parsed, and every key short enough for MPI_Info_set. */
static void load_hints(bio_run *r)
{
    char err[EB_ERRLEN];
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

void bio_parse_options(bio_run *r, int argc, char **argv)
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
                                opt_value(argc, argv, &i, a[1] == 'T' ? "-T" : "--time"), 0,
                                HUGE_VAL);
            if (r->T <= 0)
                eb_exit_all(EB_EXIT_USAGE, "-T: the scheduled time must be positive");
        } else if (is_opt(a, "--partitions")) {
            partitions = opt_value(argc, argv, &i, "--partitions");
        } else if (is_opt(a, "--path")) {
            r->path = opt_value(argc, argv, &i, "--path");
        } else if (is_opt(a, "--hints")) {
            r->hints_path = opt_value(argc, argv, &i, "--hints");
        } else if (is_opt(a, "--fs-cache")) {
            r->fs_cache_mib = parse_number("--fs-cache", opt_value(argc, argv, &i, "--fs-cache"), 0,
                                            HUGE_VAL);
        } else if (!strcmp(a, "--rewrite-type0-only")) {
            r->rewrite0 = 1;
        } else if (is_opt(a, "--mem-per-proc")) {
            mem_proc = parse_number("--mem-per-proc", opt_value(argc, argv, &i, "--mem-per-proc"), 1,
                                    BIO_MAX_MEM_MIB);
        } else if (is_opt(a, "--mem-per-node")) {
            mem_node = parse_number("--mem-per-node", opt_value(argc, argv, &i, "--mem-per-node"), 1,
                                    BIO_MAX_MEM_MIB);
        } else if (is_opt(a, "--mem-total")) {
            mem_total = parse_number("--mem-total", opt_value(argc, argv, &i, "--mem-total"), 1,
                                     BIO_MAX_MEM_TOTAL_MIB);
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
            snprintf(msg, sizeof msg, "unknown option '%s' (see `effbench beff_io --help`)", a);
            eb_exit_all(EB_EXIT_USAGE, msg);
        }
    }
    if (mem_proc > 0 && mem_node > 0)
        eb_exit_all(EB_EXIT_USAGE, "--mem-per-proc and --mem-per-node exclude each other");
    char err[EB_ERRLEN];
    r->nparts = bio_parse_partitions(partitions, r->P, r->parts, err, sizeof err);
    if (r->nparts < 0)
        eb_exit_all(EB_EXIT_USAGE, err);

    set_memory(r, mem_proc, mem_node, mem_total);
    if (r->hints_path)
        load_hints(r);
}

/* Every rank creates a file in --path (type 2 writes one file per process),
 * so an unusable directory is a clear user error instead of failed opens. */
void bio_probe_path(bio_run *r)
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
