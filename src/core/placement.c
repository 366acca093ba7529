#define _GNU_SOURCE /* sched_getaffinity */
#include "core/placement.h"

#include "core/error.h"
#include "core/expect_placement.h"
#include "core/nodemap.h"
#include "core/topology.h"

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

#define CPUS_LEN 128

void eb_cpu_binding(char *out, size_t n)
{
    out[0] = '\0';
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    size_t len = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
            e++;
        int w = e > c ? snprintf(out + len, n - len, "%s%d-%d", len ? "," : "", c, e)
                      : snprintf(out + len, n - len, "%s%d", len ? "," : "", c);
        if (w < 0 || (size_t)w >= n - len) { /* too long: say so rather than cut a number */
            snprintf(out, n, "%d cpus", CPU_COUNT(&set));
            return;
        }
        len += (size_t)w;
        c = e;
    }
}

void eb_cpu_model(char *out, size_t n)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            char *v = colon + 1 + (colon[1] == ' ');
            v[strcspn(v, "\n")] = '\0';
            snprintf(out, n, "%s", v);
            break;
        }
    }
    fclose(f);
}

static const char *const recorded_prefixes[] = {
    "OMPI_MCA_", "PMIX_MCA_", "UCX_", "FI_", "MPIR_CVAR_", "I_MPI_", "HYDRA_", "PSM2_",
    "SLURM_JOB_", "SLURM_CLUSTER_NAME", "SLURM_NNODES", "SLURM_NTASKS", "SLURM_TASKS_PER_NODE",
    "SLURM_CPUS_PER_TASK", "SLURM_CPU_BIND", "SLURM_DISTRIBUTION", "SLURM_MPI_TYPE",
    "SLURM_STEP_NUM_NODES", "SLURM_STEP_NUM_TASKS", "SLURM_SUBMIT_HOST", "SLURM_PARTITION",
    NULL};

/* What the launcher itself sets for every job (its job id, addresses, session
 * folders; Open MPI 5's also its component prefixes, CPU type and job size;
 * Intel MPI's Hydra its process tree, job id, CPU description and pinning):
 * per-run bookkeeping, not a setting anybody chose. */
static const char *const launcher_prefixes[] = {
    "OMPI_MCA_orte_", "OMPI_MCA_ess", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
    "OMPI_MCA_shmem_RUNTIME_QUERY_hint", "PMIX_MCA_mca_base_component_show_load_errors",
    "PMIX_MCA_psec", "OMPI_MCA_PREFIXES", "OMPI_MCA_cpu_type", "OMPI_MCA_num_procs",
    "HYDRA_BSTRAP_", "HYDRA_IP_VERSION", "HYDRA_LAUNCH_TYPE", "I_MPI_HYDRA_UUID", "I_MPI_INFO_",
    "I_MPI_PIN_INFO", "I_MPI_PIN_MAPPING", NULL};

