"""IMB-MPI1-GPU and IMB-RMA-GPU (docs/imb.md, "IMB-MPI1-GPU and IMB-RMA-GPU"): IMB 2021.11's
GPU builds, run on the tests' CUDA driver double (tests/support/cuda_double.c; device memory
that is host memory, every call counted, so Open MPI 4.1 here can be told it takes device
pointers): the banner's GPU part, the buffer lines, -check with no defects through host copies,
the double's call counts that show where the buffers are, -mem_alloc_type's kinds, the records,
IMB-RMA-GPU's windows, and the refusals (no driver, a library that cannot take device pointers,
a bad word) with exit status 2 and one message."""
import re

import pytest

from effb import (cuda_double_env, matrix_beyond_first, read_cuda_double_log, read_jsonl, run,
                  skip_on_a_gpu_node)
from test_corruption import IMB_ARGS, flip_is_reported

ARGS = ["-msglog", "0:3", "-iter", "5"]


def banner(part):
    return re.compile(r"^#    effbench \S+ \(Intel\(R\) MPI Benchmarks 4\.0 methodology\), "
                      + re.escape(part) + "$", re.M)


def table(stdout, name):
    """(bytes, repetitions, defects) of the rows of the first table of `name`."""
    block = stdout.split(f"# Benchmarking {name} \n", 1)[1].split("\n\n", 1)[0]
    rows = [line.split() for line in block.splitlines() if re.match(r"^\s+\d", line)]
    return [(int(r[0]), int(r[1]), float(r[-1])) for r in rows]


def double_line(rank=0):
    return (f"# GPU of rank 0         : effbench CUDA driver double {rank}, PCI bus "
            f"0000:{0x10 + rank:02x}:00.0, device {rank} of 2 (")


def test_pingpong_allreduce_checked_on_device_memory(tmp_path):
    js, log = tmp_path / "g.jsonl", tmp_path / "calls"
    # scripts/test-gpu's command line: -check 1
    r = run(2, "IMB-MPI1-GPU", "PingPong", "Allreduce", "-check", "1", *ARGS, "--json", js,
            extra_env=cuda_double_env(log=log), timeout=120)
    assert r.returncode == 0, r
    out = r.stdout
    assert banner("MPI-1 part (GPU)").search(out), out[:400]
    assert ("# Message buffers       : -mem_alloc_type device (CUDA device memory, cuMemAlloc)\n"
            in out)
    assert double_line() in out
    assert "# -check reads a host copy of each checked repetition's buffers\n" in out
    assert table(out, "PingPong") == [(b, 5, 0.0) for b in (0, 1, 2, 4, 8)]
    assert table(out, "Allreduce") == [(b, 5, 0.0) for b in (0, 4, 8)]
    recs = read_jsonl(js)
    head, rows, end = recs[0], [x for x in recs if x["type"] == "result"], recs[-1]
    assert (head["component"], head["program"], head["accelerator"], head["mem_alloc_type"]) == \
        ("mpi1", "IMB-MPI1-GPU", "cuda", "device")
    assert [(d["rank"], d["ordinal"], d["name"]) for d in head["devices"]] == \
        [(k, k, f"effbench CUDA driver double {k}") for k in (0, 1)]
    assert [(x["benchmark"], x["bytes"]) for x in rows] == \
        [("PingPong", b) for b in (0, 1, 2, 4, 8)] + [("Allreduce", b) for b in (0, 4, 8)]
    for x in rows:
        assert x["memory"] == {"send": "device", "recv": "device"}, x
        assert (x["component"], x["defects"], x["checked"]) == ("mpi1", 0, True), x
    assert end["status"] == "ok" and end["rows"] == 8
    # Where the bytes went, on each rank: send and receive buffers of each table
    # (cuMemAlloc, one page each); the send data copied in once per length and warm-up
    # (PingPong 1 + 1+2+4+8 bytes, Allreduce 4 + 4+8; a 0-byte copy is no call); the
    # poison set per length (a page) and per checked repetition; each checked
    # repetition's receive buffer copied out for the check (5 per length).
    for calls in read_cuda_double_log(log):
        assert calls["cuMemAlloc"] == (4, 4 * 4096) and calls["cuMemFree"][0] == 4
        assert calls["cuMemcpyHtoD"] == (8, 16 + 16)
        assert calls["cuMemcpyDtoH"] == (20 + 10, 5 * 15 + 5 * 12)
        assert calls["cuMemsetD8"] == (10 + 40, 10 * 4096 + 5 * 15 + 5 * 12)
        assert calls["cuMemAllocHost"][0] == calls["cuMemAllocManaged"][0] == 0


