"""Shared by the web tests (tests/python/test_web_*.py) and the browser tests (tests/browser):
hand-written effbench JSON Lines runs (docs/json-lines.md) and a live server in a thread."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

SIZES = (0, 1, 4, 16, 64, 256, 1024, 4096)
DATA = Path(__file__).resolve().parent / "data"
MPI1 = DATA / "samples/imb/mpi1_np2_full_default.txt"
BEFF = DATA / "effbench/beff_np4.jsonl"
BEFF_IO = DATA / "effbench/beff_io_np2.jsonl"
MPI1_SCALES = (1.00, 1.01, 0.99, 1.00, 1.50)  # times; the fifth run 50 % slower
BEFF_SCALES = (1.00, 1.02, 0.98, 0.70)  # b_eff; the fourth run 30 % lower


def run_records(machine: str = "node1", library: str = "Open MPI v4.1.4, package: Debian",
                procs: int = 2, start: str = "2026-11-20T10:00:00Z", scale: float = 1.0,
                benchmarks=("PingPong", "PingPing"), sizes=SIZES) -> list[dict]:
    """One mpi1 run; times carry digits beyond what any text format prints, so that a lost
    digit anywhere shows."""
    recs = [{"type": "run", "schema": 1, "tool": "effbench", "version": "0.1.0",
             "component": "mpi1", "start": start, "procs": procs,
             "hosts": [{"name": machine, "ranks": list(range(procs))}],
             "uname": {"sysname": "Linux", "nodename": machine, "release": "6.1.0",
                       "version": "#1 SMP", "machine": "x86_64"},
             "mpi_library": library, "mpi_version": "3.1",
             "thread_level": "MPI_THREAD_SINGLE",
             "command_line": ["effbench", "mpi1", *benchmarks],
             "options": {"msglog_min": 0, "msglog_max": 12, "time": 0.05}, "check": False}]
    for b_index, bench in enumerate(benchmarks):
        for size in sizes:
            t = scale * (0.3 + 0.1 * b_index + size / 3000.0 + 1 / 7)
            recs.append({"type": "result", "schema": 1, "component": "mpi1", "benchmark": bench,
                         "group": None, "mode": None, "procs": procs, "bytes": size,
                         "repetitions": 1000, "t_min_us": t * 0.97, "t_max_us": t * 1.03,
                         "t_avg_us": t,
                         "mbytes_per_s": size / t / 1.048576 if size else 0.0,
                         "defects": None})
    recs.append({"type": "end", "schema": 1, "status": "ok", "message": None,
                 "elapsed_s": 1.25 * scale})
    return recs


def write_run(path: Path, **kw) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in run_records(**kw)))
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """The app under uvicorn on 127.0.0.1 and a free port, in a thread of the test process."""

    def __init__(self, app):
        import uvicorn
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(timeout=10)


# --- a machine's history (the dashboard's tests) ---------------------------------------------

def restamp(parsed, day: int, machine: str = "vm"):
    parsed.run["start"] = f"2026-11-{day:02d}T08:00:00Z"
    parsed.run["uname"]["nodename"] = machine
    return parsed


def slower(parsed, scale: float):
    for r in parsed.results:
        for k in ("t_min_us", "t_max_us", "t_avg_us"):
            if r.get(k) is not None:
                r[k] *= scale
        if r.get("mbytes_per_s"):
            r["mbytes_per_s"] /= scale
    return parsed


def store_machine_history(store) -> None:
    """Real runs as machine vm's history: the IMB 2021 MPI-1 log five times (days 1-5, times
    scaled by MPI1_SCALES), effbench's b_eff run four times (days 2-5, b_eff scaled by
    BEFF_SCALES), its b_eff_io run once (day 3); and the IMB log once on machine other.
    Run ids 1-5, 6-9, 10, 11."""
    from effbench.importers import parse_file
    for day, scale in enumerate(MPI1_SCALES, start=1):
        store.import_run(slower(restamp(parse_file(MPI1), day), scale))
    for day, scale in enumerate(BEFF_SCALES, start=2):
        parsed = restamp(parse_file(BEFF), day)
        parsed.summaries[0]["b_eff_mb_per_s"] *= scale
        store.import_run(parsed)
    store.import_run(restamp(parse_file(BEFF_IO), 3))
    store.import_run(restamp(parse_file(MPI1), 4, machine="other"))


def wait_for_js(page, expression: str, timeout_s: float = 60) -> None:
    """Poll a JavaScript expression from outside the page until it is true.
    Playwright's wait_for_function polls with eval() inside the page, which the site's
    Content Security Policy refuses (no 'unsafe-eval'): it passes only when its first
    check, made from outside, is already true, and fails on a slow machine."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s} s: {expression}")
        page.wait_for_timeout(100)
