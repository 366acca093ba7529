"""The web server under concurrent uploads and reads, on SQLite and on a real PostgreSQL server:
tens of clients on the loopback, bounded in count and time; every upload is stored exactly once
(the same file uploaded by many clients at once is one run), no request gets a 500."""
from __future__ import annotations

import concurrent.futures
import time
import warnings

import pytest

from web_helpers import LiveServer, write_run

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import httpx  # noqa: E402

from effbench.store.db import Store  # noqa: E402
from effbench.web import create_app  # noqa: E402
from effbench.web.tokens import create_token  # noqa: E402

CLIENTS = 24          # threads at once
DISTINCT = 16         # different runs
SAME_TWICE = 8        # clients that upload one shared run at the same moment
READS = 40
DEADLINE_S = 120      # a bound, not a speed target: the test fails only on a hang


@pytest.fixture
def live(db_url):
    store = Store(db_url)
    token = create_token(store, "load")
    server = LiveServer(create_app(store=store, max_upload_bytes=400_000))
    yield server.url, token, store
    server.stop()
    store.close()


def test_concurrent_uploads_and_reads(live, tmp_path):
    url, token, store = live
    files = [write_run(tmp_path / f"r{i}.jsonl", machine=f"m{i % 4}", scale=1 + i / 10,
                       start=f"2026-11-{10 + i:02d}T08:00:00Z") for i in range(DISTINCT)]
    shared = write_run(tmp_path / "shared.jsonl", machine="shared", scale=3.0)
    jobs = [("up", f) for f in files] + [("up", shared)] * SAME_TWICE + [("read", None)] * READS
    headers = {"Authorization": f"Bearer {token}"}
    started = time.monotonic()

    def one(job):
        kind, path = job
        with httpx.Client(base_url=url, timeout=60) as c:
            if kind == "up":
                with open(path, "rb") as f:
                    r = c.post("/api/runs", headers=headers, files={"file": (path.name, f)})
                return kind, path.name, r.status_code, r.json()
            r = c.get("/api/runs")
            return kind, None, r.status_code, r.json()

    with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(one, jobs, timeout=DEADLINE_S))
    assert time.monotonic() - started < DEADLINE_S
    statuses = [s for _, _, s, _ in results]
    assert all(s in (200, 201) for s in statuses), [r for r in results if r[2] >= 300][:3]
    ups = [(name, body) for kind, name, _, body in results if kind == "up"]
    ids = {}
    for name, body in ups:
        ids.setdefault(name, set()).add(body["id"])
    assert all(len(v) == 1 for v in ids.values())           # one id per file
    assert len({i for v in ids.values() for i in v}) == DISTINCT + 1  # no run lost or doubled
    created = [body["created"] for name, body in ups if name == "shared.jsonl"]
    assert created.count(True) == 1 and len(created) == SAME_TWICE
    with httpx.Client(base_url=url, timeout=60) as c:
        listed = c.get("/api/runs").json()["runs"]
    assert len(listed) == DISTINCT + 1
    assert store.counts()["run"] == DISTINCT + 1