int eb_env_recorded(const char *name)
{
    for (const char *const *p = launcher_prefixes; *p; p++)
        if (strncmp(name, *p, strlen(*p)) == 0)
            return 0;
    for (const char *const *p = recorded_prefixes; *p; p++)
        if (strncmp(name, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void environment_json(eb_json *j)
{
    int n = 0;
    for (char **e = environ; *e; e++)
        n++;
    char **vars = eb_malloc((size_t)(n + 1) * sizeof *vars);
    int k = 0;
    for (char **e = environ; *e; e++) {
        char name[256];
        size_t len = strcspn(*e, "=");
        if (len >= sizeof name)
            continue;
        memcpy(name, *e, len);
        name[len] = '\0';
        if (eb_env_recorded(name))
            vars[k++] = *e;
    }
    qsort(vars, (size_t)k, sizeof *vars, by_name); /* the same record for the same settings */
    eb_json_object(j, "environment");
    for (int i = 0; i < k; i++) {
        char name[256];
        size_t len = strcspn(vars[i], "=");
        memcpy(name, vars[i], len);
        name[len] = '\0';
        eb_json_str(j, name, vars[i] + len + 1);
    }
    eb_json_close(j);
    free(vars);
}

/* The Slurm job a run belongs to, when it runs in one. */
static void slurm_json(eb_json *j)
{
    static const char *const facts[][2] = {
        {"job_id", "SLURM_JOB_ID"},          {"partition", "SLURM_JOB_PARTITION"},
        {"nodelist", "SLURM_JOB_NODELIST"},  {"nnodes", "SLURM_JOB_NUM_NODES"},
        {"ntasks", "SLURM_NTASKS"},          {"cluster", "SLURM_CLUSTER_NAME"}};
    if (!getenv("SLURM_JOB_ID")) {
        eb_json_null(j, "slurm");
        return;
    }
    eb_json_object(j, "slurm");
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
        eb_json_str(j, facts[i][0], getenv(facts[i][1]));
    eb_json_close(j);
}

/* The network devices an MPI library or fabric was told to use, as its
 * settings name them (docs/json-lines.md, `network`): Open MPI's TCP and
 * openib/UCX interface lists, UCX's and libfabric's device and provider,
 * MPICH's and Intel MPI's interface choices.  What the library picked where
 * nothing was set is not something MPI says. */
static void network_json(eb_json *j)
{
    static const char *const settings[] = {
        "OMPI_MCA_btl_tcp_if_include", "OMPI_MCA_btl_tcp_if_exclude",
        "OMPI_MCA_oob_tcp_if_include", "OMPI_MCA_oob_tcp_if_exclude",
        "OMPI_MCA_btl_openib_if_include", "OMPI_MCA_pml_ucx_devices", "OMPI_MCA_btl",
        "OMPI_MCA_pml", "OMPI_MCA_mtl", "OMPI_MCA_mtl_ofi_provider_include",
        "UCX_NET_DEVICES", "UCX_TLS", "FI_PROVIDER", "FI_TCP_IFACE", "FI_SOCKETS_IFACE",
        "FI_VERBS_IFACE", "MPIR_CVAR_NEMESIS_TCP_NETWORK_IFACE", "MPIR_CVAR_CH4_NETMOD",
        "MPIR_CVAR_OFI_USE_PROVIDER", "MPIR_CVAR_CH4_OFI_IFNAME", "HYDRA_IFACE",
        "I_MPI_HYDRA_IFACE", "I_MPI_OFI_PROVIDER", "I_MPI_FABRICS", NULL};
    eb_json_object(j, "network");
    for (const char *const *s = settings; *s; s++)
        if (getenv(*s))
            eb_json_str(j, *s, getenv(*s));
    eb_json_close(j);
}

static void rank_json(eb_json *j, int r, const char *host, const char *cpus, const eb_rank_topo *t)
{
    eb_json_object(j, NULL);
    eb_json_int(j, "rank", r);
    eb_json_str(j, "host", host);
    eb_json_str(j, "cpus", cpus);
    if (t->cpu_numa >= 0)
        eb_json_int(j, "numa", t->cpu_numa);
    else
        eb_json_null(j, "numa");
    if (t->cpu >= 0)
        eb_json_int(j, "cpu", t->cpu);
    else
        eb_json_null(j, "cpu");
    eb_json_int_list(j, "cores", t->cores);
    eb_json_int_list(j, "sockets", t->sockets);
    eb_json_int_list(j, "numa_nodes", t->numa);
    eb_json_close(j);
}

void eb_placement_json(eb_json *j)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char cpus[CPUS_LEN];
    eb_cpu_binding(cpus, sizeof cpus);
    eb_rank_topo topo;
    eb_rank_topo_get(&topo);
    char *all = rank == 0 ? eb_malloc((size_t)size * CPUS_LEN) : NULL;
    eb_rank_topo *topos = rank == 0 ? eb_malloc((size_t)size * sizeof *topos) : NULL;
    MPI_Gather(cpus, CPUS_LEN, MPI_CHAR, all, CPUS_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    /* MPI_CHAR, as all of the run record's gathers: MPI_BYTE and MPI_FLOAT are the
     * benchmarks' data, which the tests' corrupting library counts (tests/pmpi/corrupt.c) */
    MPI_Gather(&topo, (int)sizeof topo, MPI_CHAR, topos, (int)sizeof topo, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    if (rank != 0)
        return;
    const eb_nodemap *m = eb_world_nodes();
    eb_json_array(j, "placement");
    for (int r = 0; r < size; r++)
        rank_json(j, r, m->name[m->node_of[r]], all + (size_t)r * CPUS_LEN, &topos[r]);
    eb_json_close(j);
    eb_topology_json(j);
    eb_json_str(j, "expect_placement", eb_expected_placement());
    network_json(j);
    char model[256];
    eb_cpu_model(model, sizeof model);
    eb_json_str(j, "cpu_model", model);
    environment_json(j);
    slurm_json(j);
    free(all);
    free(topos);
}
