"""The facts of the library EFFBENCH_MPI names, as scripts/mpi-libraries.conf states them
(scripts/test-libraries runs this file under each library, docs/mpi-libraries.md): the run
record names the library and its version, CMake found the MPI-4 calls the library has, and
a program that needs one runs with validation where the library has it and is refused with
its message where it lacks it."""
import re
import subprocess

import pytest

from effb import (BUILD, LIBRARIES, LIBRARY, MPI, ROOT, cuda_double_env, env, read_jsonl,
                  run)
from osu_helpers import osu_names, parse_osu, persistent_collective

CALLS = ["MPI_Allreduce_init", "MPI_Session_init", "MPI_Send_c", "MPI_Allreduce_c", "MPI_Iallreduce_c"]


def found_calls():
    """The MPI-4 calls CMake's checks found (EB_HAVE_<CALL> in the build's cache)."""
    cache = (BUILD / "CMakeCache.txt").read_text()
    return [c for c in CALLS if re.search(rf"^EB_HAVE_{c.upper()}:INTERNAL=1$", cache, re.M)]


def test_run_record_names_the_library_and_its_version(tmp_path):
    js = tmp_path / "r.jsonl"
    r = run(2, "effbench", "mpi1", "PingPong", "-msglog", "0:0", "--json", js)
    assert r.returncode == 0, r
    rec = read_jsonl(js)[0]
    assert rec["type"] == "run"
    assert " ".join(rec["mpi_library"].split()).startswith(LIBRARY["record"]), (MPI, rec)
    assert rec["mpi_version"] == LIBRARY["mpi"], (MPI, rec)
    assert f"# MPI Library           : {rec['mpi_library']}\n" in r.stdout, r
    # what the run ran under: this library's settings and no other library's (of those
    # the record keeps; PRTE_MCA_* stays with Open MPI 5's launcher)
    recorded = ("OMPI_MCA_", "I_MPI_", "MPIR_CVAR_")
    for name in {n for lib in LIBRARIES.values() for n in lib["env"] if n.startswith(recorded)}:
        assert rec["environment"].get(name) == LIBRARY["env"].get(name), (MPI, name, rec)


def test_cmake_found_the_mpi4_calls_of_the_library():
    want = [] if LIBRARY["mpi4"] == "none" else LIBRARY["mpi4"].split()
    assert found_calls() == want, MPI


def test_session_program_runs_or_is_refused():
    """osu_latency -I initialises through MPI_Session_init (MPI-4.0)."""
    r = run(2, "osu_latency", "-I", "-c", "-m", "1:64", "-i", "200", "-x", "20")
    if "MPI_Session_init" in found_calls():
        assert r.returncode == 0, r
        out = parse_osu(r.stdout)
        assert out["title"] == "# OSU MPI Latency Test v7.4", r
        (table,) = out["tables"]
        assert table["columns"] == ["# Size", "Avg Latency(us)", "Validation"], r
        assert [row[0] for row in table["rows"]] == ["1", "2", "4", "8", "16", "32", "64"], r
        assert all(row[2] == "Pass" and float(row[1]) > 0 for row in table["rows"]), r
    else:
        assert r.returncode == 2, r
        library = " ".join(LIBRARY["record"].split()[:3])
        assert re.search(r"^effbench: error: osu_latency -I needs MPI_Session_init \(MPI-4\.0 "
                         rf"sessions\), which this MPI library \({re.escape(library)}.*\) "
                         r"does not have$", r.stderr, re.M), r


def test_persistent_collective_runs_or_is_refused():
    """osu_allreduce_persistent (MPI_Allreduce_init, MPI-4.0) with its data checked."""
    r = run(2, "osu_allreduce_persistent", "-c", "-f", "-m", "4:256", "-i", "20", "-x", "2")
    if "MPI_Allreduce_init" in found_calls():
        assert r.returncode == 0, r
        (table,) = parse_osu(r.stdout)["tables"]
        assert [row[0] for row in table["rows"]] == ["4", "8", "16", "32", "64", "128", "256"]
        for size, avg, mn, mx, iters, check in table["rows"]:
            assert float(mn) <= float(avg) <= float(mx) and iters == "20" and check == "Pass"
    else:
        assert r.returncode == 2, r
        assert "osu_allreduce_persistent needs MPI_Allreduce_init (MPI-4.0 persistent " \
               "collectives), which this MPI library" in r.stderr, r


