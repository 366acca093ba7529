"""effbench's mpibenchmark against real ReproMPI's (bench/reprompi-samples, made from ReproMPI
d40429c, docs/reprompi.md): the same command line prints the same text, numbers masked; its
JSON records and -check."""
import functools
import shlex

import pytest

from effb import BUILD, ROOT, matrix_beyond_first, read_jsonl, run
from osu_helpers import mask_numbers

SAMPLES = ROOT / "bench" / "reprompi-samples"


def samples():
    out = []
    for cmd in sorted(SAMPLES.glob("*.cmd")):
        words = shlex.split(cmd.read_text().splitlines()[0])
        np = int(words[2])
        rest = words[3:]
        args = []
        if rest[0] == "env":  # MPI-time-sync's clock sync came from the environment
            assert rest[1] == "MPITS_PARAMS=--clock-sync=None", rest
            args.append("--clock-sync=None")
            rest = rest[2:]
        assert rest[0] == "mpibenchmark", rest
        out.append((cmd.stem, np, rest[1:] + args))
    return out


def normalised(text):
    """What may differ besides numbers: the program's path, the date, the commit line (ReproMPI
    built from an archive says unknown) and the clock synchronisation's name (MPI-time-sync's
    HCA3O there, core's Linear here; docs/reprompi.md)."""
    lines = []
    for line in text.splitlines():
        if line.startswith("#Command-Line Arguments:"):
            args = [a for a in line.split()[3:] if a != "--clock-sync=None"]  # MPITS_PARAMS
            line = "#Command-Line Arguments: " + " ".join(args)
        elif line.startswith(("# Benchmark started at", "#@reproMPIcommitSHA1=")):
            line = line.split("=")[0].split(" at")[0]
        elif line == "#@clocksync=HCA3O":
            line = "#@clocksync=Linear"
        lines.append(line)
    return mask_numbers("\n".join(lines))


SAMPLE_LIST = samples()


def test_every_sample_is_used():
    assert len(SAMPLE_LIST) >= 12
    assert {s[0] for s in SAMPLE_LIST} >= {"bcast_allreduce", "verbose", "window_global",
                                           "input_file", "summary_all", "pingpong"}


# The test command runs these and one more; CI's matrix stage the others.
QUICK = {"bcast_allreduce", "summary_all", "window_global", "verbose"}


@pytest.mark.parametrize("name,np,args", matrix_beyond_first(
    SAMPLE_LIST, lambda name, np, args: name if name in QUICK else "other"))
def test_same_text_as_reprompi(name, np, args):
    r = run(np, "mpibenchmark", *args, cwd=SAMPLES, timeout=240)
    assert r.returncode == 0, r
    want = (SAMPLES / f"{name}.out").read_text()
    assert normalised(r.stdout) == normalised(want), (r.stdout, want)


