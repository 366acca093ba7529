"""The web pages of history: a machine's dashboard of key figures (b_eff, b_eff_io, ping-pong
latency and bandwidth, Allreduce at 8 B and 1 MiB) with their trends, and a run's series over
time. Every value is plotted against the noise band `check` holds it against (effbench.history);
the figures are the report's (effbench.report_history), their plotly specs in JSON script
elements that /static/trends.js draws (no inline script: the CSP forbids it)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException

from ..history import MAX_PLOTTED, Trend, machine_series, run_series, trends
from ..keyfigures import KEY_FIGURES, OSU_FIGURES
from ..plotfig import plotly_spec
from ..report_history import band_rule, trend_figure
from ..store.db import StoreError
from .deps import templates
from .query import short_library

DEFAULT_BAND = 10
MAX_DASHBOARD_RUNS = 500  # a machine's newest runs that its dashboard reads
BandRuns = Annotated[int, Query(ge=1, le=100, description="runs before each value that give "
                                "its noise band (check's --baseline last:N)")]

router = APIRouter()


def _series_label(meta: dict) -> str:
    return (f"{short_library(meta['mpi_library']) or 'unknown MPI library'} · "
            f"{meta['component']} · np={meta['procs']}")


def _trend_json(trend: Trend) -> dict:
    points = [asdict(p) for p in trend.points]
    latest = points[-1] if points else None
    change = None
    if latest and latest["median"]:
        change = latest["value"] / latest["median"] - 1
    return {"name": trend.name, "unit": trend.unit, "metric": trend.metric,
            "points": points, "latest": latest, "change": change}


def machines(store) -> list[dict]:
    """Every machine with runs: name, number of runs, newest start."""
    out: dict[str, dict] = {}
    for m in store.list_runs():
        if m["machine"] is None:
            continue
        entry = out.setdefault(m["machine"], {"machine": m["machine"], "runs": 0, "newest": ""})
        entry["runs"] += 1
        entry["newest"] = max(entry["newest"], m["start"] or "")
    return sorted(out.values(), key=lambda e: e["machine"])


def dashboard_data(store, machine: str, band_runs: int) -> dict:
    """MACHINE's series (machine + MPI library + component + processes + measured options)
    and, per key figure, each series' values over time with their bands and a plot."""
    all_series = machine_series(store, machine, MAX_DASHBOARD_RUNS)
    if not all_series:
        raise HTTPException(404, f"no runs of machine {machine!r}")
    labels, seen = [], {}
    for s in all_series:
        label = _series_label(s.newest)
        seen[label] = seen.get(label, 0) + 1
        # series that differ in measured options only: told apart by their first run
        labels.append(label if seen[label] == 1 else f"{label} (from run {s.runs[0][0]['id']})")
    names = tuple(f.name for f in KEY_FIGURES)
    per_series = [(label, trends(s.runs, band_runs, names))
                  for label, s in zip(labels, all_series)]
    figures = []
    for figure in KEY_FIGURES:
        entries = [(label, t) for label, ts in per_series for t in ts
                   if t.name == figure.name and t.points]
        if not entries and figure in OSU_FIGURES:
            continue
        plot = None
        if entries:
            plot = plotly_spec(trend_figure(f"{figure.name} on {machine}", machine, entries,
                                            band_runs))
        figures.append({"name": figure.name, "unit": figure.unit, "metric": figure.metric,
                        "series": [{"label": label, **_trend_json(t)} for label, t in entries],
                        "plot": plot})
    return {"machine": machine, "band_runs": band_runs, "band_rule": band_rule(band_runs),
            "series": [{"label": label, "mpi_library": s.newest["mpi_library"],
                        "component": s.newest["component"], "procs": s.newest["procs"],
                        "runs": [m["id"] for m, _ in s.runs]}
                       for label, s in zip(labels, all_series)],
            "figures": figures}


def history_data(store, run_id: int, band_runs: int) -> dict:
    """RUN's series up to RUN (the newest MAX_PLOTTED runs plotted), each value with its band."""
    try:
        series = run_series(store, run_id, MAX_PLOTTED + band_runs)
    except (StoreError, StopIteration):
        raise HTTPException(404, f"no run {run_id}") from None
    shown = series[-MAX_PLOTTED:]
    out = []
    for trend in trends(series, band_runs):
        if trend.points:
            fig = trend_figure(f"{trend.name} over time", f"run {run_id}", [("", trend)],
                               band_runs)
            out.append({**_trend_json(trend), "plot": plotly_spec(fig)})
    meta = series[-1][0]
    return {"run": run_id, "machine": meta["machine"], "series": _series_label(meta),
            "band_runs": band_runs, "band_rule": band_rule(band_runs),
            "runs": [m["id"] for m, _ in shown], "trends": out}


@router.get("/api/dashboard", summary="A machine's key figures over time, with noise bands")
def api_dashboard(request: Request, machine: Annotated[str, Query(description="uname nodename")],
                  band: BandRuns = DEFAULT_BAND):
    return dashboard_data(request.app.state.store, machine, band)


@router.get("/api/machines", summary="Machines with stored runs (for the dashboard)")
def api_machines(request: Request):
    return {"machines": machines(request.app.state.store)}


@router.get("/api/runs/{run_id}/history",
            summary="A run's series over time: its values, each with its noise band")
def api_history(request: Request, run_id: int, band: BandRuns = DEFAULT_BAND):
    return history_data(request.app.state.store, run_id, band)


def _page(request: Request, name: str, context: dict, status: int = 200):
    return templates.TemplateResponse(request, name, context, status_code=status)


@router.get("/dashboard", response_class=HTMLResponse, include_in_schema=False)
def dashboard_page(request: Request, machine: str | None = None,
                   band: BandRuns = DEFAULT_BAND):
    store = request.app.state.store
    if not machine:
        return _page(request, "dashboard.html", {"machines": machines(store), "data": None})
    try:
        data = dashboard_data(store, machine, band)
    except HTTPException as exc:
        return _page(request, "error.html", {"message": exc.detail}, status=404)
    return _page(request, "dashboard.html", {"machines": None, "data": data})


@router.get("/runs/{run_id}/history", response_class=HTMLResponse, include_in_schema=False)
def history_page(request: Request, run_id: int, band: BandRuns = DEFAULT_BAND):
    try:
        data = history_data(request.app.state.store, run_id, band)
    except HTTPException as exc:
        return _page(request, "error.html", {"message": exc.detail}, status=404)
    return _page(request, "history.html", {"data": data})
