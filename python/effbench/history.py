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
from .compare import compare_runs
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


def same_series(a: ParsedRun, b: ParsedRun, a_meta: dict, b_meta: dict) -> bool:
    return (a_meta.get("machine") == b_meta.get("machine")
            and a_meta.get("mpi_library") == b_meta.get("mpi_library")
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
        other = store.load(rid)
        if same_series(parsed, other, me, meta):
            out.append((meta, other))
    out.sort(key=lambda p: (p[0]["start"] or "", p[0]["id"]))
    return out[-last:]


def values_of(reference: ParsedRun, run: ParsedRun) -> dict[tuple, tuple]:
    """run's values on the rows (and headlines) it shares with reference: key -> (label,
    procs, bytes, metric, value)."""
    cmp = compare_runs(reference, run)
    return {r.key: (r.label, r.key[4], r.key[5], r.metric, r.b)
            for r in cmp.headlines + cmp.rows}


def check(run: ParsedRun, baseline: list[ParsedRun]) -> list[Alert]:
    """The values of RUN outside their baseline's band (better ones too, marked not worse)."""
    if len(baseline) < MIN_BASELINE:
        return []
    mine = values_of(run, run)
    past = [values_of(run, b) for b in baseline]
    alerts = []
    for key, (label, procs, nbytes, metric, value) in mine.items():
        series = [p[key][4] for p in past if key in p]
        if len(series) < MIN_BASELINE:
            continue
        med = statistics.median(series)
        mad = statistics.median(abs(v - med) for v in series)
        band = max(ROBUST_Z * 1.4826 * mad, MIN_BAND * med)
        if abs(value - med) <= band:
            continue
        worse = value > med if metric == "time" else value < med
        alerts.append(Alert(label, procs, nbytes, value, med, band, metric, worse))
    return alerts


def history_table(store, run_id: int, last: int) -> list[tuple[dict, dict[tuple, tuple]]]:
    """The series up to and including RUN: per run its metadata and its values."""
    runs = series_before(store, run_id, last - 1) + [
        ({m["id"]: m for m in store.list_runs()}[run_id], store.load(run_id))]
    reference = runs[-1][1]
    return [(meta, values_of(reference, parsed)) for meta, parsed in runs]
