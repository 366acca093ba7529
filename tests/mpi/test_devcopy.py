"""effbench devcopy (docs/gpu.md): host-device copy bandwidth, on the tests'
CUDA driver double (tests/support/cuda_double.c; no GPU here: the figures are
host memcpy's, and only shapes, counts and definitions are asserted), the run
record's devices, --expect-placement different-gpus, and the refusals."""
import re

import pytest

from effb import cuda_double_env, read_cuda_double_log, read_jsonl, run, skip_on_a_gpu_node

SIZES = [1024, 2048, 4096]
ARGS = ["-m", "1024:4096", "-i", "3", "-x", "1"]
TABLES = [("host_to_device", "pinned"), ("host_to_device", "pageable"),
          ("device_to_host", "pinned"), ("device_to_host", "pageable"),
          ("device_to_device", None)]
TITLES = {"host_to_device": "Host to device", "device_to_host": "Device to host",
          "device_to_device": "Device to device"}


def test_every_table_every_rank(tmp_path):
    js, log = tmp_path / "d.jsonl", tmp_path / "calls"
    r = run(2, "effbench", "devcopy", *ARGS, "--json", js,
            extra_env=cuda_double_env(log=log, protect=1), timeout=120)
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[:3] == [
        "# effbench devcopy: host-device copy bandwidth, one rank after another",
        "# GB/s = bytes / mean time of one copy / 10^9 (each copy waits for its end)",
        "# timed copies per size: 3, warm-up: 1"]
    for rank in (0, 1):
        assert lines[3 + rank] == (
            f"# rank {rank}: cuda device {rank} of 2: effbench CUDA driver double {rank}, "
            f"PCI 0000:{0x10 + rank:02x}:00.0, 1073741824 bytes (driver {r_double()})")
    titles = [x for x in lines if re.match(r"# (Host|Device) to", x)]
    want = [f"# {TITLES[d]}" + (f", host memory {h}" if h else "") for d, h in TABLES]
    assert titles == want * 2
    recs = read_jsonl(js)
    run_rec, rows, end = recs[0], recs[1:-1], recs[-1]
    assert end["type"] == "end" and end["status"] == "ok"
    devs = run_rec["devices"]
    assert [(d["rank"], d["ordinal"], d["count"], d["name"], d["pci_bus_id"], d["accel"])
            for d in devs] == [(k, k, 2, f"effbench CUDA driver double {k}",
                                f"0000:{0x10 + k:02x}:00.0", "cuda") for k in (0, 1)]
    assert all(d["library"] == r_double() and d["driver_version"] == 13000 for d in devs)
    assert run_rec["options"] == {"accelerator": "cuda", "min_bytes": 1024, "max_bytes": 4096,
                                  "iterations": 3, "warmup": 1}
    assert [(x["rank"], x["benchmark"], x["host_memory"], x["bytes"]) for x in rows] == [
        (rank, d, h, b) for rank in (0, 1) for d, h in TABLES for b in SIZES]
    for x in rows:
        assert x["component"] == "devcopy" and x["repetitions"] == 3
        assert 0 < x["t_min_us"] <= x["t_avg_us"] <= x["t_max_us"], x
        assert x["gb_per_s"] == pytest.approx(x["bytes"] / x["t_avg_us"] / 1e3, rel=1e-12)
    # each rank: (1 warm-up + 3 timed) copies per size and table, each waited for
    per_table = 4 * len(SIZES)
    for calls in read_cuda_double_log(log):
        assert calls["cuMemcpyHtoD"] == (2 * per_table, 2 * 4 * sum(SIZES))
        assert calls["cuMemcpyDtoH"] == (2 * per_table, 2 * 4 * sum(SIZES))
        assert calls["cuMemcpyDtoD"] == (per_table, 4 * sum(SIZES))
        assert calls["cuMemAlloc"] == (2, 2 * 4096) and calls["cuMemAllocHost"] == (1, 4096)
        assert calls["cuMemFree"][0] == 3
        assert calls["cuCtxSynchronize"][0] >= 5 * per_table


def r_double():
    from effb import CUDA_DOUBLE
    return str(CUDA_DOUBLE)


