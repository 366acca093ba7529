"""An upload, from the API or the form: the file saved in pieces under the size limit, parsed
and checked, and imported in one transaction with who uploaded it and what they said."""

import tempfile
from pathlib import Path
from typing import Any

from fastapi import UploadFile

from ..importers import FORMATS, FormatError, parse_file
from ..records import ParsedRun
from ..store.db import Store
from ..store.models import Run
from .deps import ApiError
from .tokens import Identity

MAX_NOTES = 2000  # longest note accepted
MAX_NETWORK = Run.network.type.length  # the network label's column


async def save_upload(upload: UploadFile, directory: str, limit: int) -> Path:
    """The upload in a temporary file, read in pieces so that a file over LIMIT bytes is
    refused at limit + 1 bytes, never held in memory. (A request body over the limit and
    the form's overhead never gets here: BodyLimit refuses it before or while it comes
    in.)"""
    path = Path(directory) / "upload"
    size = 0
    with open(path, "wb") as out:
        while chunk := await upload.read(1 << 20):
            size += len(chunk)
            if size > limit:
                raise ApiError(413, f"file larger than the limit of {limit} bytes")
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


async def import_upload(store: Store, limit: int, upload: UploadFile, fmt: str | None,
                        network: str | None, notes: str | None,
                        who: Identity) -> tuple[int, bool, ParsedRun]:
    """Store the uploaded file: (run id, created, the parsed run); ApiError says why not."""
    if fmt and fmt not in FORMATS:
        raise ApiError(400, f"unknown format '{fmt}' (one of {', '.join(FORMATS)})")
    network = clean_text(network, "network", MAX_NETWORK)
    notes = clean_text(notes, "notes", MAX_NOTES)
    name = Path(upload.filename or "upload").name
    with tempfile.TemporaryDirectory(prefix="effbench-upload-") as tmp:
        path = await save_upload(upload, tmp, limit)
        # The whole file is parsed and checked (by the importer, then against the store's
        # columns, naming the line) before the one import transaction.
        try:
            parsed = parse_file(path, fmt or None)
        except FormatError as exc:
            raise _refused(name, exc) from None
        parsed.source = name
        try:
            run_id, created = store.import_run(parsed, path=path, uploader_id=who.id,
                                               network=network, notes=notes)
        except FormatError as exc:
            raise _refused(name, exc) from None
        except Exception as exc:  # the transaction was rolled back: nothing is stored
            raise ApiError(500, f"database error, nothing stored: "
                           f"{type(exc).__name__}") from None
    return run_id, created, parsed


def _refused(name: str, exc: FormatError) -> ApiError:
    where = f"{name}:{exc.line}" if exc.line is not None else name
    return ApiError(400, f"{where}: {exc.reason}")


def upload_context(**extra: Any) -> dict:
    # the form's limits are the server's
    return {"formats": sorted(FORMATS), "network_max": MAX_NETWORK,
            "notes_max": MAX_NOTES, **extra}
