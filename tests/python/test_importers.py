"""Every importer on real output: the original tools' samples, IMB text shaped as the user
guide's samples, and the C program's own JSON Lines and IMB text made in this test run."""

from __future__ import annotations

import json

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
    assert (last["bytes"], last["repetitions"], last["t_avg_us"], last["mbytes_per_s"]) == \
        (4194304, 10, 472.60, 8874.91)
    assert last["t_min_us"] == last["t_max_us"] == 472.60
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
    assert row["t_avg_us"] == 2.28  # the headline time of an NBC row is t_ovrl
    io = parse_file(samples / "imb/io_np2.txt")
    assert {r["procs"] for r in by_bench(io, "P_Read_Expl")} == {1, 2}
    rma = parse_file(samples / "imb/rma_np2.txt")
    tpp = by_bench(rma, "Truly_passive_put")
    assert len(tpp) == 24 and tpp[-1]["t_pure_us"] == 364.26 and tpp[-1]["t_ovrl_us"] == 412.18


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
    # 48 patterns x 6 lengths (best method) + 48 x 3 methods x 6 + 21 lengths x 6 averages
    assert len(p.results) == 48 * 6 + 48 * 3 * 6 + 21 * 6
    p00 = [r for r in p.results if r.get("pattern_index") == 0 and r["method"] == "best"]
    assert [r["bytes"] for r in p00] == [1, 16, 256, 4096, 46341, 524288]
    assert p00[-1]["bandwidth_mb_s"] == 3436.681 and p00[0]["pattern"] == "ring-2*2fix"
    rings = [r for r in p.results if r["pattern"] == "rings"]
    assert len(rings) == 21 and rings[-1]["bytes"] == 524288 and rings[-1]["bandwidth_mb_s"] == 1605.913
    nonblk = [r for r in p.results if r["pattern"] == "average" and r["method"] == "non-blk"]
    assert len(nonblk) == 21 and nonblk[0]["bandwidth_mb_s"] == 0.504
    s = p.summaries[0]
    assert (s["b_eff_mb_s"], s["b_eff_per_process_mb_s"], s["latency_us"],
            s["pingpong_bandwidth_mb_s"], s["lmax_bytes"]) == (1637.002, 409.25, 1.843, 5203.257,
                                                               524288)


def test_beff_sum(samples):
    p = parse_file(samples / "beff/b_eff_np2.sum")
    assert p.results == [] and p.run["procs"] == 2
    s = p.summaries[0]
    assert (s["b_eff_mb_s"], s["latency_us"], s["pingpong_latency_us"]) == (3765.406, 0.441, 0.412)
    assert p.run["uname"]["nodename"] == "vm"


def test_beff_io_prot_and_sum(samples):
    prot = parse_file(samples / "beff_io/b_eff_io_np2.prot")
    assert prot.run["component"] == "beff_io" and prot.run["version"] == "2.1"
    assert len(prot.results) == 190
    first = prot.results[0]
    assert (first["procs"], first["access"], first["pattern_type"], first["pattern_index"],
            first["bytes"], first["call_bytes"], first["repetitions"], first["bandwidth_mb_s"]) == \
        (1, "write", 0, 0, 1048576, 1048576, 1, 831.278)
    final = prot.summaries[-1]
    assert final["b_eff_io_mb_s"] == 646.843 and final["valid"] is False
    summ = parse_file(samples / "beff_io/b_eff_io_np2.sum")
    # per partition: 7 chunk sizes x (5 write + 1 rewrite + 5 read) types
    assert len(summ.results) == 2 * 7 * 11
    cell = [r for r in summ.results if r["procs"] == 2 and r["access"] == "read"
            and r["pattern_type"] == 2 and r["bytes"] == 32768][0]
    assert cell["bandwidth_mb_s"] == 12204.861
    assert summ.summaries[-1]["invalid_reasons"] == [
        "criterion 1: scheduled time 0.5 min >= 30 min -- NOT reached"]


def test_skampi(samples):
    pt = parse_file(samples / "skampi/pt2pt_np2.sko")
    assert pt.run["component"] == "skampi" and pt.run["version"] == "6.0.0"
    rows = by_bench(pt, "Pingpong_Send_Recv")
    assert len(rows) == 24 and rows[0]["param"] == "count" and rows[0]["bytes"] == 4
    assert (rows[-1]["bytes"], rows[-1]["t_avg_us"], rows[-1]["stderr_us"],
            rows[-1]["repetitions"], rows[-1]["t_extra_us"]) == (16384, 6.1, 0.2, 16, [5.7, 6.0])
    coll = parse_file(samples / "skampi/coll_np2.sko")
    assert len(coll.results) == 737
    procs_rows = by_bench(coll, "MPI_Bcast-procs-short")
    assert procs_rows[0]["param"] == "procs" and procs_rows[0]["procs"] == 2
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
        key = "t_max_us" if rj["benchmark"] in ("PingPong", "PingPing") else "t_avg_us"
        assert abs(rj[key] - rt["t_avg_us"]) <= 0.005 + 1e-9, (rj, rt)
        assert abs(rj["t_min_us"] - rt["t_min_us"]) <= 0.005 + 1e-9 or key == "t_max_us"


def test_c_multi_mode(c_output):
    jsonl, text = c_output["multi"]
    pj, pt = parse_file(jsonl), parse_file(text)
    assert {r["group"] for r in pj.results} == {0, 1} == {r["group"] for r in pt.results}
    assert len(pj.results) == len(pt.results) == 2 * 6
    assert all(r["benchmark"] == "Multi-PingPong" and r["procs"] == 2 for r in pt.results)


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
])
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
    imb[50] = imb[50] + "    12.5"  # one column too many in PingPong's table
    cases.append(("imb.txt", imb, 51, "expected 4 columns"))
    sko = (samples / "skampi/pt2pt_np2.sko").read_text().splitlines()
    sko[7] = "count= 3 12 0.8 zero 16 0.8 0.7"
    cases.append(("x.sko", sko, 8, "not a number"))
    beff = (samples / "beff/b_eff_np4.short").read_text().splitlines()
    idx = next(i for i, l in enumerate(beff) if l.startswith(" p05 ring-1*4fix       :("))
    beff[idx] = beff[idx].replace("0.399", "0.399 7.7")
    cases.append(("b.short", beff, idx + 1, "expected 6 values"))
    bio = (samples / "beff_io/b_eff_io_np2.prot").read_text().splitlines()
    idx = next(i for i, l in enumerate(bio) if l.startswith("n=1   a=0 type=1 p=12"))
    bio[idx] = bio[idx].replace("r= 2671", "r= many")
    cases.append(("b.prot", bio, idx + 1, "pattern line does not have"))
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
