"""compare's verdicts and exit codes, the report's contents, and the `run` launcher."""

from __future__ import annotations

import json
import re
import shlex
import stat
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import DATA

from effbench.cli import build_parser, main
from effbench.compare import compare_runs
from effbench.importers import parse_file
from effbench.launcher import ProgressState, planned_rows
from effbench.records import ParsedRun, new_result, new_run, write_jsonl
from effbench.store.db import Store

FIXTURES = DATA / "effbench"


def scaled_copy(src: Path, dst: Path, factor: float, bench: str | None = None,
                min_bytes: int = 0) -> Path:
    """SRC with the times of BENCH (all benchmarks if None) from MIN_BYTES on multiplied."""
    parsed = parse_file(src)
    for r in parsed.results:
        if (bench is None or r["benchmark"] == bench) and r["bytes"] >= min_bytes:
            for k in ("t_min_us", "t_max_us", "t_avg_us"):
                r[k] *= factor
            if r["mbytes_per_s"]:
                r["mbytes_per_s"] /= factor
    write_jsonl(parsed.records(), dst)
    return dst


# --- compare -------------------------------------------------------------------------------------

def test_compare_identical_runs(c_output, capsys):
    jsonl = str(c_output["p2p"][0])
    assert main(["compare", jsonl, jsonl]) == 0
    out = capsys.readouterr().out
    assert "40 rows compared" in out and "0 regressions beyond 10%" in out


def test_compare_regression_exit_code(c_output, tmp_path, capsys):
    a = c_output["p2p"][0]
    b = scaled_copy(a, tmp_path / "b.jsonl", 1.5, "Sendrecv", min_bytes=64)
    assert main(["compare", str(a), str(b), "--only-changes"]) == 1
    out = capsys.readouterr().out
    assert "3 regressions beyond 10%" in out  # 64, 128 and 256 bytes
    cmp = compare_runs(parse_file(a), parse_file(b))
    flagged = sorted((r.label, r.key[5]) for r in cmp.regressions)
    assert flagged == [("Sendrecv", 64), ("Sendrecv", 128), ("Sendrecv", 256)]
    assert all(abs(r.ratio - 1.5) < 1e-9 for r in cmp.regressions)
    # a higher threshold lets it pass, still flagged as slower
    assert main(["compare", str(a), str(b), "--threshold", "60"]) == 0
    assert "3 worse beyond the noise" in capsys.readouterr().out


def noise_run(factors: dict[str, float]) -> ParsedRun:
    """A run of two rows: Wide, whose processes spread by 6% ((t_max - t_min) / t_avg: 6% noise,
    above the 2% floor), and Tight, whose processes agree (noise: the floor); the times of
    each multiplied by FACTORS."""
    run = new_run("mpi1", "effbench", 2)
    results = []
    for bench, (t_min, t_max) in (("Wide", (0.97, 1.03)), ("Tight", (1.0, 1.0))):
        f = factors.get(bench, 1.0)
        results.append(new_result("mpi1", bench, 2, 1024, repetitions=1000, t_min_us=t_min * f,
                                  t_avg_us=f, t_max_us=t_max * f))
    return ParsedRun(run=run, results=results)


@pytest.mark.parametrize("wide,tight,flags", [
    # 8% slower: within the wide row's measured noise (6% in each run: B/A may be 1 up to
    # 1.06 / 0.94 = 1.128), beyond the tight one's (2% each: up to 1.041)
    (1.08, 1.08, {"Wide": "", "Tight": "slower"}),
    # 11%: still within the wide row's noise, so not a regression although beyond 10%
    (1.11, 1.03, {"Wide": "", "Tight": ""}),
    # 13%: beyond the measured noise and the 10% threshold; 5% faster beyond the tight noise
    (1.13, 0.95, {"Wide": "REGRESSION", "Tight": "faster"}),
])
def test_compare_flags_changes_beyond_the_measured_noise(wide, tight, flags):
    cmp = compare_runs(noise_run({}), noise_run({"Wide": wide, "Tight": tight}))
    rows = {r.label: r for r in cmp.rows}
    assert rows["Wide"].noise == pytest.approx(0.12) and rows["Tight"].noise == 0.04
    assert {label: r.flag for label, r in rows.items()} == flags
    assert (rows["Wide"].ratio, rows["Tight"].ratio) == (pytest.approx(wide),
                                                         pytest.approx(tight))


