#include "core/simulate.h"

#include "core/component_names.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/text.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if EB_SMPI_BUILD
#include <simgrid/version.h>
#include <simgrid/zone.h>
#include <xbt/config.h>
#endif

static int active;     /* simulation mode (an SMPI build, not switched off) */
static long max_reps;  /* loop cap in simulation mode */
#define MAX_EMULATED 4
static char *emulated[MAX_EMULATED]; /* eb_sim_note_emulation's, for the run record */
static int nemulated;

#if EB_SMPI_BUILD
/* The platform generator's parameters (platforms/generate.py writes them as
 * properties of the root zone), in the order the run record lists them. */
static const char *const platform_keys[] = {
    "spec", "topology", "dims", "nodes", "cores_per_node", "lat", "bw", "link_sharing",
    "node_lat", "node_bw", "intra_lat", "intra_bw", "global_lat", "global_bw", "groups",
    "routers_per_group", "speed", "sources", NULL};
#endif

int eb_sim_active(void) { return active; }

void eb_sim_init(int argc, char **argv)
{
    if (!EB_SMPI_BUILD)
        return;
    const char *mode = getenv("EFFBENCH_SIM_MODE");
    if (mode && strcmp(mode, "off") != 0 && strcmp(mode, "on") != 0)
        eb_exit_all(EB_EXIT_USAGE, "EFFBENCH_SIM_MODE: expected 'on' or 'off'");
    active = !(mode && strcmp(mode, "off") == 0);
    if (!active)
        return;
    const char *prog = strrchr(argv[0], '/');
    prog = prog ? prog + 1 : argv[0];
    const char *comp = strncmp(prog, "effbench", 8) == 0 && argc > 1 ? argv[1] : prog;
    static const char *const io[] = {"IMB-IO", EB_COMPONENT_IO, "b_eff_io", EB_COMPONENT_BEFF_IO,
                                     NULL};
    for (int k = 0; io[k]; k++)
        if (strcmp(eb_component_current_name(comp), io[k]) == 0) {
            char msg[EB_ERRLEN];
            snprintf(msg, sizeof msg, "%s: the I/O benchmarks are not simulated: the platforms "
                     "of platforms/ have no disks, and SMPI's MPI-IO needs them", comp);
            eb_exit_all(EB_EXIT_USAGE, msg);
        }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-check") == 0 || strcmp(argv[i], "--check") == 0)
            eb_sim_refuse_check(argv[i]);
    max_reps = EB_SIM_DEFAULT_REPS;
    const char *reps = getenv("EFFBENCH_SIM_REPS");
    if (reps) {
        double v;
        if (eb_parse_double(reps, &v) || v < 1 || v > 1e9 || v != (double)(long)v)
            eb_exit_all(EB_EXIT_USAGE, "EFFBENCH_SIM_REPS: expected a whole number of "
                        "repetitions, at least 1");
        max_reps = (long)v;
    }
#if EB_SMPI_BUILD
    /* bookkeeping between MPI calls is no part of the simulated machine */
    sg_cfg_set_boolean("smpi/simulate-computation", "no");
#endif
}

void eb_sim_refuse_check(const char *option)
{
    if (!active)
        return;
    char msg[EB_ERRLEN];
    snprintf(msg, sizeof msg, "%s: not available in a simulation: SMPI's shared message "
             "buffers carry no data to verify (check on a real machine, or simulate "
             "with EFFBENCH_SIM_MODE=off)", option);
    eb_exit_all(EB_EXIT_USAGE, msg);
}

void *eb_msgbuf_alloc(size_t n)
{
    size_t a = (n + 4095) / 4096 * 4096;
#if EB_SMPI_BUILD
    if (active) {
        void *p = SMPI_SHARED_MALLOC(n ? n : 1);
        if (!p)
            eb_abort("out of memory allocating a %zu-byte shared message buffer", n);
        return p;
    }
    /* Not posix_memalign: SMPI loads each rank's copy of the program with RTLD_DEEPBIND,
     * so posix_memalign is glibc's, while free() is SMPI's macro for the allocator in
     * force, jemalloc under scripts/simulate (a crash).  A malloc'd block, aligned by
     * hand, with the block's own address just below the aligned one. */
    char *block = malloc((a ? a : 4096) + 4096);
    if (!block)
        eb_abort("out of memory allocating a %zu-byte message buffer", a);
    char *p = block + 4096 - (uintptr_t)block % 4096;
    ((void **)p)[-1] = block;
    return p;
#else
    void *p;
    if (posix_memalign(&p, 4096, a ? a : 4096) != 0)
        eb_abort("out of memory allocating a %zu-byte message buffer", a);
    return p;
#endif
}

void eb_msgbuf_free(void *p)
{
#if EB_SMPI_BUILD
    if (active && p)
        SMPI_SHARED_FREE(p);
    else if (p)
        free(((void **)p)[-1]);
#else
    free(p);
#endif
}

