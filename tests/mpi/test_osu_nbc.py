"""OSU's non-blocking collectives (osu_i*) and neighbourhood collectives (osu_neighbor_*,
osu_ineighbor_*): every program on 2 and 4 ranks with its rows checked against OSU's method
(overall >= init + compute + MPI_Test + MPI_Wait, overall >= compute, overlap = max(0, 100 -
(overall - compute) / pure * 100) within 0-100, min <= pure <= max communication), the
checked pass (-c), the -t MPI_Test calls, the -N topologies and their refusals, a corrupted
byte found.
The programs are the build's symlinks (CMake makes them from the descriptors)."""
import math
import re

import pytest

from effb import BUILD, MPI, np_params, read_jsonl, run
from osu_helpers import osu_names, parse_osu, rows_as_dicts

NBC = osu_names(lambda b: b["class"] == "collective" and b["name"].startswith("osu_i")
                and "neighbor" not in b["name"])
NHBR = osu_names(lambda b: "neighbor_" in b["name"])
SMALL = ["-m", "1:16", "-i", "10", "-x", "2"]
LIB = BUILD / "libeb_corrupt.so"
# OSU's sample adjacency list (c/util/nhbrhd_graph.adj): 4 ranks, some with no in- or out-edge
GRAPH4 = "# a comment\n#Source, Destination\n2, 0\n0, 1\n1, 2\n2, 3\n1,3\n0,3\n"
GRAPH2 = "0, 1\n1, 0\n0, 1\n"  # a repeated edge: two blocks from 0 to 1
NBC_COLUMNS = ["# Size", "Overall(us)", "Compute(us)", "Coll. Init(us)", "MPI_Test(us)",
               "MPI_Wait(us)", "Pure Comm.(us)", "Min Comm.(us)", "Max Comm.(us)", "Overlap(%)",
               "Validation"]


def test_the_family_is_built():
    assert len(NBC) == 15 and "osu_ibarrier" in NBC and "osu_ireduce_scatter_block" in NBC, NBC
    assert len(NHBR) == 10, NHBR


def results(path):
    recs = read_jsonl(path)
    assert recs[-1]["type"] == "end" and recs[-1]["rows"] == recs[-1]["planned_rows"], recs[-1]
    return [r for r in recs if r["type"] == "result"]


def check_nbc_record(x):
    """OSU's relations at full precision (JSON)."""
    assert x["pure_comm_us"] > 0 and x["compute_us"] > 0 and x["init_us"] > 0, x
    assert x["wait_us"] >= 0 and x["test_us"] >= 0, x
    # OSU times each part between readings of its own: Overall holds the
    # parts and the clock readings between them
    parts = x["init_us"] + x["compute_us"] + x["test_us"] + x["wait_us"]
    assert parts <= x["overall_us"] * (1 + 1e-12), x
    assert x["overall_us"] >= x["compute_us"], x
    assert x["min_comm_us"] <= x["pure_comm_us"] <= x["max_comm_us"], x
    want = max(0.0, 100 - (x["overall_us"] - x["compute_us"]) / x["pure_comm_us"] * 100)
    assert math.isclose(x["overlap_pct"], want, rel_tol=1e-9, abs_tol=1e-9), x
    assert 0 <= x["overlap_pct"] <= 100, x
    # the operation's own time, as for blocking collectives (docs/json-lines.md, "OSU records")
    assert (x["t_avg_us"], x["t_min_us"], x["t_max_us"]) == (
        x["pure_comm_us"], x["min_comm_us"], x["max_comm_us"]), x


def check_nbc_row(row):
    """The same relations on the printed values (2 decimals)."""
    v = {k: float(x) for k, x in row.items() if k not in ("# Size", "Validation")}
    assert v["Overall(us)"] >= v["Compute(us)"] > 0, row
    assert v["Min Comm.(us)"] <= v["Pure Comm.(us)"] <= v["Max Comm.(us)"], row
    assert 0 <= v["Overlap(%)"] <= 100, row
    parts = v["Coll. Init(us)"] + v["Compute(us)"] + v["MPI_Test(us)"] + v["MPI_Wait(us)"]
    assert parts <= v["Overall(us)"] + 0.026, row  # five values rounded to 0.01
    assert row["Validation"] == "Pass", row


