"""History of a series of runs and regression alerts (docs/results.md).

A series is the runs of one machine, MPI library and component whose options say they measure
the same thing (effbench.comparable).  Its values are the headline numbers of the summaries and
the rows both runs have (effbench.compare's matching); `check` holds a run's values against the
band of its baseline, the series' previous N runs, by one robust rule:

    a value is outside its band when it is worse than the baseline's median by more than
    max(ROBUST_Z * 1.4826 * MAD, MIN_BAND * median)

(MAD: median absolute deviation; 1.4826 * MAD estimates a standard deviation that outliers do
not move; MIN_BAND keeps a baseline of identical values from flagging the last digit).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass

from .comparable import differences
from .compare import compare_runs, headline_values
from .keyfigures import key_values
from .records import ParsedRun

ROBUST_Z = 4.0
MIN_BAND = 0.05
MIN_BASELINE = 3  # fewer earlier runs: no band to hold a value against


@dataclass
class Alert:
    label: str
    procs: int | None
    nbytes: int | None
    value: float
    median: float
    band: float  # half-width of the band
    metric: str  # "time" (lower is better) or "bandwidth"
    worse: bool


def may_share_series(a_meta: dict, b_meta: dict) -> bool:
    """What the store's list of runs tells already: machine, library, component, processes."""
    return all(a_meta.get(k) == b_meta.get(k)
               for k in ("machine", "mpi_library", "component", "procs"))


def same_series(a: ParsedRun, b: ParsedRun, a_meta: dict, b_meta: dict) -> bool:
    return (may_share_series(a_meta, b_meta)
            and a.run.get("component") == b.run.get("component")
            and a.run.get("procs") == b.run.get("procs")
            and not any(d.changes_measurement for d in differences(a, b)))


def series_before(store, run_id: int, last: int) -> list[tuple[dict, ParsedRun]]:
    """The series' runs stored before RUN (by start time, then id), the newest LAST of them."""
    metas = {m["id"]: m for m in store.list_runs()}
    me, parsed = metas[run_id], store.load(run_id)
    out = []
    for rid, meta in metas.items():
        if rid == run_id or (meta["start"] or "", rid) >= (me["start"] or "", run_id):
            continue
        if not may_share_series(me, meta):
            continue  # no need to load it
        other = store.load(rid)
        if same_series(parsed, other, me, meta):
            out.append((meta, other))
    out.sort(key=lambda p: (p[0]["start"] or "", p[0]["id"]))
    return out[-last:] if last > 0 else []


def values_of(reference: ParsedRun, run: ParsedRun) -> dict[tuple, tuple]:
    """run's values on the rows (and headlines) it shares with reference: key -> (label,
    procs, bytes, metric, value)."""
    cmp = compare_runs(reference, run)
    return {r.key: (r.label, r.key[4], r.key[5], r.metric, r.b)
            for r in cmp.headlines + cmp.rows}


def band(baseline: list[float]) -> tuple[float, float]:
    """The baseline's median and the half-width of its band (the rule above)."""
    med = statistics.median(baseline)
    mad = statistics.median(abs(v - med) for v in baseline)
    return med, max(ROBUST_Z * 1.4826 * mad, MIN_BAND * med)


def verdict(value: float, med: float, half: float, metric: str) -> str | None:
    """None inside the band, else "worse" or "better" (lower times, higher bandwidths)."""
    if abs(value - med) <= half:
        return None
    return "worse" if (value > med if metric == "time" else value < med) else "better"


def check(run: ParsedRun, baseline: list[ParsedRun]) -> list[Alert]:
    """The values of RUN outside their baseline's band (better ones too, marked not worse)."""
    if len(baseline) < MIN_BASELINE:
        return []
    return alerts_for(values_of(run, run), [values_of(run, b) for b in baseline])


def alerts_for(mine: dict[tuple, tuple], past: list[dict[tuple, tuple]]) -> list[Alert]:
    """MINE's values (key -> (label, procs, bytes, metric, value)) outside the band of the
    same keys' values in PAST (a run's, or a group's medians: `check group:G`)."""
    alerts = []
    for key, (label, procs, nbytes, metric, value) in mine.items():
        series = [p[key][4] for p in past if key in p]
        if len(series) < MIN_BASELINE:
            continue
        med, half = band(series)
        found = verdict(value, med, half, metric)
        if found:
            alerts.append(Alert(label, procs, nbytes, value, med, half, metric,
                                found == "worse"))
    return alerts


