#!/usr/bin/env python3
"""Benchmark of the web application's database work (not a test).

With 1,000 runs and 1,000,000 measurements in SQLite and in PostgreSQL (a throwaway cluster,
as the tests start it): the server time of the comparison plot of 10 runs (GET /api/plot and
the page, in-process through the ASGI app, median of 5 after a warm-up) and of the CSV, and the
time to upload a 10 MB JSON Lines file (POST /api/runs: parse, check, one transaction).

    .venv/bin/python bench/web_db/web_db.py [--runs 1000] [--rows-per-run 1000] [--backend sqlite|postgresql|both]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import tempfile
import time
import warnings
from datetime import datetime
from pathlib import Path

warnings.filterwarnings("ignore", category=DeprecationWarning)
REPO = Path(__file__).resolve().parents[2]

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from effbench.store.db import Store  # noqa: E402
from effbench.store.models import Benchmark, Machine, Measurement, MpiLibrary, Run  # noqa: E402
from effbench.web import create_app  # noqa: E402
from effbench.web.tokens import create_token  # noqa: E402

BENCHMARKS = ("PingPong", "PingPing", "Sendrecv", "Exchange", "Allreduce", "Reduce",
              "Bcast", "Allgather", "Alltoall", "Barrier")
PROCS = (2, 4, 8, 16)


def populate(store: Store, runs: int, rows_per_run: int) -> None:
    """Bulk rows straight into the tables (what 1,000 imports would leave, much faster)."""
    rng = random.Random(1)
    sizes_per_series = max(1, rows_per_run // (len(BENCHMARKS) * len(PROCS)))
    with store.sessions.begin() as s:
        machines = [Machine(nodename=f"node{i:02d}", sysname="Linux", release="6.1",
                            version="#1", arch="x86_64") for i in range(10)]
        libs = [MpiLibrary(name=n, mpi_version="3.1") for n in
                ("Open MPI v4.1.4", "MPICH Version: 4.0.2", "Intel(R) MPI Library 2021.9")]
        benches = [Benchmark(component="mpi1", name=b) for b in BENCHMARKS]
        s.add_all(machines + libs + benches)
        s.flush()
        bench_ids = [b.id for b in benches]
        now = datetime(2026, 11, 22)
        run_rows = [{"content_hash": f"{i:064x}", "tool": "effbench", "component": "mpi1",
                     "start": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T10:00:00Z",
                     "procs": PROCS[i % 4], "check": False, "status": "ok",
                     "source": f"bench-{i}.jsonl", "source_format": "jsonl",
                     "imported_at": now, "machine_id": machines[i % 10].id,
                     "mpi_library_id": libs[i % 3].id, "run_record": {"type": "run"},
                     "end_record": {"type": "end", "status": "ok"},
                     "network": ("InfiniBand", "Ethernet", "shared memory")[i % 3]}
                    for i in range(runs)]
        s.execute(insert(Run), run_rows)
    with store.sessions() as s:
        run_ids = [r for (r,) in s.execute(Run.__table__.select().with_only_columns(Run.id))]
    batch = []
    for run_id in run_ids:
        seq = 0
        for b in bench_ids:
            for p in PROCS:
                for k in range(sizes_per_series):
                    t = (1 + k) * rng.uniform(0.9, 1.1)
                    batch.append({"run_id": run_id, "benchmark_id": b, "seq": seq,
                                  "procs": p, "bytes": 1 << k, "repetitions": 1000,
                                  "t_min_us": t * 0.98, "t_max_us": t * 1.02, "t_avg_us": t,
                                  "mbytes_per_s": (1 << k) / t, "extra": {}})
                    seq += 1
        if len(batch) >= 50_000:
            with store.sessions.begin() as s:
                s.execute(insert(Measurement), batch)
            batch = []
    if batch:
        with store.sessions.begin() as s:
            s.execute(insert(Measurement), batch)


def timed(client, url, params, repeat=5):
    client.get(url, params=params)  # warm-up: caches, first query plan
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        resp = client.get(url, params=params)
        times.append(time.perf_counter() - t0)
        assert resp.status_code == 200, resp.text
    return statistics.median(times) * 1000, resp


def big_jsonl(path: Path, target_bytes: int) -> int:
    rows = 0
    with open(path, "w") as f:
        f.write(json.dumps({"type": "run", "schema": 1, "tool": "effbench", "version": "0.1",
                            "component": "mpi1", "start": "2026-11-22T00:00:00Z", "procs": 64,
                            "uname": {"sysname": "Linux", "nodename": "big", "release": "6",
                                      "version": "#1", "machine": "x86_64"},
                            "mpi_library": "Open MPI v4.1.4", "mpi_version": "3.1",
                            "options": {}, "check": False}) + "\n")
        while f.tell() < target_bytes:
            t = 1.0 + rows / 7.0
            f.write(json.dumps({"type": "result", "schema": 1, "component": "mpi1",
                                "benchmark": BENCHMARKS[rows % 10], "group": None,
                                "mode": None, "procs": 2 + rows % 63, "bytes": rows,
                                "repetitions": 1000, "t_min_us": t * 0.99,
                                "t_max_us": t * 1.01, "t_avg_us": t,
                                "mbytes_per_s": rows / t, "defects": None}) + "\n")
            rows += 1
        f.write(json.dumps({"type": "end", "schema": 1, "status": "ok", "message": None,
                            "elapsed_s": 100.0}) + "\n")
    return rows


def bench(url: str, name: str, args, work: Path) -> None:
    store = Store(url)
    t0 = time.perf_counter()
    populate(store, args.runs, args.rows_per_run)
    counts = store.counts()
    print(f"[{name}] populated {counts['run']} runs, {counts['measurement']} measurements "
          f"in {time.perf_counter() - t0:.1f} s", flush=True)
    token = create_token(store, "bench")
    client = TestClient(create_app(store=store, max_upload_bytes=64 << 20))
    ids = client.get("/api/runs", params={"limit": 1000}).json()["runs"]
    chosen = [r["id"] for r in ids[::max(1, len(ids) // 10)][:10]]
    for label, benches in (("1 benchmark", BENCHMARKS[:1]), ("all 10 benchmarks", BENCHMARKS)):
        sel = [f"{r}:mpi1/{b}" for r in chosen for b in benches]
        ms, resp = timed(client, "/api/plot", {"sel": sel})
        points = resp.json()["points"]
        ms_csv, _ = timed(client, "/api/plot.csv", {"sel": sel})
        ms_page, _ = timed(client, "/", {"run": chosen, "sel": sel})
        print(f"[{name}] plot of 10 runs, {label}: {points} points: /api/plot {ms:.0f} ms, "
              f"/api/plot.csv {ms_csv:.0f} ms, page {ms_page:.0f} ms (median of 5)", flush=True)
    ms_list, _ = timed(client, "/", {"machine": "node03"})
    print(f"[{name}] browse page filtered to one machine: {ms_list:.0f} ms", flush=True)
    path = work / f"big-{name}.jsonl"
    rows = big_jsonl(path, 10 * 1024 * 1024)
    size = path.stat().st_size
    with open(path, "rb") as f:
        t0 = time.perf_counter()
        resp = client.post("/api/runs", headers={"Authorization": f"Bearer {token}"},
                           files={"file": (path.name, f)})
        dt = time.perf_counter() - t0
    assert resp.status_code == 201, resp.text
    print(f"[{name}] upload of a {size / 1e6:.1f} MB JSON Lines file ({rows} rows): "
          f"{dt:.2f} s", flush=True)
    client.close()
    store.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--rows-per-run", type=int, default=1000)
    p.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="effbench-webdb-") as tmp:
        work = Path(tmp)
        if args.backend in ("sqlite", "both"):
            bench(f"sqlite:///{work / 'bench.sqlite'}", "sqlite", args, work)
        if args.backend in ("postgresql", "both"):
            spec = importlib.util.spec_from_file_location(
                "effbench_python_conftest", REPO / "tests" / "python" / "conftest.py")
            conftest = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(conftest)
            cluster = conftest.PostgresCluster()
            try:
                bench(cluster.new_database(), "postgresql", args, work)
            finally:
                cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