def test_compare_rounded_text_value_is_not_a_change():
    """0.0156 us measured, 0.02 printed by the text (2 decimals): the print resolution,
    relative to the smaller value, covers the 28% difference."""
    exact = ParsedRun(run=new_run("mpi1", "effbench", 2), results=[new_result(
        "mpi1", "Allreduce", 2, 0, repetitions=1000, t_min_us=0.0156, t_max_us=0.0156,
        t_avg_us=0.0156)])
    printed = ParsedRun(run=new_run("mpi1", "effbench", 2), source_format="imb",
                        results=[new_result("mpi1", "Allreduce", 2, 0, repetitions=1000,
                                            t_min_us=0.02, t_max_us=0.02, t_avg_us=0.02)])
    for a, b in ((exact, printed), (printed, exact)):
        (row,) = compare_runs(a, b).rows
        assert row.noise == pytest.approx(0.02 + 0.005 / 0.02)
        assert row.flag == "" and abs(row.change) > 0.2


def test_compare_within_noise_and_faster(c_output, tmp_path, capsys):
    a = c_output["p2p"][0]
    small = scaled_copy(a, tmp_path / "small.jsonl", 1.03)
    cmp = compare_runs(parse_file(a), parse_file(small))
    # 3% is inside every row's noise (at least the 2% + 2% floor of the two runs)
    assert [r for r in cmp.rows if r.flag] == [] and all(r.noise >= 0.04 for r in cmp.rows)
    assert main(["compare", str(a), str(small)]) == 0
    fast = scaled_copy(a, tmp_path / "fast.jsonl", 0.5)
    assert main(["compare", str(a), str(fast)]) == 0
    assert "40 better" in capsys.readouterr().out


def test_compare_bandwidth_rows_and_errors(samples, tmp_path, capsys):
    beff = samples / "beff/b_eff_np4.short"
    parsed = parse_file(beff)
    for r in parsed.results:
        if r["benchmark"] == "log_avg of all rings":
            r["b_mb_per_s"] *= 0.5  # half the bandwidth: worse
    worse = tmp_path / "worse.jsonl"
    write_jsonl(parsed.records(), worse)
    cmp = compare_runs(parse_file(beff), parse_file(worse))
    assert len(cmp.regressions) == 21 and all(r.metric == "bandwidth" for r in cmp.regressions)
    assert main(["compare", str(beff), str(worse)]) == 1
    # nothing in common, and an unknown run: usage errors
    assert main(["compare", str(beff), str(samples / "skampi/pt2pt_np2.sko")]) == 2
    db = f"sqlite:///{tmp_path / 'x.sqlite'}"
    assert main(["compare", "--db", db, "1", "2"]) == 2
    assert "no run '1'" in capsys.readouterr().err


def test_compare_stored_runs(sqlite_url, samples, capsys):
    assert main(["import", "--db", sqlite_url, str(samples / "imb/mpi1_np2_p2p.txt"),
                 str(samples / "imb/mpi1_np2_full_default.txt")]) == 0
    code = main(["compare", "--db", sqlite_url, "1", "2"])
    out = capsys.readouterr().out
    assert "96 rows compared" in out and "327 rows only in B" in out
    assert code == 1  # the two real runs differ by more than 10% at some sizes


# --- report --------------------------------------------------------------------------------------

class PlotParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.plots, self.specs, self.script_srcs = [], {}, []
        self._spec_id = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "effbench-plot" in (a.get("class") or ""):
            self.plots.append(a)
        if tag == "script":
            if a.get("src"):
                self.script_srcs.append(a["src"])
            if a.get("type") == "application/json":
                self._spec_id = a["id"]

    def handle_data(self, data):
        if self._spec_id:
            self.specs[self._spec_id] = self.specs.get(self._spec_id, "") + data

    def handle_endtag(self, tag):
        if tag == "script":
            self._spec_id = None


def parse_report(index: Path) -> PlotParser:
    parser = PlotParser()
    parser.feed(index.read_text())
    return parser


def spec_points(parser, plot, panel_axis="x"):
    spec = json.loads(parser.specs[plot["id"] + "-spec"])
    return sum(len(t["x"]) for t in spec["data"] if t.get("xaxis", "x") == panel_axis), spec