# osu_allreduce_persistent is checked above
PERSISTENT = [n for n in osu_names(persistent_collective) if n != "osu_allreduce_persistent"]
# The persistent collectives whose requests send an earlier start's data in libraries with
# the conf's `bug persistent_gathers` (tests/mpi/repro/persistent_gathers.c shows it without
# effbench); the main suite runs them under MPICH 4.0 with the MPIR_CVARs that avoid it.
STALE_SEND = {"osu_gather_persistent": "MPI_Gather_init",
              "osu_allgather_persistent": "MPI_Allgather_init",
              "osu_scatter_persistent": "MPI_Scatter_init"}
STALE_BUG = LIBRARY.get("bug") == "persistent_gathers"


@pytest.mark.parametrize("prog", PERSISTENT)
def test_every_persistent_collective_runs_or_is_refused(prog):
    """The other MPI-4 persistent collectives (osu_allreduce_persistent above): each runs with
    its data checked where the library has the calls (rows in order, min <= avg <= max, every
    row "Pass"; OSU's barrier has no -c), is refused naming the call where it lacks them, and
    where the library has the stale-send bug, effbench's check reports it, as OSU's would:
    "Fail" and exit status 1 (docs/mpi-libraries.md, "Library bugs")."""
    check = [] if prog == "osu_barrier_persistent" else ["-c"]
    r = run(2, prog, *check, "-f", "-m", "4:64", "-i", "10", "-x", "2")
    if "MPI_Allreduce_init" not in found_calls():
        assert r.returncode == 2, r
        assert f"{prog} needs MPI_Allreduce_init" in r.stderr, r
        return
    (table,) = parse_osu(r.stdout)["tables"]
    assert table["rows"], r
    if STALE_BUG and prog in STALE_SEND:
        assert r.returncode == 1, r
        assert table["rows"][0][-1] == "Fail", r
        assert f"DATA VALIDATION ERROR: {prog} exited with status 1 on message size 4." \
            in r.stdout + r.stderr, r
        return
    assert r.returncode == 0, r
    for row in table["rows"]:
        if check:
            assert row[-1] == "Pass", r
            row = row[:-1]
        avg, mn, mx = (float(v) for v in row[-4:-1])
        assert mn <= avg <= mx and row[-1] == "10", r


def test_persistent_gathers_of_the_library_itself(tmp_path):
    """tests/mpi/repro/persistent_gathers.c, built with the library's own mpicc, shows the
    stale-send bug without effbench exactly where the conf says the library has it."""
    if "MPI_Allreduce_init" not in found_calls():
        pytest.skip(f"{MPI} has no MPI-4 persistent collectives: nothing to check")
    mpicc = LIBRARY["mpicc"]
    mpicc = mpicc if "/" not in mpicc else str(ROOT / mpicc)
    exe = tmp_path / "persistent_gathers"
    subprocess.run([mpicc, "-O2", "-o", str(exe), str(ROOT / "tests/mpi/repro/persistent_gathers.c")],
                   check=True, env=env(), capture_output=True, timeout=120)
    r = run(2, exe)
    wrong = {m[1]: int(m[2]) for m in re.finditer(r"^(\w+): (\d+) wrong blocks$", r.stdout, re.M)}
    assert sorted(wrong) == sorted(STALE_SEND.values()), r
    if STALE_BUG:
        assert r.returncode == 1 and all(n > 0 for n in wrong.values()), r
    else:
        assert r.returncode == 0 and not any(wrong.values()), r


def sourced_env(path, **env):
    """EFFBENCH_MPI and the settings of any library after `source scripts/env.sh` in a
    clean environment with PATH `path` (and another library's leftover OMPI_MCA_osc)."""
    script = ("source scripts/env.sh; echo EFFBENCH_MPI=$EFFBENCH_MPI; command -v mpiexec; "
              "env")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env={"PATH": path, "OMPI_MCA_osc": "leftover", **env})
    assert proc.returncode == 0, proc
    lines = proc.stdout.splitlines()
    names = {n for lib in LIBRARIES.values() for n in lib["env"]}
    settings = dict(line.split("=", 1) for line in lines[2:] if line.split("=")[0] in names)
    return lines[0], lines[1], settings


@pytest.mark.parametrize("by", ["name", "path"])
def test_env_sh_sets_this_librarys_settings_and_no_others(by):
    prefix = LIBRARY["prefix"]
    installed = not prefix.startswith("/")
    if by == "path" and not installed and MPI != "openmpi":
        pytest.skip(f"{MPI}'s mpiexec is not Debian's default mpiexec")
    path = (f"{ROOT / prefix}/bin:" if installed and by == "path" else "") + "/usr/bin:/bin"
    name, mpiexec, settings = sourced_env(path, **({"EFFBENCH_MPI": MPI} if by == "name" else {}))
    assert name == f"EFFBENCH_MPI={MPI}"
    if installed:
        assert mpiexec == f"{ROOT / prefix}/bin/mpiexec"
    assert settings == LIBRARY["env"], MPI


