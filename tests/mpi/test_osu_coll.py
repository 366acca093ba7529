"""OSU 7.4's blocking collectives (osu_allgather ... osu_scatterv) and the
MPI-4 persistent ones (*_persistent): OSU's text, the JSON records, -f, -c
(effbench's checked pass), -z, -T, -k, -l, -M, corrupted data caught, bad
options refused.  The program names come from their descriptors
(src/osu/osu_coll.c, osu_coll_persistent.c)."""
import re

import pytest

from effb import MPI, np_params, read_jsonl, run
from osu_helpers import (blocking_collective, osu_names, parse_osu, persistent_collective,
                         rows_as_dicts)
from test_corruption import flip_is_reported


BLOCKING = osu_names(blocking_collective)
PERSISTENT = osu_names(persistent_collective)
NO_SIZE = {"osu_barrier", "osu_barrier_persistent"}
# -l: in OSU's option string of these (all but the broadcasts and barriers)
IN_PLACE = [p for p in BLOCKING if p not in ("osu_bcast", "osu_barrier")]
ROOTED = ["osu_gather", "osu_gatherv", "osu_reduce", "osu_scatter", "osu_scatterv"]
SIZES = [1, 2, 4, 8, 16, 32, 64]
FULL = ["Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations"]
# MPICH 4.0's default schedules of these persistent calls send the data of
# MPI_*_init time and skip the root's own block (pmodels/mpich#7078, #6423,
# #7550): the checked pass reports it (test_mpich_persistent_bug_is_caught);
# the other tests pick the library's correct algorithms.
MPICH_SOUND = {
    "MPIR_CVAR_IGATHER_INTRA_ALGORITHM": "tsp_tree",
    "MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM": "tsp_ring",
    "MPIR_CVAR_ISCATTER_INTRA_ALGORITHM": "tsp_tree",
}
openmpi_only = pytest.mark.skipif(MPI != "openmpi", reason="the refusal is Open MPI 4.1's")
mpich_only = pytest.mark.skipif(MPI != "mpich", reason="MPI-4 persistent collectives: MPICH")


def run_osu(np, prog, *args, tmp_path=None, env=None):
    """Run prog; returns (Result, parsed text, JSON records or None)."""
    js = tmp_path / f"{prog}.jsonl" if tmp_path else None
    extra = ["--json", js] if js else []
    r = run(np, prog, *args, *extra, extra_env=env, timeout=120)
    return r, parse_osu(r.stdout), (read_jsonl(js) if js and js.exists() else None)


def results(recs):
    return [x for x in recs if x["type"] == "result"]


def assert_latency_table(prog, out, recs, np, iterations, checked):
    """A -f (and -c) run's table and records: OSU's columns, every size,
    min <= avg <= max, the iterations column, Pass; JSON rows as planned."""
    assert re.fullmatch(r"# OSU MPI [A-Za-z_ -]+ Latency Test v7\.4", out["title"]), out
    assert ("Persistent" in out["title"]) == prog.endswith("_persistent")
    (table,) = out["tables"]
    validation = ["Validation"] if checked else []
    if prog in NO_SIZE:
        assert table["datatype"] is None
        assert table["columns"] == ["# " + FULL[0], *FULL[1:]]
        assert len(table["rows"]) == 1
        avg, mn, mx, iters = table["rows"][0]
    else:
        assert table["datatype"] == "MPI_CHAR"
        assert table["columns"] == ["# Size", *FULL, *validation]
        rows = rows_as_dicts(table)
        assert [int(x["# Size"]) for x in rows] == SIZES
        for x in rows:
            assert float(x["Min Latency(us)"]) <= float(x["Avg Latency(us)"]) \
                <= float(x["Max Latency(us)"]), x
            assert int(x["Iterations"]) == iterations
            if checked:
                assert x["Validation"] == "Pass"
    res = results(recs)
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    assert recs[-1]["rows"] == recs[-1]["planned_rows"] == len(res)
    for x in res:
        assert x["benchmark"] == prog and x["procs"] == np
        assert x["repetitions"] == iterations
        assert 0 < x["t_min_us"] <= x["t_avg_us"] <= x["t_max_us"], x
        assert x["checked"] is checked and x["defects"] == (0 if checked else None)


