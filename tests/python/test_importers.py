"""Every importer on real output: the original tools' samples, IMB text shaped as the user
guide's samples, and the C program's own JSON Lines and IMB text made in this test run."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from effbench.importers import FormatError, detect_format, parse_file


def by_bench(parsed, bench, **match):
    return [r for r in parsed.results if r["benchmark"] == bench
            and all(r.get(k) == v for k, v in match.items())]


# --- IMB text ------------------------------------------------------------------------------------

def test_imb_p2p_sample(samples):
    p = parse_file(samples / "imb/mpi1_np2_p2p.txt")
    assert p.source_format == "imb" and p.run["component"] == "mpi1"
    assert p.run["tool"] == "IMB" and p.run["version"] == "2021.11"
    assert p.run["start"] == "2026-11-22T03:10:02"
    assert p.run["command_line"] == ["./IMB-MPI1", "PingPong", "PingPing", "Sendrecv",
                                     "Exchange"]
    assert p.run["uname"]["release"] == "6.18.44-fc-v595"
    assert len(p.results) == 96
    assert [len(by_bench(p, b)) for b in ("PingPong", "PingPing", "Sendrecv", "Exchange")] == \
        [24, 24, 24, 24]
    last = by_bench(p, "PingPong")[-1]
    assert (last["bytes"], last["repetitions"], last["t_max_us"], last["mbytes_per_s"]) == \
        (4194304, 10, 472.60, 8874.91)
    # the one time column is IMB's maximum over the processes; no minimum, no average
    assert last["t_min_us"] is None and last["t_avg_us"] is None
    assert last["sync"] == "barrier"
    ex = by_bench(p, "Exchange")[-1]
    assert (ex["t_min_us"], ex["t_max_us"], ex["t_avg_us"]) == (1042.09, 1042.49, 1042.29)
    assert p.end["status"] == "ok"


def test_imb_collectives_and_barrier(samples):
    p = parse_file(samples / "imb/mpi1_np4_coll_run2.txt")
    assert p.run["procs"] == 4
    allreduce = by_bench(p, "Allreduce")
    assert len(allreduce) == 20 and allreduce[0]["bytes"] == 0 and allreduce[1]["bytes"] == 4
    assert allreduce[0]["mbytes_per_s"] is None
    barrier = by_bench(p, "Barrier")
    assert len(barrier) == 1 and barrier[0]["bytes"] == 0 and barrier[0]["t_avg_us"] == 2.86


def test_imb_check_defects(samples):
    p = parse_file(samples / "imb/mpi1_check_np2.txt")
    assert p.run["check"] is True
    assert all(r["defects"] == 0 for r in by_bench(p, "PingPong"))
    assert len(by_bench(p, "Allreduce")) == 16


def test_imb_not_checked_row(samples, tmp_path):
    """effbench's -check prints "not checked" in the defects column of a benchmark without a
    data check (a barrier): one cell, read as defects null and checked false."""
    text = (samples / "imb/mpi1_check_np2.txt").read_text()
    text = text.replace(" #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
                        "         1000         0.40         0.40         0.40\n",
                        " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects\n"
                        "         1000         0.40         0.40         0.40  not checked\n")
    assert "not checked" in text
    path = tmp_path / "check.txt"
    path.write_text(text)
    p = parse_file(path)
    barrier = by_bench(p, "Barrier")
    assert [(r["defects"], r["checked"], r["t_avg_us"]) for r in barrier] == [(None, False, 0.40)]
    assert {(r["defects"], r["checked"]) for r in by_bench(p, "PingPong")} == {(0, True)}
    assert p.skipped_lines == 0


@pytest.mark.parametrize("name,component,rows", [
    ("ext_np2.txt", "ext", 154), ("io_np2.txt", "io", 96), ("rma_np2.txt", "rma", 216),
    ("nbc_np2_iallreduce.txt", "nbc", 22), ("mpi1_np2_full_default.txt", "mpi1", 423)])
def test_imb_parts(samples, name, component, rows):
    p = parse_file(samples / "imb" / name)
    assert p.run["component"] == component
    assert len(p.results) == rows
    assert all(r["component"] == component for r in p.results)


def test_imb_modes_nbc_rma(samples):
    ext = parse_file(samples / "imb/ext_np2.txt")
    assert {r["mode"] for r in by_bench(ext, "Unidir_Put")} == {"aggregate", "non-aggregate"}
    assert by_bench(ext, "Window")[0]["mode"] is None
    nbc = parse_file(samples / "imb/nbc_np2_iallreduce.txt")
    row = [r for r in nbc.results if r["bytes"] == 4][0]
    assert (row["t_ovrl_us"], row["t_pure_us"], row["t_cpu_us"], row["overlap_pct"]) == \
        (2.28, 1.29, 1.31, 24.83)
    # t_ovrl of the process with the largest t_ovrl: effbench's t_max_us, as in its JSON
    assert row["t_max_us"] == 2.28 and row["t_avg_us"] is None
    io = parse_file(samples / "imb/io_np2.txt")
    assert {r["procs"] for r in by_bench(io, "P_Read_Expl")} == {1, 2}
    rma = parse_file(samples / "imb/rma_np2.txt")
    tpp = by_bench(rma, "Truly_passive_put")
    assert len(tpp) == 24 and tpp[-1]["t_pure_us"] == 364.26 and tpp[-1]["t_ovrl_us"] == 412.18
    assert tpp[-1]["t_max_us"] == 364.26  # its first time column, t_pure, as effbench's JSON


def test_imb_guide_multi_mode_sample():
    from conftest import DATA
    p = parse_file(DATA / "imb_guide_multi.txt")
    assert p.run["component"] == "mpi1" and p.run["version"] == "3.2.2"
    assert p.run["thread_level"] == "MPI_THREAD_SINGLE" and p.run["mpi_version"] == "2.0"
    multi = by_bench(p, "Multi-PingPing")
    assert [r["bytes"] for r in multi] == [100, 1000, 10000, 100000, 1000000]
    assert all(r["procs"] == 2 and r["groups"] == 3 for r in multi)
    assert {r["procs"] for r in by_bench(p, "Allreduce")} == {4, 6}
    assert by_bench(p, "Allreduce", procs=6)[-1]["t_max_us"] == 2050.12


def test_imb_guide_multi1_groups_and_defects():
    from conftest import DATA
    p = parse_file(DATA / "imb_guide_multi1_defects.txt")
    assert [r["group"] for r in p.results] == [0, 0, 0, 1, 1, 1]
    assert [r["defects"] for r in p.results] == [0, 0, 0, 0, 0, 2]
    assert p.run["check"] is True and p.run["version"] == "4.0"


# --- b_eff, b_eff_io, SKaMPI -------------------------------------------------------------------

def test_beff_short(samples):
    p = parse_file(samples / "beff/b_eff_np4.short")
    assert p.run["component"] == "beff" and p.run["procs"] == 4 and p.run["version"] == "3.6.0.1"
    assert p.run["tool"] == "b_eff" and p.run["options"]["random_patterns"] == 30
    # 48 patterns x 6 lengths (best method) + 48 x 3 methods x 6 + 21 lengths x 6 averages
    assert len(p.results) == 48 * 6 + 48 * 3 * 6 + 21 * 6
    # the names and conventions of effbench's beff records: per-process values x 4 processes
    p00 = [r for r in p.results if r["pattern"] == 0 and r["method"] == "best"]
    assert [r["bytes"] for r in p00] == [1, 16, 256, 4096, 46341, 524288]
    assert p00[-1]["b_mb_per_s"] == pytest.approx(4 * 3436.681)
    assert (p00[0]["benchmark"], p00[0]["pattern_kind"], p00[0]["rep"]) == \
        ("ring-2*2fix", "ring", None)
    assert {r["pattern_kind"] for r in p.results if r["pattern"] in (6, 35, 36)} == \
        {"random", "analysis"}
    sendrecv = [r for r in p.results if r["pattern"] == 0 and r["method"] == "sendrecv"]
    assert sendrecv[0]["b_mb_per_s"] == pytest.approx(4 * 0.756)
    rings = by_bench(p, "log_avg of all rings")
    assert len(rings) == 21 and rings[-1]["bytes"] == 524288
    assert rings[-1]["b_mb_per_s"] == pytest.approx(4 * 1605.913)
    assert {r["pattern_kind"] for r in rings} == {"average"} and rings[0]["pattern"] is None
    nonblk = by_bench(p, "log_avg(ring,random)", method="nonblocking")
    assert len(nonblk) == 21 and nonblk[0]["b_mb_per_s"] == pytest.approx(4 * 0.504)
    s = p.summaries[0]
    assert (s["b_eff_mb_per_s"], s["b_eff_per_proc_mb_per_s"], s["latency_us"],
            s["pingpong_bw_mb_per_s"], s["l_max_bytes"], s["mem_per_proc_mb"]) == \
        (1637.002, 409.25, 1.843, 5203.257, 524288, 64)
    assert (s["b_eff_lmax_mb_per_s"], s["b_eff_lmax_per_proc_mb_per_s"],
            s["b_eff_lmax_rings_mb_per_s"], s["b_eff_lmax_rings_per_proc_mb_per_s"]) == \
        (4883.812, 1220.953, 6423.654, 1605.913)
    # 3.6 prints "Latency ring pattern" divided by P; the table has 1 / (per-process b at 1 B)
    assert s["latency_rings_us"] == 1.802
    assert (s["b_eff_rings_mb_per_s"], s["b_eff_random_mb_per_s"]) == (1620.162, 1654.016)
    assert (s["elapsed_s"], s["timed_loops_s"], p.end["elapsed_s"]) == (82.103, 81.59, 82.0)


def test_beff_sum(samples):
    p = parse_file(samples / "beff/b_eff_np2.sum")
    assert p.results == [] and p.run["procs"] == 2
    s = p.summaries[0]
    assert (s["b_eff_mb_per_s"], s["latency_us"], s["pingpong_latency_us"]) == \
        (3765.406, 0.441, 0.412)
    assert p.run["uname"]["nodename"] == "vm"


def test_beff_io_prot_and_sum(samples):
    prot = parse_file(samples / "beff_io/b_eff_io_np2.prot")
    assert prot.run["component"] == "beff_io" and prot.run["version"] == "2.1"
    assert prot.run["options"]["partitions"] == [1, 2] and prot.run["options"]["T_s"] == 60
    patterns = [r for r in prot.results if r["level"] == "pattern"]
    types = [r for r in prot.results if r["level"] == "type"]
    assert len(patterns) == 190 and len(types) == 2 * (5 + 1 + 5)
    first = patterns[0]
    assert (first["benchmark"], first["procs"], first["access"], first["pattern_type"],
            first["pattern"], first["bytes"], first["chunk_disk_bytes"],
            first["chunk_mem_bytes"], first["repetitions"], first["moved_bytes"],
            first["mb_per_s"], first["t_avg_us"]) == \
        ("scatter", 1, "write", 0, 0, 1048576, 1048576, 1048576, 1, 1048576, 831.278, None)
    p1 = patterns[1]  # t= 0.92 = 0.801+ 0.000+0.000+0.115: I/O, barrier, bcast, sync
    assert (p1["scheduled_s"], p1["t_us"], p1["t_io_us"], p1["t_check_us"], p1["t_sync_us"]) \
        == (0.8, 920000.0, 801000.0, 0.0, 115000.0)
    seg = next(r for r in types if r["benchmark"] == "segmented" and r["procs"] == 1)
    assert (seg["bytes"], seg["repetitions"], seg["mb_per_s"], seg["segment_bytes"]) == \
        (0, None, 166.370, 536 << 20)
    final = prot.summaries[-1]
    # 2.1's b_eff_io is its sqrt(W*R) formula, effbench's b_eff_io_rel21_mb_per_s
    assert final["b_eff_io_rel21_mb_per_s"] == 646.843 and final["b_eff_io_mb_per_s"] is None
    assert final["valid"] is False and final["T_partition_s"] == 30
    assert final["rewrite_type0_only"] is True
    assert final["partitions"][0] == {"procs": 1, "write_mb_per_s": 227.621,
                                      "rewrite_mb_per_s": 821.027, "read_mb_per_s": 1321.933,
                                      "segment_bytes": 536 << 20,
                                      "b_eff_io_rel21_mb_per_s": 646.843}
    summ = parse_file(samples / "beff_io/b_eff_io_np2.sum")
    # per partition: 7 chunk sizes x (5 write + 1 rewrite + 5 read) types, the types' totals
    # and pattern 2 (3 access methods)
    assert len(summ.results) == 2 * (7 * 11 + 11 + 3)
    cell = [r for r in summ.results if r["procs"] == 2 and r["access"] == "read"
            and r["pattern_type"] == 2 and r["bytes"] == 32768][0]
    assert (cell["mb_per_s"], cell["pattern"], cell["level"]) == (12204.861, 20, "pattern")
    # the table cells are the protocol's patterns: same identity, same value
    from effbench.records import identity_key
    prot_rows = {identity_key(r): r["mb_per_s"] for r in prot.results}
    assert all(prot_rows[identity_key(r)] == r["mb_per_s"] for r in summ.results)
    assert summ.summaries[-1]["invalid_reason"] == "scheduled time 0.5 min >= 30 min"
    assert summ.summaries[-1]["errors"] == 0


def test_skampi(samples):
    pt = parse_file(samples / "skampi/pt2pt_np2.sko")
    assert pt.run["component"] == "skampi" and pt.run["version"] == "6.0.0"
    rows = by_bench(pt, "Pingpong_Send_Recv")
    assert len(rows) == 24 and rows[0]["variation"] == "Length" and rows[0]["bytes"] == 4
    assert (rows[0]["count"], rows[0]["nodes"], rows[0]["chunks"]) == (1, 2, None)
    assert (rows[-1]["bytes"], rows[-1]["t_avg_us"], rows[-1]["std_error_us"],
            rows[-1]["repetitions"], rows[-1]["node_times_us"]) == \
        (16384, 6.1, 0.2, 16, [5.7, 6.0])
    coll = parse_file(samples / "skampi/coll_np2.sko")
    assert len(coll.results) == 737
    procs_rows = by_bench(coll, "MPI_Bcast-procs-short")
    assert procs_rows[0]["variation"] == "Nodes" and procs_rows[0]["procs"] == 2
    assert procs_rows[0]["count"] is None
    assert coll.end["elapsed_s"] == 7.0


# --- the C program's own output ----------------------------------------------------------------

def test_c_jsonl_and_text_agree(c_output):
    jsonl, text = c_output["p2p"]
    pj, pt = parse_file(jsonl), parse_file(text)
    assert detect_format(jsonl) == "jsonl" and detect_format(text) == "imb"
    assert pj.run["tool"] == "effbench" and pt.run["tool"] == "effbench"
    assert pj.end["status"] == "ok"
    assert len(pj.results) == len(pt.results) == 4 * 10
    for rj, rt in zip(pj.results, pt.results):
        assert (rj["benchmark"], rj["procs"], rj["bytes"], rj["repetitions"]) == \
            (rt["benchmark"], rt["procs"], rt["bytes"], rt["repetitions"])
        # The text rounds to 2 decimals, the JSON keeps full precision. A single-transfer
        # table's one time column is IMB's maximum over the processes.
        single = rj["benchmark"] in ("PingPong", "PingPing")
        for key in ("t_max_us",) if single else ("t_min_us", "t_max_us", "t_avg_us"):
            assert abs(rj[key] - rt[key]) <= 0.005 + 1e-9, (rj, rt)
        assert rj["sync"] == rt["sync"] == "barrier"
        if single:
            assert rt["t_min_us"] is None and rt["t_avg_us"] is None
    # so compare meets every row and sees the same numbers (t_max_us where the text has one)
    from effbench.compare import compare_runs
    cmp = compare_runs(pj, pt)
    assert len(cmp.rows) == 40 and not [r for r in cmp.rows if r.flag]


def test_c_sync_window_and_repeat_columns(effbench_bin, mpiexec, mpi_env, tmp_path):
    """effbench's own IMB columns (-sync window's `valid`, -repeat's loop columns) import under
    the JSON names, and every row meets its JSON row in compare."""
    from conftest import run_c
    from effbench.compare import compare_runs
    from effbench.records import identity_key
    for name, opts in (("window", ["-sync", "window"]), ("repeat", ["-repeat", "3"])):
        jsonl, text = run_c(effbench_bin, mpiexec, mpi_env, tmp_path, name, 2,
                            ["mpi1", "PingPong", "Allreduce", "-msglog", "0:2", "-time", "0.05",
                             *opts])
        pj, pt = parse_file(jsonl), parse_file(text)
        assert len(pj.results) == len(pt.results) == 4 + 2  # PingPong 0-4, Allreduce 0, 4
        assert [identity_key(r) for r in pt.results] == [identity_key(r) for r in pj.results]
        cmp = compare_runs(pj, pt)  # (a row the machine left without a time is skipped)
        assert cmp.only_a == cmp.only_b == 0 and not [r for r in cmp.rows if r.flag]
        allreduce = [r for r in pt.results if r["benchmark"] == "Allreduce"]
        if name == "window":
            assert {r["sync"] for r in allreduce} == {"window"}
            assert all(0 <= r["valid_fraction"] <= 1 for r in allreduce)
        else:
            assert all(r["loop_t_max_min_us"] <= r["loop_t_max_max_us"] for r in allreduce)


def test_c_uniband_biband_columns(effbench_bin, mpiexec, mpi_env, tmp_path):
    """IMB 2021's Uniband and Biband tables (Mbytes/sec and Msg/sec, no time column) import from
    text with the JSON rows' values as printed."""
    from conftest import run_c
    jsonl, text = run_c(effbench_bin, mpiexec, mpi_env, tmp_path, "band", 2,
                        ["mpi1", "Uniband", "Biband", "-msglog", "2:4", "-time", "0.05"])
    pj, pt = parse_file(jsonl), parse_file(text)
    assert [(r["benchmark"], r["bytes"]) for r in pt.results] == \
        [(b, x) for b in ("Uniband", "Biband") for x in (0, 4, 8, 16)]
    for rt, rj in zip(pt.results, pj.results):
        assert rt["repetitions"] == rj["repetitions"]
        assert rt["msg_per_sec"] == pytest.approx(rj["msg_per_sec"], abs=0.006)
        assert rt["mbytes_per_s"] == pytest.approx(rj["mbytes_per_s"], abs=0.006)


