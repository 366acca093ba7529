"""effbench on SimGrid's SMPI (docs/simulation.md): every component that can be
simulated runs on a small simulated platform, and the simulated numbers are
held to the platform's own parameters.  Skipped when SimGrid is not installed
(scripts/simulate installs it); builds build-smpi/ when it is missing."""
from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

from effb import ROOT, read_jsonl

SIMULATE = ROOT / "scripts" / "simulate"
BUILD = ROOT / "build-smpi"

pytestmark = pytest.mark.skipif(
    not (shutil.which("smpicc") and shutil.which("smpirun")),
    reason="SimGrid's smpicc/smpirun are not installed (bash scripts/simulate installs them)")

_spec = importlib.util.spec_from_file_location("generate", ROOT / "platforms" / "generate.py")
generate = importlib.util.module_from_spec(_spec)
sys.modules["generate"] = generate
_spec.loader.exec_module(generate)


@pytest.fixture(scope="module", autouse=True)
def smpi_build():
    """Build build-smpi/ once, even with pytest-xdist's workers asking at the same time."""
    BUILD.mkdir(exist_ok=True)
    with open(BUILD / ".test-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (BUILD / "effbench").exists():
            r = subprocess.run(["bash", str(SIMULATE)], capture_output=True, text=True,
                               timeout=900)
            assert r.returncode == 0, r.stderr[-3000:]


def simulate(tmp_path, platform, np, *args, placement=None, reps=None, timeout=240):
    """scripts/simulate ... -- args; the whole process group ends on a hang."""
    cmd = ["bash", str(SIMULATE), "--platform", platform, "-np", str(np)]
    if placement:
        cmd += ["--placement", placement]
    if reps:
        cmd += ["--reps", str(reps)]
    cmd += ["--", *map(str, args)]
    return launch(cmd, tmp_path, timeout)


def launch(cmd, cwd, timeout, env=None):
    """(status, stdout, stderr) of cmd in its own process group, which ends on a hang."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True, env=env)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        pytest.fail(f"simulation hangs: {' '.join(cmd)}\n{out[-2000:]}\n{err[-2000:]}")
    return p.returncode, out, err


def records(path):
    recs = read_jsonl(path)
    return recs[0], [r for r in recs if r["type"] == "result"], recs


def test_pingpong_follows_the_platform(tmp_path):
    """Two hosts, each behind a 10 us, 100 MB/s link (preset `pair`): a message
    of s bytes takes 2 x 10 us + s / 1e8 s one way, nothing else."""
    rc, out, err = simulate(tmp_path, "pair", 2, "IMB-MPI1", "PingPong", "-msglog", "0:22",
                            "--json", "pp.jsonl", reps=200)
    assert rc == 0, err
    run, rows, _ = records(tmp_path / "pp.jsonl")
    assert run["simulated"] is True and run["check"] is False
    sim = run["simulation"]
    assert sim["platform"] == "pair" and sim["placement"] == "sequential"
    assert sim["shared_buffers"] is True and sim["simulate_computation"] is False
    assert sim["max_repetitions"] == 200
    assert sim["parameters"]["lat"] == "10us" and sim["parameters"]["bw"] == "100MBps"
    assert sim["parameters"]["topology"] == "cluster" and sim["parameters"]["nodes"] == "2"
    assert [h["name"] for h in run["hosts"]] == ["node-0", "node-1"]
    assert [r["bytes"] for r in rows] == [0] + [2 ** k for k in range(23)]
    for r in rows:
        model = 20.0 + r["bytes"] / 100e6 * 1e6
        assert r["repetitions"] <= 200
        # the start of a loop waits for the barrier's last rank: a few us over the loop
        assert model * 0.998 <= r["t_avg_us"] <= model * 1.002 + 0.5, r
    big = rows[-1]
    assert big["mbytes_per_s"] == pytest.approx(100e6 / 2 ** 20, rel=0.002)


def test_one_repetition_is_one_call(tmp_path):
    """--reps 1: one timed repetition per length and no probe before it (nothing to decide).
    The printed time (t_max) is still the platform's; t_avg is not: rank 1 leaves the
    barrier a latency after rank 0, and one repetition does not spread that out."""
    rc, out, err = simulate(tmp_path, "pair", 2, "IMB-MPI1", "PingPong", "-msglog", "10:20",
                            "--json", "pp.jsonl", reps=1)
    assert rc == 0, err
    _, rows, _ = records(tmp_path / "pp.jsonl")
    assert [r["repetitions"] for r in rows] == [1] * 12
    for r in rows:
        model = 20.0 + r["bytes"] / 100e6 * 1e6
        assert model * 0.998 <= r["t_max_us"] <= model * 1.002 + 0.5, r
    assert rows[0]["t_avg_us"] < 0.8 * rows[0]["t_max_us"]


def test_every_imb_family_runs(tmp_path):
    """IMB-MPI1 collectives, IMB-NBC, IMB-EXT and IMB-RMA on a 2x2x2 torus."""
    torus = "torus:2x2x2,lat=2us,bw=500MBps"
    for prog, bench, fam in [("IMB-MPI1", "Allreduce", "mpi1"), ("IMB-MPI1", "Alltoall", "mpi1"),
                             ("IMB-NBC", "Ibcast", "nbc"), ("IMB-EXT", "Unidir_Put", "ext"),
                             ("IMB-RMA", "One_put_all", "rma")]:
        path = f"{bench}.jsonl"
        rc, out, err = simulate(tmp_path, torus, 4, prog, bench, "-msglog", "0:12", "-npmin", "4",
                                "--json", path)
        assert rc == 0, (prog, bench, err)
        run, rows, recs = records(tmp_path / path)
        assert run["simulated"] is True and run["component"] == fam
        assert run["simulation"]["parameters"]["dims"] == "2x2x2"
        assert rows and all(r["benchmark"] == bench for r in rows), rows
        assert all(r["repetitions"] <= generate_default_reps() for r in rows)
        moving = [r for r in rows if r["bytes"] > 0]
        assert moving and all(r["t_max_us"] > 0 for r in moving)
        if fam == "mpi1":  # a collective crosses at least one 2 us link
            assert all(r["t_min_us"] >= 2.0 for r in moving), rows
            # MPICH's rules (scripts/simulate's coll-selector) return at once from a
            # collective with nothing to move, as MPICH does: no link crossed
            assert all(r["t_max_us"] < 0.1 for r in rows if r["bytes"] == 0), rows
        assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"


def test_allreduce_is_the_network_alone(tmp_path):
    """In simulation mode a reduction computes nothing (eb_sim_op: the buffers hold no
    data) and its time is the network's: at 2 ranks MPICH's Allreduce of 1 MB is one
    exchange, 2 links of 10 us and 1 MB at 100 MB/s."""
    rc, out, err = simulate(tmp_path, "pair", 2, "IMB-MPI1", "Allreduce", "-msglog", "20:20",
                            "-npmin", "2", "--json", "a.jsonl")
    assert rc == 0, err
    _, rows, _ = records(tmp_path / "a.jsonl")
    (row,) = [r for r in rows if r["bytes"] == 2 ** 20]
    assert row["t_max_us"] == pytest.approx(2 ** 20 / 100 + 2 * 10, rel=1e-3), row


def test_torus_limiters_where_messages_pass(tmp_path):
    """IMB Sendrecv of 1 MB on every node of a 4x2x2 torus (platforms/torus.cpp): each
    node sends one message and receives one.  With a processor limiter (node_limiter,
    at a message's two ends) each message gets half of it, 210 MB/s, and pays two node
    links of 1 us.  SimGrid's limiter is also on each node a message passes: the
    messages that cross a row's end share a third node's limiter, and the call takes
    longer."""
    times = {}
    for key in ("node_limiter", "limiter"):
        spec = f"torus:4x2x2,lat=0us,bw=1GBps,node_lat=1us,{key}=420MBps"
        rc, out, err = simulate(tmp_path, spec, 16, "IMB-MPI1", "Sendrecv", "-npmin", "16",
                                "-msglog", "20:20", "--json", f"{key}.jsonl")
        assert rc == 0, err
        _, rows, _ = records(tmp_path / f"{key}.jsonl")
        (row,) = [r for r in rows if r["bytes"] == 2 ** 20]
        times[key] = row["t_max_us"]
    assert times["node_limiter"] == pytest.approx(2 ** 20 / 210 + 2 * 1, rel=1e-3), times
    assert times["limiter"] > 1.2 * times["node_limiter"], times


def test_multi_groups_keep_their_own_communicators(tmp_path):
    """-multi 0 at 4 ranks: the set of 2 runs as two groups of 2, each on its own
    communicator (a set of every rank runs on MPI_COMM_WORLD in a simulation, two groups
    that fill the world must not): the 2-rank Allreduce is one exchange, the 4-rank two."""
    rc, out, err = simulate(tmp_path, "cluster:4,lat=10us,bw=100MBps", 4, "IMB-MPI1",
                            "Allreduce", "-multi", "0", "-npmin", "2", "-msglog", "20:20",
                            "--json", "m.jsonl")
    assert rc == 0, err
    _, rows, _ = records(tmp_path / "m.jsonl")
    t = {r["procs"]: r["t_max_us"] for r in rows if r["bytes"] == 2 ** 20}
    exchange = 2 ** 20 / 100 + 2 * 10
    assert t[2] == pytest.approx(exchange, rel=1e-3), t
    assert t[4] == pytest.approx(2 * exchange, rel=1e-3), t


def generate_default_reps():
    return 10  # EB_SIM_DEFAULT_REPS (src/core/simulate.h)


def test_nbc_overlap_injects_the_cpu_work(tmp_path):
    """The overlap benchmarks' CPU work is simulated as its target time: an
    Ibcast of a 1 MB message overlaps almost entirely."""
    rc, out, err = simulate(tmp_path, "torus:2x2x2,lat=2us,bw=500MBps", 2, "IMB-NBC", "Ibcast",
                            "-msglog", "20:20", "--json", "n.jsonl")
    assert rc == 0, err
    _, rows, _ = records(tmp_path / "n.jsonl")
    row = rows[-1]
    assert [r["bytes"] for r in rows] == [0, 2 ** 20]
    # t_pure: 1 MB over one 500 MB/s link; t_ovrl with CPU work of the same length
    assert 1e6 / 500 <= row["t_pure_us"] <= 1e6 / 500 * 1.05 + 10, row
    assert row["overlap_pct"] > 90, row


def test_own_collectives_and_smpi_setup(tmp_path):
    """effbench's own reductions and broadcasts are point-to-point trees in SMPI builds
    (core/own_coll.c): at 13 ranks (no power of two) six groups of Multi-PingPong each
    report the model's time, 2 links of 10 us and 1,040 bytes (IMB's 1 KB and SMPI's
    16-byte envelope) at 100 MB/s.  They never set up SMPI's SMP-aware collectives, so a
    measured Allreduce sets them up before its timed calls (eb_sim_prime_collectives):
    with -warm_up off its first call, of 0 bytes, still moves nothing (without the
    priming it took SMPI's two ring Allgathers, about 500 us)."""
    rc, out, err = simulate(tmp_path, "cluster:13,lat=10us,bw=100MBps", 13, "IMB-MPI1",
                            "PingPong", "-multi", "1", "-msglog", "10:10", "--json", "m.jsonl",
                            reps=3)
    assert rc == 0, err
    _, rows, _ = records(tmp_path / "m.jsonl")
    at_1k = [r for r in rows if r["bytes"] == 1024]
    assert sorted(r["group"] for r in at_1k) == list(range(6)), rows
    assert all(r["t_max_us"] == pytest.approx(20 + 1040 / 100, rel=1e-3) for r in at_1k), at_1k
    assert all(r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"] for r in rows), rows
    times = {}
    for warm in ([], ["-warm_up", "off"]):
        rc, out, err = simulate(tmp_path, "cluster:13,lat=10us,bw=100MBps", 13, "IMB-MPI1",
                                "Allreduce", "-msglog", "2:2", "-npmin", "13", *warm,
                                "--json", "a.jsonl", reps=1)
        assert rc == 0, err
        _, rows, _ = records(tmp_path / "a.jsonl")
        times[bool(warm)] = [(r["bytes"], r["t_max_us"]) for r in rows]
    assert times[True] == times[False], times
    assert times[True][0][0] == 0 and times[True][0][1] < 0.1, times


def test_beff_and_its_pingpong(tmp_path):
    """b_eff on 2 neighbours of a 2x2x2 torus with 1 MB messages at L_max: its
    ping-pong is the link, and at L_max a process that sends and receives at
    once gets at most half its node limiter."""
    rc, out, err = simulate(tmp_path, "torus:2x2x2,lat=2us,bw=330MBps,limiter=420MBps", 2,
                            "b_eff", "--mem-per-proc", "128", "--json", "b.jsonl")
    assert rc == 0, err
    run, rows, recs = records(tmp_path / "b.jsonl")
    assert run["simulated"] is True and run["simulation"]["parameters"]["link_sharing"] == \
        "split-duplex links, node limiter 420MBps (on every node a message passes)"
    (s,) = [r for r in recs if r["type"] == "summary"]
    lmax = s["l_max_bytes"]
    assert lmax == 2 ** 20
    # one 2 us link of 330 MB/s (b_eff's MB: 1e6 bytes)
    assert s["pingpong_bw_mb_per_s"] == pytest.approx(lmax / (lmax / 330 + 2), rel=0.005)
    assert 0.9 * 210 <= s["b_eff_lmax_rings_per_proc_mb_per_s"] <= 210 * 1.001, s
    assert 0 < s["b_eff_mb_per_s"] < 2 * 210
    assert all(r["repetitions"] <= 10 and r["defects"] is None for r in rows)
    assert "b_eff =" in out


def test_beff_alltoallv_sends_only_its_messages(tmp_path):
    """b_eff's Alltoallv method in a simulation posts only the non-empty blocks, as
    MPICH does (docs/simulation.md): on a flat cluster of 16 nodes one block of 32
    partners holds both of a ring's messages, so Alltoallv takes what the nonblocking
    method takes.  SMPI's own Alltoallv (a message to every rank, in blocks of 4)
    would take about 4 message latencies instead of 1."""
    rc, out, err = simulate(tmp_path, "cluster:16,lat=10us,bw=100MBps", 16, "b_eff",
                            "--mem-per-proc", "1", "--json", "b.jsonl", reps=3)
    assert rc == 0, err
    _, rows, _ = records(tmp_path / "b.jsonl")
    first = [r for r in rows if r["length_index"] == 0 and r["pattern_kind"] in ("ring", "random")]
    by = {(r["pattern"], r["rep"], r["method"]): r["t_max_us"] for r in first}
    pairs = [(t, by[(p, rep, "nonblocking")]) for (p, rep, m), t in by.items() if m == "alltoallv"]
    assert len(pairs) == 3 * 36
    # one message: 2 links of 10 us; a loop of 3 iterations carries the barrier's skew
    assert all(20 <= nb < 40 for _, nb in pairs), pairs
    assert all(a < 1.5 * nb for a, nb in pairs), pairs
    # a simulation repeats itself: repetitions of one loop length take one time, which is
    # why --repeat 1 loses nothing here (docs/simulation.md)
    reps = {}
    for r in rows:
        reps.setdefault((r["pattern"], r["length_index"], r["method"], r["repetitions"]),
                        []).append(r["t_max_us"])
    same = [v for v in reps.values() if len(v) > 1]
    assert len(same) > 0.9 * len(rows) / 3, len(same)
    assert all(max(v) - min(v) <= 1e-6 * max(v) for v in same), same


def test_skampi_and_nodes(tmp_path):
    (tmp_path / "s.skampi").write_text(
        "@MEMORY 512\n@OUTFILE s.out\n@LOGFILE s.log\n@MEASUREMENTS\nPP\n{\n Type = 1;\n"
        " Start_Argument = 4;\n End_Argument = 4096;\n Stepwidth = 4;\n Max_Steps = 6;\n}\n")
    rc, out, err = simulate(tmp_path, "pair", 2, "skampi", "--json", "s.jsonl", "s.skampi")
    assert rc == 0, err
    run, rows, _ = records(tmp_path / "s.jsonl")
    assert run["simulated"] is True and rows
    for r in rows:  # the fastest round trip: twice 2 x 10 us + bytes / 100 MB/s
        assert r["t_min_us"] == pytest.approx(2 * (20 + r["bytes"] / 100), rel=0.02), r
    rc, out, err = simulate(tmp_path, "cluster:3,lat=5us,bw=1GBps", 3, "nodes", "--json",
                            "n.jsonl")
    assert rc == 0, err
    run, rows, _ = records(tmp_path / "n.jsonl")
    assert run["simulated"] is True and len(rows) >= 3


def test_placement_on_smp_nodes(tmp_path):
    """Sequential fills a node first, round-robin deals ranks out; the run
    record's hosts say where each rank ran."""
    spec = "fattree:2x2,lat=5us,bw=1GBps,intra_lat=1us,intra_bw=4GBps"
    got = {}
    for placement in ("sequential", "roundrobin"):
        rc, out, err = simulate(tmp_path, spec, 4, "IMB-MPI1", "PingPong", "-msglog", "0:0",
                                "--json", f"{placement}.jsonl", placement=placement)
        assert rc == 0, err
        run, rows, _ = records(tmp_path / f"{placement}.jsonl")
        got[placement] = ({h["name"]: h["ranks"] for h in run["hosts"]}, rows[0]["t_avg_us"])
        assert run["simulation"]["placement"] == placement
    assert got["sequential"][0] == {"node-0": [0, 1], "node-1": [2, 3]}
    assert got["roundrobin"][0] == {"node-0": [0, 2], "node-1": [1, 3]}
    # ranks 0 and 1: the shared-memory link (1 us) or the network (2 x 5 us)
    assert got["sequential"][1] == pytest.approx(1.0, abs=0.5)
    assert got["roundrobin"][1] == pytest.approx(10.0, abs=0.8)


def test_check_and_io_refused(tmp_path):
    rc, out, err = simulate(tmp_path, "pair", 2, "IMB-MPI1", "PingPong", "-check")
    assert rc != 0
    assert "effbench: error: -check: not available in a simulation" in err
    rc, out, err = simulate(tmp_path, "pair", 2, "b_eff_io")
    assert rc != 0 and "b_eff_io: the I/O benchmarks are not simulated" in err
    # quick mode's loops estimate noise a simulation does not have; a row of no simulated
    # time (Allreduce of 0 bytes) never spent its budget (docs/imb.md)
    rc, out, err = simulate(tmp_path, "pair", 2, "quick", "PingPong")
    assert rc == 2 and ("effbench: error: quick: not for a simulation: a simulated machine "
                        "repeats every loop exactly") in err, err


def test_mode_off_is_plain_smpi(tmp_path, monkeypatch):
    """EFFBENCH_SIM_MODE=off: an ordinary MPI program inside SMPI, -check allowed (real
    copies) and the CPU time between calls simulated, for which SMPI reads the thread's
    CPU clock (scripts/smpi_host_costs.c passes those readings on in this mode only)."""
    monkeypatch.setenv("EFFBENCH_SIM_MODE", "off")
    rc, out, err = simulate(tmp_path, "pair", 2, "IMB-MPI1", "PingPong", "-check", "-msglog",
                            "0:4", "--json", "off.jsonl")
    assert rc == 0, err
    run, rows, _ = records(tmp_path / "off.jsonl")
    sim = run["simulation"]
    assert sim["mode"] == "off" and sim["simulate_computation"] is True
    assert sim["shared_buffers"] is False and sim["max_repetitions"] is None
    assert [r["bytes"] for r in rows] == [0, 1, 2, 4, 8, 16]
    assert all(r["defects"] == 0 for r in rows), rows


def test_bad_platforms(tmp_path):
    for spec, msg in [("torus:8x8", "size '8x8' should be 3 whole numbers"),
                      ("torus:4x4x1", "every torus dimension needs 2 nodes or more"),
                      ("torus:2x2x2,foo=1", "unknown parameter 'foo=1'"),
                      ("torus:2x2x2,bw=fast", "bw=fast: expected a number with a unit"),
                      ("mesh:4", "not a preset")]:
        rc, out, err = simulate(tmp_path, spec, 2, "IMB-MPI1")
        assert rc == 2 and msg in err, (spec, err)
    rc, out, err = simulate(tmp_path, "pair", 3, "IMB-MPI1")
    assert rc == 2 and "-np 3: the platform" in err


def test_generator_writes_the_topologies(tmp_path):
    p = generate.parse_spec("t3e-900")
    assert p["topology"] == "torus" and p["nodes"] == 512 and p["si"]["bw"] == 330e6
    params = generate.torus_params(p).splitlines()  # platforms/torus.cpp reads them
    assert params[1:6] == ["dims 8 8 8", f"lat {p['si']['lat']!r}", "bw 330000000.0",
                           "limiter 420500000.0", "node_lat 0.0"]
    assert "config smpi/bw-factor:0:1" in params and "prop topology torus" in params
    assert generate.write_platform(p, str(tmp_path / "t")) == tmp_path / "t.torus"
    assert generate.write_platform(generate.parse_spec("pair"), str(tmp_path / "c")).suffix == ".xml"
    f = generate.parse_spec("fattree:16x8,intra_bw=2GBps")
    assert f["nodes"] == 16 and f["cores"] == 8
    assert 'topo_parameters="2;4,4;1,4;1,1"' in generate.platform_xml(f)
    assert 'core="8"' in generate.platform_xml(f)
    d = generate.parse_spec("dragonfly:4x2x4x2,lat=1us,bw=2GBps")
    assert d["nodes"] == 64 and 'topo_parameters="4,1;2,1;4,1;2"' in generate.platform_xml(d)
    assert generate.hostfile(f, 10, "roundrobin") == [f"node-{r % 2}" for r in range(10)]
    assert generate.hostfile(f, 10, "sequential") == ["node-0"] * 8 + ["node-1"] * 2
    assert generate.parse_quantity("1.5GiBps", generate.UNITS_BW, "bw") == 1.5 * 2 ** 30
    json.dumps(p)  # the parsed spec is plain data


# ---- OSU's programs under `effbench-results simulate` (docs/simulation.md, "OSU") ----------

PAIR_LAT_US, PAIR_BW = 10.0, 100e6  # the `pair` preset: two hosts, a 10 us, 100 MB/s link each
CLUSTER4 = "cluster:4,lat=10us,bw=100MBps"
SMPI_ENVELOPE = 16  # bytes SMPI adds to every message (test_own_collectives_and_smpi_setup)
OSU_SMALL = ["-i", 10, "-x", 1]


def one_way_us(nbytes):
    """A message of nbytes between the two hosts: two links of 10 us, then 100 MB/s."""
    return 2 * PAIR_LAT_US + (nbytes + SMPI_ENVELOPE) / PAIR_BW * 1e6


def doubling(lo, hi):
    out = [lo]
    while out[-1] * 2 <= hi:
        out.append(out[-1] * 2)
    return out


def results_simulate(tmp_path, platform, np, prog, *args, timeout=120):
    """`effbench-results simulate --db ... PROG ARGS`, the run stored in tmp_path's results
    database: (its rows, its run record), read back from the database."""
    from effbench.store.db import Store

    db = f"sqlite:///{tmp_path / 'results.sqlite'}"
    jsonl = tmp_path / f"{prog}.jsonl"
    cmd = [sys.executable, "-m", "effbench.cli", "simulate", "--db", db, "--json", str(jsonl),
           "--platform", platform, "-np", str(np), prog, *map(str, args)]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    rc, out, err = launch(cmd, tmp_path, timeout, env)
    assert rc == 0, (prog, err[-3000:])
    assert f"stored as run" in err and "simulated: " in err, err
    with Store(db) as store:
        (run,) = [r for r in store.list_runs() if r["source"] == str(jsonl)]
        assert run["machine"] == "simulated" and run["status"] == "ok", run
        parsed = store.load(run["id"])
    assert parsed.run["simulated"] is True and parsed.run["component"] == "osu"
    rows = parsed.results
    assert rows and all(r["benchmark"] == prog for r in rows), rows
    # a simulation caps every loop at 10 (EFFBENCH_SIM_REPS); -i 10 -x 1 is under it
    assert all(r["repetitions"] <= generate_default_reps() for r in rows), rows
    return rows, parsed.run


def refused(tmp_path, np, prog, *args, platform=CLUSTER4):
    rc, out, err = simulate(tmp_path, platform, np, prog, *args)
    assert rc == 2, (prog, rc, err[-2000:])
    (line,) = [x for x in err.splitlines() if x.startswith("effbench: error:")]
    return line


def test_osu_point_to_point(tmp_path):
    """The point-to-point family on `pair` (before the fix every OSU program crashed: see
    docs/simulation.md, "OSU"): latency is the platform's one-way time, bandwidth its link."""
    sizes = doubling(1, 4096)
    for prog in ("osu_latency", "osu_latency_persistent"):
        rows, run = results_simulate(tmp_path, "pair", 2, prog, "-m", "1:4096", *OSU_SMALL)
        assert run["simulation"]["platform"] == "pair"
        assert [r["bytes"] for r in rows] == sizes
        for r in rows:
            assert r["repetitions"] == 10 and r["skip"] == 1
            assert r["t_avg_us"] == pytest.approx(one_way_us(r["bytes"]), rel=1e-3), r
    big = doubling(2 ** 20, 2 ** 22)
    for prog, links in (("osu_bw", 1), ("osu_bibw", 2)):
        rows, _ = results_simulate(tmp_path, "pair", 2, prog, "-m", "1048576:4194304",
                                   *OSU_SMALL)
        assert [r["bytes"] for r in rows] == big
        for r in rows:  # OSU's MB/s: 10^6 bytes per second; both directions for bibw
            assert r["mb_per_s"] == pytest.approx(links * PAIR_BW / 1e6, rel=1e-3), r
    rows, _ = results_simulate(tmp_path, CLUSTER4, 4, "osu_multi_lat", "-m", "4:1024",
                               *OSU_SMALL)
    assert [r["bytes"] for r in rows] == doubling(4, 1024)
    for r in rows:  # two pairs, each on links of its own
        assert r["t_avg_us"] == pytest.approx(one_way_us(r["bytes"]), rel=5e-3), r
    rows, _ = results_simulate(tmp_path, CLUSTER4, 4, "osu_mbw_mr", "-m", "4:1024", *OSU_SMALL)
    assert [r["bytes"] for r in rows] == doubling(4, 1024)
    for r in rows:  # two pairs: at most twice a link
        assert r["pairs"] == 2 and 0 < r["mb_per_s"] <= 2 * PAIR_BW / 1e6, r
        assert r["messages_per_s"] == pytest.approx(r["mb_per_s"] * 1e6 / r["bytes"], rel=1e-6)
    assert rows[-1]["mb_per_s"] > rows[0]["mb_per_s"]


def test_osu_blocking_collectives(tmp_path):
    """Blocking collectives on 4 hosts: each crosses the network (two links of 10 us) at
    least once; Allreduce is MPICH's recursive doubling, two exchanges at 4 ranks."""
    sizes = doubling(4, 1024)
    for prog in ("osu_allreduce", "osu_bcast", "osu_alltoallv"):
        rows, _ = results_simulate(tmp_path, CLUSTER4, 4, prog, "-m", "4:1024", *OSU_SMALL)
        assert [r["bytes"] for r in rows] == sizes, (prog, rows)
        for r in rows:
            assert r["procs"] == 4 and 0 < r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"], r
            assert r["t_max_us"] >= 2 * PAIR_LAT_US, r
            if prog == "osu_allreduce":
                assert r["t_avg_us"] == pytest.approx(2 * one_way_us(r["bytes"]), rel=1e-3), r
    (row,) = results_simulate(tmp_path, CLUSTER4, 4, "osu_barrier", *OSU_SMALL)[0]
    assert row["bytes"] == 0 and row["t_avg_us"] >= 2 * PAIR_LAT_US, row


def test_osu_nonblocking_collectives(tmp_path):
    """OSU's overlap method: the compute of each iteration is the rank's pure communication
    time, injected as simulated computation (osu_nbc_compute.c)."""
    for prog in ("osu_iallreduce", "osu_ialltoall", "osu_ibarrier"):
        args = [] if prog == "osu_ibarrier" else ["-m", "4:1024"]
        rows, _ = results_simulate(tmp_path, CLUSTER4, 4, prog, *args, *OSU_SMALL)
        assert [r["bytes"] for r in rows] == ([0] if not args else doubling(4, 1024)), rows
        for r in rows:
            assert r["pure_comm_us"] >= 2 * PAIR_LAT_US / 4, r  # an average over 4 ranks
            assert r["compute_us"] == pytest.approx(r["pure_comm_us"], rel=0.01, abs=0.1), r
            assert r["overall_us"] >= r["compute_us"] and 0 <= r["overlap_pct"] <= 100, r


def native_persistent_collectives():
    return "EB_HAVE_MPI_ALLREDUCE_INIT:INTERNAL=1" in (BUILD / "CMakeCache.txt").read_text()


def test_osu_persistent_collectives(tmp_path):
    """SMPI 3.32 has no MPI_Allreduce_init: MPI_Start issues the matching non-blocking call
    and MPI_Wait completes it (core/coll_emulated.c), said in the run record.  The same
    MPI_Iallreduce runs as in osu_iallreduce, in the same loop (a barrier after each call), so
    each row is that program's pure communication time; SMPI's Iallreduce sends to and
    receives from every other rank at once, so at 4 ranks of private links three messages
    share each link: 2 x 10 us + 3 (s + 16 B) / 100 MB/s.  SMPI's Ibcast: the root sends its
    three messages at once (done at once: small sends are detached), each rank waits for its
    own, the last of the three on the root's link."""
    native = native_persistent_collectives()
    sizes = doubling(4, 64)

    def three_on_a_link(nbytes):
        return 2 * PAIR_LAT_US + 3 * (nbytes + SMPI_ENVELOPE) / PAIR_BW * 1e6

    for prog, call in (("osu_allreduce_persistent", "Allreduce"),
                       ("osu_bcast_persistent", "Bcast")):
        rows, run = results_simulate(tmp_path, CLUSTER4, 4, prog, "-m", "4:64", *OSU_SMALL)
        assert [r["bytes"] for r in rows] == sizes, rows
        if native:  # a SimGrid with MPI-4's calls runs them, emulating nothing
            assert "emulated" not in run["simulation"], run
            continue
        assert run["simulation"]["emulated"] == [
            f"persistent collectives: MPI_I{call.lower()} per MPI_Start, completed by MPI_Wait "
            f"(SMPI 3.32 has no MPI_{call}_init)"], run
        for r in rows:
            assert r["procs"] == 4 and 0 <= r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"], r
            assert r["t_max_us"] == pytest.approx(three_on_a_link(r["bytes"]), rel=1e-3), r
            if prog == "osu_allreduce_persistent":
                assert r["t_avg_us"] == pytest.approx(three_on_a_link(r["bytes"]), rel=1e-3), r
            else:
                assert r["t_min_us"] < 1, r  # the root
        if prog == "osu_allreduce_persistent":
            pure, _ = results_simulate(tmp_path, CLUSTER4, 4, "osu_iallreduce", "-m", "4:64",
                                       *OSU_SMALL)
            for r, p in zip(rows, pure, strict=True):
                assert r["t_avg_us"] == pytest.approx(p["pure_comm_us"], rel=1e-3), (r, p)
    rc, out, err = simulate(tmp_path, CLUSTER4, 4, "osu_barrier_persistent", *OSU_SMALL)
    assert rc == 0, err
    assert "# OSU MPI Barrier Persistent Latency Test v7.4" in out, out
    (row,) = [x for x in out.splitlines() if x and not x.startswith("#")]
    # SMPI's Ibarrier: rank 0 receives from and sends to every rank at once, one message's
    # time each way (osu_barrier's dissemination takes two: 40.3 us)
    assert 2 * PAIR_LAT_US <= float(row) < 4 * PAIR_LAT_US, out
    notes = [x for x in err.splitlines() if x.startswith("effbench: note:")]
    assert notes == [] if native else notes == [
        "effbench: note: emulated in this simulation: persistent collectives: MPI_Ibarrier per "
        "MPI_Start, completed by MPI_Wait (SMPI 3.32 has no MPI_Barrier_init)"], err


NHBR_NOTE = ("neighbourhood collectives: MPI_{call} as point-to-point on the processes' "
             "communicator, an MPI_Irecv from each in-neighbour and an MPI_Isend to each "
             "out-neighbour{start}, then MPI_Waitall (SMPI 3.32 aborts in "
             "MPI_Dist_graph_create_adjacent and the neighbourhood collectives)")


def test_osu_neighbourhood_collectives(tmp_path):
    """SMPI aborts in the topology and the neighbourhood calls: each call is point-to-point
    to the neighbours of OSU's -N (core/coll_emulated.c).  OSU's default cart:1:1 on 4 hosts
    is a ring, each rank's neighbours the ranks before and after it: two messages leave and
    two arrive on each private link, 2 x 10 us + 2 (s + 16 B) / 100 MB/s."""
    sizes = doubling(4, 64)

    def model(nbytes):
        return 2 * PAIR_LAT_US + 2 * (nbytes + SMPI_ENVELOPE) / PAIR_BW * 1e6

    rows, run = results_simulate(tmp_path, CLUSTER4, 4, "osu_neighbor_allgather", "-m", "4:64",
                                 *OSU_SMALL)
    assert run["options"]["topology"] == "cart:1:1"
    assert run["simulation"]["emulated"] == [
        NHBR_NOTE.format(call="Neighbor_allgather", start="")], run
    assert [r["bytes"] for r in rows] == sizes, rows
    for r in rows:
        assert r["procs"] == 4 and r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"], r
        assert r["t_avg_us"] == pytest.approx(model(r["bytes"]), rel=1e-3), r
    rows, run = results_simulate(tmp_path, CLUSTER4, 4, "osu_ineighbor_alltoall", "-m", "4:64",
                                 *OSU_SMALL)
    assert run["simulation"]["emulated"] == [
        NHBR_NOTE.format(call="Ineighbor_alltoall", start=" at the start")], run
    assert [r["bytes"] for r in rows] == sizes, rows
    for r in rows:  # the messages move during the injected compute: the wait finds them done
        assert r["pure_comm_us"] == pytest.approx(model(r["bytes"]), rel=1e-3), r
        assert r["compute_us"] == pytest.approx(r["pure_comm_us"], rel=0.01, abs=0.1), r
        assert r["overall_us"] >= r["compute_us"] and 95 <= r["overlap_pct"] <= 100, r
    rc, out, err = simulate(tmp_path, CLUSTER4, 4, "osu_neighbor_alltoallw", "-m", "4:8",
                            *OSU_SMALL)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "Dimensions size = 4 ", out  # OSU's lines before the title
    # the lists' time: SMPI's MPI_Cart_create sets its communicator up with messages
    assert re.fullmatch(r"Time took to create topology graph:\d+\.\d\d us\.", lines[1]), out
    assert float(lines[1].split(":")[1].split()[0]) > 2 * PAIR_LAT_US, out
    assert [x.split()[0] for x in lines if x and x[0].isdigit()] == ["4", "8"], out
    assert [x for x in err.splitlines() if x.startswith("effbench: note:")] == [
        "effbench: note: emulated in this simulation: "
        + NHBR_NOTE.format(call="Neighbor_alltoallw", start="")], err


def test_osu_one_sided(tmp_path):
    """One-sided programs with their default windows and synchronisations, and -w create and
    dynamic (windows of SMPI's shared buffers): a put or get crosses two links of 10 us.
    (Every program ran with every -w and -s it allows, docs/simulation.md.)"""
    sizes = doubling(1, 1024)
    for prog, args in (("osu_put_latency", []), ("osu_get_bw", ["-w", "dynamic"]),
                       ("osu_put_bibw", []), ("osu_acc_latency", ["-w", "create", "-s", "lock"]),
                       ("osu_cas_latency", [])):
        rows, run = results_simulate(tmp_path, "pair", 2, prog, "-m", "1:1024", *args, *OSU_SMALL)
        if prog in ("osu_fop_latency", "osu_cas_latency"):  # one row: the datatype's size
            assert [r["bytes"] for r in rows] == [1], rows
        else:
            assert [r["bytes"] for r in rows] == sizes, rows
        for r in rows:
            if "bw" in prog:
                assert 0 < r["mb_per_s"] <= (2 if "bibw" in prog else 1) * PAIR_BW / 1e6, r
            else:
                assert r["t_avg_us"] >= 2 * PAIR_LAT_US, r


def test_osu_refusals_name_why(tmp_path):
    """What a simulation cannot run is refused with the reason; osu_hello runs, and OSU's
    data check (-c) is refused as effbench's -check is."""
    assert refused(tmp_path, 2, "osu_latency_mt", platform="pair").endswith(
        "runs threads: not in a simulation (SMPI ranks share one process)")
    assert refused(tmp_path, 2, "osu_latency_mp", platform="pair") == (
        "effbench: error: osu_latency_mp forks processes: not in a simulation (SMPI ranks "
        "share one process)")
    assert "osu_init: not in a simulation: it times MPI_Init on the clock" in \
        refused(tmp_path, 4, "osu_init")
    assert refused(tmp_path, 2, "osu_latency", "-c", platform="pair").startswith(
        "effbench: error: -c: not available in a simulation: SMPI's shared message buffers")
    rc, out, err = simulate(tmp_path, CLUSTER4, 4, "osu_hello")
    assert rc == 0 and "This is a test with 4 processes" in out, err