def check_run(r, js, program, np, sizes):
    """A -f -c --json run: the text's table and the JSON records agree with OSU's method."""
    assert r.returncode == 0, r
    out = parse_osu(r.stdout)
    assert len(out["tables"]) == 1, r.stdout
    table = out["tables"][0]
    recs = results(js)
    assert [x["bytes"] for x in recs] == sizes
    assert all(x["checked"] and x["defects"] == 0 and x["procs"] == np for x in recs), recs
    if not program.startswith("osu_i"):  # the blocking neighbourhood collectives: latency rows
        assert table["columns"] == ["# Size", "Avg Latency(us)", "Min Latency(us)",
                                    "Max Latency(us)", "Iterations", "Validation"]
        for row in rows_as_dicts(table):
            assert 0 < float(row["Min Latency(us)"]) <= float(row["Avg Latency(us)"]) \
                <= float(row["Max Latency(us)"]) and row["Validation"] == "Pass", row
        return recs
    assert table["columns"] == NBC_COLUMNS and table["datatype"] == "MPI_CHAR"
    assert [int(x[0]) for x in table["rows"]] == sizes
    assert "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait" in out["lines"]
    for x in recs:
        check_nbc_record(x)
    for row in rows_as_dicts(table):
        check_nbc_row(row)
    return recs


@pytest.mark.parametrize("np", np_params([2, 4]))
@pytest.mark.parametrize("program", NBC)
def test_nonblocking_collective(tmp_path, program, np):
    js = tmp_path / "r.jsonl"
    check = [] if program == "osu_ibarrier" else ["-c"]  # OSU's osu_ibarrier has no -c
    r = run(np, program, *SMALL, "-f", *check, "--json", js)
    if program == "osu_ibarrier":
        assert r.returncode == 0, r
        recs = results(js)
        assert [x["bytes"] for x in recs] == [0] and not recs[0]["checked"]
        check_nbc_record(recs[0])
        table = parse_osu(r.stdout)["tables"][0]
        assert table["columns"] == ["# Overall(us)"] + NBC_COLUMNS[2:-1] and \
            table["datatype"] is None and len(table["rows"]) == 1, r.stdout
        check_nbc_row(dict(zip(NBC_COLUMNS[1:], table["rows"][0] + ["Pass"])))
        return
    recs = check_run(r, js, program, np, [1, 2, 4, 8, 16])
    assert all(x["repetitions"] == 10 and x["skip"] == 2 for x in recs)


@pytest.mark.parametrize("np", np_params([2, 4]))
@pytest.mark.parametrize("program", NHBR)
def test_neighbourhood_collective(tmp_path, program, np):
    """4 ranks: OSU's default -N cart:1:1 (a ring); 2 ranks: a graph file (the ring of 2 is too
    small for radius 1 by OSU's rule) with a repeated edge."""
    js = tmp_path / "r.jsonl"
    topo = []
    if np == 2:
        (tmp_path / "g.adj").write_text(GRAPH2)
        topo = ["-N", f"graph:{tmp_path / 'g.adj'}"]
    r = run(np, program, *SMALL, "-f", "-c", *topo, "--json", js)
    check_run(r, js, program, np, [1, 2, 4, 8, 16])
    lines = r.stdout.splitlines()
    if np == 4:
        assert lines.pop(0) == "Dimensions size = 4 ", r.stdout
    assert re.fullmatch(r"Time took to create topology graph:\d+\.\d\d us\.", lines[0]), r.stdout
    assert lines[1] == "" and lines[2].startswith("# OSU MPI "), r.stdout


@pytest.mark.asan
def test_test_calls_during_the_compute(tmp_path):
    """-t N: MPI_Test time is measured (and subtracted from the compute); without -t it is 0."""
    for probes, js in ((0, tmp_path / "none.jsonl"), (50, tmp_path / "t50.jsonl")):
        r = run(2, "osu_iallreduce", "-m", "4:64", "-i", "20", "-x", "2",
                *(["-t", str(probes)] if probes else []), "--json", js)
        assert r.returncode == 0, r
        recs = results(js)
        assert len(recs) == 5
        for x in recs:
            check_nbc_record(x)
            assert (x["test_us"] > 0) if probes else (x["test_us"] == 0), x
        assert read_jsonl(js)[0]["options"]["num_probes"] == probes