@pytest.mark.parametrize("np", np_params([2, 4]))
@pytest.mark.parametrize("prog", BLOCKING)
def test_blocking_program(tmp_path, prog, np):
    sizes = [] if prog in NO_SIZE else ["-m", "1:64", "-c"]
    r, out, recs = run_osu(np, prog, *sizes, "-i", "20", "-x", "2", "-f", tmp_path=tmp_path)
    assert r.returncode == 0, r
    assert_latency_table(prog, out, recs, np, 20, checked=prog not in NO_SIZE)


@mpich_only
@pytest.mark.parametrize("prog", PERSISTENT)
def test_persistent_program_under_mpich(tmp_path, prog):
    sizes = [] if prog in NO_SIZE else ["-m", "1:64", "-c"]
    r, out, recs = run_osu(2, prog, *sizes, "-i", "20", "-x", "2", "-f", tmp_path=tmp_path,
                           env=MPICH_SOUND)
    assert r.returncode == 0, r
    assert_latency_table(prog, out, recs, 2, 20, checked=prog not in NO_SIZE)


@mpich_only
@pytest.mark.parametrize("prog", ["osu_alltoall_persistent", "osu_reduce_scatter_persistent",
                                  "osu_scatter_persistent", "osu_allgatherv_persistent"])
def test_persistent_in_place_under_mpich(prog):
    r, out, _ = run_osu(2, prog, "-m", "4:64", "-i", "6", "-x", "1", "-l", "-c",
                        env=MPICH_SOUND)
    assert r.returncode == 0, r
    rows = out["tables"][0]["rows"]
    assert [int(x[0]) for x in rows] == SIZES[2:] and all(x[-1] == "Pass" for x in rows)
    # OSU's persistent all-to-alls and Reduce_scatter say this (no newline) before the title
    note = "# Setting number of validation warmup iterations to 0."
    assert r.stdout.startswith(note + "\n# OSU ") == (prog in ("osu_alltoall_persistent",
                                                               "osu_reduce_scatter_persistent"))


@mpich_only
def test_mpich_persistent_bug_is_caught():
    """MPICH 4.0's default persistent gather (pmodels/mpich#7078): the check says Fail."""
    r, out, _ = run_osu(2, "osu_gather_persistent", "-m", "4:4", "-i", "3", "-x", "0", "-c")
    if r.returncode == 0:
        pytest.skip("this MPICH's persistent gather delivers the data")
    assert r.returncode == 1, r
    assert out["tables"][0]["rows"][0][-1] == "Fail"
    assert "DATA VALIDATION ERROR: osu_gather_persistent exited with status 1 on message " \
        "size 4." in r.stdout


@openmpi_only
@pytest.mark.parametrize("prog", PERSISTENT)
def test_persistent_refused_under_openmpi(prog):
    r = run(2, prog, "-m", "1:4", timeout=60)
    assert r.returncode == 2, r
    assert f"effbench: error: {prog} needs MPI_Allreduce_init (MPI-4.0" in r.stderr, r
    assert "Open MPI" in r.stderr and r.stdout == ""


@pytest.mark.parametrize("prog", ["osu_allreduce", "osu_barrier", "osu_alltoallv"])
def test_percentiles_ordered(prog):
    sizes = [] if prog in NO_SIZE else ["-m", "4:16"]
    r, out, _ = run_osu(2, prog, *sizes, "-i", "30", "-x", "2", "-z")
    assert r.returncode == 0, r
    (table,) = out["tables"]
    tail = ["P50 Tail Lat(us)", "P90 Tail Lat(us)", "P99 Tail Lat(us)"]
    assert table["columns"][-3:] == tail
    for row in table["rows"]:
        p50, p90, p99 = (float(v) for v in row[-3:])
        assert 0 <= p50 <= p90 <= p99, row


