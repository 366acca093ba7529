/* The device seam's MPI side (core/device.h): every rank opens its device by
 * its rank on the node, the MPI library is asked whether it takes device
 * pointers, and the run record names each rank's device. */
#include "core/device.h"

#include "core/error.h"
#include "core/expect_placement.h"
#include "core/nodemap.h"

#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(OPEN_MPI) && OPEN_MPI && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* MPIX_Query_cuda_support, where Open MPI built its cuda extension */
#endif
#endif

int eb_device_open_all(eb_accel a, char *err, size_t n)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const eb_nodemap *m = eb_world_nodes();
    int local_rank = 0;
    for (int r = 0; r < rank; r++)
        local_rank += m->node_of[r] == m->node_of[rank];
    char mine[EB_ERRLEN] = "";
    int failed = eb_device_open(a, local_rank, mine, sizeof mine) != 0;
    if (failed) {
        char host[MPI_MAX_PROCESSOR_NAME] = "";
        int len;
        MPI_Get_processor_name(host, &len);
        char full[EB_ERRLEN];
        snprintf(full, sizeof full, "rank %d on %s: %s", rank, host, mine);
        snprintf(mine, sizeof mine, "%s", full);
    }
    char first[EB_ERRLEN];
    if (!eb_any_error(failed ? mine : NULL, first, sizeof first))
        return 0;
    return eb_err(err, n, "%s", first);
}

/* The first line of MPI_Get_library_version, for messages. */
static void library_name(char *out, size_t n)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n,")] = '\0';
    /* one space for each run of blanks: MPICH's "MPICH Version:\t4.0.2" */
    size_t k = 0;
    for (const char *c = lib; *c && k + 1 < n; c++)
        if (!isspace((unsigned char)*c) || (k > 0 && out[k - 1] != ' '))
            out[k++] = isspace((unsigned char)*c) ? ' ' : *c;
    out[k] = '\0';
}

/* Intel MPI moves CUDA buffers only when told (Intel MPI Developer Reference,
 * "GPU Support": I_MPI_OFFLOAD=1; I_MPI_OFFLOAD_MODE=cuda picks the CUDA path). */
static int intel_mpi(const char *lib, char *why, size_t n)
{
    const char *offload = getenv("I_MPI_OFFLOAD");
    if (offload && atoi(offload) >= 1)
        return 1;
    eb_err(why, n, "%s moves CUDA device buffers only with I_MPI_OFFLOAD=1 (%s): export "
           "I_MPI_OFFLOAD=1 (and I_MPI_OFFLOAD_MODE=cuda)", lib,
           offload ? "it is set to something else" : "it is not set");
    return 0;
}

static int library_answer(const char *lib, char *why, size_t n)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    /* Open MPI: 1 where the library was built with CUDA and runs with it */
    if (MPIX_Query_cuda_support())
        return 1;
    eb_err(why, n, "%s does not take CUDA device pointers (MPIX_Query_cuda_support() is 0: "
           "built without CUDA, see ompi_info): use a CUDA-aware Open MPI (configure "
           "--with-cuda, or UCX with CUDA)", lib);
    return 0;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    /* MPICH 4 and later */
    int supported = 0;
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS && supported)
        return 1;
    eb_err(why, n, "%s does not take CUDA device pointers (MPIX_GPU_query_support says no: "
           "built without CUDA, or MPIR_CVAR_ENABLE_GPU=0): use an MPICH built --with-cuda",
           lib);
    return 0;
#else
    eb_err(why, n, "effbench cannot ask %s whether it takes CUDA device pointers: set "
           "EFFBENCH_MPI_DEVICE_POINTERS=1 if it does", lib);
    return -1;
#endif
}

int eb_mpi_takes_device_pointers(eb_accel a, char *why, size_t n)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    library_name(lib, sizeof lib);
    if (a != EB_ACCEL_CUDA)
        return eb_err(why, n, "effbench asks MPI libraries about CUDA device pointers only, "
                      "not %s", eb_accel_name(a)), 0;
    /* the user's word, for a library effbench cannot ask (or to test the refusal) */
    const char *user = getenv("EFFBENCH_MPI_DEVICE_POINTERS");
    if (user && *user) {
        if (!strcmp(user, "1"))
            return 1;
        if (!strcmp(user, "0"))
            return eb_err(why, n, "EFFBENCH_MPI_DEVICE_POINTERS=0 says %s does not take CUDA "
                          "device pointers", lib), 0;
        return eb_err(why, n, "EFFBENCH_MPI_DEVICE_POINTERS=%s: write 1 (the library takes "
                      "device pointers) or 0 (it does not)", user), -1;
    }
    if (strstr(lib, "Intel(R) MPI"))
        return intel_mpi(lib, why, n);
    return library_answer(lib, why, n);
}

static void rank_json(eb_json *j, int rank, const char *host, const eb_device_info *d)
{
    eb_json_object(j, NULL);
    eb_json_int(j, "rank", rank);
    eb_json_str(j, "host", host);
    eb_json_str(j, "accel", eb_accel_name(d->accel));
    eb_json_int(j, "ordinal", d->ordinal);
    eb_json_int(j, "count", d->count);
    eb_json_str(j, "name", d->name);
    eb_json_str(j, "pci_bus_id", d->pci_bus_id);
    eb_json_int(j, "memory_bytes", (long long)d->memory_bytes);
    eb_json_int(j, "driver_version", d->driver_version);
    eb_json_str(j, "library", d->library);
    eb_json_str(j, "visible_devices", d->visible_devices);
    eb_json_close(j);
}

void eb_device_json(eb_json *j)
{
    int rank, size, open = eb_device_is_open(), any;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    eb_expect_gpus_check(open ? eb_device_info_get()->pci_bus_id : NULL);
    MPI_Allreduce(&open, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any) {
        if (rank == 0)
            eb_json_null(j, "devices");
        return;
    }
    /* MPI_CHAR, as the run record's other gathers (core/placement.c says why) */
    eb_device_info mine = {0};
    if (open)
        mine = *eb_device_info_get();
    eb_device_info *all = rank == 0 ? eb_malloc((size_t)size * sizeof *all) : NULL;
    MPI_Gather(&mine, (int)sizeof mine, MPI_CHAR, all, (int)sizeof mine, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    if (rank == 0) { /* the hosts: the node map's names, which rank 0 holds */
        const eb_nodemap *m = eb_world_nodes();
        eb_json_array(j, "devices");
        for (int r = 0; r < size; r++)
            rank_json(j, r, m->name[m->node_of[r]], &all[r]);
        eb_json_close(j);
    }
    free(all);
}
