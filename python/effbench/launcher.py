"""`effbench-results run`: start effbench under mpirun/srun, follow its JSON Lines file as it
grows (every `result` line is flushed when measured) to drive a progress bar, then import the
run into the store and print a summary. The JSON Lines file stays where it is in every case."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

from .records import FormatError

OPENMPI_ROOT_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


def expected_rows(options: dict) -> int | None:
    """How many `result` rows a run will write, from its `run` record's options, or None when
    the options do not say (the bar is then indeterminate)."""
    if not isinstance(options, dict):
        return None
    if isinstance(options.get("planned_rows"), int):  # effbench's own count of its plan
        return options["planned_rows"]
    benchmarks = options.get("benchmarks")
    if not isinstance(benchmarks, list) or not benchmarks:
        return None
    if isinstance(options.get("msglen"), list) and options["msglen"]:
        sizes = len(options["msglen"])
    elif isinstance(options.get("msglog_min"), int) and isinstance(options.get("msglog_max"), int):
        sizes = options["msglog_max"] - options["msglog_min"] + 2  # 0 and 2^min..2^max
    else:
        return None
    return len(benchmarks) * sizes


class JsonlFollower:
    """Reads the complete lines a writer has appended to a file since the last call."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0
        self.partial = b""

    def new_records(self) -> list[dict]:
        from .records import loads_strict
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return []
        self.offset += len(data)
        data = self.partial + data
        lines = data.split(b"\n")
        self.partial = lines.pop()
        out = []
        for line in lines:
            try:
                out.append(loads_strict(line.decode("utf-8")))
            except (ValueError, UnicodeDecodeError):
                continue  # the importer will name the bad line at the end
        return out


def find_effbench(explicit: str | None) -> str | None:
    for candidate in (explicit, os.environ.get("EFFBENCH")):
        if candidate:
            return candidate
    return shutil.which("effbench")


def run_effbench(args) -> int:
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                               TextColumn, TimeElapsedColumn, TimeRemainingColumn)

    from .importers import parse_file
    from .store.db import Store, StoreError

    console = Console(stderr=True, highlight=False)

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    binary = find_effbench(args.effbench)
    if not binary:
        say("effbench-results: error: no effbench executable: use --effbench PATH, "
                      "set EFFBENCH or put effbench on PATH")
        return 2
    mpiexec = shlex.split(args.mpiexec or os.environ.get("EFFBENCH_MPIEXEC") or "mpiexec")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    json_path = Path(args.json or f"effbench-{args.component}-{stamp}.jsonl").resolve()
    text_path = json_path.with_suffix(".txt")
    json_path.unlink(missing_ok=True)
    extra = list(args.args)
    if extra and extra[0] == "--":
        extra = extra[1:]
    cmd = [*mpiexec, "-n", str(args.np), binary, args.component, *extra, "--json",
           str(json_path)]
    env = dict(os.environ)
    if os.geteuid() == 0:
        for key, value in OPENMPI_ROOT_ENV.items():
            env.setdefault(key, value)

    say(f"running: {shlex.join(cmd)}")
    follower = JsonlFollower(json_path)
    rows = 0
    status = None
    started = time.monotonic()
    import tempfile
    with open(text_path, "wb") as text_out, tempfile.TemporaryFile() as err_out, Progress(
            SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
            MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"),
            TimeRemainingColumn(), console=console, transient=False) as progress:
        task = progress.add_task("starting", total=None)
        try:
            proc = subprocess.Popen(cmd, stdout=text_out, stderr=err_out, env=env)
        except OSError as exc:
            say(f"effbench-results: error: cannot start {cmd[0]}: {exc.strerror}")
            return 2
        while True:
            done = proc.poll() is not None
            for rec in follower.new_records():
                if rec.get("type") == "run":
                    total = expected_rows(rec.get("options"))
                    progress.update(task, total=total, description=f"{rec.get('component')}")
                elif rec.get("type") == "result":
                    rows += 1
                    total = progress.tasks[0].total
                    if total is not None and rows > total:
                        progress.update(task, total=None)
                    progress.update(task, completed=rows, description=(
                        f"{rec.get('benchmark')} {rec.get('procs')} procs "
                        f"{rec.get('bytes')} bytes"))
                elif rec.get("type") == "end":
                    status = rec.get("status")
            if done:
                break
            time.sleep(0.1)
        err_out.seek(0)
        stderr = err_out.read().decode(errors="replace")
        if progress.tasks[0].total is None:
            progress.update(task, total=rows)
    code = proc.returncode
    if stderr:
        sys.stderr.write(stderr)
    elapsed = time.monotonic() - started
    if code != 0 or status != "ok":
        say(f"effbench-results: error: effbench exited with status {code}"
                      + ("" if status == "ok" else f", run status {status or 'missing'}")
                      + (f"; the results so far are in {json_path}" if json_path.exists()
                         else "; no JSON Lines file was written")
                      + f"; its output is in {text_path}")
        return code if code not in (0, None) else 2
    try:
        parsed = parse_file(json_path, "jsonl")
        with Store(args.db) as store:
            run_id, _ = store.import_run(parsed)
            where = store.display_url
    except (FormatError, StoreError) as exc:
        say(f"effbench-results: error: {exc}; the run stays in {json_path}")
        return 2
    benches = sorted({r["benchmark"] for r in parsed.results})
    say(f"{len(parsed.results)} rows of {len(benches)} benchmarks "
                  f"({', '.join(benches)}) in {elapsed:.1f} s; stored as run {run_id} in {where}; "
                  f"JSON Lines: {json_path}; text output: {text_path}")
    if args.report:
        from .report import write_report
        index = write_report([(f"run {run_id}", parsed)], Path(args.report))
        say(f"report: {index}")
    return 0
