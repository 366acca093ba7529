"""OSU 7.4's accelerator options in effbench's OSU programs (docs/gpu.md, "OSU programs"):
-d cuda / managed with the buffer letters, on the tests' CUDA driver double
(tests/support/cuda_double.c: device memory that is host memory, every call counted; no GPU
here, so only texts, records, checks and call counts are asserted, never a figure), the
staging method's copies, and the refusals: no driver, an MPI library that cannot take device
pointers, an accelerator that is not built.  Short runs: 2 ranks, -m 1:64, -i 5, -x 1."""

import pytest

from effb import (MPI, cuda_double_env, matrix_beyond_first, read_cuda_double_log, read_jsonl,
                  run, skip_on_a_gpu_node)
from osu_helpers import parse_osu

SHORT = ["-m", "1:64", "-i", "5", "-x", "1"]
SIZES = [1, 2, 4, 8, 16, 32, 64]
STAGING_LINE = ("# Staged through host memory (effbench --stage-through-host): device to host "
                "before each send, host to device after each receive, timed")


def results(path):
    return [x for x in read_jsonl(path) if x["type"] == "result"]


def counted(calls, name):
    return calls.get(name, (0, 0))


def test_latency_device_buffers_checked(tmp_path):
    """osu_latency -d cuda -c D D: OSU's text (its title with -CUDA; OSU 7.4's MPI programs
    print no buffer line: print_header, which has one, is called by none of them), every size
    checked on host copies with no defect, the records, and each rank's two device buffers."""
    js, log = tmp_path / "l.jsonl", tmp_path / "calls"
    r = run(2, "osu_latency", "-d", "cuda", *SHORT, "-c", "--json", js, "D", "D",
            extra_env=cuda_double_env(log=log), timeout=120)
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[:4] == ["", "# OSU MPI-CUDA Latency Test v7.4", "# Datatype: MPI_CHAR.",
                         "# Size       Avg Latency(us)        Validation"], r.stdout
    assert [ln.split()[0] for ln in lines[4:]] == [str(s) for s in SIZES]
    assert all(ln.endswith("Pass") for ln in lines[4:]), r.stdout
    assert "Buffer on" not in r.stdout
    recs = read_jsonl(js)
    opts = recs[0]["options"]
    assert (opts["buffers"], opts["accelerator"], opts["staging"]) == ("D D", "cuda", None)
    assert "buffers_asked" not in opts
    assert [d["name"] for d in recs[0]["devices"]] == ["effbench CUDA driver double 0",
                                                       "effbench CUDA driver double 1"]
    rows = results(js)
    assert [x["bytes"] for x in rows] == SIZES
    for x in rows:
        assert x["memory"] == {"send": "device", "recv": "device"} and "staging" not in x
        assert x["checked"] is True and x["defects"] == 0 and x["validation"] == "Pass"
    calls = read_cuda_double_log(log)
    assert len(calls) == 2
    for c in calls:  # a send and a receive buffer of -m's maximum, freed at the end
        assert counted(c, "cuMemAlloc") == (2, 128) and counted(c, "cuMemFree")[0] == 2
        assert counted(c, "cuMemAllocManaged")[0] == 0


# rank 0's and rank 1's letters (OSU's SRC and DST), the memory kinds the records name
@pytest.mark.parametrize("program,letters,send,recv", matrix_beyond_first([
    ("osu_bw", ("H", "D"), "host", "device"),
    ("osu_bw", ("D", "H"), "device", "host"),
    ("osu_latency", ("M", "M"), "managed", "managed"),
    ("osu_bibw", ("MH", "D"), "managed", "device"),
], lambda *v: "letters"))
def test_buffer_letters(tmp_path, program, letters, send, recv):
    js, log = tmp_path / "b.jsonl", tmp_path / "calls"
    extra = ["-W", "4"] if "bw" in program else []
    r = run(2, program, "-d", "cuda", *SHORT, *extra, "-c", "--json", js, *letters,
            extra_env=cuda_double_env(log=log), timeout=120)
    assert r.returncode == 0, r
    osu = parse_osu(r.stdout)
    assert osu["title"].startswith("# OSU MPI-CUDA ")
    assert all(row[-1] == "Pass" for row in osu["tables"][0]["rows"]), r.stdout
    assert read_jsonl(js)[0]["options"]["buffers"] == " ".join(x[0] for x in letters)
    for x in results(js):
        assert x["memory"] == {"send": send, "recv": recv} and x["defects"] == 0
    deprecated = "The M flag for destination buffer is deprecated."
    assert r.stderr.count(deprecated) == (1 if "M" in letters else 0), r.stderr
    managed = sorted(counted(c, "cuMemAllocManaged")[0] > 0 for c in read_cuda_double_log(log))
    assert managed == sorted(k == "managed" for k in (send, recv))