def test_report_one_plot_per_benchmark(c_output, samples, tmp_path, capsys):
    jsonl = c_output["p2p"][0]
    out = tmp_path / "rep"
    assert main(["report", str(jsonl), str(samples / "imb/mpi1_np4_coll_run2.txt"),
                 "-o", str(out)]) == 0
    index = out / "index.html"
    html = index.read_text()
    parser = parse_report(index)
    # plotly.js is next to the page, nothing is fetched from the network
    assert parser.script_srcs == ["plotly.min.js"]
    assert (out / "plotly.min.js").stat().st_size > 1_000_000
    assert not re.search(r"<script[^>]+src=['\"]?https?:", html)
    assert "cdn.plot.ly" not in html
    parsed = parse_file(jsonl)
    bench_plots = [p for p in parser.plots if p["data-kind"] == "benchmark"
                   and p["data-run"] == str(jsonl)]
    assert sorted(p["data-benchmark"] for p in bench_plots) == \
        ["Exchange", "PingPing", "PingPong", "Sendrecv"]
    for plot in bench_plots:
        rows = [r for r in parsed.results if r["benchmark"] == plot["data-benchmark"]
                and r["bytes"] > 0]
        points, spec = spec_points(parser, plot)
        assert points == len(rows) == int(plot["data-points"]) == 9
        assert spec["layout"]["xaxis"]["type"] == "log" and spec["layout"]["yaxis"]["type"] == "log"
        assert [t["y"] for t in spec["data"] if t.get("xaxis", "x") == "x"][0] == \
            [r["t_avg_us"] for r in rows]
    # the collectives run: Barrier over processes, others over size; 4 benchmarks
    coll = [p for p in parser.plots if p["data-run"].endswith("mpi1_np4_coll_run2.txt")]
    assert sorted((p["data-kind"], p["data-benchmark"]) for p in coll) == [
        ("benchmark", "Allreduce"), ("benchmark", "Alltoall"), ("benchmark", "Bcast"),
        ("procs", "Barrier")]
    # static set: one PNG per figure and a PDF
    assert len(list((out / "png").glob("*.png"))) == len(parser.plots) == 8
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")


def test_report_collectives_over_process_count():
    from effbench.report import build_figures
    figs = build_figures("guide", parse_file(DATA / "imb_guide_multi.txt"))
    over = [f for f in figs if f.kind == "procs" and f.benchmark == "Allreduce"]
    assert len(over) == 1
    traces = over[0].panels[0].traces
    assert [t.name for t in traces] == ["100 bytes", "1000 bytes", "10000 bytes",
                                        "100000 bytes", "1000000 bytes"]
    assert traces[-1].x == [4, 6] and traces[-1].y == [1731.44, 2019.40]


def test_report_beff_beff_io_skampi(samples, tmp_path):
    out = tmp_path / "rep"
    assert main(["report", str(samples / "beff/b_eff_np4.short"),
                 str(samples / "beff_io/b_eff_io_np2.prot"), str(samples / "skampi/coll_np2.sko"),
                 "-o", str(out), "--no-static"]) == 0
    parser = parse_report(out / "index.html")
    kinds = [p["data-kind"] for p in parser.plots]
    # b_eff: one figure per pattern (48) and the rings/random/average curves (3)
    assert kinds.count("beff_pattern") == 51
    p00 = next(p for p in parser.plots if p["data-benchmark"] == "p00 ring-2*2fix")
    points, spec = spec_points(parser, p00)
    assert points == 4 * 6 and {t["name"] for t in spec["data"]} == \
        {"Sndrcv", "Alltoal", "non-blk", "best"}
    # b_eff_io as the paper's Figure 3: per partition, write/rewrite/read panels
    bio = [p for p in parser.plots if p["data-kind"] == "beff_io"]
    assert [p["data-benchmark"] for p in bio] == ["b_eff_io n=1", "b_eff_io n=2"]
    points, spec = spec_points(parser, bio[0])
    assert points == 5 * 7  # 5 pattern types x 7 chunk sizes in the write panel
    assert spec["layout"]["xaxis"]["ticktext"] == ["1k", "+8", "32k", "+8", "1M", "+8", "2M"]
    assert spec["layout"]["xaxis"]["tickvals"] == [1, 2, 4, 5, 7, 8, 10]
    # the write panel's scatter curve is the table's type-0 column
    write0 = next(t for t in spec["data"] if t["name"] == "type 0 scatter")
    assert write0["y"] == [282.953, 294.063, 222.022, 612.044, 225.386, 234.225, 290.687]
    # SKaMPI: every suite, markers on every measured point; MPI vs hand-written comparisons
    sk = [p for p in parser.plots if p["data-run"].endswith("coll_np2.sko")]
    bcast = next(p for p in sk if p["data-benchmark"] == "MPI_Bcast-length")
    points, spec = spec_points(parser, bcast)
    assert points == 38 and spec["data"][0]["mode"] == "lines+markers"
    comparisons = sorted(p["data-benchmark"] for p in sk if p["data-kind"] == "comparison")
    assert "MPI_Gather-length vs Gather_using_Send_Recv-length" in comparisons
    assert "MPI_Bcast-length vs Bcast_using_Send_Recv-length" in comparisons


