"""The web application over the result store: browse and compare runs (SKaMPI's three steps on
one page), run pages, upload and delete through an HTTP API with tokens, and forms for both.
The pages (web/pages.py) and the API (web/api.py) are routers; this module builds the
application around them: its state, the errors' answers, the headers and the body limit.

Safety by construction: every query goes through SQLAlchemy with bound parameters; Jinja2
escapes every string it puts into HTML; no script is ever built from data (plot data comes from
a JSON endpoint) and the Content-Security-Policy allows scripts from this server only; forms
carry a CSRF token (double submit: a random cookie that the form must repeat)."""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..store.db import Store
from . import api, pages
from .deps import HERE, ApiError, templates

DEFAULT_MAX_UPLOAD = 64 * 1024 * 1024
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'; form-action 'self'")
# Room for the upload form's other parts (boundaries, part headers, token, CSRF, format,
# network, notes): a request body may be this much larger than the file limit.
FORM_OVERHEAD = 64 * 1024


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


def create_app(db_url: str | None = None, max_upload_bytes: int = DEFAULT_MAX_UPLOAD,
               store: Store | None = None) -> FastAPI:
    store = store or Store(db_url)
    app = FastAPI(title="effbench performance database", version=__version__,
                  description="Upload, browse and compare MPI benchmark runs "
                  "(effbench, IMB, b_eff, b_eff_io, SKaMPI).",
                  docs_url=None, redoc_url=None)  # the CDN-based doc pages would break the CSP
    # what the routers' dependencies (web/deps.py) hand to the routes
    app.state.store = store
    app.state.max_upload = max_upload_bytes
    app.state.templates = templates
    app.add_middleware(BodyLimit, limit=max_upload_bytes + FORM_OVERHEAD)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    add_error_answers(app)
    app.include_router(pages.router)
    app.include_router(api.router)
    return app


def add_error_answers(app: FastAPI) -> None:
    """The API answers JSON, always with a reason; every answer carries the safety headers."""

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