@pytest.mark.parametrize("program", NBC)
def test_checked_pass_in_place_and_types(tmp_path, program):
    """-l (where the program takes it), -k rotate (where it has a root) and every -T type on 3
    ranks (uneven reduce_scatter counts, rotating roots): the checked pass passes."""
    if MPI == "mpich":
        pytest.skip("MPICH with more ranks than cores busy-polls")
    options = run(1, program, "-h").stdout
    if "--in-place" not in options:
        pytest.skip(f"{program} has no -l")
    root = ["-k", "rotate"] if "--root-rank" in options else []
    js = tmp_path / "r.jsonl"
    r = run(3, program, "-m", "1:32", "-i", "4", "-x", "1", "-l", "-c", "-T", "all", *root,
            "--json", js)
    assert r.returncode == 0, r
    recs = results(js)
    assert [x["datatype"] for x in recs] == ["MPI_CHAR"] * 6 + ["MPI_INT"] * 4 + \
        ["MPI_FLOAT"] * 4, recs
    assert all(x["defects"] == 0 and x["checked"] for x in recs), recs
    assert [t["datatype"] for t in parse_osu(r.stdout)["tables"]] == \
        ["MPI_CHAR", "MPI_INT", "MPI_FLOAT"]


@pytest.mark.skipif(MPI == "mpich", reason="9 ranks on 2 cores: Open MPI only (MPICH busy-polls)")
def test_two_dimensional_cart_on_nine_ranks(tmp_path):
    """-N cart:2:1 needs a 3 x 3 grid at least (OSU's rule): 8 neighbours each."""
    js = tmp_path / "r.jsonl"
    r = run(9, "osu_ineighbor_alltoallv", "-m", "1:4", "-i", "3", "-x", "1", "-c", "-N",
            "cart:2:1", "--json", js)
    assert r.returncode == 0, r
    assert read_jsonl(js)[0]["options"]["topology"] == "cart:2:1"
    assert r.stdout.splitlines()[0] == "Dimensions size = 3 3 ", r.stdout
    recs = results(js)
    assert len(recs) == 3 and all(x["defects"] == 0 for x in recs)


@pytest.mark.parametrize("args,np,message", [
    (["-N", "cart:2:1"], 4, "osu_neighbor_alltoall: -N cart:2:1: the given neighborhood radius "
     "(r = 1) is greater than the half of the minimum dimension size 2"),
    ([], 2, "the given neighborhood radius (r = 1) is greater than the half of the minimum "
     "dimension size 2"),
    (["-N", "cart:1:2"], 4, "radius (r = 2)"),
    (["-N", "torus:1:1"], 2, "Invalid topology (cart:DIM:RAD or graph:FILE) [-N torus:1:1]"),
    (["-N", "cart:1"], 2, "[-N cart:1]"),
    (["-N", "graph"], 2, "-N graph needs its adjacency list file: -N graph:FILE"),
    (["-N", "graph:/nonexistent/g.adj"], 2, "cannot open the graph file '/nonexistent/g.adj'"),
])
def test_bad_topology_refused(args, np, message):
    if MPI == "mpich" and np > 2:
        pytest.skip("MPICH with more ranks than cores busy-polls")
    r = run(np, "osu_neighbor_alltoall", "-m", "1:4", "-i", "2", "-x", "1", *args)
    assert r.returncode == 2, r
    assert message in r.stderr, r.stderr
    assert r.stderr.count("effbench: error:") == 1 and "Latency Test" not in r.stdout, r