@pytest.mark.matrix
def test_no_letters_host_buffers(tmp_path):
    """-d cuda without letters: host buffers (OSU's "H H"), the devices opened and named, the
    title -CUDA, and the library not asked (Open MPI 4.1 here takes no device pointers)."""
    js, log = tmp_path / "h.jsonl", tmp_path / "calls"
    r = run(2, "osu_latency", "-d", "cuda", *SHORT, "-c", "--json", js,
            extra_env=cuda_double_env(log=log, takes_device_pointers=None), timeout=120)
    assert r.returncode == 0, r
    assert parse_osu(r.stdout)["title"] == "# OSU MPI-CUDA Latency Test v7.4"
    recs = read_jsonl(js)
    assert (recs[0]["options"]["buffers"], recs[0]["options"]["accelerator"]) == ("H H", "cuda")
    assert len(recs[0]["devices"]) == 2
    assert all(x["memory"] == {"send": "host", "recv": "host"} for x in results(js))
    assert all(counted(c, "cuMemAlloc")[0] == 0 for c in read_cuda_double_log(log))


@pytest.mark.matrix
@pytest.mark.parametrize("program,np,env,device", [
    ("osu_multi_lat", 4, {}, [(0, 0), (0, 0), (2, 16), (2, 16)]),
    ("osu_bw_fan_in", 3, {"EFFBENCH_TEST_RANKS_PER_NODE": "1"}, [(0, 0), (0, 0), (2, 16)]),
])
def test_sides_of_many_ranks(tmp_path, program, np, env, device):
    """-d cuda D H on more ranks: osu_multi_lat's first half on the device (OSU's
    allocate_memory_pt2pt_mul), osu_bw_fan_in's parent node (OSU's !is_parent); checked."""
    log = tmp_path / "calls"
    r = run(np, program, "-d", "cuda", "-m", "1:8", "-i", "3", "-x", "1", "-check", "D", "H",
            extra_env={**cuda_double_env(log=log), **env}, timeout=120)
    assert r.returncode == 0, r
    osu = parse_osu(r.stdout)
    # OSU's osu_multi_lat title has no slot for the suffix ("OSU MPI Multi Latency Test")
    assert osu["title"] == ("# OSU MPI Multi Latency Test v7.4" if program == "osu_multi_lat"
                            else "# OSU MPI-CUDA Bandwidth Test v7.4")
    assert all(row[-1] == "Pass" for row in osu["tables"][0]["rows"]), r.stdout
    allocs = sorted(counted(c, "cuMemAlloc") for c in read_cuda_double_log(log))
    assert allocs == device, allocs


def test_latency_staged_copies(tmp_path):
    """--stage-through-host under Open MPI without device pointers (the library is not
    asked): device memory the host cannot touch (the double's protect), each rank copies its
    message device to host before each send and host to device after each receive, in every
    warm-up and timed iteration: (1 + 5) x 7 sizes of each, of the sizes' bytes; the text's
    staging line and the records say so."""
    js, log = tmp_path / "s.jsonl", tmp_path / "calls"
    r = run(2, "osu_latency", "-d", "cuda", *SHORT, "--stage-through-host", "--json", js,
            "D", "D", extra_env=cuda_double_env(log=log, takes_device_pointers=None,
                                                protect=1), timeout=120)
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[:4] == ["", "# OSU MPI-CUDA Latency Test v7.4", STAGING_LINE,
                         "# Datatype: MPI_CHAR."], r.stdout
    assert read_jsonl(js)[0]["options"]["staging"] == "through-host"
    assert all(x["staging"] == "through-host" for x in results(js))
    per_size = 6
    for c in read_cuda_double_log(log):
        assert counted(c, "cuMemcpyDtoH") == (per_size * 7, per_size * sum(SIZES)), c
        assert counted(c, "cuMemcpyHtoD") == (per_size * 7, per_size * sum(SIZES)), c


@pytest.mark.matrix
def test_bandwidth_staged_copies(tmp_path):
    """osu_bw -W 4 staged: the sender copies each of a window's 4 messages device to host,
    the receiver each host to device; the acknowledgement is not copied."""
    log = tmp_path / "calls"
    r = run(2, "osu_bw", "-d", "cuda", *SHORT, "-W", "4", "--stage-through-host", "D", "D",
            extra_env=cuda_double_env(log=log, takes_device_pointers=None, protect=1),
            timeout=120)
    assert r.returncode == 0, r
    n, b = 4 * 6 * 7, 4 * 6 * sum(SIZES)
    pairs = sorted((counted(c, "cuMemcpyDtoH"), counted(c, "cuMemcpyHtoD"))
                   for c in read_cuda_double_log(log))
    assert pairs == [((0, 0), (n, b)), ((n, b), (0, 0))], pairs


