/* The device seam (core/device.h) through the tests' CUDA driver double
 * (tests/support/cuda_double.c, found beside this executable), and the
 * different-gpus verdict (core/expect_placement.h). */
#include "core/device.h"
#include "core/expect_placement.h"

#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char double_path[4096];

static void test_names(void)
{
    eb_accel a = EB_ACCEL_NONE;
    CHECK(eb_accel_parse("cuda", &a) == 0 && a == EB_ACCEL_CUDA);
    CHECK(eb_accel_parse("ROCM", &a) == 0 && a == EB_ACCEL_ROCM);
    CHECK(eb_accel_parse("ze", &a) == 0 && a == EB_ACCEL_LEVEL_ZERO);
    CHECK(eb_accel_parse("opencl", &a) == -1);
    CHECK_STR(eb_accel_name(EB_ACCEL_LEVEL_ZERO), "level_zero");
    CHECK_STR(eb_mem_kind_name(EB_MEM_PINNED), "pinned");
    CHECK_STR(eb_mem_kind_name(EB_MEM_MANAGED), "managed");
}

static void test_refusals(void)
{
    char err[512];
    setenv("EFFBENCH_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    CHECK(eb_device_open(EB_ACCEL_CUDA, 0, err, sizeof err) == -1);
    CHECK(strstr(err, "CUDA device buffers need NVIDIA's driver library "
                      "/nonexistent/libcuda.so.1, which cannot be loaded here") == err);
    CHECK(eb_device_open(EB_ACCEL_ROCM, 0, err, sizeof err) == -1);
    CHECK_STR(err, "rocm device buffers are not built in effbench yet: no such GPU has been at "
                   "hand to test them on (docs/gpu.md); CUDA is (-d cuda)");
    CHECK(eb_device_info_get() == NULL);
    CHECK(eb_mem_alloc(EB_MEM_DEVICE, 64, err, sizeof err) == NULL);
    CHECK_STR(err, "device memory asked for before a CUDA device was opened");
    setenv("EFFBENCH_LIBCUDA", double_path, 1);
    setenv("EB_CUDA_DOUBLE_NO_INIT", "1", 1);
    CHECK(eb_device_open(EB_ACCEL_CUDA, 0, err, sizeof err) == -1);
    CHECK(strstr(err, "found no usable GPU: cuInit: CUDA_ERROR_NO_DEVICE (100: no "
                      "CUDA-capable device is detected)") != NULL);
    unsetenv("EB_CUDA_DOUBLE_NO_INIT");
}

static void test_buffers(void)
{
    char err[512];
    setenv("EFFBENCH_LIBCUDA", double_path, 1);
    setenv("EB_CUDA_DOUBLE_DEVICES", "2", 1);
    setenv("EB_CUDA_DOUBLE_MEMORY", "1048576", 1);
    setenv("EB_CUDA_DOUBLE_PROTECT", "1", 1);
    setenv("CUDA_VISIBLE_DEVICES", "2,3", 1);
    CHECK(eb_device_open(EB_ACCEL_CUDA, 3, err, sizeof err) == 0);
    const eb_device_info *d = eb_device_info_get();
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ_LONG(d->ordinal, 1); /* node rank 3 of 2 devices */
    CHECK_EQ_LONG(d->count, 2);
    CHECK_STR(d->name, "effbench CUDA driver double 1");
    CHECK_STR(d->pci_bus_id, "0000:11:00.0");
    CHECK_EQ_LONG(d->memory_bytes, 1048576);
    CHECK_STR(d->visible_devices, "2,3");
    CHECK_STR(d->library, double_path);
    /* every kind round trips through the host; the device's bytes stay out of reach */
    char in[300], out[300];
    for (int i = 0; i < 300; i++)
        in[i] = (char)(i * 7 + 1);
    for (eb_mem_kind k = EB_MEM_HOST; k <= EB_MEM_PINNED; k++) {
        char *p = eb_mem_alloc(k, sizeof in, err, sizeof err);
        CHECK(p != NULL);
        eb_mem_set(k, p, 0x5a, sizeof in);
        eb_mem_to_host(out, k, p, sizeof out);
        CHECK(out[0] == 0x5a && out[299] == 0x5a);
        eb_mem_from_host(k, p, in, sizeof in);
        char *q = eb_mem_alloc(EB_MEM_DEVICE, sizeof in, err, sizeof err);
        eb_mem_copy(EB_MEM_DEVICE, q, k, p, sizeof in);
        memset(out, 0, sizeof out);
        eb_mem_to_host(out, EB_MEM_DEVICE, q, sizeof out);
        CHECK(memcmp(in, out, sizeof in) == 0);
        eb_mem_free(EB_MEM_DEVICE, q);
        eb_mem_free(k, p);
    }
    /* past the device's memory: the driver's error, named */
    CHECK(eb_mem_alloc(EB_MEM_DEVICE, 2u << 20, err, sizeof err) == NULL);
    CHECK_STR(err, "cannot allocate 2097152 bytes of device memory on CUDA device 1 (effbench "
                   "CUDA driver double 1, 1048576 bytes): CUDA_ERROR_OUT_OF_MEMORY (2: out of "
                   "memory)");
    eb_device_close();
    CHECK(!eb_device_is_open());
}

static void test_gpu_verdict(void)
{
    char msg[512];
    const char *const host[] = {"n1", "n2"};
    int one[] = {0, 0, 0}, two[] = {0, 0, 1};
    const char *const ids[] = {"0000:10:00.0", "0000:11:00.0", "0000:10:00.0"};
    CHECK(eb_gpu_verdict(2, one, host, ids, msg, sizeof msg) == 0);
    CHECK(eb_gpu_verdict(3, two, host, ids, msg, sizeof msg) == 0); /* another host's bus */
    CHECK(eb_gpu_verdict(3, one, host, ids, msg, sizeof msg) == 1);
    CHECK_STR(msg, "--expect-placement different-gpus: ranks 0 and 2 share the GPU at PCI "
                   "0000:10:00.0 on host n1 (set CUDA_VISIBLE_DEVICES per rank, or start no "
                   "more ranks per node than it has GPUs)");
    const char *const none[] = {"0000:10:00.0", ""};
    CHECK(eb_gpu_verdict(2, two, host, none, msg, sizeof msg) == 1);
    CHECK_STR(msg, "--expect-placement different-gpus: rank 1 (host n1) uses no GPU: the run "
                   "has no device buffers (OSU's -d cuda, IMB-MPI1-GPU, effbench devcopy)");
}

int main(int argc, char **argv)
{
    (void)argc;
    /* the double is built beside the unit tests (CMake's binary directory) */
    snprintf(double_path, sizeof double_path, "%s", argv[0]);
    char *slash = strrchr(double_path, '/');
    snprintf(slash ? slash + 1 : double_path,
             sizeof double_path - (size_t)(slash ? slash + 1 - double_path : 0),
             "libeb_cuda_double.so");
    if (access(double_path, R_OK)) {
        fprintf(stderr, "test_device: %s not built\n", double_path);
        return 1;
    }
    test_names();
    test_refusals();
    test_buffers();
    test_gpu_verdict();
    UNIT_DONE();
}