def test_c_multi_mode(c_output):
    jsonl, text = c_output["multi"]
    pj, pt = parse_file(jsonl), parse_file(text)
    assert {r["group"] for r in pj.results} == {0, 1} == {r["group"] for r in pt.results}
    assert len(pj.results) == len(pt.results) == 2 * 6
    assert all(r["benchmark"] == "Multi-PingPong" and r["procs"] == 2 for r in pt.results)


def assert_text_matches_json(pj, pt, resolution):
    """Every value the text importer filled equals the JSON record's, to the text's print
    resolution; returns how often each field the JSON has was not printed."""
    unprinted = Counter()
    for rj, rt in zip(pj.results, pt.results, strict=True):
        for key, value in rt.items():
            if value is None:
                unprinted[key] += rj.get(key) is not None
            elif isinstance(value, float):
                assert abs(rj[key] - value) <= resolution + 1e-9, (key, rj, rt)
            elif isinstance(value, list):
                assert len(rj[key]) == len(value), (key, rj, rt)
                assert all(abs(a - b) <= resolution + 1e-9 for a, b in zip(rj[key], value)), \
                    (key, rj, rt)
            else:
                assert rj[key] == value, (key, rj, rt)
    return +unprinted


# rows of the IMB_RUNS of conftest.py: (the benchmarks and sizes are fixed by the options)
@pytest.mark.parametrize("component,rows,summaries", [
    ("ext", 33, 0), ("rma", 106, 1), ("nbc", 55, 0), ("io", 322, 0)])
