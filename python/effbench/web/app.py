"""The web application over the result store: browse and compare runs (SKaMPI's three steps on
one page), run pages, upload and delete through an HTTP API with tokens, and forms for both.

Safety by construction: every query goes through SQLAlchemy with bound parameters; Jinja2
escapes every string it puts into HTML; no script is ever built from data (plot data comes from
a JSON endpoint) and the Content-Security-Policy allows scripts from this server only; forms
carry a CSRF token (double submit: a random cookie that the form must repeat)."""


import hmac
import secrets
import tempfile
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, File, Form, Header, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (FileResponse, HTMLResponse, JSONResponse, PlainTextResponse,
                               RedirectResponse, Response)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..importers import FORMATS, FormatError, parse_file
from ..heatmap import node_heatmaps
from ..records import dumps_record
from ..store.db import Store
from ..store.models import Run
from . import query
from .tokens import Identity, verify_token
from .dashboard import router as history_router

HERE = Path(__file__).resolve().parent
DEFAULT_MAX_UPLOAD = 64 * 1024 * 1024
CSRF_COOKIE = "effbench_csrf"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'; form-action 'self'")
MAX_NOTES = 2000  # longest note accepted
MAX_NETWORK = Run.network.type.length  # the network label's column
# Room for the upload form's other parts (boundaries, part headers, token, CSRF, format,
# network, notes): a request body may be this much larger than the file limit.
FORM_OVERHEAD = 64 * 1024


FilterMachine = Annotated[list[str], Query(description="machine (uname nodename)")]
FilterNetwork = Annotated[list[str], Query(description="network label given at upload")]
FilterLibrary = Annotated[list[str], Query(description="MPI library version string")]
FilterProcs = Annotated[list[int], Query(description="process count")]
Selection = Annotated[list[str], Query(description="RUN:COMPONENT/BENCHMARK, repeatable")]


class ApiError(Exception):
    def __init__(self, status: int, message: str):
        self.status = status
        self.message = message


class BodyTooLarge(StarletteHTTPException):
    """A request body over the limit: raised while it streams in, answered as any HTTP error
    (413, JSON)."""

    def __init__(self, limit: int):
        super().__init__(413, f"request body larger than {limit} bytes (the upload limit of "
                         f"{limit - FORM_OVERHEAD} bytes and {FORM_OVERHEAD} for the form)",
                         headers={"Connection": "close"})