@pytest.mark.asan
@pytest.mark.parametrize("prog", ["osu_allgather", "osu_reduce", "osu_scatterv"])
def test_datatypes(tmp_path, prog):
    r, out, recs = run_osu(2, prog, "-m", "1:16", "-i", "8", "-x", "1", "-c", "-T", "MPI_INT",
                           "-T", "MPI_FLOAT", tmp_path=tmp_path)
    assert r.returncode == 0, r
    assert re.findall(r"^# Datatype: (\S+)\.$", r.stdout, re.M) == ["MPI_INT", "MPI_FLOAT"]
    assert [t["datatype"] for t in out["tables"]] == ["MPI_INT", "MPI_FLOAT"]
    for t in out["tables"]:  # sizes below one element are left out, as OSU
        assert [int(x[0]) for x in t["rows"]] == [4, 8, 16]
        assert all(x[-1] == "Pass" for x in t["rows"])
    assert [(x["datatype"], x["bytes"]) for x in results(recs)] == \
        [(d, s) for d in ("MPI_INT", "MPI_FLOAT") for s in (4, 8, 16)]


@pytest.mark.parametrize("root", ["fixed:1", "rotate"])
@pytest.mark.parametrize("prog", ROOTED)
def test_root_options(tmp_path, prog, root):
    r, out, recs = run_osu(3, prog, "-m", "1:32", "-i", "7", "-x", "1", "-c", "-k", root,
                           tmp_path=tmp_path)
    assert r.returncode == 0, r
    assert all(x[-1] == "Pass" for x in out["tables"][0]["rows"])
    assert recs[0]["type"] == "run"
    assert recs[0]["options"]["root"] == (1 if root == "fixed:1" else "rotate")


@pytest.mark.parametrize("prog", IN_PLACE)
def test_in_place(prog):
    root = ["-k", "fixed:2"] if prog in ROOTED else []
    r, out, _ = run_osu(3, prog, "-m", "1:64", "-i", "6", "-x", "1", "-c", "-l", *root)
    assert r.returncode == 0, r
    rows = out["tables"][0]["rows"]
    assert [int(x[0]) for x in rows] == SIZES and all(x[-1] == "Pass" for x in rows)


@pytest.mark.parametrize("prog,args,last", [
    ("osu_gather", ["-M", "1", "-m", "131072:1048576"], 262144),  # 1 MiB / 4 processes
    ("osu_reduce", ["-M", "1048576", "-m", "1048576:4194304"], 1048576),
])
def test_mem_limit(prog, args, last):
    r, out, _ = run_osu(4, prog, *args, "-i", "1", "-x", "0")
    assert r.returncode == 0, r
    assert int(out["tables"][0]["rows"][-1][0]) == last
    assert f"Warning! Limiting max message size to: {last}." in r.stderr


@pytest.mark.parametrize("prog", ["osu_gather", "osu_allreduce"])
def test_corrupted_data_is_reported(tmp_path, prog):
    args = ["-m", "4:16", "-i", "4", "-x", "1", "-c", "-T", "MPI_FLOAT"]
    r, recs = flip_is_reported(tmp_path, str(prog), args, lambda rows: len(rows) - 1,
                               flipped_status=1)
    rows = parse_osu(r.stdout)["tables"][0]["rows"]
    assert [x[-1] for x in rows if x[0].isdigit()] == ["Pass", "Pass", "Fail"]
    assert f"DATA VALIDATION ERROR: {prog} exited with status 1 on message size 16." in r.stdout


@pytest.mark.parametrize("prog,args,message", [
    ("osu_gather", ["-k", "sideways"], "Invalid root rank rotate type"),
    ("osu_gather", ["-k", "fixed:2"], "Root rank('-k') cannot be more than number of processes"),
    ("osu_allgather", ["-k", "fixed:1"], "Invalid option [-k]"),
    ("osu_bcast", ["-l"], "Invalid option [-l]"),
    ("osu_barrier", ["-c"], "Invalid option [-c]"),
    ("osu_barrier", ["-T", "MPI_INT"], "Invalid option [-T]"),
    ("osu_allreduce", ["-D", "cont"], "Invalid option [-D]"),
    ("osu_alltoall", ["-D", "cont"], "derived datatypes (-D) are not built"),
    ("osu_reduce", ["-T", "MPI_DOUBLE"], "Invalid data type"),
    ("osu_scatter", ["-m", "64:8"], "Invalid Message Size"),
])
def test_bad_options_refused(prog, args, message):
    r = run(2, prog, *args, timeout=60)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert r.stdout == ""


@pytest.mark.parametrize("prog", ["osu_allgather", "osu_barrier"])
def test_one_process_refused(prog):
    r = run(1, prog, timeout=60)
    assert r.returncode == 2, r
    assert f"{prog}: This test requires at least two processes" in r.stderr