def history_table(store, run_id: int, last: int) -> list[tuple[dict, dict[tuple, tuple]]]:
    """The series up to and including RUN: per run its metadata and its values."""
    runs = series_before(store, run_id, last - 1) + [
        ({m["id"]: m for m in store.list_runs()}[run_id], store.load(run_id))]
    reference = runs[-1][1]
    return [(meta, values_of(reference, parsed)) for meta, parsed in runs]


# --- the series over time, for plots (report, web page, dashboard) -----------------------------

MAX_PLOTTED = 200  # runs of a series shown in a plot, the newest


@dataclass
class Point:
    run_id: int
    start: str | None
    value: float
    median: float | None = None  # of the band's baseline: the series' runs before this one
    half: float | None = None  # half-width of the band
    verdict: str | None = None  # "worse", "better" or None (inside, or no band)


@dataclass
class Trend:
    name: str
    metric: str
    unit: str
    points: list[Point]


def trend_values(run: ParsedRun) -> dict[str, tuple[str, str, float]]:
    """What a series' plot follows: name -> (metric, unit, value). The key figures
    (effbench.keyfigures) first, then the summaries' other headline values."""
    out, used = {}, set()
    for name, kv in key_values(run).items():
        out[name] = (kv.figure.metric, kv.figure.unit, kv.value)
        used.add(kv.summary_field)
    for (_, fld, _), (label, metric, value, _) in headline_values(run).items():
        if fld not in used and label not in out:
            out[label] = (metric, "usec" if metric == "time" else "MB/s", value)
    return out


def with_bands(values: list[tuple[dict, float | None]], metric: str,
               band_runs: int) -> list[Point]:
    """Each value against the band of the BAND_RUNS runs of the series before it (those that
    have the value), as `check` holds a run against --baseline last:BAND_RUNS."""
    points = []
    for i, (meta, value) in enumerate(values):
        if value is None:
            continue
        point = Point(meta["id"], meta["start"], value)
        baseline = [v for _, v in values[max(0, i - band_runs):i] if v is not None]
        if len(baseline) >= MIN_BASELINE:
            point.median, point.half = band(baseline)
            point.verdict = verdict(value, point.median, point.half, metric)
        points.append(point)
    return points


def trends(runs: list[tuple[dict, ParsedRun]], band_runs: int,
           names: tuple[str, ...] | None = None, shown: int = MAX_PLOTTED) -> list[Trend]:
    """The series RUNS (oldest first) as one Trend per value (only NAMES if given), each with
    its bands; the newest SHOWN runs are plotted, the runs before them give their bands."""
    values = [(meta, trend_values(parsed)) for meta, parsed in runs]
    order: dict[str, tuple[str, str]] = {}
    for _, vals in values:
        for name, (metric, unit, _) in vals.items():
            order.setdefault(name, (metric, unit))
    shown_ids = {meta["id"] for meta, _ in runs[-shown:]}
    out = []
    for name in (names if names is not None else tuple(order)):
        if name not in order:
            continue
        metric, unit = order[name]
        points = with_bands([(m, v[name][2] if name in v else None) for m, v in values],
                            metric, band_runs)
        out.append(Trend(name, metric, unit, [p for p in points if p.run_id in shown_ids]))
    return out


def run_series(store, run_id: int, runs: int) -> list[tuple[dict, ParsedRun]]:
    """RUN's series up to and including RUN, at most RUNS runs, oldest first."""
    me = next(m for m in store.list_runs() if m["id"] == run_id)
    return series_before(store, run_id, runs - 1) + [(me, store.load(run_id))]


@dataclass
class Series:
    runs: list[tuple[dict, ParsedRun]]  # oldest first

    @property
    def newest(self) -> dict:
        return self.runs[-1][0]


def machine_series(store, machine: str, limit: int) -> list[Series]:
    """The series of MACHINE's newest LIMIT runs, in the order they first appear."""
    metas = sorted((m for m in store.list_runs() if m["machine"] == machine),
                   key=lambda m: (m["start"] or "", m["id"]))[-limit:]
    out: list[Series] = []
    for meta in metas:
        parsed = store.load(meta["id"])
        home = next((s for s in out if same_series(s.runs[0][1], parsed, s.runs[0][0], meta)),
                    None)
        if home is None:
            out.append(Series([(meta, parsed)]))
        else:
            home.runs.append((meta, parsed))
    return out