# What each library answers when asked whether it takes CUDA device pointers
# (core/device_mpi.c, docs/gpu.md): none of these builds is CUDA-aware.
DEVICE_POINTER_ANSWERS = {
    "Open MPI": "does not take CUDA device pointers (MPIX_Query_cuda_support() is 0: built "
                "without CUDA, see ompi_info): use a CUDA-aware Open MPI",
    "MPICH": "does not take CUDA device pointers (MPIX_GPU_query_support says no: built without "
             "CUDA, or MPIR_CVAR_ENABLE_GPU=0): use an MPICH built --with-cuda",
    "Intel(R) MPI": "moves CUDA device buffers only with I_MPI_OFFLOAD=1 (it is not set): export "
                    "I_MPI_OFFLOAD=1 (and I_MPI_OFFLOAD_MODE=cuda)",
}


def test_the_library_is_asked_about_device_pointers(tmp_path):
    """osu_latency -d cuda D D on the driver double: the library's own answer, before anything
    is measured; with the user's word it runs and checks."""
    family = next(f for f in DEVICE_POINTER_ANSWERS if LIBRARY["record"].startswith(f))
    e = cuda_double_env(takes_device_pointers=None)
    e.pop("I_MPI_OFFLOAD", None)
    r = run(2, "osu_latency", "-d", "cuda", "-m", "1:8", "-i", "3", "-x", "1", "D", "D",
            extra_env=e, timeout=120)
    assert r.returncode == 2, r
    line = next(x for x in r.stderr.splitlines() if x.startswith("effbench: error:"))
    assert line.startswith(f"effbench: error: osu_latency -d cuda: {LIBRARY['record']}"), line
    assert DEVICE_POINTER_ANSWERS[family] in line, line
    assert line.endswith(", or measure with --stage-through-host (copies through host memory, "
                         "timed)"), line
    assert "Latency" not in r.stdout
    js = tmp_path / "l.jsonl"
    r = run(2, "osu_latency", "-d", "cuda", "-m", "1:8", "-i", "3", "-x", "1", "-c", "D", "D",
            "--json", js, extra_env=cuda_double_env(), timeout=120)
    assert r.returncode == 0, r
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [x["validation"] for x in rows] == ["Pass"] * 4
    assert all(x["memory"] == {"send": "device", "recv": "device"} for x in rows)


@pytest.mark.skipif(MPI != "impi", reason="scripts/test-gpu runs under Intel MPI")
def test_gpu_script_rehearsal(tmp_path):
    """scripts/test-gpu --rehearse (docs/gpu.md): every program of the GPU check runs on the
    driver double under Intel MPI, its records are read and its figures computed; nothing is
    judged, and it says so."""
    e = env()
    e["EFFBENCH_GPU_BUILD"] = str(BUILD)
    p = subprocess.run([str(ROOT / ".venv" / "bin" / "python"), str(ROOT / "scripts" / "test-gpu"),
                        "--rehearse", "--out", str(tmp_path)], capture_output=True, text=True,
                       env=e, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout.splitlines()
    assert out[0] == "scripts/test-gpu: REHEARSAL on the tests' CUDA driver double: no GPU is tested"
    assert out[-1] == "scripts/test-gpu: REHEARSED (the runs and records work; no GPU was judged)"
    assert [x.split(" --json")[0].split("effbench ")[1] for x in out if ": run: " in x] == [
        "devcopy -m 4194304:67108864 -i 20 -x 3",
        "osu_latency -d cuda -m 1:4194304 -c D D",
        "osu_bw -d cuda -m 1:4194304 -c D D",
        "osu_allreduce -d cuda -m 4:1048576 -c",
        "IMB-MPI1-GPU PingPong Allreduce -check 1 -msglog 0:22 -iter 200"]
    judged = [x for x in out if "not judged (double)" in x]
    assert len(judged) == 3 and not any(x.startswith("scripts/test-gpu: ok:") for x in out)
    assert "  device: effbench CUDA driver double 0 (PCI 0000:10:00.0)" in out
    for figure in ("osu_bw D D 4 MiB GB/s: ", "IMB-MPI1-GPU PingPong 4 MiB GB/s: ",
                   "osu_latency D D 8 B us: "):
        assert any(x.startswith("  " + figure) and float(x.split(": ")[1]) > 0 for x in out), figure
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted(
        f"{n}.{ext}" for n in ("devcopy", "osu_latency", "osu_bw", "osu_allreduce",
                               "imb_mpi1_gpu") for ext in ("jsonl", "txt"))
