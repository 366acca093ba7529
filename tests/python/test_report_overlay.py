"""The static report across runs: `report A B` overlays both runs in one figure per benchmark
(each run's traces named after it), every axis has its unit, no tick label of a PNG figure is
cut off, and stored runs get their series' history with the noise band of `check`."""

from __future__ import annotations

import json
import re
import statistics

import pytest

from effbench.cli import main
from effbench.importers import parse_file
from effbench.plotfig import mpl_figure
from effbench.records import write_jsonl
from effbench.report import build_figures
from effbench.report_history import history_section
from effbench.history import run_series, trends
from effbench.store.db import Store
from test_report import parse_report
from web_helpers import BEFF, BEFF_IO, BEFF_SCALES, MPI1, slower, store_machine_history

UNIT = re.compile(r"\[[^\]]+\]$")  # an axis title ends with its unit in brackets


def spec_of(parser, plot) -> dict:
    return json.loads(parser.specs[plot["id"] + "-spec"])


def axis_titles(spec) -> dict[str, str]:
    return {k: v.get("title", {}).get("text") for k, v in spec["layout"].items()
            if re.fullmatch(r"[xy]axis\d*", k)}


def test_report_overlays_two_runs(tmp_path):
    slow = tmp_path / "slow.jsonl"
    write_jsonl(slower(parse_file(MPI1), 1.25).records(), slow)
    out = tmp_path / "rep"
    assert main(["report", str(MPI1), str(slow), "-o", str(out)]) == 0
    parser = parse_report(out / "index.html")
    single = [f for f in build_figures("x", parse_file(MPI1))]
    # one figure per benchmark, not one per run and benchmark
    assert len(parser.plots) == len(single) == len(list((out / "png").glob("*.png")))
    pingpong = next(p for p in parser.plots if p["data-benchmark"] == "PingPong")
    assert pingpong["data-run"] == f"{MPI1} + {slow}"
    spec = spec_of(parser, pingpong)
    time_traces = [t for t in spec["data"] if t.get("xaxis", "x") == "x"]
    # a file's run is named by its file name (the paths are in data-run and the facts)
    assert [t["name"] for t in time_traces] == [f"{MPI1.name}: 2 procs", "slow.jsonl: 2 procs"]
    assert [t["line"]["dash"] for t in time_traces] == ["solid", "dash"]
    rows = [r for r in parse_file(MPI1).results if r["benchmark"] == "PingPong" and r["bytes"]]
    assert time_traces[0]["y"] == [r["t_max_us"] for r in rows]
    assert time_traces[1]["y"] == pytest.approx([r["t_max_us"] * 1.25 for r in rows])
    # the bandwidth panel: the same two runs, the same colours as in the time panel
    bw = [t for t in spec["data"] if t.get("xaxis") == "x2"]
    assert [t["name"] for t in bw] == [t["name"] for t in time_traces]
    assert [t["line"]["color"] for t in bw] == [t["line"]["color"] for t in time_traces]
    assert len({t["line"]["color"] for t in bw}) == 2
    assert axis_titles(spec) == {"xaxis": "message size [bytes]", "yaxis": "time [usec]",
                                 "xaxis2": "message size [bytes]",
                                 "yaxis2": "bandwidth [Mbytes/sec]"}
    assert int(pingpong["data-points"]) == 2 * len(rows)


def test_every_axis_has_its_unit(samples, tmp_path):
    out = tmp_path / "rep"
    assert main(["report", str(samples / "imb/mpi1_np4_coll_run2.txt"),
                 str(samples / "beff/b_eff_np4.short"), str(samples / "beff_io/b_eff_io_np2.prot"),
                 str(samples / "skampi/coll_np2.sko"), "-o", str(out), "--no-static"]) == 0
    parser = parse_report(out / "index.html")
    kinds = {p["data-kind"] for p in parser.plots}
    assert kinds == {"benchmark", "procs", "beff_pattern", "beff_io", "comparison"}
    for plot in parser.plots:
        for axis, title in axis_titles(spec_of(parser, plot)).items():
            assert title and UNIT.search(title), (plot["data-benchmark"], axis, title)


