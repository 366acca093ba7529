"""Limits of the web application: the upload size against a real server (uvicorn on 127.0.0.1
and a free port, httpx as the client), refused before the body is read; and strings longer than
the store's columns, refused with a reason on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
import warnings

import httpx
import pytest

from web_helpers import LiveServer, run_records, write_run

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from effbench.store.db import Store  # noqa: E402
from effbench.web import create_app  # noqa: E402
from effbench.web.tokens import create_token  # noqa: E402

LIMIT = 200_000
BODY_LIMIT = LIMIT + 64 * 1024
DECLARED = 1 << 30  # what the oversized uploads say they send: 1 GiB
BOUNDARY = "effbenchboundary"


@pytest.fixture
def server(sqlite_url):
    store = Store(sqlite_url)
    token = create_token(store, "alice")
    live = LiveServer(create_app(store=store, max_upload_bytes=LIMIT))
    yield live, store, token
    live.stop()
    store.close()


class Body:
    """A multipart upload of a JSON Lines file that goes on for DECLARED bytes; counts what
    the client was let to send."""

    def __init__(self):
        self.sent = 0

    def __iter__(self):
        head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"big.jsonl\"\r\nContent-Type: application/octet-stream\r\n\r\n")
        line = (json.dumps(run_records()[1]) + "\n").encode()
        chunk = line * (65536 // len(line))
        yield head.encode()
        self.sent = len(head)
        while self.sent < DECLARED:
            self.sent += len(chunk)
            yield chunk


def post_big(live, token, content_length: bool):
    body = Body()
    headers = {"Authorization": f"Bearer {token}",
               "Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
    if content_length:
        headers["Content-Length"] = str(DECLARED)  # else httpx sends it chunked
    started = time.monotonic()
    with httpx.Client(timeout=30) as client:
        resp = client.post(f"{live.url}/api/runs", headers=headers, content=iter(body))
    return resp, body.sent, time.monotonic() - started


@pytest.mark.parametrize("content_length", [True, False], ids=["content-length", "chunked"])
def test_oversized_upload_refused_early(server, content_length):
    live, store, token = server
    before = store.counts()
    resp, sent, seconds = post_big(live, token, content_length)
    assert resp.status_code == 413
    assert resp.headers["content-type"] == "application/json"
    assert resp.json() == {"error": f"request body larger than {BODY_LIMIT} bytes (the upload "
                                    f"limit of {LIMIT} bytes and 65536 for the form)"}
    assert resp.headers["connection"] == "close"
    # The server stopped reading: the client could send no more than the sockets' buffers
    # hold (a few MB here), not the gigabyte it announced.
    assert sent < DECLARED // 32, sent
    assert seconds < 10
    assert store.counts() == before
    # and the server goes on serving
    assert httpx.get(f"{live.url}/api/health").json()["status"] == "ok"


def test_upload_within_limit_through_the_server(server, tmp_path):
    live, store, token = server
    path = write_run(tmp_path / "a.jsonl")
    with open(path, "rb") as f:
        resp = httpx.post(f"{live.url}/api/runs", headers={"Authorization": f"Bearer {token}"},
                          files={"file": ("a.jsonl", f)}, data={"network": "eth"})
    assert resp.status_code == 201, resp.text
    assert store.counts()["measurement"] == 16


# --- strings longer than the columns ----------------------------------------------------------

@pytest.fixture
def web(db_url):
    store = Store(db_url)
    client = TestClient(create_app(store=store))
    yield client, store, create_token(store, "alice")
    client.close()
    store.close()


def test_network_label_limit_is_the_columns(web, tmp_path):
    client, store, token = web
    path = write_run(tmp_path / "a.jsonl")
    headers = {"Authorization": f"Bearer {token}"}
    resp = client.post("/api/runs", headers=headers, data={"network": "n" * 256},
                       files={"file": ("a.jsonl", path.read_bytes())})
    assert resp.status_code == 400
    assert resp.json() == {"error": "network longer than 255 characters"}
    assert store.counts()["run"] == 0
    resp = client.post("/api/runs", headers=headers, data={"network": "n" * 255},
                       files={"file": ("a.jsonl", path.read_bytes())})
    assert resp.status_code == 201 and client.get("/api/runs/1").json()["network"] == "n" * 255
    # the form says the same
    assert 'name="network" maxlength="255"' in client.get("/upload").text
    assert 'name="notes" rows="3" cols="60" maxlength="2000"' in client.get("/upload").text


def test_over_long_field_in_a_file_is_a_400(web, tmp_path):
    client, store, token = web
    records = run_records()
    records[0]["uname"]["nodename"] = "n" * 300
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    resp = client.post("/api/runs", headers={"Authorization": f"Bearer {token}"},
                       files={"file": ("long.jsonl", path.read_bytes())})
    assert resp.status_code == 400
    assert resp.json() == {"error": "long.jsonl:1: run field 'uname.nodename' is 300 "
                                    "characters long; the store keeps at most 255"}
    assert store.counts()["run"] == 0
