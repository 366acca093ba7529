"""The web application's HTTP API and pages (FastAPI TestClient) on SQLite and PostgreSQL:
every endpoint, token failures, malformed and oversized uploads (nothing half-imported),
ownership on delete, CSRF on forms, exact CSV values, and escaping of user strings."""

from __future__ import annotations

import csv
import io
import json
import re
import warnings

import pytest

from web_helpers import run_records, write_run

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from effbench.importers import parse_file  # noqa: E402
from effbench.store.db import Store  # noqa: E402
from effbench.web import create_app  # noqa: E402
from effbench.web.tokens import create_token, revoke_token  # noqa: E402

XSS = "<script>alert(1)</script>"


@pytest.fixture
def web(db_url):
    store = Store(db_url)
    app = create_app(store=store, max_upload_bytes=200_000)
    tokens = {"alice": create_token(store, "alice"), "bob": create_token(store, "bob"),
              "admin": create_token(store, "admin", admin=True)}
    client = TestClient(app)
    yield client, store, tokens
    client.close()
    store.close()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def upload(client, token, path, **form):
    with open(path, "rb") as f:
        return client.post("/api/runs", headers=auth(token) if token else {},
                           files={"file": (path.name, f)}, data=form)


def test_upload_browse_export(web, tmp_path):
    client, store, tokens = web
    a = write_run(tmp_path / "a.jsonl", machine="alpha", start="2026-11-01T08:00:00Z")
    b = write_run(tmp_path / "b.jsonl", machine="beta", procs=4, scale=2.0,
                  library="MPICH Version: 4.0.2", start="2026-11-15T08:00:00Z")
    r = upload(client, tokens["alice"], a, network="shared memory", notes="first")
    assert r.status_code == 201, r.text
    assert r.json() == {"id": 1, "created": True, "rows": 16, "component": "mpi1",
                        "format": "jsonl", "url": "/runs/1"}
    assert upload(client, tokens["bob"], b, network="InfiniBand").status_code == 201
    # the same run again: stored once, 200
    again = upload(client, tokens["bob"], a)
    assert again.status_code == 200 and again.json()["created"] is False
    assert again.json()["id"] == 1

    run = client.get("/api/runs/1").json()
    assert (run["uploader"], run["network"], run["notes"], run["machine"], run["rows"]) == \
        ("alice", "shared memory", "first", "alpha", 16)
    assert run["run_record"] == run_records(machine="alpha", start="2026-11-01T08:00:00Z")[0]
    assert client.get("/api/runs/99").status_code == 404

    # export gives back every record of the upload
    exported = client.get("/api/runs/1/jsonl")
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    assert [json.loads(x) for x in exported.text.splitlines()] == \
        [json.loads(x) for x in a.read_text().splitlines()]
    assert client.get("/api/runs/5/jsonl").status_code == 404

    def ids(**params):
        resp = client.get("/api/runs", params=params)
        assert resp.status_code == 200, resp.text
        return [x["id"] for x in resp.json()["runs"]]
    assert ids() == [2, 1]
    assert ids(machine="alpha") == [1]
    assert ids(machine=["alpha", "beta"]) == [2, 1]
    assert ids(network="InfiniBand") == [2]
    assert ids(mpi_library="MPICH Version: 4.0.2") == [2]
    assert ids(procs=4) == [2]
    assert ids(date_from="2026-11-10") == [2]
    assert ids(date_to="2026-11-01") == [1]
    assert ids(date_from="2026-11-02", date_to="2026-11-14") == []
    bad = client.get("/api/runs", params={"date_from": "yesterday"})
    assert bad.status_code == 400 and "YYYY-MM-DD" in bad.json()["error"]
    assert client.get("/api/runs", params={"procs": "many"}).status_code == 400

    bench = client.get("/api/benchmarks", params={"run": [1, 2]}).json()["benchmarks"]
    assert [(x["key"], x["runs"]) for x in bench] == [
        ("mpi1/PingPing", {"1": 8, "2": 8}), ("mpi1/PingPong", {"1": 8, "2": 8})]