def test_c_imb_components_text(imb_output, component, rows, summaries):
    """IMB-EXT, IMB-RMA, IMB-NBC and IMB-IO as effbench prints them: the text importer gives
    the rows of the same run's JSON Lines, with the printed values."""
    jsonl, text = imb_output[component]
    pj, pt = parse_file(jsonl), parse_file(text)
    assert detect_format(text) == "imb" and pt.source_format == "imb"
    assert (pt.run["tool"], pt.run["component"], pt.run["procs"]) == ("effbench", component, 2)
    assert pt.end["status"] == pj.end["status"] == "ok"
    assert len(pt.results) == len(pj.results) == pj.run["options"]["planned_rows"] == rows
    assert len(pj.summaries) == summaries  # IMB-RMA's verdict of Truly_passive_put
    benchmarks = list(dict.fromkeys(r["benchmark"] for r in pj.results))
    assert list(dict.fromkeys(r["benchmark"] for r in pt.results)) == benchmarks
    assert benchmarks == pj.run["options"]["benchmarks"]
    unprinted = assert_text_matches_json(pj, pt, 0.005)  # 2 decimals
    # The tables with one time column print IMB's maximum only (t_max_us); NBC's and
    # Truly_passive_put's first time column is that maximum too.
    one_time = [r for r in pt.results if r["t_avg_us"] is None]
    assert unprinted == ({"t_min_us": len(one_time), "t_avg_us": len(one_time)}
                         if one_time else {})
    assert all(r["t_max_us"] is not None for r in pt.results)
    if component == "nbc":
        assert len(one_time) == rows  # every table: t_ovrl t_pure t_CPU overlap
        assert all(r["t_max_us"] == r["t_ovrl_us"] for r in pt.results)