def test_json_and_check(tmp_path):
    """One result record per job with the summary of its valid repetitions, methodology
    reprompi, and -check's zero defects over moves, reductions, scans and ping-pongs."""
    out = tmp_path / "rp.jsonl"
    calls = "MPI_Allreduce,MPI_Alltoall,MPI_Scan,MPI_Exscan,MPI_Reduce_scatter,Sendrecv"
    r = run(3, "mpibenchmark", f"--calls-list={calls}", "--msizes-list=8,64", "--nrep=3",
            "--datatype=MPI_INT", "--operation=MPI_SUM", "--pingpong-ranks=0,2", "--root-proc=1",
            "--summary=mean,min", "-check", "--json", out, timeout=120)
    assert r.returncode == 0, r
    recs = read_jsonl(out)
    run_rec, results = recs[0], [x for x in recs if x["type"] == "result"]
    assert run_rec["component"] == "reprompi" and run_rec["methodology"] == "reprompi"
    assert run_rec["options"]["proc_sync"] == "MPI_Barrier" and run_rec["check"] is True
    assert [(x["benchmark"], x["bytes"], x["count"]) for x in results] == [
        (c, b, b // 4) for b in (8, 64) for c in calls.split(",")]
    rows = [l.split() for l in r.stdout.splitlines() if l and not l.startswith("#")][1:]
    for x, row in zip(results, rows):
        assert x["defects"] == 0 and x["repetitions"] == 3 and x["valid_repetitions"] == 3
        assert x["methodology"] == "reprompi" and x["missed_windows"] == 0
        assert row[:4] == [x["benchmark"], str(x["count"]), "3", "3"]
        assert float(row[4]) == pytest.approx(x["t_avg_us"] * 1e-6, abs=1e-10)
        assert float(row[5]) == pytest.approx(x["t_min_us"] * 1e-6, abs=1e-10)
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"


def test_window_codes_are_never_timed(tmp_path):
    """A window far shorter than a call: repetitions with an error code count in total_nrep
    but never in the summary, and the record counts them."""
    out = tmp_path / "w.jsonl"
    r = run(4, "mpibenchmark", "--calls-list=MPI_Allgather", "--msizes-list=8", "--nrep=6",
            "--proc-sync=window", "--window-size=1", "--summary=mean", "--runtime-type=global",
            "--json", out, timeout=120)
    assert r.returncode == 0, r
    (x,) = [x for x in read_jsonl(out) if x["type"] == "result"]
    row = [l.split() for l in r.stdout.splitlines() if l.strip().startswith("MPI_Allgather")][0]
    assert int(row[2]) == 6 and int(row[3]) == x["valid_repetitions"]
    assert x["missed_windows"] == 6 - x["valid_repetitions"] > 0
    assert sum(x["error_codes"].values()) == x["missed_windows"]


@pytest.mark.parametrize("method", ["HCA3", pytest.param("SKaMPI", marks=pytest.mark.matrix),
                                    pytest.param("HCA3_2level", marks=pytest.mark.matrix)])
def test_clock_sync_methods_and_what_they_achieved(method, tmp_path):
    """--clock-sync picks core's method (docs/clock-sync.md); every job's record says it and
    what the check round after it measured; None records none of it."""
    out, off = tmp_path / "c.jsonl", tmp_path / "n.jsonl"
    args = ["--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=4", "--proc-sync=window",
            "--window-size=2000", "--summary=mean"]
    r = run(3, "mpibenchmark", *args, f"--clock-sync={method}", "--json", out, timeout=120)
    assert r.returncode == 0, r
    assert f"#@clocksync={method}\n" in r.stdout
    recs = read_jsonl(out)
    assert recs[0]["options"]["clock_sync"] == method
    (x,) = [x for x in recs if x["type"] == "result"]
    assert x["clock_sync"] == method and x["clock_sync_s"] > 0
    assert 0 <= x["clock_offset_max_us"] < 1e6 and x["clock_check_error_us"] > 0
    assert x["clock_drift_ppm"] >= 0
    r = run(3, "mpibenchmark", *args, "--clock-sync=None", "--json", off, timeout=120)
    assert r.returncode == 0, r
    (x,) = [x for x in read_jsonl(off) if x["type"] == "result"]
    assert x["clock_sync"] == "None"
    assert [x[k] for k in ("clock_offset_max_us", "clock_check_error_us", "clock_drift_ppm")] \
        == [None] * 3


@functools.cache
def mockups():
    """PGMPI's mock-ups as -h lists them: {collective: [names]}."""
    r = run(1, "mpibenchmark", "-h", timeout=60)
    assert r.returncode == 0, r
    lines = r.stdout.split("PGMPI's guideline mock-ups")[1].split("Specific options")[0]
    out, coll = {}, None
    for line in lines.splitlines()[2:]:
        words = line.split()
        if len(words) == 2:
            coll = words[0]
        if words:
            out.setdefault(coll, []).append(words[-1])
    return out


def test_the_mockups_are_pgmpis():
    MOCKUPS = mockups()
    assert MOCKUPS["MPI_Allreduce"] == ["allreduce_as_reduce_bcast",
                                        "allreduce_as_reducescatterblock_allgather",
                                        "allreduce_as_reducescatter_allgatherv",
                                        "allreduce_as_allreduce_lane",
                                        "allreduce_as_allreduce_hier"]
    assert MOCKUPS["MPI_Bcast"][-2:] == ["bcast_as_bcast_lane", "bcast_as_bcast_hier"]
    assert MOCKUPS["MPI_Scan"] == ["scan_as_exscan_reducelocal"]
    assert MOCKUPS["MPI_Reduce"][-2:] == ["reduce_as_reduce_hier", "reduce_as_reduce_lane"]
    assert sum(map(len, MOCKUPS.values())) == 31


# Run k measures the k-th mock-up of every collective that has one.
@pytest.mark.parametrize("k", matrix_beyond_first(range(6), lambda k: k > 0))
def test_mockups_compute_their_collective(k, tmp_path):
    """Every mock-up passes -check at 3 processes (blocks that do not divide), root 1, MPI_INT
    sums, two sizes; its records name it."""
    chosen = {c: names[k] for c, names in mockups().items() if k < len(names)}
    mods = [f"--module={c[4:].lower()}=alg:{n}" for c, n in chosen.items()]
    out = tmp_path / "m.jsonl"
    r = run(3, "mpibenchmark", "--calls-list=" + ",".join(chosen), "--msizes-list=8,20",
            "--nrep=2", "--datatype=MPI_INT", "--operation=MPI_SUM", "--root-proc=1",
            "--summary=mean", "-check", "--json", out, *mods, timeout=120)
    assert r.returncode == 0, r
    results = [x for x in read_jsonl(out) if x["type"] == "result"]
    assert len(results) == 2 * len(chosen)
    for x in results:
        assert x["mockup"] == chosen[x["benchmark"]] and x["defects"] == 0, x


@pytest.mark.parametrize("call", matrix_beyond_first(
    ["MPI_Allreduce", "MPI_Bcast", "MPI_Alltoall", "Send_Recv"], lambda c: c != "MPI_Allreduce"))
def test_check_finds_a_flipped_byte(call, tmp_path):
    """tests/pmpi/corrupt.c flips one byte of the last buffer rank 0 receives (the checked
    call, after the timed ones): -check counts it in that job's record, not in the clean run."""
    from test_corruption import flip_is_reported
    args = [f"--calls-list={call}", "--msizes-list=8", "--nrep=2", "--root-proc=1",
            "--pingpong-ranks=0,1", "--summary=mean", "-check"]
    flip_is_reported(tmp_path, "mpibenchmark", args, lambda rows: 0)


@pytest.mark.parametrize("node_of", matrix_beyond_first(["0,0,1,1", "0,1,0,1", "1,0,0,1,1,0"],
                                                        lambda n: n != "0,0,1,1"))
def test_node_aware_mockups_on_several_nodes(node_of, tmp_path):
    """Lane and Hier on ranks that tests/pmpi/nodes.c places on two or three nodes (in
    blocks, alternating, scattered): -check finds no defect; the root is on the last node."""
    env = {"LD_PRELOAD": str(BUILD / "libeb_nodes.so"), "EFFBENCH_NODE_OF": node_of}
    np = node_of.count(",") + 1
    calls = "MPI_Allreduce,MPI_Bcast,MPI_Allgather,MPI_Reduce"
    for kind in ("lane", "hier"):
        mods = [f"--module={c[4:].lower()}=alg:{c[4:].lower()}_as_{c[4:].lower()}_{kind}"
                for c in calls.split(",")]
        out = tmp_path / f"{kind}.jsonl"
        r = run(np, "mpibenchmark", f"--calls-list={calls}", "--msizes-list=8,20",
                "--nrep=2", "--datatype=MPI_INT", "--operation=MPI_SUM", f"--root-proc={np - 2}",
                "--summary=mean", "-check", "--json", out, *mods, extra_env=env, timeout=120)
        assert r.returncode == 0, r
        results = [x for x in read_jsonl(out) if x["type"] == "result"]
        assert len(results) == 8 and all(x["defects"] == 0 for x in results), results
        assert {x["mockup"] for x in results} == {m.split("alg:")[1] for m in mods}


def test_lane_needs_regular_nodes():
    env = {"LD_PRELOAD": str(BUILD / "libeb_nodes.so"), "EFFBENCH_NODE_OF": "0,0,1"}
    r = run(3, "mpibenchmark", "--calls-list=MPI_Bcast", "--msizes-list=8", "--nrep=2",
            "--module=bcast=alg:bcast_as_bcast_lane", extra_env=env, timeout=60)
    assert r.returncode == 2, r
    assert ("effbench: error: --module: the Lane mock-ups need the same number of processes "
            "on every node") in r.stderr, r