def test_plot_and_csv_exact(web, tmp_path):
    client, store, tokens = web
    upload(client, tokens["alice"], write_run(tmp_path / "a.jsonl", machine="alpha"))
    upload(client, tokens["alice"], write_run(tmp_path / "b.jsonl", machine="beta", scale=3.0))
    sel = ["1:mpi1/PingPong", "2:mpi1/PingPong", "2:mpi1/PingPing"]
    plot = client.get("/api/plot", params={"sel": sel}).json()
    assert (plot["x"], plot["y"], plot["rows"], plot["points"]) == ("bytes", "t_avg_us", 24, 24)
    assert len(plot["traces"]) == 3
    first = plot["traces"][0]
    assert first["name"].startswith("#1 alpha Open MPI v4.1.4 np=2 · PingPong")
    expected = [r for r in run_records(machine="alpha")
                if r["type"] == "result" and r["benchmark"] == "PingPong"]
    assert first["x"] == [r["bytes"] for r in expected]
    assert first["y"] == [r["t_avg_us"] for r in expected]
    bw = client.get("/api/plot", params={"sel": sel, "y": "mbytes_per_s", "x": "bytes"}).json()
    assert bw["y"] == "mbytes_per_s" and bw["traces"][0]["y"][-1] == expected[-1]["mbytes_per_s"]
    for params in ({"sel": sel, "x": "zz"}, {"sel": sel, "y": "t_avg_us;drop"},
                   {"sel": ["1-mpi1/PingPong"]}, {"sel": ["x:mpi1/PingPong"]}):
        resp = client.get("/api/plot", params=params)
        assert resp.status_code == 400 and resp.json()["error"], params
    assert client.get("/api/plot").status_code == 400  # sel is required

    resp = client.get("/api/plot.csv", params={"sel": sel})
    assert resp.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(resp.text)))
    assert len(rows) == 24
    with Store(str(store.engine.url.render_as_string(hide_password=False))) as s2:
        db_rows = {(1, r["benchmark"], r["bytes"]): r for r in s2.load(1).results}
        db_rows.update({(2, r["benchmark"], r["bytes"]): r for r in s2.load(2).results})
    for row in rows:
        ref = db_rows[(int(row["run_id"]), row["benchmark"], int(row["bytes"]))]
        for key in ("t_min_us", "t_max_us", "t_avg_us", "mbytes_per_s"):
            assert float(row[key]) == ref[key]  # every digit
        assert int(row["repetitions"]) == ref["repetitions"]
        assert row["machine"] in ("alpha", "beta")


@pytest.mark.parametrize("sample,component,rows", [
    ("imb/mpi1_np2_p2p.txt", "mpi1", None), ("beff/b_eff_np4.short", "beff", None),
    ("beff_io/b_eff_io_np2.prot", "beff_io", None), ("skampi/pt2pt_np2.sko", "skampi", None)])
def test_upload_every_format(web, samples, sample, component, rows):
    client, store, tokens = web
    resp = upload(client, tokens["alice"], samples / sample)
    assert resp.status_code == 201, resp.text
    body = resp.json()
    parsed = parse_file(samples / sample)
    assert (body["component"], body["rows"]) == (component, len(parsed.results))
    page = client.get(f"/runs/{body['id']}")
    assert page.status_code == 200
    # every table of the run is on its page, and the summaries
    assert page.text.count('<table class="data"') == len(
        {(r["component"], r["benchmark"], r["procs"], r.get("mode"), r.get("group"))
         for r in parsed.results})
    assert page.text.count('<table class="summary"') == len(parsed.summaries)
    if component == "beff":
        assert "b_eff_mb_per_s" in page.text and "Summary (b_eff)" in page.text


def test_auth_failures(web, tmp_path):
    client, store, tokens = web
    path = write_run(tmp_path / "a.jsonl")
    for headers, reason in (({}, "API token is needed"),
                            ({"Authorization": "Basic abc"}, "Bearer"),
                            ({"Authorization": "Bearer ebt_wrong"}, "unknown or revoked"),
                            ({"Authorization": "Bearer "}, "Bearer")):
        with open(path, "rb") as f:
            resp = client.post("/api/runs", headers=headers, files={"file": ("a.jsonl", f)})
        assert resp.status_code == 401, headers
        assert reason in resp.json()["error"]
    revoke_token(store, "bob")
    resp = upload(client, tokens["bob"], path)
    assert resp.status_code == 401 and "revoked" in resp.json()["error"]
    assert store.counts()["run"] == 0


