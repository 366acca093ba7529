"""`effbench guidelines` (docs/guidelines.md): the truth is a forced slow algorithm.

Open MPI's coll_tuned and MPICH's CVARs let a run replace MPI_Bcast's algorithm: the checker
must flag the library's Bcast against its mock-up Scatter + Allgather at the size where the
forced algorithm is slow, and not at 8 bytes (one segment, no slower), and with the library's
default must flag nothing.  2 ranks (one per core of this box), 10 rounds, -check on.

The forced algorithms (measured here, docs/guidelines.md "Measured here"):
- Open MPI 4.1: pipeline (coll_tuned_bcast_algorithm=3) in 64-byte segments, 1 MiB: about
  6.6 ms against 0.8 ms for Scatter + Allgather (4 to 10 times slower);
- MPICH 4.0: Bcast through the nonblocking Ibcast (MPIR_CVAR_BCAST_INTRA_ALGORITHM=nb) as
  a ring in 64-byte chunks (tsp_ring, MPIR_CVAR_IBCAST_RING_CHUNK_SIZE=64), 64 KiB: about
  1.7 ms against 0.06 ms (15 to 30 times slower).
"""
import json
import re

import pytest

import effb
from effbench.importers import parse_file
from effbench.validate import record_problems

MOCKUP = "bcast_as_scatter_allgather"
FORCED = {
    "openmpi": ({"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                 "OMPI_MCA_coll_tuned_bcast_algorithm": "3",
                 "OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize": "64"}, 1048576),
    "mpich": ({"MPIR_CVAR_BCAST_DEVICE_COLLECTIVE": "0",
               "MPIR_CVAR_BCAST_INTRA_ALGORITHM": "nb",
               "MPIR_CVAR_IBCAST_INTRA_ALGORITHM": "tsp_ring",
               "MPIR_CVAR_IBCAST_RING_CHUNK_SIZE": "64"}, 65536),
}
HEADER = ("collective                     bytes mock-up                                      "
          "  t_coll[us]   t_mock[us]   factor              interval    p_holm verdict")
ROW = re.compile(r"^(MPI_\w+) +(\d+) +(\w+) +([\d.]+) +([\d.]+) +([\d.]+) +"
                 r"\[([\d.e+-]+), ([\d.e+-]+)\] +([\d.e+-]+) (ok|VIOLATED)$")


def forced():
    if effb.MPI not in FORCED:
        pytest.skip(f"no forced slow algorithm known for {effb.MPI} (docs/guidelines.md)")
    return FORCED[effb.MPI]


def run_check(tmp_path, extra_env, slow_size):
    out = tmp_path / "g.jsonl"
    r = effb.run(2, "effbench", "guidelines", f"--mockups={MOCKUP}", f"--sizes=8,{slow_size}",
                 "--rounds=10", "--seed=7", "-check", "--json", out, timeout=240,
                 extra_env=extra_env)
    lines = r.stdout.splitlines()
    assert HEADER in lines, r
    rows = {int(m[2]): m for m in map(ROW.match, lines) if m}
    assert sorted(rows) == [8, slow_size], r
    for m in rows.values():
        assert m[1] == "MPI_Bcast" and m[3] == MOCKUP
        assert 0 < float(m[7]) <= float(m[8]), m[0]  # printed to 3 significant digits
    assert "# -check: 0 defects" in lines, r
    assert "# effbench guidelines: 2 processes, 10 rounds, 5 repetitions per time, seed 7" \
        in lines, r
    records = effb.read_jsonl(out)
    assert all(not record_problems(rec) for rec in records), \
        [record_problems(rec) for rec in records]
    run_rec = records[0]
    assert run_rec["type"] == "run" and run_rec["methodology"] == "guidelines"
    assert run_rec["options"]["rounds"] == 10 and run_rec["options"]["sizes"] == [8, slow_size]
    results = [x for x in records if x["type"] == "result"]
    assert [x["bytes"] for x in results] == [8, slow_size]
    for x in results:
        m = rows[x["bytes"]]
        assert x["component"] == "guidelines" and x["benchmark"] == "MPI_Bcast"
        assert x["mockup"] == MOCKUP and x["rounds"] == 10 and x["comparisons"] == 2
        assert x["defects"] == 0 and x["alpha"] == 0.05 and x["confidence"] == 0.95
        assert f"{x['t_median_us']:.2f}" == m[4] and f"{x['factor']:.3f}" == m[6]
        assert x["violated"] == (m[10] == "VIOLATED")
        assert x["p_holm"] >= x["p"] and x["p_method"] in ("exact", "normal")
        # factor = median(collective) / median(mock-up)
        assert x["factor"] == pytest.approx(x["t_median_us"] / x["t_mockup_median_us"], rel=1e-9)
        assert f"{x['factor_low']:.3g}" == m[7] and f"{x['factor_high']:.3g}" == m[8]
        assert 0 < x["factor_low"] <= x["factor_high"]
        assert x["t_min_us"] <= x["t_median_us"] <= x["t_max_us"]
        assert x["t_min_us"] <= x["t_avg_us"] <= x["t_max_us"]
    assert records[-1]["type"] == "end"
    run_parsed = parse_file(out)  # the importer takes the file as it takes any run
    assert [x["mockup"] for x in run_parsed.results] == [MOCKUP, MOCKUP]
    return r, {b: m[10] for b, m in rows.items()}


@pytest.mark.asan
def test_default_algorithm_is_not_flagged(tmp_path):
    _, slow_size = forced()
    r, verdicts = run_check(tmp_path, {}, slow_size)
    assert verdicts == {8: "ok", slow_size: "ok"}, r
    assert r.returncode == 0, r
    assert "# 0 of 2 guidelines violated" in r.stdout


def test_forced_slow_algorithm_is_flagged(tmp_path):
    env, slow_size = forced()
    r, verdicts = run_check(tmp_path, env, slow_size)
    assert verdicts == {8: "ok", slow_size: "VIOLATED"}, r
    assert r.returncode == 1, r
    assert "# 1 of 2 guidelines violated" in r.stdout


@pytest.mark.matrix
@pytest.mark.parametrize("slow", [False, True], ids=["default", "forced"])
def test_verdict_holds_three_times_in_a_row(tmp_path, slow):
    env, slow_size = forced()
    want = {8: "ok", slow_size: "VIOLATED" if slow else "ok"}
    for k in range(3):
        (tmp_path / str(k)).mkdir()
        r, verdicts = run_check(tmp_path / str(k), env if slow else {}, slow_size)
        assert verdicts == want, (k, r)


@pytest.mark.parametrize("args, message", effb.matrix_beyond_first([
    (["--sizes=6"], "--sizes: '6' is not a positive multiple of 4 bytes (at most 67108864)"),
    (["--mockups=nope"], "--mockups: unknown mock-up 'nope' (see -h)"),
    (["--collectives=MPI_Barrier"],
     "--collectives: 'MPI_Barrier' is no collective with mock-ups (see -h)"),
    (["--collectives=scan", f"--mockups={MOCKUP}"],
     "--mockups names no mock-up of MPI_Scan, which --collectives asks for"),
    (["--rounds=1"], "--rounds: '1' is not an integer in [2, 1000000]"),
    (["--alpha=1"], "--alpha: '1' is not a number between 0 and 1"),
], key=lambda args, message: "bad input"))
def test_bad_input(args, message):
    r = effb.run(2, "effbench", "guidelines", *args, timeout=120)
    assert r.returncode == 2, r
    assert f"effbench: error: {message}" in r.stderr, r