@pytest.mark.parametrize("program,np,extra", matrix_beyond_first([
    ("osu_bibw", 2, ["-W", "4", "D", "D"]),
    ("osu_allreduce", 2, []),
    ("osu_bcast", 3, []),
    ("osu_gather", 3, ["-l", "-k", "rotate"]),
    ("osu_scatter", 3, ["-l", "-k", "rotate"]),
    ("osu_reduce", 3, ["-l"]),
    ("osu_alltoallv", 3, []),
    ("osu_reduce_scatter", 3, ["-T", "all"]),
], lambda *v: "staged"))
def test_staged_checked_pass(program, np, extra):
    """Staged runs with the checked pass, on device memory the host (and so MPI) cannot
    touch: no defect, and no crash."""
    args = [a for a in extra if a not in ("D",)]
    letters = [a for a in extra if a == "D"]
    r = run(np, program, "-d", "cuda", "-m", "1:16", "-i", "3", "-x", "1", "-c",
            "--stage-through-host", *args, *letters,
            extra_env=cuda_double_env(takes_device_pointers=None, protect=1), timeout=120)
    assert r.returncode == 0, r
    assert STAGING_LINE in r.stdout.splitlines()
    rows = [t for table in parse_osu(r.stdout)["tables"] for t in table["rows"]]
    assert rows and all(row[-1] == "Pass" for row in rows), r.stdout


@pytest.mark.parametrize("program,accel,title,kind", matrix_beyond_first([
    ("osu_allreduce", "cuda", "# OSU MPI-CUDA Allreduce Latency Test v7.4", "device"),
    ("osu_allreduce", "managed", "# OSU MPI Allreduce Latency Test v7.4", "managed"),
    ("osu_iallreduce", "cuda", "# OSU MPI-CUDA Non-blocking Allreduce Latency Test v7.4",
     "device"),
    ("osu_ibcast", "managed", "# OSU MPI-MANAGED Non-Blocking Broadcast Latency Test v7.4",
     "managed"),
], lambda *v: "collective"))
def test_collective_device_buffers(tmp_path, program, accel, title, kind):
    """Collectives take -d alone (OSU's allocate_memory_coll): every rank's buffers on the
    device (managed memory under -d managed, whose title OSU prints bare in its blocking
    preamble and with -MANAGED in its non-blocking one)."""
    js = tmp_path / "c.jsonl"
    r = run(2, program, "-d", accel, *SHORT, "-c", "--json", js, extra_env=cuda_double_env(),
            timeout=120)
    assert r.returncode == 0, r
    osu = parse_osu(r.stdout)
    assert osu["title"] == title
    rows = osu["tables"][0]["rows"]
    assert [row[0] for row in rows] == [str(s) for s in SIZES]
    assert all(row[-1] == "Pass" for row in rows), r.stdout
    letter = "D" if kind == "device" else "M"
    assert read_jsonl(js)[0]["options"]["buffers"] == f"{letter} {letter}"
    for x in results(js):
        assert x["memory"] == {"send": kind, "recv": kind} and x["defects"] == 0


@pytest.mark.parametrize("program,letters,extra", matrix_beyond_first([
    ("osu_put_latency", ("D", "D"), []),
    ("osu_get_bw", ("H", "D"), ["-w", "allocate", "-W", "4"]),
    ("osu_acc_latency", ("D", "D"), ["-c", "-T", "all"]),
    ("osu_cas_latency", ("M", "M"), ["-c"]),
], lambda *v: "one-sided"))
def test_one_sided(tmp_path, program, letters, extra):
    """One-sided: OSU's "# Rank 0 Memory on ... and Rank 1 Memory on ..." line after the
    datatype line of each table; -w allocate with a device side is OSU's MPI_Win_create
    over its own memory (the header still says MPI_Win_allocate, as OSU's); the atomics'
    checks pass."""
    js = tmp_path / "o.jsonl"
    r = run(2, program, "-d", "cuda", *SHORT, *extra, "--json", js, *letters,
            extra_env=cuda_double_env(), timeout=120)
    assert r.returncode == 0, r
    text = {"D": "DEVICE (D)", "H": "HOST (H)", "M": "MANAGED (M)"}
    line = f"# Rank 0 Memory on {text[letters[0]]} and Rank 1 Memory on {text[letters[1]]}"
    lines = r.stdout.splitlines()
    at = [i for i, ln in enumerate(lines) if ln == line]
    assert at and all(lines[i - 1].startswith("# Datatype: ") for i in at), r.stdout
    assert lines[at[0] - 4].startswith("# OSU MPI") and "-CUDA" in lines[at[0] - 4]
    if program == "osu_get_bw":  # OSU's header names -w; the window is made by MPI_Win_create
        assert "# Window creation: MPI_Win_allocate" in lines
    if "-c" in extra:
        assert "failed" not in r.stdout and "passed" in r.stdout, r.stdout
    kinds = {"D": "device", "H": "host", "M": "managed"}
    for x in results(js):
        assert x["memory"] == {"send": kinds[letters[0]], "recv": kinds[letters[1]]}