def test_c_skampi_outfile(skampi_output):
    """The @OUTFILE of an `effbench skampi` run imports to the rows of its JSON Lines, with the
    printed values (one decimal) and the suite's settings from its `# suite` lines."""
    jsonl, sko = skampi_output
    pj, pt = parse_file(jsonl), parse_file(sko)
    assert detect_format(sko) == "skampi" and pt.run["tool"] == "effbench"
    assert pt.run["version"] == pj.run["version"] and pt.end is not None
    suites = ["Pingpong_Send_Recv", "MPI_Bcast-nodes", "MasterWorker_Waitany-chunks",
              "MPI_Wtime"]
    assert list(dict.fromkeys(r["benchmark"] for r in pt.results)) == suites
    assert [len(by_bench(pt, s)) for s in suites] == [12, 1, 3, 1]
    assert len(pj.results) == 17
    unprinted = assert_text_matches_json(pj, pt, 0.05)
    # not in the text: the single runs' extremes, the message length in elements where the
    # suite varies something else, and which points refinement added
    assert unprinted == {"t_min_us": 17, "t_max_us": 17, "count": 5}
    assert all("refined" not in r for r in pt.results)
    assert [(r["variation"], r["pattern"], r.get("sync")) for r in pt.results[11:]] == [
        ("Length", "ping-pong", None), ("Nodes", "collective", "barrier"),
        *[("Chunks", "master-worker", None)] * 3, ("None", "simple", None)]
    assert [r["chunks"] for r in by_bench(pt, "MasterWorker_Waitany-chunks")] == [1, 2, 4]
    assert [r["bytes"] for r in by_bench(pt, "Pingpong_Send_Recv")[:8]] == \
        [4, 16, 64, 256, 1024, 4096, 16384, 65536]


