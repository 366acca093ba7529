/* IMB-MPI1-GPU and IMB-RMA-GPU (imb/driver/gpu.h): the program name picks the
 * GPU build, -mem_alloc_type's words and the memory kinds they are, its
 * errors in and outside a GPU program, the benchmarks IMB-RMA-GPU leaves
 * out, and -dump's line; the driver's buffers in device memory the host
 * cannot touch (the driver double's EB_CUDA_DOUBLE_PROTECT), filled,
 * poisoned and read through the seam only.  (The devices and the MPI library's answer are
 * tested under MPI with the driver double: tests/mpi/test_imb_gpu.py.) */
#include "core/error.h"
#include "imb/driver/gpu.h"
#include "imb/driver/imb2021_types.h"
#include "imb/driver/imb_yaml.h"
#include "imb/driver/membuf.h"
#include "imb/driver/options.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const rma_without[] = {"Fetch_and_op", "Compare_and_swap", NULL};
static const eb_imb_gpu mpi1_gpu = {.program = "IMB-MPI1-GPU", .part = "MPI-1 part (GPU)"};
static const eb_imb_gpu rma_gpu = {.program = "IMB-RMA-GPU",
                                   .part = "RMA part (GPU), Technical preview",
                                   .without = rma_without};
static const eb_imb_family mpi1 = {.component = "mpi1", .program = "IMB-MPI1",
                                   .part = "MPI-1 part", .maxmsglog = 22, .gpu = &mpi1_gpu};
static const eb_imb_family rma = {.component = "rma", .program = "IMB-RMA",
                                  .part = "MPI-RMA part", .maxmsglog = 22, .gpu = &rma_gpu};

/* Parse `line` for the program `prog` of family f (as eb_imb_run does). */
static int parse_prog(const eb_imb_family *f, const char *prog, eb_imb_family *copy,
                      eb_imb_options *o, const char *line, char *err)
{
    static char buf[512];
    static char *argv[32];
    snprintf(buf, sizeof buf, "%s %s", prog, line);
    int argc = 0;
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    eb_imb_options_init(o, eb_imb_gpu_variant(f, argv[0], copy));
    err[0] = '\0';
    return eb_imb_parse(o, argc, argv, err, EB_ERRLEN);
}

static void variants(void)
{
    eb_imb_family copy;
    CHECK(eb_imb_gpu_variant(&mpi1, "IMB-MPI1", &copy) == &mpi1);
    CHECK(eb_imb_gpu_variant(&mpi1, "mpi1", &copy) == &mpi1);
    CHECK(eb_imb_gpu_variant(&mpi1, "IMB-RMA-GPU", &copy) == &mpi1);
    const eb_imb_family *g = eb_imb_gpu_variant(&mpi1, "/opt/effbench/bin/IMB-MPI1-GPU", &copy);
    CHECK(g == &copy);
    CHECK_STR(g->program, "IMB-MPI1-GPU");
    CHECK_STR(g->part, "MPI-1 part (GPU)");
    CHECK_STR(g->component, "mpi1");
    g = eb_imb_gpu_variant(&rma, "IMB-RMA-GPU", &copy);
    CHECK_STR(g->part, "RMA part (GPU), Technical preview");
}