# refusals: exit 2 with one message, no table, no hang; the first of each kind in the test
# command
@pytest.mark.parametrize("env,args,message", matrix_beyond_first([
    ({"EFFBENCH_LIBCUDA": "/nonexistent/libcuda.so.1"}, ["osu_latency", "-d", "cuda", "D", "D"],
     "osu_latency -d cuda: rank 0 on "),
    ({"EFFBENCH_LIBCUDA": "/nonexistent/libcuda.so.1"}, ["osu_latency", "-d", "cuda", "D", "D"],
     "CUDA device buffers need NVIDIA's driver library /nonexistent/libcuda.so.1, which cannot "
     "be loaded here"),
    ("library", ["osu_bw", "-d", "cuda", "D", "D"],
     "osu_bw -d cuda: Open MPI v4.1"),
    ("library", ["osu_allreduce", "-d", "cuda"],
     "does not take CUDA device pointers (MPIX_Query_cuda_support() is 0: built without CUDA, "
     "see ompi_info): use a CUDA-aware Open MPI (configure --with-cuda, or UCX with CUDA), or "
     "measure with --stage-through-host"),
    (cuda_double_env(), ["osu_latency", "-d", "rocm", "D", "D"],
     "osu_latency -d rocm: rank 0 on "),
    (cuda_double_env(), ["osu_put_latency", "-d", "level_zero", "D", "D"],
     "level_zero device buffers are not built in effbench yet"),
    (cuda_double_env(no_init=1), ["osu_allreduce", "-d", "managed"],
     "found no usable GPU: cuInit: CUDA_ERROR_NO_DEVICE"),
    (cuda_double_env(memory=4096), ["osu_latency", "-m", "8192", "-d", "cuda", "D", "D"],
     "cannot allocate 8192 bytes of device memory on CUDA device 0 (effbench CUDA driver double "
     "0, 4096 bytes): CUDA_ERROR_OUT_OF_MEMORY"),
    (cuda_double_env(memory=4096), ["osu_allreduce", "-m", "8192", "-d", "cuda"],
     "cannot allocate 8192 bytes of device memory"),
    (cuda_double_env(), ["osu_latency", "-d", "cuda", "MD", "MD"],
     "buffer type MD (managed memory prefetched to the device) needs OSU's CUDA kernels"),
    (cuda_double_env(), ["osu_ialltoall", "-d", "cuda", "--stage-through-host"],
     "--stage-through-host is built for osu_latency, osu_bw, osu_bibw and the blocking "
     "collectives, not osu_ialltoall"),
    (cuda_double_env(), ["osu_latency_mp", "-d", "cuda"],
     "Benchmark Does Not Support Accelerator Transfers [-d cuda]"),
], lambda env, args, message: "driver" if "LIBCUDA" in str(env) and "no_init" not in str(env)
   else "library" if env == "library" else "other"))
def test_refusals(env, args, message):
    if env == "library":
        if MPI != "openmpi":
            pytest.skip("the message asserted is Open MPI 4.1's (not CUDA-aware here)")
        env = cuda_double_env(takes_device_pointers=None)
    sizes = [] if "-m" in args else ["-m", "1:8"]
    r = run(2, args[0], *sizes, "-i", "2", "-x", "1", *args[1:], extra_env=env, timeout=120)
    assert r.returncode == 2, r
    assert message in r.stderr, r.stderr
    assert r.stderr.count("effbench: error:") == 1, r.stderr
    assert "# Size" not in r.stdout


def test_no_driver_by_default():
    """This machine has no NVIDIA driver: -d cuda without EFFBENCH_LIBCUDA is refused."""
    skip_on_a_gpu_node()
    r = run(2, "osu_bw", "-d", "cuda", "-m", "1:8", "D", "D", timeout=120)
    assert r.returncode == 2, r
    assert ("CUDA device buffers need NVIDIA's driver library libcuda.so.1, which cannot be "
            "loaded here") in r.stderr, r.stderr
    assert r.stderr.count("effbench: error:") == 1, r.stderr