def outside_the_figure(fig) -> list[str]:
    """The parts of a matplotlib figure (each panel with its tick labels and axis titles, the
    title, the legend) that reach beyond the figure's edges."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    parts = [(ax.get_title(), ax.get_tightbbox(renderer)) for ax in fig.axes]
    parts += [(t.get_text(), t.get_window_extent(renderer)) for t in fig.texts]  # suptitle
    parts += [("legend", legend.get_window_extent(renderer)) for legend in fig.legends]
    return [f"{name}: {box}" for name, box in parts
            if box.x0 < -0.5 or box.y0 < -0.5 or box.x1 > width + 0.5 or box.y1 > height + 0.5]


def test_static_figures_cut_no_label(samples, tmp_path):
    with Store(f"sqlite:///{tmp_path / 'h.sqlite'}") as store:
        store_machine_history(store)
        history = history_section("run 9", 4, trends(run_series(store, 9, 20), 10), 10)
    figures = [f for path in (samples / "imb/mpi1_np4_coll_run2.txt", BEFF, BEFF_IO,
                              samples / "skampi/coll_np2.sko")
               for f in build_figures(str(path), parse_file(path))]
    figures += history.figures
    kinds = {f.kind for f in figures}
    assert kinds == {"benchmark", "procs", "beff_pattern", "beff_io", "comparison", "history"}
    for fig in figures[::3] + history.figures:  # every kind, a third of the b_eff patterns
        assert outside_the_figure(mpl_figure(fig)) == [], fig.title


def test_report_history_of_stored_runs(tmp_path):
    db = f"sqlite:///{tmp_path / 'h.sqlite'}"
    with Store(db) as store:
        store_machine_history(store)
    out = tmp_path / "rep"
    assert main(["report", "--db", db, "5", "9", "--history", "10", "-o", str(out),
                 "--no-static"]) == 0
    parser = parse_report(out / "index.html")
    html = (out / "index.html").read_text()
    assert "History of run 5&#x27;s series" in html and "History of run 9&#x27;s series" in html
    history = [p for p in parser.plots if p["data-kind"] == "history"]
    assert [p["data-benchmark"] for p in history if p["data-run"] == "run 5"] == [
        "ping-pong latency", "ping-pong bandwidth", "Allreduce 8 B", "Allreduce 1 MiB"]
    beff_plots = [p for p in history if p["data-run"] == "run 9"]
    assert [p["data-benchmark"] for p in beff_plots[:4]] == [
        "b_eff", "ping-pong latency", "ping-pong bandwidth", "b_eff per process"]
    spec = spec_of(parser, beff_plots[0])
    traces = {t["name"]: t for t in spec["data"]}
    b_eff = parse_file(BEFF).summaries[0]["b_eff_mb_per_s"]
    values = [b_eff * s for s in BEFF_SCALES]
    assert traces["value"]["y"] == pytest.approx(values)
    assert traces["value"]["text"] == ["run 6", "run 7", "run 8", "run 9"]
    med = statistics.median(values[:3])
    half = max(4 * 1.4826 * statistics.median(abs(v - med) for v in values[:3]), 0.05 * med)
    # the fourth run's band spans the time from the third run to it
    assert traces["noise band (low edge)"]["y"] == pytest.approx([med - half] * 2)
    assert traces["noise band"]["y"] == pytest.approx([med + half] * 2)
    assert traces["noise band"]["x"] == ["2026-11-04T08:00:00Z", "2026-11-05T08:00:00Z"]
    assert traces["noise band"]["fill"] == "tonexty"
    assert traces["worse than its band"]["y"] == pytest.approx([values[3]])
    assert axis_titles(spec) == {"xaxis": "run start [date, UTC]", "yaxis": "b_eff [MB/s]"}
    assert int(beff_plots[0]["data-points"]) == 4
    # (the history's static figures are test_static_figures_cut_no_label's); --no-history
    # leaves it out; a band of no run is refused
    assert main(["report", "--db", db, "5", "-o", str(tmp_path / "r1"), "--no-static"]) == 0
    plots = parse_report(tmp_path / "r1/index.html").plots
    assert sum(1 for p in plots if p["data-kind"] == "history") == 4
    assert main(["report", "--db", db, "9", "--no-history", "-o", str(tmp_path / "r2"),
                 "--no-static"]) == 0
    assert "history" not in {p["data-kind"] for p in parse_report(tmp_path / "r2/index.html").plots}
    assert main(["report", "--db", db, "9", "--history", "0", "-o", str(tmp_path / "r3")]) == 2