def test_malformed_and_oversized_uploads(web, tmp_path):
    client, store, tokens = web
    before = store.counts()
    good = run_records()
    bad_lines = [json.dumps(r) for r in good]
    bad_lines[5] = bad_lines[5].replace('"bytes": 64', '"bytes": -64')
    cases = {
        "neg.jsonl": ("\n".join(bad_lines) + "\n", "neg.jsonl:6: "),
        "nan.jsonl": ("\n".join(bad_lines[:3]) + '\n{"type": "result", "t_avg_us": NaN}\n',
                      "nan.jsonl:4: "),
        "broken.jsonl": ('{"type": "run", "schema": 1\n', "broken.jsonl:1: not JSON"),
        "notes.txt": ("hello world\n", "notes.txt:1: unknown format"),
        "after.jsonl": ("\n".join(json.dumps(r) for r in good + [good[1]]) + "\n",
                        "after.jsonl:19: record after the 'end' record"),
        "empty.jsonl": ("", "the file is empty"),
    }
    for name, (text, reason) in cases.items():
        resp = client.post("/api/runs", headers=auth(tokens["alice"]),
                           files={"file": (name, text.encode())})
        assert resp.status_code == 400, (name, resp.text)
        assert resp.headers["content-type"] == "application/json"
        assert resp.json()["error"].startswith(reason), (name, resp.json())
    # a forced format that does not fit, an unknown format, no file at all
    resp = client.post("/api/runs", headers=auth(tokens["alice"]), data={"format": "skampi"},
                       files={"file": ("a.jsonl", "\n".join(bad_lines[:2]).encode())})
    assert resp.status_code == 400
    resp = client.post("/api/runs", headers=auth(tokens["alice"]), data={"format": "pdf"},
                       files={"file": ("a.jsonl", b"{}")})
    assert resp.status_code == 400 and "unknown format 'pdf'" in resp.json()["error"]
    resp = client.post("/api/runs", headers=auth(tokens["alice"]))
    assert resp.status_code == 400 and "file" in resp.json()["error"]
    resp = client.post("/api/runs", headers=auth(tokens["alice"]), data={"notes": "x" * 2001},
                       files={"file": ("a.jsonl", "\n".join(json.dumps(r) for r in good))})
    assert resp.status_code == 400 and "notes longer" in resp.json()["error"]
    # over the limit (200 kB here): 413, nothing stored. A body beyond the limit and the
    # form's 64 KiB is refused as it comes in (test_web_limits.py: against a real server)...
    big = run_records(sizes=tuple(range(0, 2000)))
    text = ("\n".join(json.dumps(r) for r in big) + "\n").encode()
    assert len(text) > 200_000 + 65536
    resp = client.post("/api/runs", headers=auth(tokens["alice"]),
                       files={"file": ("big.jsonl", text)})
    assert resp.status_code == 413 and resp.json()["error"] == (
        "request body larger than 265536 bytes (the upload limit of 200000 bytes and 65536 "
        "for the form)")
    # ...a file just over the limit is read to limit + 1 byte; one at the limit is parsed
    resp = client.post("/api/runs", headers=auth(tokens["alice"]),
                       files={"file": ("big.jsonl", text[:200_001])})
    assert resp.status_code == 413 and resp.json()["error"] == \
        "file larger than the limit of 200000 bytes"
    resp = client.post("/api/runs", headers=auth(tokens["alice"]),
                       files={"file": ("big.jsonl", text[:200_000])})
    assert resp.status_code == 400 and resp.json()["error"].startswith("big.jsonl:")
    assert store.counts() == before


def test_delete_ownership(web, tmp_path):
    client, store, tokens = web
    upload(client, tokens["alice"], write_run(tmp_path / "a.jsonl", machine="a"))
    upload(client, tokens["bob"], write_run(tmp_path / "b.jsonl", machine="b"))
    assert store.counts()["measurement"] == 32
    assert client.delete("/api/runs/1").status_code == 401
    resp = client.delete("/api/runs/1", headers=auth(tokens["bob"]))
    assert resp.status_code == 403 and "uploader or an admin" in resp.json()["error"]
    assert client.delete("/api/runs/1", headers=auth(tokens["alice"])).status_code == 204
    assert client.get("/api/runs/1").status_code == 404
    assert client.delete("/api/runs/1", headers=auth(tokens["alice"])).status_code == 404
    assert client.delete("/api/runs/2", headers=auth(tokens["admin"])).status_code == 204
    counts = store.counts()
    assert (counts["run"], counts["measurement"], counts["summary"]) == (0, 0, 0)