# --- malformed input ---------------------------------------------------------------------------

def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


GOOD_RUN = {"type": "run", "schema": 1, "tool": "effbench", "version": "0.1.0",
            "component": "mpi1", "procs": 2, "options": {}, "check": False}
GOOD_RESULT = {"type": "result", "schema": 1, "component": "mpi1", "benchmark": "PingPong",
               "group": None, "mode": None, "procs": 2, "bytes": 8, "repetitions": 10,
               "t_min_us": 1.0, "t_max_us": 1.5, "t_avg_us": 1.25, "mbytes_per_s": 6.1,
               "defects": None}


@pytest.mark.parametrize("lines,line,reason", [
    ([GOOD_RESULT], 1, "first record must be 'run'"),
    ([GOOD_RUN, {**GOOD_RESULT, "bytes": -1}], 2, "field 'bytes' must be a non-negative"),
    ([GOOD_RUN, GOOD_RESULT, {**GOOD_RESULT, "t_avg_us": "fast"}], 3, "field 't_avg_us'"),
    ([GOOD_RUN, {**GOOD_RESULT, "schema": 2}], 2, "unsupported schema 2"),
    ([GOOD_RUN, {k: v for k, v in GOOD_RESULT.items() if k != "procs"}], 2,
     "lacks field 'procs'"),
    ([GOOD_RUN, "{not json"], 2, "not JSON"),
    ([GOOD_RUN, '{"type": "result", "schema": 1, "t_avg_us": NaN}'], 2, "not JSON"),
    ([{**GOOD_RUN, "component": "hpl"}], 1, "unknown component 'hpl'"),
    ([GOOD_RUN, {"type": "skip", "schema": 1, "component": "mpi1", "procs": 1}], 2,
     "skip record lacks field 'benchmark'"),
    ([GOOD_RUN, {"type": "resume", "schema": 1, "rows_kept": -1}], 2,
     "field 'rows_kept' must be a non-negative integer"),
    ([{**GOOD_RUN, "uname": "linux"}], 1, "field 'uname' must be an object"),
])
@pytest.mark.invalid_records
def test_jsonl_malformed(tmp_path, lines, line, reason):
    text = "".join((l if isinstance(l, str) else json.dumps(l)) + "\n" for l in lines)
    path = _write(tmp_path, "bad.jsonl", text)
    with pytest.raises(FormatError) as exc:
        parse_file(path)
    assert exc.value.line == line and exc.value.path == str(path)
    assert reason in exc.value.reason
    assert str(exc.value).startswith(f"{path}:{line}: ")


