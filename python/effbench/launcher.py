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
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .records import FormatError

def planned_rows(run: dict) -> int | None:
    """How many `result` records the run plans (`planned_rows`, which IMB's components, b_eff
    and b_eff_io write in the run record's options; at the top of the record also taken), or
    None when the record does not say."""
    options = run.get("options")
    for where in (options if isinstance(options, dict) else {}, run):
        value = where.get("planned_rows")
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


@dataclass
class ProgressState:
    """What the progress bar shows, from the records of the growing JSON Lines file: result
    rows against `planned_rows`, or for SKaMPI, which plans no row count (refinement decides
    how many points a suite gets), suites against the run record's list of suites. `total`
    None: an indeterminate bar (nothing planned, or more done than planned)."""

    unit: str = "rows"
    total: int | None = None
    done: int = 0
    rows: int = 0
    description: str = "starting"
    status: str | None = None
    suites: list[str] = field(default_factory=list)  # SKaMPI: suites seen, in order

    def feed(self, rec: dict) -> None:
        rtype = rec.get("type")
        if rtype == "run":
            self.description = str(rec.get("component"))
            options = rec.get("options") if isinstance(rec.get("options"), dict) else {}
            if rec.get("component") == "skampi":
                self.unit = "suites"
                planned = options.get("suites")
                self.total = len(planned) if isinstance(planned, list) and planned else None
            else:
                self.total = planned_rows(rec)
        elif rtype == "result":
            self.rows += 1
            bench = rec.get("benchmark")
            if self.unit == "suites":
                if bench not in self.suites:
                    self.suites.append(bench)
                # the suite being measured is not done: its last point is not known in advance
                self.done = len(self.suites) - 1
                self.description = f"suite {bench} {rec.get('procs')} procs " \
                                   f"{rec.get('bytes')} bytes"
            else:
                self.done = self.rows
                self.description = f"{bench} {rec.get('procs')} procs {rec.get('bytes')} bytes"
            if self.total is not None and self.done > self.total:
                self.total = None
        elif rtype == "end":
            self.status = rec.get("status")
            if self.status == "ok" and self.unit == "suites" and self.total is not None:
                self.done = self.total  # the last suite ended (suites skipped count as done)


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


LAUNCHERS = ("srun", "mpirun")


class LaunchError(ValueError):
    """A launcher choice that cannot work; the message says why."""


def choose_launcher(explicit: str | None, environ: dict[str, str]) -> str:
    """`--launcher`, else srun inside a Slurm allocation (SLURM_JOB_ID set), else mpirun."""
    if explicit:
        if explicit not in LAUNCHERS:
            raise LaunchError(f"--launcher {explicit}: expected one of {', '.join(LAUNCHERS)}")
        return explicit
    return "srun" if environ.get("SLURM_JOB_ID") else "mpirun"


def launch_prefix(launcher: str, np: int, nodes: int | None, mpiexec: str | None) -> list[str]:
    """The command words before the program: `srun -n NP [-N NODES] --mpi=pmix` or
    `mpiexec -n NP [--map-by ppr:NP/NODES:node]` (mpirun places ranks per node only when the
    count divides evenly).  An explicit --mpiexec replaces the launcher's program name."""
    if np < 1:
        raise LaunchError(f"--np {np}: expected at least 1 process")
    if nodes is not None and not 1 <= nodes <= np:
        raise LaunchError(f"--nodes {nodes}: expected 1 to --np ({np}) nodes")
    if launcher == "srun":
        words = shlex.split(mpiexec or "srun") + ["-n", str(np)]
        if nodes:
            words += ["-N", str(nodes)]
        return words + ["--mpi=pmix"]
    words = shlex.split(mpiexec or os.environ.get("EFFBENCH_MPIEXEC") or "mpiexec")
    words += ["-n", str(np)]
    if nodes:
        if np % nodes:
            raise LaunchError(f"--nodes {nodes}: mpirun places the same number of ranks on every "
                              f"node, and {np} processes do not divide by {nodes}")
        words += ["--map-by", f"ppr:{np // nodes}:node"]
    return words


def find_effbench(explicit: str | None) -> str | None:
    for candidate in (explicit, os.environ.get("EFFBENCH")):
        if candidate:
            return candidate
    return shutil.which("effbench")


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Launch:
    """The command that runs effbench, its environment and the files it writes."""

    cmd: list[str]
    env: dict[str, str]
    json_path: Path
    text_path: Path
    timeout: float | None = None  # seconds; then its process group is stopped (run --repeat)
    timed_out: bool = False  # set by follow_run


def stop_process_group(proc) -> None:
    """SIGTERM to the launch's process group (the launcher and what it started), SIGKILL
    when it is still there 5 s later."""
    import signal
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=5)
            return
        except subprocess.TimeoutExpired:
            continue
    proc.wait()


