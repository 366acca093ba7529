"""docs/extending.md's worked examples (docs/examples/*.c): the page shows each file as it is,
the program built with them (build/effbench-example) lists each new benchmark in its
`--list-json` and runs it as the page says, checked, with its personality's table and JSON rows:
an IMB benchmark (ssend_pingpong.c), an OSU program (osu_ssend_latency.c), an IMB-P2P kernel
(ssend_p2p.c) and an IMB-MT kernel (ssend_pingpong_mt.c)."""
import functools
import json
import math
import re
import subprocess

import pytest

from effb import BUILD, ROOT, env, listed_names, parse_imb, read_jsonl, run
from osu_helpers import parse_osu

EXAMPLES = ROOT / "docs" / "examples"
# the page's C blocks, in its order
PAGE_FILES = ["ssend_pingpong.c", "osu_ssend_latency.c", "ssend_p2p.c", "ssend_pingpong_mt.c"]
# (component, name, program) of each example's benchmark in the listing
ADDED = [("mpi1", "Ssend_PingPong", "IMB-MPI1"),
         ("osu", "osu_ssend_latency", "osu_ssend_latency"),
         ("p2p", "SsendPingPong", "IMB-P2P"),
         ("mt", "SsendPingPongMT", "IMB-MT")]

needs_example = pytest.mark.skipif(not (BUILD / "effbench-example").exists(),
                                   reason=f"{BUILD} has no effbench-example")


@functools.cache
def example_listing():
    proc = subprocess.run([str(BUILD / "effbench-example"), "--list-json"], capture_output=True,
                          text=True, timeout=60, env=env())
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    return json.loads(proc.stdout)["benchmarks"]


def test_page_shows_the_example_files():
    page = (ROOT / "docs" / "extending.md").read_text()
    blocks = re.findall(r"```c\n(.*?)```", page, re.S)
    assert blocks == [(EXAMPLES / f).read_text() for f in PAGE_FILES]
    assert sorted(p.name for p in EXAMPLES.glob("*.c")) == sorted(PAGE_FILES)
    code = [line for line in blocks[0].splitlines() if line.strip()]
    assert len(code) <= 40  # "a benchmark in 40 lines"


@needs_example
def test_listing_picks_the_examples_up():
    """effbench-example's listing has each example, and effbench's none of them; IMB-P2P's and
    IMB-MT's kernels come after the personality's own, by name only (not default), so that
    its -list and default run stay IMB's, byte for byte."""
    mine = example_listing()
    for component, name, program in ADDED:
        (entry,) = [b for b in mine if b["name"] == name]
        assert (entry["component"], entry["program"], entry["checked"]) == \
            (component, program, True)
        assert name not in listed_names()
    for component, name, program in ADDED[2:]:
        names = [b["name"] for b in mine if b["program"] == program]
        assert names == listed_names(program) + [name]
        assert [b["name"] for b in mine if b["program"] == program and b["default"]] == \
            listed_names(program, default=True)
        here, there = run(1, "effbench-example", component, "-list"), run(1, program, "-list")
        assert here.returncode == there.returncode == 0, (here, there)
        assert here.stdout == there.stdout and name not in here.stdout
    (osu,) = [b for b in mine if b["name"] == "osu_ssend_latency"]
    assert osu["fixed_procs"] == 2 and osu["class"] == "pt2pt"


@pytest.mark.asan
@needs_example
def test_imb_example_runs_checked(tmp_path):
    js = tmp_path / "ssend.jsonl"
    r = run(2, "effbench-example", "mpi1", "Ssend_PingPong", "-msglog", "0:4", "-iter", "50,off",
            "-check", "--json", js)
    assert r.returncode == 0, r
    (block,) = parse_imb(r.stdout)
    assert block["name"] == "Ssend_PingPong" and block["procs"] == 2
    assert block["header_line"] == ("       #bytes #repetitions      t[usec]   Mbytes/sec"
                                    "      defects")
    assert [int(row[0]) for row in block["rows"]] == [0, 1, 2, 4, 8, 16]
    assert all(int(row[1]) == 50 and float(row[-1]) == 0 for row in block["rows"])
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [(x["benchmark"], x["bytes"], x["defects"]) for x in rows] == \
        [("Ssend_PingPong", b, 0) for b in (0, 1, 2, 4, 8, 16)]
    for x, printed in zip(rows, block["rows"]):
        assert f"{x['t_max_us']:.2f}" == printed[2]