def test_report_skampi_refinement_points(skampi_output, tmp_path):
    """Points that SKaMPI's refinement added (`refined` in effbench's JSON) are drawn a second
    time as crosses, on top of the suite's curve of every point."""
    jsonl, _ = skampi_output
    parsed = parse_file(jsonl)
    rows = sorted((r for r in parsed.results if r["benchmark"] == "Pingpong_Send_Recv"),
                  key=lambda r: r["bytes"])
    refined = [r for r in rows if r["refined"]]
    assert len(rows) == 12 and len(refined) == 4
    out = tmp_path / "rep"
    assert main(["report", str(jsonl), "-o", str(out)]) == 0
    parser = parse_report(out / "index.html")
    plot = next(p for p in parser.plots if p["data-benchmark"] == "Pingpong_Send_Recv")
    _, spec = spec_points(parser, plot)
    curve, crosses = [t for t in spec["data"] if t.get("xaxis", "x") == "x"]
    assert (curve["name"], curve["mode"], curve["marker"]["symbol"]) == \
        ("2 procs", "lines+markers", "circle")
    assert curve["x"] == [r["bytes"] for r in rows]
    assert (crosses["name"], crosses["mode"], crosses["marker"]["symbol"]) == \
        ("2 procs: refinement points", "markers", "x")
    assert crosses["x"] == [r["bytes"] for r in refined]
    assert crosses["y"] == [r["t_avg_us"] for r in refined]
    # the grid comes first, refinement fills in between its points
    assert [r["bytes"] for r in parsed.results[:8]] == [4, 16, 64, 256, 1024, 4096, 16384,
                                                        65536]
    # suites without refined points have no second trace
    other = [p for p in parser.plots if p["data-benchmark"] != "Pingpong_Send_Recv"]
    assert other and all(
        not any("refinement" in t["name"] for t in spec_points(parser, p)[1]["data"])
        for p in other)


def test_report_sendrecv_against_send_recv(samples, tmp_path):
    """SKaMPI's point-to-point suites: MPI_Sendrecv against MPI_Send/MPI_Recv in one figure,
    every measured length of both suites."""
    sko = samples / "skampi/pt2pt_np2.sko"
    parsed = parse_file(sko)
    out = tmp_path / "rep"
    assert main(["report", str(sko), "-o", str(out), "--no-static"]) == 0
    parser = parse_report(out / "index.html")
    comparisons = [p for p in parser.plots if p["data-kind"] == "comparison"]
    assert [p["data-benchmark"] for p in comparisons] == \
        ["Pingpong_Sendrecv vs Pingpong_Send_Recv"]
    points, spec = spec_points(parser, comparisons[0])
    assert spec["layout"]["title"]["text"] == "MPI_Sendrecv vs MPI_Send/MPI_Recv"
    traces = {t["name"]: t for t in spec["data"]}
    assert list(traces) == ["Pingpong_Sendrecv", "Pingpong_Send_Recv"]
    for name, trace in traces.items():
        rows = sorted((r for r in parsed.results if r["benchmark"] == name),
                      key=lambda r: r["bytes"])
        assert len(rows) == 24 and rows[0]["bytes"] == 4
        assert trace["x"] == [r["bytes"] for r in rows]
        assert trace["y"] == [r["t_avg_us"] for r in rows]
    assert points == int(comparisons[0]["data-points"]) == 48
    # at 16384 bytes, as the file prints them: Sendrecv overlaps the two directions
    assert (traces["Pingpong_Sendrecv"]["y"][-1], traces["Pingpong_Send_Recv"]["y"][-1]) == \
        (3.4, 6.1)