def test_text_formats_malformed(samples, tmp_path):
    cases = []
    imb = (samples / "imb/mpi1_np2_p2p.txt").read_text().splitlines()
    imb[50] = imb[50].replace(imb[50].split()[2], "-" + imb[50].split()[2])  # a negative time
    cases.append(("imb.txt", imb, 51, "result record: t_max_us: negative"))
    sko = (samples / "skampi/pt2pt_np2.sko").read_text().splitlines()
    sko[7] = "count= 3 12 -0.8 0.1 16 0.8 0.7"
    cases.append(("x.sko", sko, 8, "result record: t_avg_us: negative"))
    beff = (samples / "beff/b_eff_np4.short").read_text().splitlines()
    idx = next(i for i, l in enumerate(beff) if l.startswith(" p05 ring-1*4fix       :("))
    beff[idx] = beff[idx].replace("0.399", "-0.399")
    cases.append(("b.short", beff, None, "negative"))
    bio = (samples / "beff_io/b_eff_io_np2.prot").read_text().splitlines()
    idx = next(i for i, l in enumerate(bio) if l.startswith("n=1   a=0 type=1 p=12"))
    bio[idx] = bio[idx].replace("r= 2671", "r= many")  # a damaged line: skipped, counted
    path = _write(tmp_path, "b.prot", "\n".join(bio) + "\n")
    damaged, clean = parse_file(path), parse_file(samples / "beff_io/b_eff_io_np2.prot")
    assert damaged.skipped_lines == 1 and clean.skipped_lines == 0
    assert len(damaged.results) == len(clean.results) - 1
    for name, lines, line, reason in cases:
        path = _write(tmp_path, name, "\n".join(lines) + "\n")
        with pytest.raises(FormatError) as exc:
            parse_file(path)
        assert (exc.value.line, exc.value.path) == (line, str(path)), name
        assert reason in exc.value.reason, (name, exc.value.reason)