static void mem_words(void)
{
    eb_imb_family copy;
    eb_imb_options o;
    char err[EB_ERRLEN];
    /* default: device memory, as IMB 2021.3 on */
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, "PingPong", err), 0);
    CHECK(o.gpu == &mpi1_gpu);
    CHECK_EQ_LONG(o.mem, EB_MEM_DEVICE);
    CHECK_STR(o.mem_alloc_type, "device");
    static const struct {
        const char *word;
        eb_mem_kind kind;
        const char *name;
    } cases[] = {{"device", EB_MEM_DEVICE, "device"}, {"host", EB_MEM_PINNED, "pinned"},
                 {"shared", EB_MEM_MANAGED, "managed"}, {"cpu", EB_MEM_HOST, "host"}};
    for (int k = 0; k < 4; k++) {
        char line[64];
        snprintf(line, sizeof line, "-mem_alloc_type %s", cases[k].word);
        CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, line, err), 0);
        CHECK_EQ_LONG(o.mem, cases[k].kind);
        CHECK_STR(o.mem_alloc_type, cases[k].word);
        CHECK_STR(eb_mem_kind_name(o.mem), cases[k].name);
    }
    CHECK_EQ_LONG(parse_prog(&rma, "IMB-RMA-GPU", &copy, &o, "-mem_alloc_type shared", err), 0);
    CHECK_EQ_LONG(o.mem, EB_MEM_MANAGED);
    /* IMB compares the words as given: Device is none of them */
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, "-mem_alloc_type Device", err), -1);
    CHECK_STR(err, "-mem_alloc_type Device: expected device, host, shared or cpu "
                   "(IMB-MPI1-GPU's buffer types; default device)");
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, "-mem_alloc_type", err), -1);
    CHECK_STR(err, "option -mem_alloc_type needs a value");
    /* the programs without GPU: host memory, cpu accepted, the rest sent to the GPU program */
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1", &copy, &o, "-mem_alloc_type cpu", err), 0);
    CHECK(o.gpu == NULL);
    CHECK_EQ_LONG(o.mem, EB_MEM_HOST);
    CHECK_EQ_LONG(parse_prog(&rma, "IMB-RMA", &copy, &o, "-mem_alloc_type host", err), -1);
    CHECK_STR(err, "-mem_alloc_type host: IMB-RMA's buffers are host memory (cpu); GPU buffers "
                   "are IMB-RMA-GPU's");
}

static void benchmarks(void)
{
    eb_imb_family copy;
    eb_imb_options o;
    char err[EB_ERRLEN];
    eb_bench fop = {.name = "Fetch_and_op"}, cas = {.name = "Compare_and_swap"},
             put = {.name = "Unidir_put"};
    CHECK_EQ_LONG(parse_prog(&rma, "IMB-RMA-GPU", &copy, &o, "", err), 0);
    CHECK_EQ_LONG(eb_imb_gpu_has(&o, &fop), 0);
    CHECK_EQ_LONG(eb_imb_gpu_has(&o, &cas), 0);
    CHECK_EQ_LONG(eb_imb_gpu_has(&o, &put), 1);
    CHECK_EQ_LONG(parse_prog(&rma, "IMB-RMA", &copy, &o, "", err), 0);
    CHECK_EQ_LONG(eb_imb_gpu_has(&o, &fop), 1);
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, "", err), 0);
    CHECK_EQ_LONG(eb_imb_gpu_has(&o, &fop), 1); /* IMB-MPI1-GPU: all of IMB-MPI1's */
}

/* -check 1 (IMB-MT's bool form, which scripts/test-gpu writes): the word is
 * -check's value; any other word after -check is a benchmark name. */
static void check_word(void)
{
    eb_imb_family copy;
    eb_imb_options o;
    char err[EB_ERRLEN];
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, "PingPong -check 1", err), 0);
    CHECK_EQ_LONG(o.check, 1);
    CHECK_EQ_LONG(o.nnames, 1);
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1", &copy, &o, "-check off Allreduce", err), 0);
    CHECK_EQ_LONG(o.check, 0);
    CHECK_EQ_LONG(o.nnames, 1);
    CHECK_STR(o.names[0], "Allreduce");
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1", &copy, &o, "-check PingPong", err), 0);
    CHECK_EQ_LONG(o.check, 1);
    CHECK_STR(o.names[0], "PingPong");
}

/* -dump: the GPU program's option last, as a comment at its default. */
static void dump(void)
{
    eb_imb_family copy;
    eb_imb_options o;
    char err[EB_ERRLEN], *text = NULL;
    size_t len = 0;
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, "-mem_alloc_type host", err), 0);
    FILE *f = open_memstream(&text, &len);
    eb_imb_yaml_dump(f, &o);
    fclose(f);
    CHECK(strstr(text, "---\n# IMB-MPI1-GPU\n") == text);
    CHECK(strstr(text, "\nmem_alloc_type: host\n") != NULL);
    free(text);
    text = NULL;
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1-GPU", &copy, &o, "", err), 0);
    f = open_memstream(&text, &len);
    eb_imb_yaml_dump(f, &o);
    fclose(f);
    CHECK(strstr(text, "\n# {mem_alloc_type: device} (default)\n") != NULL);
    free(text);
    text = NULL;
    CHECK_EQ_LONG(parse_prog(&mpi1, "IMB-MPI1", &copy, &o, "", err), 0);
    f = open_memstream(&text, &len);
    eb_imb_yaml_dump(f, &o);
    fclose(f);
    CHECK(strstr(text, "mem_alloc_type") == NULL);
    free(text);
}