@pytest.mark.asan
@needs_example
def test_osu_example_runs_validated(tmp_path):
    """osu_ssend_latency -c: osu_latency's table (the same sizes and columns), every row
    "Pass", the JSON rows the printed ones."""
    js = tmp_path / "osu.jsonl"
    args = ["-m", "64", "-i", "10", "-x", "1", "-c"]
    r = run(2, "effbench-example", "osu", "osu_ssend_latency", *args, "--json", js)
    assert r.returncode == 0, r
    out, ref = parse_osu(r.stdout), parse_osu(run(2, "osu_latency", *args).stdout)
    assert out["title"] == "# OSU MPI Ssend Latency Test v7.4"
    (table,) = out["tables"]
    assert table["datatype"] == "MPI_CHAR"
    assert table["header"] == ref["tables"][0]["header"] == \
        "# Size       Avg Latency(us)        Validation"
    sizes = [int(row[0]) for row in table["rows"]]
    assert sizes == [int(row[0]) for row in ref["tables"][0]["rows"]] == [1, 2, 4, 8, 16, 32, 64]
    assert all(row[2] == "Pass" for row in table["rows"])
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [(x["benchmark"], x["bytes"], x["repetitions"], x["defects"]) for x in rows] == \
        [("osu_ssend_latency", b, 10, 0) for b in sizes]
    for x, printed in zip(rows, table["rows"]):
        assert f"{x['t_avg_us']:.2f}" == printed[1]


@pytest.mark.asan
@needs_example
def test_p2p_example_runs_checked(tmp_path):
    """IMB-P2P SsendPingPong -check at 2 and 4 processes: IMB-P2P's table, 0 defects, the
    figures from the message count and loop times as PingPong's; 3 processes: invalid."""
    for np in (2, 4):
        js = tmp_path / f"p2p{np}.jsonl"
        r = run(np, "effbench-example", "p2p", "SsendPingPong", "-check", "-msglog", "0:3",
                "-iter", "20", "-pause", "0", "--json", js)
        assert r.returncode == 0, r
        assert ("# Benchmarking SsendPingPong\n" in r.stdout and "       #bytes #repetitions"
                "      t[usec]   Mbytes/sec      Msg/sec      defects\n" in r.stdout), r.stdout
        rows = [x for x in read_jsonl(js) if x["type"] == "result"]
        assert [(x["benchmark"], x["procs"], x["bytes"], x["repetitions"], x["defects"])
                for x in rows] == [("SsendPingPong", np, b, 20, 0) for b in (1, 2, 4, 8)]
        for x in rows:
            m = x["messages"]
            assert m == 20 * np  # a round trip of each pair: 2 messages, counted once
            assert math.isclose(x["t_avg_us"], 1e6 * x["time_sum_s"] / (2 * m), rel_tol=1e-9)
            assert math.isclose(x["mb_per_s"], m * x["bytes"] / (1e6 * x["time_max_s"]),
                                rel_tol=1e-9)
    r = run(3, "effbench-example", "p2p", "SsendPingPong", "-msglog", "0:1", "-iter", "5",
            "-pause", "0")
    assert r.returncode == 0, r
    assert "# !! Benchmark SsendPingPong is invalid for 3 processes !!" in r.stdout


@pytest.mark.asan
@needs_example
def test_mt_example_runs_checked(tmp_path):
    """IMB-MT SsendPingPongMT -check on, two threads a process: PingPongMT's columns, a row
    per -count of count x 4 bytes x 2 threads, 0 defects, Mbytes/sec = bytes / t_max."""
    js = tmp_path / "mt.jsonl"
    r = run(2, "effbench-example", "mt", "-thread_level", "multiple", "SsendPingPongMT",
            "-check", "on", "-count", "1,4", "-repeat", "5", "-warmup", "1", "--json", js,
            extra_env={"OMP_NUM_THREADS": "2"}, timeout=120)
    assert r.returncode == 0, r
    assert "# Benchmarking SsendPingPongMT\n# #processes = 2 (threads: 2)\n" in r.stdout
    assert ("       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec\n"
            in r.stdout) and "CHECK FAILURES" not in r.stdout
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [(x["benchmark"], x["bytes"], x["repetitions"], x["defects"]) for x in rows] == \
        [("SsendPingPongMT", 8, 5, 0), ("SsendPingPongMT", 32, 5, 0)]
    for x in rows:
        assert len(x["per_thread"]) == 4 and all(t["took_part"] for t in x["per_thread"])
        assert x["mb_per_s"] == pytest.approx(x["bytes"] / x["t_max_us"])


def test_examples_are_not_in_effbench():
    """Effbench itself does not know them: the IMB one by name, the others by listing."""
    r = run(2, "IMB-MPI1", "Ssend_PingPong")
    assert r.returncode == 2
    assert "unknown benchmark 'Ssend_PingPong' for IMB-MPI1" in r.stderr
    assert not {n for _, n, _ in ADDED} & set(listed_names())
    r = run(1, "effbench-example", "mpi1", "-h")
    assert r.returncode == 0 and re.search(r"^  Ssend_PingPong", r.stdout, re.M)
