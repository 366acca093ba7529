"""The b_eff, b_eff_io and SKaMPI records as the C components write them (checked-in fixtures,
tests/python/data/effbench) through import and store, and the original tools' output imported
into the same names, so that both compare row by row."""

from __future__ import annotations

import os
import tempfile

import pytest
from conftest import DATA, run_c

from effbench.cli import main
from effbench.components import BEFF_LOGAVG, BEFF_LOGAVG_RINGS, beff_analysis
from effbench.compare import compare_runs, comparable_rows
from effbench.importers import parse_file
from effbench.records import identity_key
from effbench.store.db import Store

FIXTURES = DATA / "effbench"


def stored(url: str, path) -> tuple:
    """Import PATH with the command line and load it back from the store."""
    assert main(["import", "--db", url, str(path)]) == 0
    with Store(url) as store:
        return store.load(1), parse_file(path)


def test_beff_records_stored(sqlite_url):
    run, parsed = stored(sqlite_url, FIXTURES / "beff_np4.jsonl")
    assert run.run["component"] == "beff" and run.run["procs"] == 4
    # (2 patterns x 3 methods + the ping-pong pair, Sendrecv only) x 2 lengths x 3 repetitions
    assert len(run.results) == (2 * 3 + 1) * 2 * 3
    first = run.results[0]
    assert {k: first[k] for k in ("benchmark", "procs", "bytes", "repetitions", "pattern",
                                  "pattern_kind", "method", "rep", "length_index", "messages",
                                  "active_procs", "b_mb_per_s", "t_avg_us", "mbytes_per_s")} \
        == {"benchmark": "ring-2*2fix", "procs": 4, "bytes": 1, "repetitions": 300,
            "pattern": 0, "pattern_kind": "ring", "method": "sendrecv", "rep": 0,
            "length_index": 0, "messages": 4, "active_procs": 4,
            "b_mb_per_s": 1.1005196286846775, "t_avg_us": 3.0910558333333333,
            "mbytes_per_s": None}
    assert {r["pattern_kind"] for r in run.results} == {"ring", "random", "analysis"}
    assert {r["method"] for r in run.results} == {"sendrecv", "alltoallv", "nonblocking"}
    s = run.summaries[0]
    assert (s["b_eff_mb_per_s"], s["b_eff_per_proc_mb_per_s"], s["procs"], s["l_max_bytes"]) \
        == (1753.7119452100665, 438.42798630251662, 4, 8192)
    assert run.records() == parsed.records()  # every field comes back


def test_beff_io_records_stored(sqlite_url):
    run, parsed = stored(sqlite_url, FIXTURES / "beff_io_np2.jsonl")
    pattern = run.results[1]
    assert {k: pattern[k] for k in ("benchmark", "level", "procs", "access", "pattern_type",
                                    "pattern", "bytes", "chunk_disk_bytes", "chunk_mem_bytes",
                                    "repetitions", "moved_bytes", "scheduled_s", "mb_per_s",
                                    "t_min_us", "t_max_us", "t_avg_us")} \
        == {"benchmark": "scatter", "level": "pattern", "procs": 2, "access": "write",
            "pattern_type": 0, "pattern": 1, "bytes": 2097152, "chunk_disk_bytes": 2097152,
            "chunk_mem_bytes": 2097152, "repetitions": 8, "moved_bytes": 33554432,
            "scheduled_s": 0.041666666666666664, "mb_per_s": 338.84745240468425,
            "t_min_us": None, "t_max_us": None, "t_avg_us": None}
    # a type's total: no chunk size, no repetition count, no time per repetition
    totals = [r for r in run.results if r["level"] == "type"]
    assert [(t["access"], t["bytes"], t["repetitions"], t["t_avg_us"]) for t in totals] == \
        [("write", 0, None, None), ("read", 0, None, None)]
    assert totals[0]["mb_per_s"] == 308.00834303046491
    s = run.summaries[0]
    assert (s["b_eff_io_mb_per_s"], s["b_eff_io_rel21_mb_per_s"], s["procs"]) == \
        (3570.5829618331518, 1452.8175819692781, 2)
    assert [p["procs"] for p in s["partitions"]] == [1, 2]
    assert run.records() == parsed.records()