/* The runner's writes and -check's host copy on device memory out of the
 * host's reach (a host access would be a SIGSEGV): off-cache slots, the send
 * pattern in each, the poison, reduction data, zeros. */
static void buffers(const char *double_path)
{
    char err[EB_ERRLEN];
    setenv("EFFBENCH_LIBCUDA", double_path, 1);
    setenv("EB_CUDA_DOUBLE_PROTECT", "1", 1);
    CHECK_EQ_LONG(eb_device_open(EB_ACCEL_CUDA, 0, err, sizeof err), 0);
    if (!eb_device_is_open()) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    eb_cache cache = {.cache_mb = 0.001, .line = 64}; /* 2 KB over 3 strides: 3 slots */
    eb_ctx c = {.mem = EB_MEM_DEVICE, .rank = 1};
    eb_membuf_setup(&c.s, c.mem, 100, 5, &cache);
    eb_membuf_setup(&c.r, c.mem, 100, 5, &cache);
    CHECK_EQ_LONG(c.s.slots, 5);
    CHECK_EQ_LONG(c.s.stride, 192);
    eb_ctx_fill_send(&c, 0, 0);
    unsigned char host[1024];
    long bad = 0;
    for (long i = 0; i < c.s.slots; i++) {
        eb_mem_to_host(host, c.mem, eb_sbuf(&c, i), c.s.len);
        bad += eb_check_pattern(host, c.s.len, 1, 0);
    }
    CHECK_EQ_LONG(bad, 0);
    eb_ctx_fill_send(&c, 1, EB_DT_INT);
    eb_mem_to_host(host, c.mem, eb_sbuf(&c, 4), c.s.len);
    int want[25];
    eb_fill_reduction(want, sizeof want, EB_DT_INT, 1);
    CHECK(memcmp(host, want, sizeof want) == 0);
    /* -check: the receive slots poisoned, one slot written, the host copy checked */
    eb_mem_poison(c.mem, c.r.base, c.r.alloc);
    unsigned char pat[100];
    eb_fill_pattern(pat, sizeof pat, 0, 0);
    eb_mem_from_host(c.mem, eb_rbuf(&c, 2), pat, sizeof pat);
    char *device_base = c.r.base;
    eb_membuf_view v = {0};
    eb_membuf_host_begin(&c, &v);
    CHECK(c.r.base != device_base);
    CHECK_EQ_LONG(eb_check_pattern(eb_rbuf(&c, 2), c.r.len, 0, 0), 0);
    CHECK_EQ_LONG(eb_check_pattern(eb_rbuf(&c, 1), c.r.len, 0, 0), 100); /* still poison */
    CHECK_EQ_LONG(((unsigned char *)eb_rbuf(&c, 3))[7], EB_POISON_BYTE);
    eb_membuf_host_end(&c, &v);
    CHECK(c.r.base == device_base && c.r.slots == 5 && c.r.len == 100);
    eb_mem_set(c.mem, eb_rbuf(&c, 0), 0, c.r.len);
    eb_ctx_fill_reduction(&c, eb_rbuf(&c, 1), 40, EB_DT_FLOAT);
    eb_membuf_host_begin(&c, &v);
    CHECK_EQ_LONG(((unsigned char *)eb_rbuf(&c, 0))[99], 0);
    CHECK(((float *)eb_rbuf(&c, 1))[3] == eb_pattern_float(1, 3));
    eb_membuf_host_end(&c, &v);
    eb_membuf_view_free(&v);
    eb_membuf_free(&c.s, c.mem);
    eb_membuf_free(&c.r, c.mem);
    CHECK(c.s.base == NULL && c.r.base == NULL);
    eb_device_close();
}

int main(int argc, char **argv)
{
    (void)argc;
    variants();
    mem_words();
    benchmarks();
    check_word();
    dump();
    /* the driver double is built beside the unit tests (CMake's binary directory) */
    char double_path[4096];
    snprintf(double_path, sizeof double_path, "%s", argv[0]);
    char *slash = strrchr(double_path, '/');
    snprintf(slash ? slash + 1 : double_path,
             sizeof double_path - (size_t)(slash ? slash + 1 - double_path : 0),
             "libeb_cuda_double.so");
    CHECK(access(double_path, R_OK) == 0);
    buffers(double_path);
    UNIT_DONE();
}
