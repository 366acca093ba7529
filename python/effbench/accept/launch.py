"""One launch of a check's program: the command (srun or mpirun with the check's placement),
the program found beside effbench, a time limit that ends the launch's process group, and the
records it wrote, read even when the run was cut."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .profile import Check

GRACE_S = 10.0  # after SIGTERM at the time budget, SIGKILL this much later


def prefix(check: Check, launcher: str, mpiexec: str | None) -> list[str]:
    """`srun -n R [-N N] [--ntasks-per-node K] [-w HOSTS] --mpi=pmix --kill-on-bad-exit=1` or
    `mpiexec -n R [--host H:K,...] [--map-by ppr:K:node]` (Open MPI's words)."""
    if launcher == "srun":
        words = shlex.split(mpiexec or "srun") + ["-n", str(check.ranks)]
        if check.nodes:
            words += ["-N", str(check.nodes), "--ntasks-per-node", str(check.ranks_per_node)]
        if check.hosts:
            words += ["-w", ",".join(check.hosts)]
        return words + ["--mpi=pmix", "--kill-on-bad-exit=1"]
    words = shlex.split(mpiexec or os.environ.get("EFFBENCH_MPIEXEC") or "mpiexec")
    words += ["-n", str(check.ranks)]
    if check.hosts:
        words += ["--host", ",".join(f"{h}:{check.ranks_per_node}" for h in check.hosts)]
    if check.nodes:
        words += ["--map-by", f"ppr:{check.ranks_per_node}:node"]
    return words


def find_program(word: str, bindir: Path | None) -> str | None:
    """A program word as the user types it: a path, or a name in BINDIR (where effbench and
    its personalities are), else on PATH."""
    if "/" in word:
        return word if os.access(word, os.X_OK) else None
    if bindir is not None and os.access(bindir / word, os.X_OK):
        return str(bindir / word)
    return shutil.which(word)


_OPTIONS: dict[tuple[str, str], bool] = {}


def takes_option(binary: str, option: str) -> bool:
    """Whether the executable knows OPTION (its text names it, with or without the dashes of
    an option table): `--expect-placement` is passed only to programs that have it."""
    key = (binary, option)
    if key not in _OPTIONS:
        try:
            _OPTIONS[key] = option.lstrip("-").encode() in Path(binary).read_bytes()
        except OSError:
            _OPTIONS[key] = False
    return _OPTIONS[key]


def command(check: Check, launcher: str, mpiexec: str | None, binary: str,
            json_path: Path) -> list[str]:
    words = [*prefix(check, launcher, mpiexec), binary, *check.words[1:]]
    if check.expect_placement and takes_option(binary, "--expect-placement"):
        words += ["--expect-placement", check.expect_placement]
    if check.row_timeout is not None:
        words += ["--row-timeout", f"{check.row_timeout:g}"]
    return words + ["--json", str(json_path)]


@dataclass
class Outcome:
    code: int | None
    timed_out: bool
    stderr: str
    elapsed_s: float


class Stopped(Exception):
    """effbench-results itself was asked to stop (SIGINT, SIGTERM)."""


def _end_group(proc: subprocess.Popen) -> None:
    """SIGTERM to the launch's process group (effbench writes its `end` record), SIGKILL after
    GRACE_S."""
    for sig, wait in ((signal.SIGTERM, GRACE_S), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def run(cmd: list[str], text_path: Path, timeout_s: float) -> Outcome:
    """Run CMD in its own process group, its stdout to TEXT_PATH, for at most TIMEOUT_S.
    Stopped (raised by the caller's signal handler) ends the group and goes on up."""
    started = time.monotonic()
    err_path = text_path.with_suffix(".err")
    with open(text_path, "wb") as out, open(err_path, "wb") as err:
        try:
            proc = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
        except OSError as exc:
            return Outcome(None, False, f"cannot start {cmd[0]}: {exc.strerror}", 0.0)
        timed_out = False
        try:
            while proc.poll() is None:
                if time.monotonic() - started > timeout_s:
                    timed_out = True
                    _end_group(proc)
                    break
                time.sleep(0.05)
        except Stopped:
            _end_group(proc)
            raise
    stderr = err_path.read_text(errors="replace")
    return Outcome(proc.returncode, timed_out, stderr, time.monotonic() - started)


def read_records(path: Path) -> list[dict]:
    """The whole JSON lines of PATH (a cut last line and a missing file give what there is)."""
    out = []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines(keepends=True):
        if not line.endswith("\n"):
            break
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            out.append(rec)
    return out


def only_guidelines_violated(outcome: Outcome, records: list[dict]) -> bool:
    """effbench guidelines ends with status 1 and the end message "N of M guidelines violated"
    when it finds violations (docs/guidelines.md): a finished run, not a failed one."""
    end = next((r for r in records if r.get("type") == "end"), None)
    return (outcome.code == 1 and end is not None and end.get("status") == "error" and
            re.fullmatch(r"\d+ of \d+ guidelines violated", str(end.get("message"))) is not None)


def failure_message(outcome: Outcome, records: list[dict]) -> str | None:
    """Why a launch failed, in its own words: the `end` record's message (the watchdog's,
    the error's), else effbench's last error line, else the exit status; None when it did
    not fail."""
    end = next((r for r in records if r.get("type") == "end"), None)
    if outcome.code == 0 and end is not None and end.get("status") == "ok":
        return None
    if end is not None and end.get("status") != "ok" and end.get("message"):
        return f"{end.get('status')}: {end['message']}"
    lines = [ln.strip() for ln in outcome.stderr.splitlines() if ln.strip()]
    ours = [ln for ln in lines if "error:" in ln]
    if ours:
        return ours[-1]
    if outcome.code is None:
        return lines[-1] if lines else "did not start"
    if outcome.code < 0:
        return f"killed by signal {-outcome.code}"
    if end is None:
        return f"exited with status {outcome.code} without an end record" + \
            (f": {lines[-1]}" if lines else "")
    return f"exited with status {outcome.code}"