# -mem_alloc_type's other kinds: page-locked host memory (IMB's cudaMallocHost) and plain host
# memory need no GPU-aware MPI library (told here it has none); managed memory does.
KINDS = matrix_beyond_first([
    ("host", "pinned", "page-locked host memory, cuMemAllocHost", "cuMemAllocHost", False),
    ("shared", "managed", "CUDA managed memory, cuMemAllocManaged", "cuMemAllocManaged", True),
    ("cpu", "host", "pageable host memory", None, False),
], key=lambda *v: "kind")


@pytest.mark.parametrize("word,kind,what,alloc,aware", KINDS)
def test_mem_alloc_type(tmp_path, word, kind, what, alloc, aware):
    js, log = tmp_path / "k.jsonl", tmp_path / "calls"
    r = run(2, "IMB-MPI1-GPU", "PingPong", "-check", *ARGS, "-mem_alloc_type", word,
            "--json", js, extra_env=cuda_double_env(log=log, takes_device_pointers=aware),
            timeout=120)
    assert r.returncode == 0, r
    assert f"# Message buffers       : -mem_alloc_type {word} ({what})\n" in r.stdout
    assert table(r.stdout, "PingPong") == [(b, 5, 0.0) for b in (0, 1, 2, 4, 8)]
    recs = read_jsonl(js)
    assert recs[0]["mem_alloc_type"] == word and recs[0]["accelerator"] == "cuda"
    assert all(x["memory"] == {"send": kind, "recv": kind}
               for x in recs if x["type"] == "result")
    for calls in read_cuda_double_log(log):
        assert calls["cuMemAlloc"][0] == 0
        for name in ("cuMemAllocHost", "cuMemAllocManaged"):
            assert calls[name][0] == (2 if name == alloc else 0), (name, calls)


def test_rma_gpu_windows_on_device_memory(tmp_path):
    """IMB-RMA-GPU: the window and the origin's buffer in device memory, the target's
    window read through a host copy by -check; both of Unidir_put's tables."""
    js, log = tmp_path / "r.jsonl", tmp_path / "calls"
    r = run(2, "IMB-RMA-GPU", "Unidir_put", "-check", *ARGS, "--json", js,
            extra_env=cuda_double_env(log=log), timeout=120)
    assert r.returncode == 0, r
    assert banner("RMA part (GPU), Technical preview").search(r.stdout), r.stdout[:400]
    recs = read_jsonl(js)
    assert (recs[0]["component"], recs[0]["program"], recs[0]["mem_alloc_type"]) == \
        ("rma", "IMB-RMA-GPU", "device")
    rows = [x for x in recs if x["type"] == "result"]
    assert [(x["mode"], x["bytes"]) for x in rows] == \
        [(m, b) for m in ("non-aggregate", "aggregate") for b in (0, 1, 2, 4, 8)]
    assert all(x["defects"] == 0 and x["memory"]["recv"] == "device" for x in rows), rows
    # window and local area per length and table (5 lengths, 2 tables, the warm-up's each)
    for calls in read_cuda_double_log(log):
        assert calls["cuMemAlloc"][0] >= 2 * 2 * 5 and calls["cuMemcpyDtoH"][0] > 0


def test_resume_keeps_the_memory(tmp_path):
    """--resume carries on a GPU run only with its program and -mem_alloc_type: rows of another
    memory, or of host buffers, never join the file."""
    js, plain = tmp_path / "gpu.jsonl", tmp_path / "plain.jsonl"
    short = ["PingPong", "-msglog", "0:1", "-iter", "5"]
    r = run(2, "IMB-MPI1-GPU", *short, "--json", js, extra_env=cuda_double_env(), timeout=120)
    assert r.returncode == 0, r
    r = run(2, "IMB-MPI1-GPU", *short, "-mem_alloc_type", "host", "--resume", js,
            extra_env=cuda_double_env(), timeout=120)
    assert r.returncode == 2, r
    assert (f"--resume {js}:1: 'mem_alloc_type' is \"device\" in the file but \"host\" in this "
            "run") in r.stderr, r.stderr
    r = run(2, "IMB-MPI1", *short, "--json", plain, timeout=120)
    assert r.returncode == 0, r
    r = run(2, "IMB-MPI1-GPU", *short, "--resume", plain, extra_env=cuda_double_env(),
            timeout=120)
    assert r.returncode == 2, r
    assert f"--resume {plain}:1: the file's run record has no 'program'" in r.stderr, r.stderr