class BodyLimit:
    """ASGI middleware: refuses a request body over LIMIT bytes before the application has it.
    With a Content-Length over the limit the answer is 413 at once, nothing of the body read;
    a body without one (chunked) is cut off when it passes the limit. Either way the
    connection is closed, so the server does not read the rest."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            exc = BodyTooLarge(self.limit)
            response = JSONResponse({"error": exc.detail}, status_code=413,
                                    headers=exc.headers)
            return await response(scope, receive, send)
        received = 0

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)  # the app's HTTP error handler answers
            return message

        await self.app(scope, limited_receive, send)


def plotly_js() -> Path:
    import plotly
    return Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


def create_app(db_url: str | None = None, max_upload_bytes: int = DEFAULT_MAX_UPLOAD,
               store: Store | None = None) -> FastAPI:
    store = store or Store(db_url)
    app = FastAPI(title="effbench performance database", version=__version__,
                  description="Upload, browse and compare MPI benchmark runs "
                  "(effbench, IMB, b_eff, b_eff_io, SKaMPI).",
                  docs_url=None, redoc_url=None)  # the CDN-based doc pages would break the CSP
    app.state.store = store
    app.state.max_upload = max_upload_bytes
    app.add_middleware(BodyLimit, limit=max_upload_bytes + FORM_OVERHEAD)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals["short_library"] = query.short_library
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(history_router)  # the dashboard and history pages (web/dashboard.py)

    # --- errors: the API answers JSON, always with a reason ---------------------------------

    @app.exception_handler(ApiError)
    async def _api_error(_request, exc: ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request, exc: RequestValidationError):
        reasons = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                            for e in exc.errors())
        return JSONResponse({"error": reasons}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request, exc: StarletteHTTPException):
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.middleware("http")
    async def _headers(request: Request, call_next):
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        return response

    # --- helpers ------------------------------------------------------------------------------

    def identity(authorization: Annotated[str | None, Header()] = None) -> Identity:
        if not authorization:
            raise ApiError(401, "an API token is needed: Authorization: Bearer <token>")
        scheme, _, secret = authorization.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise ApiError(401, "the Authorization header must be 'Bearer <token>'")
        ident = verify_token(store, secret.strip())
        if ident is None:
            raise ApiError(401, "unknown or revoked API token")
        return ident

    async def save_upload(upload: UploadFile, directory: str) -> Path:
        """The upload in a temporary file, read in pieces so that a file over the limit is
        refused at limit + 1 bytes, never held in memory. (A request body over the limit and
        the form's overhead never gets here: BodyLimit refuses it before or while it comes
        in.)"""
        path = Path(directory) / "upload"
        size = 0
        with open(path, "wb") as out:
            while chunk := await upload.read(1 << 20):
                size += len(chunk)
                if size > app.state.max_upload:
                    raise ApiError(413, f"file larger than the limit of "
                                   f"{app.state.max_upload} bytes")
                out.write(chunk)
        if size == 0:
            raise ApiError(400, "the file is empty")
        return path

    def clean_text(value: str | None, what: str, limit: int) -> str | None:
        if value is None or not value.strip():
            return None
        if len(value.strip()) > limit:
            raise ApiError(400, f"{what} longer than {limit} characters")
        return value.strip()

    async def import_upload(upload: UploadFile, fmt: str | None, network: str | None,
                            notes: str | None, who: Identity) -> tuple[int, bool, Any]:
        if fmt and fmt not in FORMATS:
            raise ApiError(400, f"unknown format '{fmt}' (one of {', '.join(FORMATS)})")
        network = clean_text(network, "network", MAX_NETWORK)
        notes = clean_text(notes, "notes", MAX_NOTES)
        name = Path(upload.filename or "upload").name
        with tempfile.TemporaryDirectory(prefix="effbench-upload-") as tmp:
            path = await save_upload(upload, tmp)
            try:
                # The whole file is parsed and checked before the one import transaction.
                parsed = parse_file(path, fmt or None)
            except FormatError as exc:
                where = f"{name}:{exc.line}" if exc.line is not None else name
                raise ApiError(400, f"{where}: {exc.reason}") from None
        parsed.source = name
        try:
            run_id, created = store.import_run(parsed, uploader_id=who.id, network=network,
                                               notes=notes)
        except Exception as exc:  # the transaction was rolled back: nothing is stored
            raise ApiError(500, f"database error, nothing stored: {type(exc).__name__}") \
                from None
        return run_id, created, parsed

    def may_delete(who: Identity, run_id: int) -> None:
        exists, uploader = query.run_owner(store, run_id)
        if not exists:
            raise ApiError(404, f"no run {run_id}")
        if not (who.admin or (uploader is not None and uploader == who.id)):
            raise ApiError(403, "only the run's uploader or an admin may delete it")

    def run_filter(machine, network, mpi_library, procs, date_from, date_to):
        return query.RunFilter(machine=[m for m in machine if m],
                               network=[n for n in network if n],
                               mpi_library=[m for m in mpi_library if m],
                               procs=procs, date_from=date_from or None,
                               date_to=date_to or None)

    def csrf_token(request: Request) -> str:
        return request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)

    def render(request: Request, name: str, context: dict, status: int = 200) -> Response:
        token = csrf_token(request)
        response = templates.TemplateResponse(request, name, {**context, "csrf": token},
                                              status_code=status)
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict")
        return response

    def upload_context(**extra) -> dict:
        # the form's limits are the server's
        return {"formats": sorted(FORMATS), "network_max": MAX_NETWORK,
                "notes_max": MAX_NOTES, **extra}

    def check_csrf(request: Request, form_token: str) -> None:
        cookie = request.cookies.get(CSRF_COOKIE, "")
        if not cookie or not hmac.compare_digest(cookie, form_token or ""):
            raise ApiError(403, "CSRF check failed: reload the form and submit it again")

    def date_param(value: str | None, what: str) -> str | None:
        import re
        if value and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ApiError(400, f"{what} must be YYYY-MM-DD")
        return value

    def selection_param(sel: list[str]):
        try:
            return query.parse_selection(sel)
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None

    # --- pages --------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def browse(request: Request, machine: FilterMachine = [], network: FilterNetwork = [],
               mpi_library: FilterLibrary = [], procs: FilterProcs = [],
               date_from: str | None = None, date_to: str | None = None,
               run: Annotated[list[int], Query()] = [], sel: Selection = [],
               x: str | None = None, y: str | None = None, xlog: int = 1, ylog: int = 1):
        date_param(date_from, "date_from")
        date_param(date_to, "date_to")
        flt = run_filter(machine, network, mpi_library, procs, date_from, date_to)
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
            from urllib.parse import urlencode
            plot_params = urlencode(params)
        return render(request, "browse.html", {
            "runs": runs, "choices": query.filter_choices(store), "flt": flt,
            "chosen": set(chosen_ids), "chosen_list": [chosen[i] for i in chosen_ids],
            "benchmarks": query.benchmarks_of(store, chosen_ids),
            "selected": {f"{r}:{c}/{n}" for r, c, n in selection},
            "plot_params": plot_params, "x": x, "y": y, "xlog": xlog, "ylog": ylog,
            "x_fields": query.X_FIELDS, "y_fields": query.Y_FIELDS,
            "label": query.run_label, "max_listed": query.MAX_LISTED_RUNS})

    @app.get("/runs/{run_id}", response_class=HTMLResponse, include_in_schema=False)
    def run_page(request: Request, run_id: int):
        runs = query.get_runs(store, [run_id])
        if run_id not in runs:
            return render(request, "error.html", {"message": f"no run {run_id}"}, status=404)
        tables, parsed = query.run_tables(store, run_id)
        return render(request, "run.html", {
            "run": runs[run_id], "record": parsed.run, "end": parsed.end,
            "options": parsed.run.get("options") or {}, "tables": tables,
            "summaries": parsed.summaries, "fmt": query._csv_value,
            "heatmaps": [{"spec": hm.plotly_spec(), "flagged": hm.flagged}
                         for hm in node_heatmaps(parsed)]})

    @app.get("/upload", response_class=HTMLResponse, include_in_schema=False)
    def upload_page(request: Request):
        return render(request, "upload.html", upload_context())

    @app.post("/upload", response_class=HTMLResponse, include_in_schema=False)
    async def upload_form(request: Request, file: UploadFile = File(...),
                          token: str = Form(""), csrf: str = Form(""),
                          format: str = Form(""), network: str = Form(""),
                          notes: str = Form("")):
        try:
            check_csrf(request, csrf)
            who = verify_token(store, token.strip())
            if who is None:
                raise ApiError(401, "unknown or revoked API token")
            run_id, created, parsed = await import_upload(file, format or None, network,
                                                          notes, who)
        except ApiError as exc:
            return render(request, "upload.html", upload_context(error=exc.message),
                          status=exc.status)
        return render(request, "upload.html", upload_context(
            done={"id": run_id, "created": created, "rows": len(parsed.results)}))

    @app.post("/runs/{run_id}/delete", include_in_schema=False)
    def delete_form(request: Request, run_id: int, token: str = Form(""),
                    csrf: str = Form("")):
        try:
            check_csrf(request, csrf)
            who = verify_token(store, token.strip())
            if who is None:
                raise ApiError(401, "unknown or revoked API token")
            may_delete(who, run_id)
        except ApiError as exc:
            return render(request, "error.html", {"message": exc.message}, status=exc.status)
        query.delete_run(store, run_id)
        return RedirectResponse("/", status_code=303)

    @app.get("/help", response_class=HTMLResponse, include_in_schema=False)
    def help_page(request: Request):
        base = str(request.base_url).rstrip("/")
        endpoints = [(method.upper(), path, op.get("summary", ""))
                     for path, ops in app.openapi()["paths"].items()
                     for method, op in ops.items()]
        return render(request, "help.html", {"base": base, "endpoints": endpoints,
                                             "limit": app.state.max_upload,
                                             "formats": sorted(FORMATS)})

    @app.get("/static-lib/plotly.min.js", include_in_schema=False)
    def plotly_static():
        return FileResponse(plotly_js(), media_type="text/javascript",
                            headers={"Cache-Control": "public, max-age=86400"})

    # --- API ----------------------------------------------------------------------------------

    @app.get("/api/runs", summary="Runs matching the filter (newest first)")
    def api_runs(machine: FilterMachine = [], network: FilterNetwork = [],
                 mpi_library: FilterLibrary = [], procs: FilterProcs = [],
                 date_from: Annotated[str | None, Query(description="YYYY-MM-DD")] = None,
                 date_to: Annotated[str | None, Query(description="YYYY-MM-DD")] = None,
                 limit: Annotated[int, Query(ge=1, le=10000)] = query.MAX_LISTED_RUNS):
        date_param(date_from, "date_from")
        date_param(date_to, "date_to")
        return {"runs": query.find_runs(store, run_filter(
            machine, network, mpi_library, procs, date_from, date_to), limit=limit)}

    @app.get("/api/runs/{run_id}", summary="One run: facts, run and end records, summaries")
    def api_run(run_id: int):
        runs = query.get_runs(store, [run_id])
        if run_id not in runs:
            raise ApiError(404, f"no run {run_id}")
        parsed = store.load(run_id)
        return {**runs[run_id], "run_record": parsed.run, "end_record": parsed.end,
                "summaries": parsed.summaries, "rows": len(parsed.results)}

    @app.get("/api/runs/{run_id}/jsonl", summary="One run as effbench JSON Lines",
             response_class=PlainTextResponse)
    def api_run_jsonl(run_id: int):
        if not query.run_owner(store, run_id)[0]:
            raise ApiError(404, f"no run {run_id}")
        parsed = store.load(run_id)
        body = "".join(dumps_record(r) + "\n" for r in parsed.records())
        return Response(body, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="run-{run_id}.jsonl"'})

    @app.post("/api/runs", status_code=201,
              summary="Upload a run (JSON Lines or any importable file); needs a token")
    async def api_upload(response: Response, who: Annotated[Identity, Depends(identity)],
                         file: UploadFile = File(..., description="the run file"),
                         format: str | None = Form(None, description="skip detection: "
                                                   + ", ".join(sorted(FORMATS))),
                         network: str | None = Form(None, description="network label"),
                         notes: str | None = Form(None, description="free text")):
        run_id, created, parsed = await import_upload(file, format, network, notes, who)
        if not created:
            response.status_code = 200
        return {"id": run_id, "created": created, "rows": len(parsed.results),
                "component": parsed.run["component"], "format": parsed.source_format,
                "url": f"/runs/{run_id}"}

    @app.delete("/api/runs/{run_id}", status_code=204,
                summary="Delete a run (its uploader or an admin)")
    def api_delete(run_id: int, who: Annotated[Identity, Depends(identity)]):
        may_delete(who, run_id)
        query.delete_run(store, run_id)
        return Response(status_code=204)

    @app.get("/api/benchmarks", summary="Benchmarks measured by the chosen runs")
    def api_benchmarks(run: Annotated[list[int], Query(description="run id, repeatable")]):
        return {"benchmarks": query.benchmarks_of(store, run)}

    @app.get("/api/plot", summary="The comparison plot of a selection as plotly traces")
    def api_plot(sel: Selection,
                 x: Annotated[str | None, Query(description=", ".join(query.X_FIELDS))] = None,
                 y: Annotated[str | None, Query(description=", ".join(query.Y_FIELDS))] = None):
        if x is not None and x not in query.X_FIELDS:
            raise ApiError(400, f"x must be one of {', '.join(query.X_FIELDS)}")
        if y is not None and y not in query.Y_FIELDS:
            raise ApiError(400, f"y must be one of {', '.join(query.Y_FIELDS)}")
        return query.plot_data(store, selection_param(sel), x, y)

    @app.get("/api/plot.csv", summary="Every measurement of a selection as CSV (exact values)",
             response_class=PlainTextResponse)
    def api_plot_csv(sel: Selection):
        body = query.measurements_csv(store, selection_param(sel))
        return Response(body, media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": 'attachment; filename="effbench-selection.csv"'})

    @app.get("/api/health", summary="Liveness and the store's backend")
    def api_health():
        return {"status": "ok", "database": store.engine.dialect.name, "version": __version__}

    return app
