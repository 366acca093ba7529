#include "imb/driver/gpu.h"

#include "core/device.h"
#include "core/error.h"

#include <stdio.h>
#include <string.h>

const eb_imb_family *eb_imb_gpu_variant(const eb_imb_family *f, const char *argv0,
                                        eb_imb_family *copy)
{
    const char *prog = argv0 ? strrchr(argv0, '/') : NULL;
    prog = prog ? prog + 1 : argv0;
    if (!f->gpu || !prog || strcmp(prog, f->gpu->program) != 0)
        return f;
    *copy = *f;
    copy->program = f->gpu->program;
    copy->part = f->gpu->part;
    return copy;
}

/* IMB 2021.11's words (MEM_ALLOC_TYPE: MAT_DEVICE, MAT_HOST, MAT_SHARED,
 * MAT_CPU) and the seam's memory kinds they are. */
static const struct {
    const char *word;
    eb_mem_kind kind;
} mem_words[] = {
    {"device", EB_MEM_DEVICE}, /* cudaMalloc */
    {"host", EB_MEM_PINNED},   /* cudaMallocHost: page-locked host memory */
    {"shared", EB_MEM_MANAGED}, /* cudaMallocManaged(..., cudaMemAttachGlobal) */
    {"cpu", EB_MEM_HOST},      /* IMB's own allocation: pageable host memory */
};
enum { N_MEM_WORDS = sizeof mem_words / sizeof *mem_words };

int eb_imb_gpu_set_mem(eb_imb_options *o, const char *w, char *err, size_t errlen)
{
    if (!o->gpu) { /* IMB-MPI1 and IMB-RMA: the host memory they have */
        if (strcmp(w, "cpu") == 0)
            return 0;
        return eb_err(err, errlen, "-mem_alloc_type %s: %s's buffers are host memory (cpu); "
                      "GPU buffers are %s%s", w, o->family->program,
                      o->family->gpu ? o->family->gpu->program : "IMB-MPI1-GPU's and IMB-RMA-GPU",
                      "'s");
    }
    for (int k = 0; k < N_MEM_WORDS; k++)
        if (strcmp(w, mem_words[k].word) == 0) { /* IMB compares the words as given */
            o->mem = mem_words[k].kind;
            o->mem_alloc_type = mem_words[k].word;
            return 0;
        }
    return eb_err(err, errlen, "-mem_alloc_type %s: expected device, host, shared or cpu "
                  "(%s's buffer types; default device)", w, o->gpu->program);
}

int eb_imb_gpu_has(const eb_imb_options *o, const eb_bench *b)
{
    for (const char *const *w = o->gpu ? o->gpu->without : NULL; w && *w; w++)
        if (strcmp(*w, b->name) == 0)
            return 0;
    return 1;
}

/* Device and managed memory reach MPI calls as device pointers; page-locked
 * and plain host memory are host memory to every library. */
static int needs_device_pointers(eb_mem_kind k)
{
    return k == EB_MEM_DEVICE || k == EB_MEM_MANAGED;
}

void eb_imb_gpu_open(const eb_imb_options *o)
{
    if (!o->gpu)
        return;
    char err[EB_ERRLEN], msg[EB_ERRLEN + 256];
    const char *prog = o->gpu->program;
    /* IMB-MPI1-GPU initialises its GPU library whatever -mem_alloc_type says, and
     * stops without one: so does effbench, saying what is missing */
    if (eb_device_open_all(EB_ACCEL_CUDA, err, sizeof err) != 0) {
        snprintf(msg, sizeof msg, "%s: Neither CUDA nor Level Zero is available! effbench "
                 "drives CUDA only (Level Zero and ROCm are refused until they can be tested), "
                 "and here: %s", prog, err);
        eb_exit_all(EB_EXIT_USAGE, msg);
    }
    if (!needs_device_pointers(o->mem))
        return;
    char why[EB_ERRLEN];
    int yes = eb_mpi_takes_device_pointers(EB_ACCEL_CUDA, why, sizeof why) == 1;
    if (!yes)
        snprintf(msg, sizeof msg, "%s -mem_alloc_type %s: the MPI library cannot be given CUDA "
                 "device pointers: %s (-mem_alloc_type host or cpu needs no GPU-aware MPI)", prog,
                 o->mem_alloc_type, why);
    char agreed[sizeof msg];
    if (eb_any_error(yes ? NULL : msg, agreed, sizeof agreed))
        eb_exit_all(EB_EXIT_USAGE, agreed);
}

/* What a -mem_alloc_type word allocates, for the header. */
static const char *mem_what(eb_mem_kind k)
{
    switch (k) {
    case EB_MEM_DEVICE: return "CUDA device memory, cuMemAlloc";
    case EB_MEM_PINNED: return "page-locked host memory, cuMemAllocHost";
    case EB_MEM_MANAGED: return "CUDA managed memory, cuMemAllocManaged";
    case EB_MEM_HOST: return "pageable host memory";
    }
    return "?";
}

void eb_imb_gpu_print_header(const eb_imb_options *o)
{
    if (!o->gpu)
        return;
    printf("# Message buffers       : -mem_alloc_type %s (%s)\n", o->mem_alloc_type,
           mem_what(o->mem));
    const eb_device_info *d = eb_device_info_get();
    if (d)
        printf("# GPU of rank 0         : %s, PCI bus %s, device %d of %d (%s)\n", d->name,
               d->pci_bus_id, d->ordinal, d->count, d->library);
    if (o->check && o->mem != EB_MEM_HOST)
        printf("# -check reads a host copy of each checked repetition's buffers\n");
}

void eb_imb_gpu_json(eb_json *rec, const eb_imb_options *o)
{
    if (!o->gpu)
        return;
    eb_json_str(rec, "program", o->gpu->program);
    eb_json_str(rec, "accelerator", eb_accel_name(EB_ACCEL_CUDA));
    eb_json_str(rec, "mem_alloc_type", o->mem_alloc_type);
}

void eb_imb_gpu_print_help(const eb_imb_options *o)
{
    if (!o->gpu)
        return;
    printf("%s (IMB 2021.11's GPU build; CUDA, through the driver library libcuda.so.1):\n"
           "  -mem_alloc_type device|host|shared|cpu\n"
           "                            where the message buffers live: device memory\n"
           "                            (default), page-locked host memory, managed memory,\n"
           "                            or plain host memory; device and shared need an MPI\n"
           "                            library that takes CUDA device pointers (Intel MPI:\n"
           "                            I_MPI_OFFLOAD=1)\n",
           o->gpu->program);
}