# --- run -----------------------------------------------------------------------------------------

def progress_of(path: Path, last: int | None = None) -> ProgressState:
    """The progress state after the first LAST records of a JSON Lines file."""
    state = ProgressState()
    for line in path.read_text().splitlines()[:last]:
        state.feed(json.loads(line))
    return state


def test_progress_imb_planned_rows(c_output):
    """IMB's components plan their rows (`planned_rows`): the bar has an end from the run
    record on and counts the rows."""
    jsonl = c_output["p2p"][0]
    state = progress_of(jsonl, 1)
    assert (state.unit, state.total, state.done, state.description) == ("rows", 40, 0, "mpi1")
    state = progress_of(jsonl, 1 + 12)
    assert (state.total, state.done) == (40, 12)
    assert state.description == "PingPing 2 procs 1 bytes"  # PingPong: 0, 1, 2, ... 256 bytes
    state = progress_of(jsonl)
    assert (state.total, state.done, state.status) == (40, 40, "ok")


def test_progress_beff_planned_rows():
    """b_eff writes `planned_rows` in its run record's options, as IMB does; a run record
    without it gives an indeterminate bar, and so does a run that does more than it planned."""
    run = parse_file(FIXTURES / "beff_np4.jsonl").run
    results = parse_file(FIXTURES / "beff_np4.jsonl").results
    state = ProgressState()
    state.feed({**run, "options": {**run["options"], "planned_rows": 126}})
    assert (state.unit, state.total, state.done) == ("rows", 126, 0)
    for rec in results[:5]:
        state.feed(rec)
    assert (state.total, state.done) == (126, 5)
    assert state.description == "random-cyc-1dim 4 procs 1 bytes"
    assert planned_rows({"type": "run", "planned_rows": 7}) == 7  # at the top also taken
    bare = ProgressState()
    bare.feed({**run, "options": {}})
    assert bare.total is None
    state = ProgressState()
    state.feed({**run, "options": {"planned_rows": 3}})
    for rec in results[:4]:
        state.feed(rec)
    assert (state.total, state.done) == (None, 4)


def test_progress_skampi_by_suite(skampi_output):
    """SKaMPI plans no row count (refinement decides): the bar counts the configuration's
    suites, a suite done when the next one starts, all when the run ends."""
    jsonl, _ = skampi_output
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert records[0]["options"]["suites"] == ["Pingpong_Send_Recv", "MPI_Bcast-nodes",
                                               "MasterWorker_Waitany-chunks", "MPI_Wtime"]
    state = ProgressState()
    seen = []
    for rec in records:
        state.feed(rec)
        seen.append((state.done, state.total))
    assert state.unit == "suites" and state.rows == 17
    # 12 points of the first suite, 1 of the second, 3 of the third, 1 of the last, the end
    assert seen == [(0, 4)] * 13 + [(1, 4)] + [(2, 4)] * 3 + [(3, 4), (4, 4)]
    assert state.status == "ok"
    mid = ProgressState()
    for rec in records[:15]:
        mid.feed(rec)
    assert mid.description == "suite MasterWorker_Waitany-chunks 2 procs 256 bytes"