def plan_launch(args) -> Launch | None:
    """The launch that ARGS ask for, or None after saying why there is none."""
    binary = find_effbench(args.effbench)
    if not binary:
        say("effbench-results: error: no effbench executable: use --effbench PATH, "
            "set EFFBENCH or put effbench on PATH")
        return None
    try:
        launcher = choose_launcher(getattr(args, "launcher", None), dict(os.environ))
        prefix = launch_prefix(launcher, args.np, getattr(args, "nodes", None), args.mpiexec)
    except LaunchError as exc:
        say(f"effbench-results: error: {exc}")
        return None
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    json_path = Path(args.json or f"effbench-{args.component}-{stamp}.jsonl").resolve()
    text_path = json_path.with_suffix(".txt")
    # effbench writes --json FILE from the start: an earlier run's file (and its text output)
    # is replaced only when asked to.
    existing = [p for p in (json_path, text_path) if p.exists()]
    if existing and not args.overwrite:
        say(f"effbench-results: error: {existing[0]} exists: choose another --json FILE, or "
            "--overwrite to replace it and its .txt file")
        return None
    json_path.unlink(missing_ok=True)
    extra = list(args.args)
    if extra and extra[0] == "--":
        extra = extra[1:]
    cmd = [*prefix, binary, args.component, *extra, "--json", str(json_path)]
    # The MPI library's settings are the caller's environment (scripts/env.sh in a checkout,
    # a site's module): what one library needs (Open MPI 4.1's osc=pt2pt) stops another in
    # MPI_Init (Open MPI 5), so the launcher adds none of its own (docs/mpi-libraries.md).
    return Launch(cmd, dict(os.environ), json_path, text_path)


def follow_run(launch: Launch) -> tuple[int, str | None, str] | None:
    """Run LAUNCH with a progress bar fed by its growing JSON Lines file: (exit code, the end
    record's status, what it wrote to stderr), or None after saying that it did not start."""
    import tempfile

    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn,
                               TextColumn, TimeElapsedColumn, TimeRemainingColumn)

    console = Console(stderr=True, highlight=False)
    follower = JsonlFollower(launch.json_path)
    state = ProgressState()
    with open(launch.text_path, "wb") as text_out, tempfile.TemporaryFile() as err_out, \
            Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                     MofNCompleteColumn(), TextColumn("{task.fields[unit]}"),
                     TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                     console=console, transient=False) as progress:
        task = progress.add_task("starting", total=None, unit="rows")
        try:
            proc = subprocess.Popen(launch.cmd, stdout=text_out, stderr=err_out,
                                    env=launch.env,
                                    start_new_session=launch.timeout is not None)
        except OSError as exc:
            say(f"effbench-results: error: cannot start {launch.cmd[0]}: {exc.strerror}")
            return None
        deadline = None if launch.timeout is None else time.monotonic() + launch.timeout
        while True:
            finished = proc.poll() is not None
            if not finished and deadline is not None and time.monotonic() > deadline:
                stop_process_group(proc)
                launch.timed_out = finished = True
            records = follower.new_records()
            for rec in records:
                state.feed(rec)
            if records:
                progress.update(task, total=state.total, completed=state.done,
                                description=state.description, unit=state.unit)
            if finished:
                break
            time.sleep(0.1)
        err_out.seek(0)
        stderr = err_out.read().decode(errors="replace")
        if state.total is None:
            progress.update(task, total=state.done)
    return proc.returncode, state.status, stderr


def run_effbench(args) -> int:
    launch = plan_launch(args)
    if launch is None:
        return 2
    json_path, text_path = launch.json_path, launch.text_path
    say(f"running: {shlex.join(launch.cmd)}")
    started = time.monotonic()
    outcome = follow_run(launch)
    if outcome is None:
        return 2
    code, status, stderr = outcome
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
    return store_run(args, launch, elapsed)


def import_finished_run(json_path: Path, db: str | None):
    """Store the JSON Lines file of a run that has ended: (parsed run, run id, where), or None
    after saying why it was not stored (the file stays where it is)."""
    from sqlalchemy.exc import SQLAlchemyError

    from .importers import parse_file
    from .store.db import Store, StoreError, database_error

    try:
        parsed = parse_file(json_path, "jsonl")
        with Store(db) as store:
            run_id, _ = store.import_run(parsed)
            return parsed, run_id, store.display_url
    except (FormatError, StoreError) as exc:
        say(f"effbench-results: error: {exc}; the run stays in {json_path}")
    except SQLAlchemyError as exc:
        say(f"effbench-results: error: {database_error(exc)}; nothing stored, the run stays "
            f"in {json_path}")
    return None


def store_run(args, launch: Launch, elapsed: float) -> int:
    """Import the finished run, say where it is, and write its report if asked to."""
    json_path, text_path = launch.json_path, launch.text_path
    stored = import_finished_run(json_path, args.db)
    if stored is None:
        return 2
    parsed, run_id, where = stored
    benches = sorted({r["benchmark"] for r in parsed.results})
    say(f"{len(parsed.results)} rows of {len(benches)} benchmarks "
        f"({', '.join(benches)}) in {elapsed:.1f} s; stored as run {run_id} in {where}; "
        f"JSON Lines: {json_path}; text output: {text_path}")
    if args.report:
        from .report import write_report
        index = write_report([(f"run {run_id}", parsed)], Path(args.report))
        say(f"report: {index}")
    return 0
