"""What the web application's routers share: the store and the upload limit (set on the app by
create_app, handed to routes through FastAPI dependencies), the API's error, the API token check,
the query parameters that several routes take, and the rendering of pages with their CSRF
cookie."""

import hmac
import re
import secrets
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Header, Query, Request, Response
from fastapi.templating import Jinja2Templates

from ..store.db import Store
from . import query
from .tokens import Identity, verify_token

HERE = Path(__file__).resolve().parent
CSRF_COOKIE = "effbench_csrf"

templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals["short_library"] = query.short_library

FilterMachine = Annotated[list[str], Query(description="machine (uname nodename)")]
FilterNetwork = Annotated[list[str], Query(description="network label given at upload")]
FilterLibrary = Annotated[list[str], Query(description="MPI library version string")]
FilterProcs = Annotated[list[int], Query(description="process count")]
FilterDevice = Annotated[list[str], Query(description="device (GPU model) a run used, as listed; "
                                          "'host' for runs without a device")]
Selection = Annotated[list[str], Query(description="RUN:COMPONENT/BENCHMARK, repeatable")]


class ApiError(Exception):
    """An answer with a reason: JSON {"error": message} from the API, an error page or the
    form again from the pages."""

    def __init__(self, status: int, message: str):
        self.status = status
        self.message = message


def get_store(request: Request) -> Store:
    return request.app.state.store


StoreDep = Annotated[Store, Depends(get_store)]


def identity(store: StoreDep,
             authorization: Annotated[str | None, Header()] = None) -> Identity:
    """The API token of the request's Authorization header."""
    if not authorization:
        raise ApiError(401, "an API token is needed: Authorization: Bearer <token>")
    scheme, _, secret = authorization.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise ApiError(401, "the Authorization header must be 'Bearer <token>'")
    ident = verify_token(store, secret.strip())
    if ident is None:
        raise ApiError(401, "unknown or revoked API token")
    return ident


def form_identity(store: Store, token: str) -> Identity:
    """The API token typed into a form."""
    who = verify_token(store, token.strip())
    if who is None:
        raise ApiError(401, "unknown or revoked API token")
    return who


def may_delete(store: Store, who: Identity, run_id: int) -> None:
    exists, uploader = query.run_owner(store, run_id)
    if not exists:
        raise ApiError(404, f"no run {run_id}")
    if not (who.admin or (uploader is not None and uploader == who.id)):
        raise ApiError(403, "only the run's uploader or an admin may delete it")


def run_filter(machine, network, mpi_library, procs, date_from, date_to,
               device=()) -> query.RunFilter:
    date_param(date_from, "date_from")
    date_param(date_to, "date_to")
    return query.RunFilter(machine=[m for m in machine if m],
                           network=[n for n in network if n],
                           mpi_library=[m for m in mpi_library if m],
                           procs=procs, date_from=date_from or None,
                           date_to=date_to or None, device=[d for d in device if d])


def date_param(value: str | None, what: str) -> str | None:
    if value and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ApiError(400, f"{what} must be YYYY-MM-DD")
    return value


def selection_param(sel: list[str]):
    try:
        return query.parse_selection(sel)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None


def csrf_token(request: Request) -> str:
    return request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)


def check_csrf(request: Request, form_token: str) -> None:
    cookie = request.cookies.get(CSRF_COOKIE, "")
    if not cookie or not hmac.compare_digest(cookie, form_token or ""):
        raise ApiError(403, "CSRF check failed: reload the form and submit it again")


def render(request: Request, name: str, context: dict, status: int = 200) -> Response:
    """The page NAME with CONTEXT, and the CSRF token its forms repeat (double submit)."""
    token = csrf_token(request)
    response = templates.TemplateResponse(request, name, {**context, "csrf": token},
                                          status_code=status)
    response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict")
    return response