def test_ranks_share_the_only_gpu_and_different_gpus_refuses(tmp_path):
    """Two ranks, one device shown: both use device 0, and --expect-placement
    different-gpus stops the run before it measures."""
    js = tmp_path / "d.jsonl"
    e = cuda_double_env(devices=1)
    e["CUDA_VISIBLE_DEVICES"] = "3"
    r = run(2, "effbench", "devcopy", *ARGS, "--direction", "d2d", "--json", js, extra_env=e,
            timeout=120)
    assert r.returncode == 0, r
    devs = read_jsonl(js)[0]["devices"]
    assert [(d["ordinal"], d["visible_devices"]) for d in devs] == [(0, "3"), (0, "3")]
    r = run(2, "effbench", "--expect-placement", "different-gpus", "devcopy", *ARGS,
            extra_env=e, timeout=120)
    assert r.returncode == 2, r
    assert ("effbench: error: --expect-placement different-gpus: ranks 0 and 1 share the GPU "
            "at PCI 0000:10:00.0 on host ") in r.stderr, r
    assert "# Device to device" not in r.stdout
    r = run(2, "effbench", "--expect-placement", "different-gpus", "devcopy", *ARGS,
            "--direction", "d2d", extra_env=cuda_double_env(), timeout=120)
    assert r.returncode == 0, r


def test_a_cpu_run_with_different_gpus_is_refused():
    r = run(2, "osu_latency", "-m", "1:1", "-i", "2", "-x", "1", "--expect-placement",
            "different-gpus", timeout=120)
    assert r.returncode == 2, r
    assert ("--expect-placement different-gpus: rank 0 (host ") in r.stderr
    assert "uses no GPU: the run has no device buffers" in r.stderr


def test_a_host_run_records_no_devices(tmp_path):
    js = tmp_path / "l.jsonl"
    r = run(2, "osu_latency", "-m", "1:1", "-i", "2", "-x", "1", "--json", js, timeout=120)
    assert r.returncode == 0, r
    rec = read_jsonl(js)[0]
    assert "devices" in rec and rec["devices"] is None


@pytest.mark.parametrize("env,args,message", [
    ({"EFFBENCH_LIBCUDA": "/nonexistent/libcuda.so.1"}, [],
     "CUDA device buffers need NVIDIA's driver library /nonexistent/libcuda.so.1, which cannot "
     "be loaded here"),
    (cuda_double_env(no_init=1), [],
     "found no usable GPU: cuInit: CUDA_ERROR_NO_DEVICE (100: no CUDA-capable device is "
     "detected)"),
    (cuda_double_env(memory=4096), ["-m", "8192"],
     "cannot allocate 8192 bytes of device memory on CUDA device 0 (effbench CUDA driver double "
     "0, 4096 bytes): CUDA_ERROR_OUT_OF_MEMORY (2: out of memory)"),
    (cuda_double_env(), ["-d", "rocm"], "rocm device buffers are not built in effbench yet"),
    (cuda_double_env(), ["-d", "opencl"], "devcopy: -d opencl: unknown accelerator"),
    (cuda_double_env(), ["--direction", "h2h"],
     "devcopy: --direction h2h: expected a list of h2d, d2h, d2d"),
    (cuda_double_env(), ["-m", "4096:1024"], "devcopy: -m 4096:1024: expected [MIN:]MAX"),
    (cuda_double_env(), ["--bogus"], "devcopy: unknown option '--bogus'"),
])
def test_refusals(env, args, message):
    """Each refusal: exit status 2 on every rank, rank 0's one message, no table."""
    r = run(2, "effbench", "devcopy", "-i", "2", *args, extra_env=env, timeout=120)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert r.stderr.count("effbench: error:") == 1, r
    assert "GB/s" not in r.stdout


def test_no_driver_by_default():
    """This machine has no NVIDIA driver: libcuda.so.1 is not loadable."""
    skip_on_a_gpu_node()
    r = run(1, "effbench", "devcopy", timeout=120)
    assert r.returncode == 2, r
    assert ("rank 0 on " in r.stderr and "CUDA device buffers need NVIDIA's driver library "
            "libcuda.so.1, which cannot be loaded here") in r.stderr, r
