"""The web application's pages: browse and compare runs (SKaMPI's three steps on one page), a
run's page, the upload and delete forms, the help page. Jinja2 escapes every string it puts
into HTML; the forms carry a CSRF token (double submit: a random cookie the form repeats)."""

from pathlib import Path
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from ..devices import device_lines
from ..heatmap import run_heatmaps
from ..importers import FORMATS
from . import query
from .deps import (ApiError, FilterDevice, FilterLibrary, FilterMachine, FilterNetwork,
                   FilterProcs,
                   Selection, StoreDep, check_csrf, form_identity, may_delete, render,
                   run_filter, selection_param)
from .upload import import_upload, upload_context

router = APIRouter(include_in_schema=False)


def plotly_js() -> Path:
    import plotly
    return Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


@router.get("/", response_class=HTMLResponse)
def browse(request: Request, store: StoreDep, machine: FilterMachine = [],
           network: FilterNetwork = [], mpi_library: FilterLibrary = [],
           procs: FilterProcs = [], date_from: str | None = None, date_to: str | None = None,
           run: Annotated[list[int], Query()] = [], sel: Selection = [],
           x: str | None = None, y: str | None = None, xlog: int = 1, ylog: int = 1,
           device: FilterDevice = []):
    flt = run_filter(machine, network, mpi_library, procs, date_from, date_to, device)
    runs = query.find_runs(store, flt)
    chosen = query.get_runs(store, run)
    chosen_ids = [r for r in run if r in chosen]
    selection = [s for s in selection_param(sel) if s[0] in chosen]
    listed = {r["id"] for r in runs}
    # chosen runs stay on the list even when the filter would hide them
    runs = [chosen[i] for i in chosen_ids if i not in listed] + runs
    plot_params = None
    if selection:
        params = [("sel", f"{r}:{c}/{n}") for r, c, n in selection]
        if x in query.X_FIELDS:
            params.append(("x", x))
        if y in query.Y_FIELDS:
            params.append(("y", y))
        plot_params = urlencode(params)
    return render(request, "browse.html", {
        "runs": runs, "choices": query.filter_choices(store), "flt": flt,
        "chosen": set(chosen_ids), "chosen_list": [chosen[i] for i in chosen_ids],
        "benchmarks": query.benchmarks_of(store, chosen_ids),
        "selected": {f"{r}:{c}/{n}" for r, c, n in selection},
        "plot_params": plot_params, "x": x, "y": y, "xlog": xlog, "ylog": ylog,
        "x_fields": query.X_FIELDS, "y_fields": query.Y_FIELDS,
        "label": query.run_label, "max_listed": query.MAX_LISTED_RUNS})


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run_page(request: Request, store: StoreDep, run_id: int):
    runs = query.get_runs(store, [run_id])
    if run_id not in runs:
        return render(request, "error.html", {"message": f"no run {run_id}"}, status=404)
    tables, parsed = query.run_tables(store, run_id)
    return render(request, "run.html", {
        "run": runs[run_id], "record": parsed.run, "end": parsed.end,
        "options": parsed.run.get("options") or {}, "tables": tables,
        "summaries": parsed.summaries, "fmt": query._csv_value,
        "devices": device_lines(parsed.run.get("devices")),
        "heatmaps": [{"spec": hm.plotly_spec(), "flagged": hm.flagged}
                     for hm in run_heatmaps(parsed)]})


@router.get("/upload", response_class=HTMLResponse)
def upload_page(request: Request):
    return render(request, "upload.html", upload_context())


@router.post("/upload", response_class=HTMLResponse)
async def upload_form(request: Request, store: StoreDep, file: UploadFile = File(...),
                      token: str = Form(""), csrf: str = Form(""), format: str = Form(""),
                      network: str = Form(""), notes: str = Form("")):
    try:
        check_csrf(request, csrf)
        who = form_identity(store, token)
        run_id, created, parsed = await import_upload(
            store, request.app.state.max_upload, file, format or None, network, notes, who)
    except ApiError as exc:
        return render(request, "upload.html", upload_context(error=exc.message),
                      status=exc.status)
    return render(request, "upload.html", upload_context(
        done={"id": run_id, "created": created, "rows": len(parsed.results)}))


@router.post("/runs/{run_id}/delete")
def delete_form(request: Request, store: StoreDep, run_id: int, token: str = Form(""),
                csrf: str = Form("")):
    try:
        check_csrf(request, csrf)
        may_delete(store, form_identity(store, token), run_id)
    except ApiError as exc:
        return render(request, "error.html", {"message": exc.message}, status=exc.status)
    query.delete_run(store, run_id)
    return RedirectResponse("/", status_code=303)


@router.get("/help", response_class=HTMLResponse)
def help_page(request: Request):
    base = str(request.base_url).rstrip("/")
    endpoints = [(method.upper(), path, op.get("summary", ""))
                 for path, ops in request.app.openapi()["paths"].items()
                 for method, op in ops.items()]
    return render(request, "help.html", {"base": base, "endpoints": endpoints,
                                         "limit": request.app.state.max_upload,
                                         "formats": sorted(FORMATS)})


@router.get("/static-lib/plotly.min.js")
def plotly_static():
    return FileResponse(plotly_js(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})