@pytest.mark.parametrize("text,message", [
    ("0, 1\n1 2\n", "g.adj:2: expected 'source, destination'"),
    ("0, 1\n1, x\n", "g.adj:2: expected 'source, destination'"),
    ("# ok\n0, 1\n1, 5\n", "g.adj:3: rank 5 in the graph, but there are 2 processes"),
])
def test_bad_graph_file_refused(tmp_path, text, message):
    (tmp_path / "g.adj").write_text(text)
    r = run(2, "osu_ineighbor_allgather", "-m", "1:4", "-N", f"graph:{tmp_path / 'g.adj'}")
    assert r.returncode == 2, r
    assert message in r.stderr, r.stderr


@pytest.mark.parametrize("np", np_params([4]))
def test_graph_file_topology(tmp_path, np):
    """OSU's sample graph: rank 0 receives only from 2, rank 3 sends to nobody; every block
    checked; no "Dimensions size" line for a graph."""
    (tmp_path / "g.adj").write_text(GRAPH4)
    js = tmp_path / "r.jsonl"
    for program in ("osu_neighbor_allgatherv", "osu_ineighbor_alltoallw"):
        r = run(np, program, *SMALL, "-f", "-c", "-N", f"graph:{tmp_path / 'g.adj'}",
                "--json", js)
        check_run(r, js, program, np, [1, 2, 4, 8, 16])
        assert not r.stdout.startswith("Dimensions"), r.stdout
        assert read_jsonl(js)[0]["options"]["topology"] == f"graph:{tmp_path / 'g.adj'}"


def test_other_refusals():
    r = run(1, "osu_iallgather", "-m", "1:4")
    assert r.returncode == 2 and "requires at least two processes" in r.stderr, r
    r = run(2, "osu_igather", "-m", "1:4", "-k", "fixed:2")
    assert r.returncode == 2 and "Root rank('-k') cannot be more than number of processes" \
        in r.stderr, r
    r = run(2, "osu_ialltoall", "-m", "1:4", "-D", "cont")
    assert r.returncode == 2 and "derived datatypes (-D) are not built" in r.stderr, r
    r = run(2, "osu_ibarrier", "-c")
    assert r.returncode == 2 and "Invalid option [-c]" in r.stderr, r
    r = run(2, "osu_iallreduce", "-t", "many")
    assert r.returncode == 2 and "Invalid Number of Probes [-t many]" in r.stderr, r


def test_barrier_ignores_sizes(tmp_path):
    """osu_ibarrier: one row whatever -m says, OSU's large-message loop counts by default."""
    js = tmp_path / "r.jsonl"
    r = run(2, "osu_ibarrier", "-m", "1:1024", "-x", "1", "--json", js)
    assert r.returncode == 0, r
    recs = results(js)
    assert len(recs) == 1 and recs[0]["bytes"] == 0 and recs[0]["repetitions"] == 100, recs
    assert len(parse_osu(r.stdout)["tables"][0]["rows"]) == 1


def test_corrupted_byte_is_found(tmp_path):
    """A PMPI library (tests/pmpi/corrupt.c) flips one byte of rank 0's last received buffer,
    which falls in the checked pass of the last size: that row fails, the others pass."""
    args = ["-m", "4:8", "-i", "4", "-x", "1", "-c", "-T", "MPI_FLOAT"]
    count = tmp_path / "count"
    js = tmp_path / "clean.jsonl"
    r = run(2, "osu_ialltoall", *args, "--json", js,
            extra_env={"LD_PRELOAD": str(LIB), "EFFBENCH_CORRUPT_COUNT_FILE": str(count)})
    assert r.returncode == 0, r
    assert [x["defects"] for x in results(js)] == [0, 0]
    n = int(count.read_text())
    assert n > 0
    js = tmp_path / "flipped.jsonl"
    r = run(2, "osu_ialltoall", *args, "--json", js,
            extra_env={"LD_PRELOAD": str(LIB), "EFFBENCH_CORRUPT_AT": str(n)})
    assert r.returncode == 1, r
    recs = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert recs[0]["defects"] == 0 and recs[1]["defects"] >= 1, recs
    assert recs[1]["validation"] == "Fail"
    rows = parse_osu(r.stdout)["tables"][0]["rows"]
    assert [x[-1] for x in rows[:2]] == ["Pass", "Fail"], r.stdout
    assert "DATA VALIDATION ERROR: osu_ialltoall exited with status 1 on message size 8." \
        in r.stdout