def test_forms_need_csrf(web, tmp_path):
    client, store, tokens = web
    path = write_run(tmp_path / "a.jsonl")
    page = client.get("/upload")
    field = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    assert client.cookies.get("effbench_csrf") == field
    with open(path, "rb") as f:
        resp = client.post("/upload", files={"file": ("a.jsonl", f)},
                           data={"token": tokens["alice"], "csrf": "forged"})
    assert resp.status_code == 403 and "CSRF" in resp.text
    with open(path, "rb") as f:
        resp = client.post("/upload", files={"file": ("a.jsonl", f)},
                           data={"token": "ebt_nope", "csrf": field})
    assert resp.status_code == 401 and "unknown or revoked" in resp.text
    assert store.counts()["run"] == 0
    with open(path, "rb") as f:
        resp = client.post("/upload", files={"file": ("a.jsonl", f)},
                           data={"token": tokens["alice"], "csrf": field, "network": "eth"})
    assert resp.status_code == 200 and 'href="/runs/1"' in resp.text
    assert client.get("/api/runs/1").json()["uploader"] == "alice"
    resp = client.post("/runs/1/delete", data={"token": tokens["alice"], "csrf": "x"})
    assert resp.status_code == 403
    resp = client.post("/runs/1/delete", data={"token": tokens["bob"], "csrf": field})
    assert resp.status_code == 403
    resp = client.post("/runs/1/delete", data={"token": tokens["alice"], "csrf": field},
                       follow_redirects=False)
    assert resp.status_code == 303 and store.counts()["run"] == 0


def test_pages_and_openapi(web, tmp_path):
    client, store, tokens = web
    upload(client, tokens["alice"], write_run(tmp_path / "a.jsonl", machine="alpha"))
    upload(client, tokens["alice"], write_run(tmp_path / "b.jsonl", machine="beta", scale=2))
    spec = client.get("/openapi.json").json()
    assert {"/api/runs", "/api/runs/{run_id}", "/api/runs/{run_id}/jsonl", "/api/benchmarks",
            "/api/plot", "/api/plot.csv", "/api/health"} <= set(spec["paths"])
    assert set(spec["paths"]["/api/runs/{run_id}"]) == {"get", "delete"}
    assert client.get("/api/health").json()["database"] == store.engine.dialect.name
    assert client.get("/static-lib/plotly.min.js").text.startswith("/**")
    page = client.get("/", params={"run": [1, 2], "sel": ["1:mpi1/PingPong", "2:mpi1/PingPong"],
                                   "y": "t_avg_us", "xlog": 0})
    html = page.text
    assert 'id="plot" data-src="/api/plot?sel=1%3Ampi1%2FPingPong&amp;sel=2%3Ampi1%2FPingPong' \
        '&amp;y=t_avg_us" data-xlog="0" data-ylog="1"' in html
    assert html.count('name="sel"') == 4 and html.count("checked") == 4  # 2 runs + 2 cells
    help_page = client.get("/help").text
    assert "curl --fail-with-body -H &#34;Authorization: Bearer" in help_page \
        or "curl --fail-with-body -H \"Authorization: Bearer" in help_page
    assert "/api/plot.csv" in help_page
    for path in ("/", "/runs/1", "/upload", "/help", "/?run=1&sel=1:mpi1/PingPing"):
        resp = client.get(path)
        assert resp.status_code == 200
        csp = resp.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1] \
            .split(";")[0]
        # no inline script at all: every <script> has a src on this server
        for tag in re.findall(r"<script[^>]*>", resp.text):
            assert re.search(r'src="/static(-lib)?/', tag), tag
    assert client.get("/runs/77").status_code == 404