def test_skampi_records_stored(sqlite_url):
    run, parsed = stored(sqlite_url, FIXTURES / "skampi_np2.jsonl")
    assert [r["benchmark"] for r in run.results] == [
        "Pingpong_Send_Recv", "Pingpong_Send_Recv", "MPI_Bcast-length",
        "MPI_Bcast-nodes", "MasterWorker_Send-length", "MasterWorker_Send-length", "MPI_Wtime"]
    first = run.results[0]
    assert {k: first[k] for k in ("procs", "bytes", "repetitions", "t_avg_us", "std_error_us",
                                  "kept", "count", "nodes", "chunks", "variation", "refined",
                                  "sync", "pair", "node_times_us")} \
        == {"procs": 2, "bytes": 0, "repetitions": 40, "t_avg_us": 1.3505789999999973,
            "std_error_us": 0.057406713559640797, "kept": 32, "count": 0, "nodes": 2,
            "chunks": None, "variation": "Length", "refined": False, "sync": None,
            "pair": [0, 1], "node_times_us": [1.3505789999999973, 0.0723902500000006]}
    assert [r["variation"] for r in run.results if r["benchmark"].endswith("nodes")] == ["Nodes"]
    assert run.results[-1]["calls_per_run"] == 1024
    assert run.records() == parsed.records()


# --- the original tools' text meets the same rows ---------------------------------------------

def test_beff_original_and_effbench_rows_compare(samples):
    original = parse_file(samples / "beff/b_eff_np4.short")  # b_eff 3.6, 4 processes
    effbench = parse_file(FIXTURES / "beff_np4.jsonl")
    ours = {identity_key(r): r for r in comparable_rows(effbench)}
    theirs = {identity_key(r): r for r in comparable_rows(original)}
    # per pattern, method and length: the maximum over effbench's three repetitions
    # (the last four: host memory on both sides, no staging; devices.device_identity)
    key = ("beff", "ring-2*2fix", None, None, 4, 1, 0, "sendrecv", None, "beff-3.6",
           "host", "host", None, None)
    assert key in ours and key in theirs
    reps = [r["b_mb_per_s"] for r in effbench.results
            if (r["pattern"], r["method"], r["bytes"]) == (0, "sendrecv", 1)]
    assert len(reps) == 3 and ours[key]["b_mb_per_s"] == max(reps)
    assert theirs[key]["b_mb_per_s"] == pytest.approx(4 * 0.756)  # printed per process
    # patterns 0, 6 x (3 methods + best) and 39 x (Sendrecv + best) at 2 lengths, and the
    # averages over the ring and random pattern kept: rings, random, both (best method) and
    # both per method, at 2 lengths; all of them in the original's tables
    common = ours.keys() & theirs.keys()
    assert common == ours.keys() and len(common) == (2 * 4 + 2) * 2 + (3 + 3) * 2
    assert {k[1] for k in common} == {"ring-2*2fix", "random-cyc-1dim", "one PingPong Pair",
                                      "log_avg of all rings", "log_avg of all random",
                                      "log_avg(ring,random)"}
    cmp = compare_runs(original, effbench)
    assert len(cmp.rows) == len(common) and cmp.only_b == 0
    assert all(r.metric == "bandwidth" for r in cmp.rows)
    assert "ring-2*2fix p00 sendrecv" in {r.label for r in cmp.rows}


def test_beff_io_original_and_effbench_rows_compare(samples):
    original = parse_file(samples / "beff_io/b_eff_io_np2.prot")  # b_eff_io 2.1
    effbench = parse_file(FIXTURES / "beff_io_np2.jsonl")
    cmp = compare_runs(original, effbench)
    # partition 2, type 0: 9 patterns and the type total, write and read
    assert len(cmp.rows) == 2 * (9 + 1) and cmp.only_b == 0
    labels = {r.label for r in cmp.rows}
    assert {"scatter pattern write p01", "scatter type read"} <= labels


def test_skampi_original_and_effbench_rows_compare(samples):
    cmp = compare_runs(parse_file(samples / "skampi/pt2pt_np2.sko"),
                       parse_file(FIXTURES / "skampi_np2.jsonl"))
    assert [(r.label, r.key[5]) for r in cmp.rows] == [("Pingpong_Send_Recv", 4)]


