"""The web application's HTTP API (JSON): runs by filter, one run and its JSON Lines, upload
and delete with an API token, the benchmarks of chosen runs, and a selection's measurements as
plot traces and as CSV. Every answer that refuses says why ({"error": ...})."""

from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Query, Request, Response, UploadFile
from fastapi.responses import PlainTextResponse

from .. import __version__
from ..importers import FORMATS
from ..records import dumps_record
from . import query
from .deps import (ApiError, FilterDevice, FilterLibrary, FilterMachine, FilterNetwork,
                   FilterProcs,
                   Selection, StoreDep, identity, may_delete, run_filter, selection_param)
from .tokens import Identity
from .upload import import_upload

router = APIRouter(prefix="/api")
Uploader = Annotated[Identity, Depends(identity)]


@router.get("/runs", summary="Runs matching the filter (newest first)")
def api_runs(store: StoreDep, machine: FilterMachine = [], network: FilterNetwork = [],
             mpi_library: FilterLibrary = [], procs: FilterProcs = [],
             date_from: Annotated[str | None, Query(description="YYYY-MM-DD")] = None,
             date_to: Annotated[str | None, Query(description="YYYY-MM-DD")] = None,
             limit: Annotated[int, Query(ge=1, le=10000)] = query.MAX_LISTED_RUNS,
             device: FilterDevice = []):
    return {"runs": query.find_runs(store, run_filter(
        machine, network, mpi_library, procs, date_from, date_to, device), limit=limit)}


@router.get("/runs/{run_id}", summary="One run: facts, run and end records, summaries")
def api_run(store: StoreDep, run_id: int):
    runs = query.get_runs(store, [run_id])
    if run_id not in runs:
        raise ApiError(404, f"no run {run_id}")
    parsed = store.load(run_id)
    return {**runs[run_id], "run_record": parsed.run, "end_record": parsed.end,
            "summaries": parsed.summaries, "rows": len(parsed.results)}


@router.get("/runs/{run_id}/jsonl", summary="One run as effbench JSON Lines",
            response_class=PlainTextResponse)
def api_run_jsonl(store: StoreDep, run_id: int):
    if not query.run_owner(store, run_id)[0]:
        raise ApiError(404, f"no run {run_id}")
    parsed = store.load(run_id)
    body = "".join(dumps_record(r) + "\n" for r in parsed.records())
    return Response(body, media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="run-{run_id}.jsonl"'})


@router.post("/runs", status_code=201,
             summary="Upload a run (JSON Lines or any importable file); needs a token")
async def api_upload(request: Request, response: Response, store: StoreDep, who: Uploader,
                     file: UploadFile = File(..., description="the run file"),
                     format: str | None = Form(None, description="skip detection: "
                                               + ", ".join(sorted(FORMATS))),
                     network: str | None = Form(None, description="network label"),
                     notes: str | None = Form(None, description="free text")):
    run_id, created, parsed = await import_upload(store, request.app.state.max_upload, file,
                                                  format, network, notes, who)
    if not created:
        response.status_code = 200
    return {"id": run_id, "created": created, "rows": len(parsed.results),
            "component": parsed.run["component"], "format": parsed.source_format,
            "url": f"/runs/{run_id}"}


@router.delete("/runs/{run_id}", status_code=204,
               summary="Delete a run (its uploader or an admin)")
def api_delete(store: StoreDep, run_id: int, who: Uploader):
    may_delete(store, who, run_id)
    query.delete_run(store, run_id)
    return Response(status_code=204)


@router.get("/benchmarks", summary="Benchmarks measured by the chosen runs")
def api_benchmarks(store: StoreDep,
                   run: Annotated[list[int], Query(description="run id, repeatable")]):
    return {"benchmarks": query.benchmarks_of(store, run)}


@router.get("/plot", summary="The comparison plot of a selection as plotly traces")
def api_plot(store: StoreDep, sel: Selection,
             x: Annotated[str | None, Query(description=", ".join(query.X_FIELDS))] = None,
             y: Annotated[str | None, Query(description=", ".join(query.Y_FIELDS))] = None):
    if x is not None and x not in query.X_FIELDS:
        raise ApiError(400, f"x must be one of {', '.join(query.X_FIELDS)}")
    if y is not None and y not in query.Y_FIELDS:
        raise ApiError(400, f"y must be one of {', '.join(query.Y_FIELDS)}")
    return query.plot_data(store, selection_param(sel), x, y)


@router.get("/plot.csv", summary="Every measurement of a selection as CSV (exact values)",
            response_class=PlainTextResponse)
def api_plot_csv(store: StoreDep, sel: Selection):
    body = query.measurements_csv(store, selection_param(sel))
    return Response(body, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": 'attachment; filename="effbench-selection.csv"'})


@router.get("/health", summary="Liveness and the store's backend")
def api_health(store: StoreDep):
    return {"status": "ok", "database": store.engine.dialect.name, "version": __version__}