def test_unknown_format(tmp_path):
    path = _write(tmp_path, "x.txt", "hello\n")
    with pytest.raises(FormatError, match="unknown format"):
        parse_file(path)


def test_imb_mpi4(samples):
    """IMB 2021.11's IMB-MPI4 ("MPI-4 part"): the _persist rows as IMB-NBC's overlap rows,
    the _persist_pure ones as a collective table."""
    p = parse_file(samples / "imb2021/mpi4/run/some_np2.out")
    assert p.run["component"] == "mpi4" and p.skipped_lines == 0
    assert Counter(r["benchmark"] for r in p.results) == {
        "Bcast_persist": 5, "Allreduce_persist_pure": 3, "Gather_persist": 5,
        "Alltoallv_persist_pure": 5, "Reduce_scatter_persist": 3, "Barrier_persist": 1,
        "Barrier_persist_pure": 1}
    row = by_bench(p, "Bcast_persist", bytes=1)[0]
    assert (row["t_ovrl_us"], row["t_pure_us"], row["t_cpu_us"], row["overlap_pct"]) == \
        (9.84, 7.51, 3.67, 17.85)
    pure = by_bench(p, "Allreduce_persist_pure", bytes=4)[0]
    assert (pure["repetitions"], pure["t_min_us"], pure["t_max_us"], pure["t_avg_us"]) == \
        (20, 22.63, 17387.51, 8705.07)


@pytest.mark.parametrize("status", ["ok", "error", "timeout", "terminated"])
def test_jsonl_end_statuses_effbench_writes(tmp_path, status):
    """docs/json-lines.md, `end`: the watchdog writes "timeout", SIGTERM "terminated"; such a
    run is stored (effbench-results accept stores every launch, cut ones too)."""
    run = {"type": "run", "schema": 1, "tool": "effbench", "version": "0.1.0",
           "component": "osu", "procs": 2, "check": False, "options": {}}
    end = {"type": "end", "schema": 1, "status": status, "message": None}
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(run) + "\n" + json.dumps(end) + "\n")
    assert parse_file(path, "jsonl").end["status"] == status
    path.write_text(json.dumps(run) + "\n" + json.dumps({**end, "status": "crashed"}) + "\n")
    with pytest.raises(FormatError, match=r"r\.jsonl:2: field 'status' must be \"ok\", "
                       r"\"error\", \"timeout\", \"terminated\", not 'crashed'"):
        parse_file(path, "jsonl")