# --- the C program's protocol and JSON agree -------------------------------------------------

def test_beff_protocol_and_json(effbench_bin, mpiexec, mpi_env, tmp_path):
    jsonl, text = run_c(effbench_bin, mpiexec, mpi_env, tmp_path, "beff", 2,
                        ["beff", "--mem-per-proc", "1", "--random-patterns", "2", "--loop-ms",
                         "0.05", "--repeat", "1", "--seed", "1"])
    pj, pt = parse_file(jsonl), parse_file(text)
    assert pt.run["tool"] == "effbench" and pt.source_format == "beff"
    # the protocol lists every measurement: the same rows, rounded to 3 decimals
    assert len(pj.results) == len(pt.results)
    for rj, rt in zip(pj.results, pt.results):
        assert identity_key(rj) == identity_key(rt)
        assert abs(rj["b_mb_per_s"] - rt["b_mb_per_s"]) <= 0.0005 + 1e-9
    sj, st = pj.summaries[0], pt.summaries[0]
    for key in ("b_eff_mb_per_s", "b_eff_lmax_mb_per_s", "latency_rings_us",
                "pingpong_bw_mb_per_s"):
        assert abs(sj[key] - st[key]) <= 0.5, key  # the table rounds to whole MB/s
    cmp = compare_runs(pj, pt)
    # The log averages of the text are taken over values printed to 0.001 MB/s: where a length's
    # values are that small (1-8 bytes on a busy machine: 0.000-0.05 MB/s), rounding moves an
    # average by more than its own noise says, and a printed 0.000 is no value at all.
    coarse = {r["bytes"] for r in pt.results if r.get("rep") is not None
              and r["b_mb_per_s"] < 0.05}
    assert cmp.only_a == cmp.only_b == 0
    assert [r for r in cmp.rows if r.flag
            and not (r.label.startswith("log_avg") and r.key[5] in coarse)] == []
    # the analysis view is b_eff's own averaging: its summary follows from it
    view = {(r["benchmark"], r["method"], r["bytes"]): r["b_mb_per_s"]
            for r in beff_analysis(pj.results)}
    lmax, procs = sj["l_max_bytes"], sj["procs"]
    assert procs / view[(BEFF_LOGAVG, "best", 1)] == pytest.approx(sj["latency_us"], rel=1e-12)
    assert procs / view[(BEFF_LOGAVG_RINGS, "best", 1)] == \
        pytest.approx(sj["latency_rings_us"], rel=1e-12)
    assert view[(BEFF_LOGAVG, "best", lmax)] == pytest.approx(sj["b_eff_lmax_mb_per_s"],
                                                              rel=1e-12)
    assert view[(BEFF_LOGAVG_RINGS, "best", lmax)] == \
        pytest.approx(sj["b_eff_lmax_rings_mb_per_s"], rel=1e-12)


def test_beff_io_protocol_and_json(effbench_bin, mpiexec, mpi_env, tmp_path_factory):
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None  # b_eff_io writes ~1 GB
    with tempfile.TemporaryDirectory(dir=shm) as files:
        out = tmp_path_factory.mktemp("beff_io")
        jsonl, text = run_c(effbench_bin, mpiexec, mpi_env, out, "beff_io", 2,
                            ["beff_io", "-T", "2", "--mem-per-proc", "16", "--path", files])
    pj, pt = parse_file(jsonl), parse_file(text)
    assert pt.run["tool"] == "effbench" and len(pj.results) == len(pt.results)
    assert all(identity_key(a) == identity_key(b) for a, b in zip(pj.results, pt.results))
    cmp = compare_runs(pj, pt)
    assert cmp.only_a == cmp.only_b == 0 and len(cmp.rows) == len(pj.results)
    sj, st = pj.summaries[0], pt.summaries[0]
    assert abs(sj["b_eff_io_mb_per_s"] - st["b_eff_io_mb_per_s"]) <= 0.0005 + 1e-9
    assert abs(sj["b_eff_io_rel21_mb_per_s"] - st["b_eff_io_rel21_mb_per_s"]) <= 0.0005 + 1e-9
    assert [p["procs"] for p in st["partitions"]] == [1, 2]
