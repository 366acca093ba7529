#define _GNU_SOURCE /* sched_getaffinity, getcpu */
#include "core/placement.h"

#include "core/error.h"
#include "core/nodemap.h"

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

void eb_placement_json(eb_json *j)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char cpus[CPUS_LEN];
    eb_cpu_binding(cpus, sizeof cpus);
    unsigned cpu = 0, node = 0;
    int numa = getcpu(&cpu, &node) == 0 ? (int)node : -1;
    char *all = rank == 0 ? eb_malloc((size_t)size * CPUS_LEN) : NULL;
    int *numas = rank == 0 ? eb_malloc((size_t)size * sizeof *numas) : NULL;
    MPI_Gather(cpus, CPUS_LEN, MPI_CHAR, all, CPUS_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Gather(&numa, 1, MPI_INT, numas, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    const eb_nodemap *m = eb_world_nodes();
    eb_json_array(j, "placement");
    for (int r = 0; r < size; r++) {
        eb_json_object(j, NULL);
        eb_json_int(j, "rank", r);
        eb_json_str(j, "host", m->name[m->node_of[r]]);
        eb_json_str(j, "cpus", all + (size_t)r * CPUS_LEN);
        if (numas[r] >= 0)
            eb_json_int(j, "numa", numas[r]);
        else
            eb_json_null(j, "numa");
        eb_json_close(j);
    }
    eb_json_close(j);
    char model[256];
    eb_cpu_model(model, sizeof model);
    eb_json_str(j, "cpu_model", model);
    environment_json(j);
    slurm_json(j);
    free(all);
    free(numas);
}