long eb_sim_max_reps(void) { return active ? max_reps : 0; }

long eb_sim_cap_loop(long n)
{
    if (!active || n <= max_reps)
        return n;
    return max_reps;
}

double eb_sim_compute(double seconds)
{
    double t0 = MPI_Wtime();
#if EB_SMPI_BUILD
    smpi_execute(seconds);
#else
    (void)seconds;
#endif
    return MPI_Wtime() - t0;
}

#if EB_SMPI_BUILD
static void no_reduction(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}
#endif

void eb_sim_split_world(int whole, int color, int key, MPI_Comm *out)
{
    if (whole && active)
        *out = MPI_COMM_WORLD;
    else
        MPI_Comm_split(MPI_COMM_WORLD, color, key, out);
}

void eb_sim_prime_collectives(MPI_Comm comm)
{
#if EB_SMPI_BUILD
    int one = 1, all;
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, comm);
#else
    (void)comm;
#endif
}

void eb_comm_release(MPI_Comm *c)
{
    if (*c != MPI_COMM_NULL && *c != MPI_COMM_WORLD)
        MPI_Comm_free(c);
    *c = MPI_COMM_NULL;
}

MPI_Op eb_sim_op(MPI_Op op)
{
#if EB_SMPI_BUILD
    static MPI_Op none = MPI_OP_NULL; /* one per rank: SMPI privatizes globals */
    if (active) {
        if (none == MPI_OP_NULL)
            MPI_Op_create(no_reduction, 1, &none);
        return none;
    }
#endif
    return op;
}

int eb_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype,
                 void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    if (!active)
        return MPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
    int rank, size;
    MPI_Aint lb, sext, rext;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Type_get_extent(stype, &lb, &sext);
    MPI_Type_get_extent(rtype, &lb, &rext);
    MPI_Request req[2 * EB_SIM_ALLTOALLV_BLOCK];
    for (int first = 0; first < size; first += EB_SIM_ALLTOALLV_BLOCK) {
        int n = size - first < EB_SIM_ALLTOALLV_BLOCK ? size - first : EB_SIM_ALLTOALLV_BLOCK;
        int nreq = 0;
        for (int i = 0; i < n; i++) {
            int src = (rank + first + i) % size;
            if (rcounts[src])
                MPI_Irecv((char *)rbuf + rdispls[src] * rext, rcounts[src], rtype, src,
                          EB_SIM_ALLTOALLV_TAG, comm, &req[nreq++]);
        }
        for (int i = 0; i < n; i++) {
            int dst = (rank - first - i + size) % size;
            if (scounts[dst])
                MPI_Isend((const char *)sbuf + sdispls[dst] * sext, scounts[dst], stype, dst,
                          EB_SIM_ALLTOALLV_TAG, comm, &req[nreq++]);
        }
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    }
    return MPI_SUCCESS;
}

void eb_sim_note_emulation(const char *what)
{
    if (!EB_SMPI_BUILD)
        return;
    for (int k = 0; k < nemulated; k++)
        if (strcmp(emulated[k], what) == 0)
            return;
    if (nemulated == MAX_EMULATED)
        eb_abort("eb_sim_note_emulation: more than %d emulations in one run", MAX_EMULATED);
    emulated[nemulated++] = eb_strdup(what);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        char line[1024];
        snprintf(line, sizeof line, "emulated in this simulation: %s", what);
        eb_stderr_line("note", line);
    }
}

void eb_sim_json(eb_json *j)
{
    if (!EB_SMPI_BUILD)
        return;
    eb_json_bool(j, "simulated", active);
#if EB_SMPI_BUILD
    eb_json_object(j, "simulation");
    eb_json_str(j, "simulator", SIMGRID_VERSION_STRING " (SMPI)");
    eb_json_str(j, "mode", active ? "on" : "off");
    eb_json_str(j, "platform", getenv("EFFBENCH_SIM_PLATFORM"));
    eb_json_str(j, "placement", getenv("EFFBENCH_SIM_PLACEMENT"));
    eb_json_bool(j, "shared_buffers", active);
    eb_json_bool(j, "simulate_computation", sg_cfg_get_boolean("smpi/simulate-computation"));
    if (active)
        eb_json_int(j, "max_repetitions", max_reps);
    else
        eb_json_null(j, "max_repetitions");
    eb_json_object(j, "parameters");
    sg_netzone_t root = sg_zone_get_root();
    for (int k = 0; platform_keys[k]; k++) {
        const char *v = root ? sg_zone_get_property_value(root, platform_keys[k]) : NULL;
        if (v)
            eb_json_str(j, platform_keys[k], v);
    }
    eb_json_close(j);
    if (nemulated) {
        eb_json_array(j, "emulated");
        for (int k = 0; k < nemulated; k++)
            eb_json_str(j, NULL, emulated[k]);
        eb_json_close(j);
    }
    eb_json_close(j);
#endif
}