def test_run_command_line_in_the_docs_sets_the_report():
    """The example of docs/results.md, parsed exactly as written: `run`'s options come before
    COMPONENT, everything after it goes to effbench."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "results.md").read_text()
    lines = [x for x in docs.splitlines() if x.startswith(".venv/bin/effbench-results run ")]
    assert len(lines) == 1
    argv = shlex.split(lines[0])[1:]
    args = build_parser().parse_args(argv)
    assert (args.command, args.np, args.report, args.component, args.args) == \
        ("run", 2, "report/", "mpi1", ["PingPong", "-msglog", "0:16"])


def test_run_stores_and_reports(effbench_bin, mpiexec, tmp_path, monkeypatch, capsys):
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    jsonl = tmp_path / "run.jsonl"
    code = main(["run", "--np", "2", "--mpiexec", " ".join(mpiexec), "--effbench",
                 str(effbench_bin), "--db", db, "--json", str(jsonl), "--report",
                 str(tmp_path / "rep"), "mpi1", "PingPong", "-msglog", "0:3", "-time", "0.05"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "5 rows of 1 benchmarks (PingPong)" in err and "stored as run 1" in err
    assert jsonl.is_file() and (tmp_path / "run.txt").read_text().count("Benchmarking") == 1
    with Store(db) as store:
        assert store.counts()["measurement"] == 5
    assert (tmp_path / "rep" / "index.html").is_file()


FAKE_MPIEXEC = """#!/bin/sh
# drops "-n N" and runs the rest, as mpiexec would on one process
shift 2
exec "$@"
"""

FAKE_EFFBENCH = """#!{python}
import json, sys
path = sys.argv[sys.argv.index("--json") + 1]
with open(path, "w") as f:
    f.write(json.dumps({{"type": "run", "schema": 1, "tool": "effbench", "component": "mpi1",
                        "procs": 2, "options": {{"benchmarks": ["PingPong"],
                        "msglog_min": 0, "msglog_max": 2}}}}) + "\\n")
    for n in (0, 1):
        f.write(json.dumps({{"type": "result", "schema": 1, "component": "mpi1",
                            "benchmark": "PingPong", "procs": 2, "bytes": n,
                            "repetitions": 10, "t_min_us": 1.0, "t_max_us": 1.0,
                            "t_avg_us": 1.0}}) + "\\n")
sys.stderr.write("effbench: error: simulated crash\\n")
sys.exit(3)
"""


def fake_launch(tmp_path):
    """A fake mpiexec and a fake effbench that crashes after three records,
    and a database URL, for the launcher's failure paths."""
    mpiexec = tmp_path / "fake-mpiexec"
    mpiexec.write_text(FAKE_MPIEXEC)
    fake = tmp_path / "fake-effbench"
    fake.write_text(FAKE_EFFBENCH.format(python=sys.executable))
    for f in (mpiexec, fake):
        f.chmod(f.stat().st_mode | stat.S_IXUSR)
    return mpiexec, fake, f"sqlite:///{tmp_path / 'r.sqlite'}"


def test_run_failure_keeps_json(tmp_path, capsys):
    mpiexec, fake, db = fake_launch(tmp_path)
    jsonl = tmp_path / "crash.jsonl"
    code = main(["run", "--mpiexec", str(mpiexec), "--effbench", str(fake), "--db", db,
                 "--json", str(jsonl), "mpi1", "PingPong"])
    err = capsys.readouterr().err
    assert code == 3
    assert "simulated crash" in err and f"the results so far are in {jsonl}" in err
    assert len(jsonl.read_text().splitlines()) == 3
    with Store(db) as store:
        assert store.counts()["run"] == 0


def test_run_refuses_to_replace_files(tmp_path, capsys):
    """An existing --json FILE (or its .txt) is a user's earlier run: refused unless
    --overwrite, and then replaced, not appended to."""
    mpiexec, fake, db = fake_launch(tmp_path)
    jsonl = tmp_path / "old.jsonl"
    argv = ["run", "--mpiexec", str(mpiexec), "--effbench", str(fake), "--db", db, "--json",
            str(jsonl), "mpi1", "PingPong"]
    for existing in (jsonl, tmp_path / "old.txt"):
        existing.write_text("an earlier run\n")
        assert main(argv) == 2
        assert capsys.readouterr().err == (
            f"effbench-results: error: {existing} exists: choose another --json FILE, or "
            "--overwrite to replace it and its .txt file\n")
        assert existing.read_text() == "an earlier run\n"
        existing.unlink()
    jsonl.write_text("an earlier run\n")
    assert main([*argv[:1], "--overwrite", *argv[1:]]) == 3  # the fake's crash
    assert [json.loads(x)["type"] for x in jsonl.read_text().splitlines()] == \
        ["run", "result", "result"]


def test_run_without_effbench(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("EFFBENCH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["run", "mpi1"]) == 2
    assert "no effbench executable" in capsys.readouterr().err
