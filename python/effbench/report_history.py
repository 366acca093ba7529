"""Figures across runs: several runs overlaid in one figure (the report of `report A B`), and a
series' values over time with the noise band that `check` holds each run against (the report,
the web page of a run's history, the machine dashboard). Renderings: effbench.plotfig."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from .history import MIN_BAND, MIN_BASELINE, ROBUST_Z, Trend
from .plotfig import PALETTE, Figure, Panel, Trace

# Overlaid runs: the first run's traces solid, the second's dashed, ...
RUN_DASHES = ("solid", "dash", "dot", "dashdot")
OVERLAY_NOTE = ("Runs that measured the same benchmark share its figure: each trace is named "
                "'RUN: series', the first run's lines solid, the second's dashed, the third's "
                "dotted.")
TIME_AXIS = "run start [date, UTC]"
WORSE_COLOR, BETTER_COLOR = "#c00000", "#008000"


def _compatible(figures: list[Figure]) -> bool:
    """Figures whose panels of the same title have the same axes may share one figure."""
    axes: dict[str, tuple] = {}
    for fig in figures:
        for p in fig.panels:
            shape = (p.xtitle, p.ytitle, p.xlog, p.ylog, p.xdate, p.xticks)
            if axes.setdefault(p.title, shape) != shape:
                return False
    return True


def _trace_prefixes(labels: list[str]) -> list[str]:
    """What names a run in a trace: a file's name without its directory (unless two runs then
    share a name), a stored run's "run N"."""
    short = [Path(label).name if Path(label).is_file() else label for label in labels]
    return short if len(set(short)) == len(short) else labels


def overlay(runs: list[tuple[str, list[Figure]]]) -> list[Figure]:
    """One figure per kind and title over all RUNS (label, figures), in the order they first
    appear; a figure only one run has, or whose runs' axes differ, stays as it was."""
    groups: dict[tuple, list[tuple[int, str, Figure]]] = {}
    names = _trace_prefixes([label for label, _ in runs])
    for index, (label, figures) in enumerate(runs):
        for fig in figures:
            groups.setdefault((fig.kind, fig.title), []).append((index, label, fig))
    out = []
    for members in groups.values():
        if len(members) == 1 or not _compatible([f for _, _, f in members]):
            out += [f for _, _, f in members]
            continue
        panels: dict[str, Panel] = {}
        for index, label, fig in members:
            for p in fig.panels:
                target = panels.setdefault(p.title, replace(p, traces=[]))
                target.traces += [replace(t, name=f"{names[index]}: {t.name}",
                                          dash=RUN_DASHES[index % len(RUN_DASHES)])
                                  for t in p.traces]
        first = members[0][2]
        note = "; ".join(f"{label}: {fig.note}" for _, label, fig in members if fig.note)
        out.append(Figure(first.kind, first.title, " + ".join(m[1] for m in members),
                          first.benchmark, list(panels.values()), note))
    return out


def band_rule(band_runs: int) -> str:
    return (f"band: the median of the {band_runs} runs of the series before each run "
            f"± max({ROBUST_Z:g} × 1.4826 × MAD, {MIN_BAND:.0%} of the median), as "
            f"`check --baseline last:{band_runs}`; no band before {MIN_BASELINE} earlier runs")


def _trace_names(label: str) -> dict[str, str]:
    """Trace names: what each is, after the series' label where a figure has several."""
    names = {"value": "value", "band_low": "noise band (low edge)", "band": "noise band",
             "median": "median of the runs before", "worse": "worse than its band",
             "better": "better than its band"}
    if not label:
        return names
    return {k: label if k == "value" else f"{label}: {v}" for k, v in names.items()}


def _series_traces(label: str, trend: Trend, color: str) -> list[Trace]:
    """A series' values, its band (lower edge, upper edge filled down to it), the band's
    median, and the values outside their band marked."""
    names = _trace_names(label)
    group = label or None
    pts = [p for p in trend.points if p.start is not None]
    # A value's band spans the time from the value before it to the value: steps, visible
    # from the first band on (a band at one time only would have no width).
    steps = [(before, p) for before, p in zip(pts, pts[1:]) if p.median is not None]
    traces = []
    if steps:
        x = [t for before, p in steps for t in (before.start, p.start)]

        def edge(f):
            return [v for _, p in steps for v in (f(p), f(p))]
        traces += [
            Trace(names["band_low"], x, edge(lambda p: p.median - p.half), role="band_low",
                  color=color, group=group),
            Trace(names["band"], x, edge(lambda p: p.median + p.half), role="band_high",
                  color=color, group=group),
            Trace(names["median"], x, edge(lambda p: p.median), mode="lines", dash="dot",
                  color=color, role="median", group=group)]
    traces.append(Trace(names["value"], [p.start for p in pts], [p.value for p in pts],
                        color=color, group=group, text=[f"run {p.run_id}" for p in pts]))
    for verdict, symbol, mark in (("worse", "x", WORSE_COLOR),
                                  ("better", "triangle-up", BETTER_COLOR)):
        out = [p for p in pts if p.verdict == verdict]
        if out:
            traces.append(Trace(names[verdict], [p.start for p in out],
                                [p.value for p in out], mode="markers", symbol=symbol,
                                color=mark, role="marker", group=group,
                                text=[f"run {p.run_id}" for p in out]))
    return traces


def trend_figure(title: str, run: str, series: list[tuple[str, Trend]],
                 band_runs: int) -> Figure:
    """SERIES (label, trend) of one value over time in one figure; with one series its traces
    are named for what they are, with several each name starts with the series' label."""
    first = series[0][1]
    panel = Panel("", TIME_AXIS, f"{first.name} [{first.unit}]", xlog=False, ylog=False,
                  xdate=True)
    for i, (label, trend) in enumerate(series):
        panel.traces += _series_traces(label if len(series) > 1 else "", trend,
                                       PALETTE[i % len(PALETTE)])
    missing = sum(1 for _, t in series for p in t.points if p.start is None)
    note = band_rule(band_runs)
    if missing:
        note += f"; {missing} runs without a start time are not plotted"
    return Figure("history", title, run, first.name, [panel], note)


@dataclass
class HistorySection:
    title: str
    note: str
    figures: list[Figure]


def history_section(label: str, runs: int, trends: list[Trend], band_runs: int
                    ) -> HistorySection:
    """A stored run's series in the report: one figure per value it follows."""
    figures = [trend_figure(f"{t.name} over time", label, [("", t)], band_runs)
               for t in trends if t.points]
    note = (f"{runs} runs of the series of {label} (same machine, MPI library, component, "
            "process count and measured options), oldest first; " + band_rule(band_runs))
    if not figures:
        note = (f"{label} has no value to follow over time: no summary with a headline value, "
                "no ping-pong or Allreduce row of the key figures.")
    return HistorySection(f"History of {label}'s series", note, figures)