def test_xss_machine_name_is_escaped(web, tmp_path):
    client, store, tokens = web
    path = write_run(tmp_path / "x.jsonl", machine=XSS, library=XSS)
    resp = upload(client, tokens["alice"], path, network=XSS, notes='<img src=x onerror="alert(2)">')
    assert resp.status_code == 201
    for url in ("/", "/runs/1", "/?run=1&sel=1:mpi1/PingPong"):
        html = client.get(url).text
        assert XSS not in html and "<img src=x" not in html, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, url
    assert "&lt;img src=x onerror=&#34;alert(2)&#34;&gt;" in client.get("/runs/1").text
    plot = client.get("/api/plot", params={"sel": "1:mpi1/PingPong"}).json()
    assert XSS not in plot["traces"][0]["name"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in plot["traces"][0]["name"]
    # the data stays what was uploaded: JSON and CSV carry the real name
    assert client.get("/api/runs/1").json()["machine"] == XSS
    assert client.get("/", params={"machine": XSS}).text.count('data-run="1"') == 1


def test_token_commands(sqlite_url, capsys):
    from effbench.cli import main
    from effbench.web.tokens import hash_token, verify_token
    assert main(["token", "create", "carol", "--db", sqlite_url]) == 0
    secret = capsys.readouterr().out.strip()
    assert re.fullmatch(r"ebt_[A-Za-z0-9_-]{43}", secret)
    assert main(["token", "create", "dave", "--admin", "--db", sqlite_url]) == 0
    admin_secret = capsys.readouterr().out.strip()
    assert main(["token", "create", "carol", "--db", sqlite_url]) == 2
    assert "a token named 'carol' exists already" in capsys.readouterr().err
    with Store(sqlite_url) as store:
        assert verify_token(store, secret).name == "carol"
        assert verify_token(store, admin_secret).admin is True
        with store.engine.connect() as conn:
            stored = [r[0] for r in conn.exec_driver_sql("SELECT token_hash FROM api_token ORDER BY id")]
        assert stored == [hash_token(secret), hash_token(admin_secret)]  # only hashes
        assert secret not in stored
    assert main(["token", "list", "--db", sqlite_url]) == 0
    listing = capsys.readouterr().out
    assert "carol\tupload" in listing and "dave\tadmin" in listing and secret not in listing
    assert main(["token", "revoke", "carol", "--db", sqlite_url]) == 0
    assert main(["token", "revoke", "nobody", "--db", sqlite_url]) == 2
    with Store(sqlite_url) as store:
        assert verify_token(store, secret) is None
    assert main(["token", "list", "--db", sqlite_url]) == 0
    assert "carol\tupload\tcreated" in capsys.readouterr().out


def test_migration_0002_keeps_existing_runs(db_url):
    """A store made before the web tables: upgrading adds them and loses nothing (a batch copy
    of `run` on SQLite would cascade-delete every measurement)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text
    from effbench.store.db import MIGRATIONS
    from test_migrations import HEAD
    engine = create_engine(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(text(
            "INSERT INTO run (id, content_hash, tool, component, procs, \"check\", "
            "source_format, imported_at, run_record) VALUES (7, 'abc', 'effbench', 'mpi1', 2, "
            "false, 'jsonl', '2026-01-01 00:00:00', '{}')"))
        conn.execute(text("INSERT INTO benchmark (id, component, name) "
                          "VALUES (3, 'mpi1', 'PingPong')"))
        conn.execute(text("INSERT INTO measurement (run_id, benchmark_id, seq, procs, bytes, "
                          "t_avg_us, extra) VALUES (7, 3, 0, 2, 8, 1.25, '{}')"))
        conn.execute(text("INSERT INTO summary (run_id, seq, record) VALUES (7, 0, '{}')"))
    engine.dispose()
    with Store(db_url) as store:
        counts = store.counts()
        assert (counts["run"], counts["measurement"], counts["summary"]) == (1, 1, 1)
        with store.engine.connect() as conn:
            # the newest schema (migrations after 0002 keep the data too: test_migrations.py)
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() \
                == HEAD
        client = TestClient(create_app(store=store))
        assert client.get("/api/runs/7").json()["uploader"] is None
        plot = client.get("/api/plot", params={"sel": "7:mpi1/PingPong"}).json()
        assert plot["traces"][0]["y"] == [1.25]
