"""The report's contents (effbench.report, `effbench-results report`)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from conftest import DATA

from effbench.cli import main
from effbench.importers import parse_file

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