def test_rma_gpu_leaves_out_the_single_element_atomics():
    """IMB_parse_name_rma.c: IMB-RMA-GPU has no Fetch_and_op and no Compare_and_swap."""
    r = run(1, "IMB-RMA-GPU", "-list")
    assert r.returncode == 0, r
    names = [x.split()[0] for x in r.stdout.splitlines()[3:]]
    assert r.stdout.startswith("IMB-RMA-GPU\nList of benchmarks:\nIMB-RMA-GPU:\n")
    assert "Accumulate" in names and "Get_accumulate" in names
    assert "Fetch_and_op" not in names and "Compare_and_swap" not in names
    r = run(2, "IMB-RMA-GPU", "Fetch_and_op", extra_env=cuda_double_env(), timeout=120)
    assert r.returncode == 2, r
    assert "unknown benchmark 'Fetch_and_op' for IMB-RMA-GPU; known: Unidir_put" in r.stderr
    assert "Compare_and_swap" not in r.stderr


@pytest.mark.parametrize("program,bench", matrix_beyond_first([
    ("IMB-MPI1-GPU", "PingPong"), ("IMB-MPI1-GPU", "Allreduce"), ("IMB-RMA-GPU", "Unidir_put"),
    ("IMB-RMA-GPU", "Get_accumulate"),
], key=lambda program, bench: "flip"))
def test_a_flipped_byte_in_device_memory_is_reported(tmp_path, program, bench):
    """tests/pmpi/corrupt.c flips one byte of the last received message (on the double,
    device memory is host memory the PMPI library can write): -check finds it in the host
    copy of the last row and nowhere else (tests/mpi/test_corruption.py's method)."""
    flip_is_reported(tmp_path, program, [bench, *IMB_ARGS], lambda rows: len(rows) - 1,
                     env=cuda_double_env())


NO_DRIVER = ("Neither CUDA nor Level Zero is available! effbench drives CUDA only (Level Zero "
             "and ROCm are refused until they can be tested), and here: rank 0 on ")


def refused(program, env, args, words):
    """Exit status 2 on every rank, rank 0's one message, nothing measured."""
    r = run(2, program, "PingPong" if "MPI1" in program else "Unidir_put", *ARGS, *args,
            extra_env=env, timeout=120)
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1, r
    for w in words:
        assert w in r.stderr, r.stderr
    assert "--stage-through-host" not in r.stderr  # OSU's, not an IMB program's
    assert "#bytes" not in r.stdout


@pytest.mark.parametrize("program,args", matrix_beyond_first([
    ("IMB-MPI1-GPU", []),
    ("IMB-RMA-GPU", ["-mem_alloc_type", "cpu"]),  # IMB initialises its GPU library for cpu too
], key=lambda *v: "no driver"))
def test_no_driver(program, args):
    refused(program, {"EFFBENCH_LIBCUDA": "/nonexistent/libcuda.so.1"}, args,
            [f"{program}: " + NO_DRIVER, "CUDA device buffers need NVIDIA's driver library "
             "/nonexistent/libcuda.so.1, which cannot be loaded here"])


@pytest.mark.parametrize("aware,word,says", matrix_beyond_first([
    (None, "device", ""),  # the library asked: Open MPI 4.1 here is not CUDA-aware
    (False, "shared", "EFFBENCH_MPI_DEVICE_POINTERS=0 says "),
], key=lambda *v: "library"))
def test_library_cannot_take_device_pointers(aware, word, says):
    refused("IMB-MPI1-GPU", cuda_double_env(takes_device_pointers=aware),
            ["-mem_alloc_type", word],
            [f"IMB-MPI1-GPU -mem_alloc_type {word}: the MPI library cannot be given CUDA device "
             "pointers: " + says, "(-mem_alloc_type host or cpu needs no GPU-aware MPI)"])


@pytest.mark.parametrize("program,word,message", matrix_beyond_first([
    ("IMB-MPI1-GPU", "gpu", "-mem_alloc_type gpu: expected device, host, shared or cpu "
     "(IMB-MPI1-GPU's buffer types; default device)"),
    ("IMB-RMA", "device", "-mem_alloc_type device: IMB-RMA's buffers are host memory (cpu); "
     "GPU buffers are IMB-RMA-GPU's"),
], key=lambda *v: "word"))
def test_bad_mem_alloc_type(program, word, message):
    refused(program, cuda_double_env(), ["-mem_alloc_type", word], [message])


def test_no_driver_by_default():
    """This machine has no NVIDIA driver: libcuda.so.1 is not loadable, so IMB-MPI1-GPU stops
    as IMB's does, saying which library is missing."""
    skip_on_a_gpu_node()
    r = run(2, "IMB-MPI1-GPU", "PingPong", *ARGS, timeout=120)
    assert r.returncode == 2, r
    assert ("IMB-MPI1-GPU: " + NO_DRIVER) in r.stderr, r
    assert ("CUDA device buffers need NVIDIA's driver library libcuda.so.1, which cannot be "
            "loaded here") in r.stderr, r
