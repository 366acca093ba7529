"""`effbench-results accept PROFILE`: every check's repetitions, each a launch of its own,
every run stored, the state written after each launch (`--resume` continues from it), then the
verdict as text, JUnit XML and an HTML report (docs/acceptance.md)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import signal
import sys
from pathlib import Path

from ..component_names import GUIDELINES
from . import launch
from .metrics import measure, placement_problem
from .profile import Check, Profile, ProfileError
from .schema import load_profile
from .verdict import CheckVerdict, describe, judge, verdict_text

STATE = "accept-state.json"
EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 130


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")[:40] or "check"


def _save(path: Path, state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
    os.replace(tmp, path)


def store_file(json_path: Path, db: str | None) -> tuple[int | None, str]:
    """Import the run's JSON Lines file (a cut one too: stored as incomplete): (run id, note)."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..importers import parse_file
    from ..records import FormatError
    from ..store.db import Store, StoreError, database_error
    if not json_path.exists() or json_path.stat().st_size == 0:
        return None, "no JSON Lines written"
    try:
        parsed = parse_file(json_path, "jsonl")
        with Store(db) as store:
            run_id, _ = store.import_run(parsed)
        return run_id, "stored"
    except (FormatError, StoreError) as exc:
        return None, str(exc)
    except SQLAlchemyError as exc:
        return None, database_error(exc)


class Runner:
    def __init__(self, profile: Profile, out: Path, state: dict, launcher: str,
                 mpiexec: str | None, bindir: Path | None, db: str | None):
        self.profile, self.out, self.state = profile, out, state
        self.launcher, self.mpiexec, self.bindir, self.db = launcher, mpiexec, bindir, db
        self.state_path = out / STATE

    def check_state(self, check: Check) -> dict:
        return self.state["checks"].setdefault(check.name, {
            "reps": [], "elapsed_s": 0.0, "over_budget": False, "done": False,
            "interrupted": []})

    def run_check(self, index: int, check: Check) -> None:
        cs = self.check_state(check)
        self._recover(check, cs)
        binary = launch.find_program(check.words[0], self.bindir)
        while not cs["done"]:
            rep = len(cs["reps"]) + 1
            left = check.time_budget - cs["elapsed_s"]
            if rep > check.repetitions:
                cs["done"] = True
            elif left <= 0:
                cs["over_budget"] = cs["done"] = True
            else:
                self._launch(index, check, cs, rep, binary, left)
            _save(self.state_path, self.state)

    def _launch(self, index, check, cs, rep, binary, left) -> None:
        seq = self.state["launches"] = self.state.get("launches", 0) + 1
        base = self.out / f"{seq:03d}-{slug(check.name)}-r{rep}"
        json_path = base.with_suffix(".jsonl")
        cmd = launch.command(check, self.launcher, self.mpiexec, binary, json_path)
        say(f"check {index + 1}/{len(self.profile.checks)} '{check.name}', repetition "
            f"{rep}/{check.repetitions}: {shlex.join(cmd)}")
        cs["running"] = {"rep": rep, "json": str(json_path)}
        _save(self.state_path, self.state)
        try:
            outcome = launch.run(cmd, base.with_suffix(".txt"), left)
        except launch.Stopped:
            self._recover(check, cs)
            raise
        cs.pop("running", None)
        cs["elapsed_s"] += outcome.elapsed_s
        entry = self._judge_launch(check, rep, json_path, outcome)
        cs["reps"].append(entry)
        if outcome.timed_out:
            cs["over_budget"] = cs["done"] = True

    def _judge_launch(self, check, rep, json_path, outcome) -> dict:
        records = launch.read_records(json_path)
        run_id, note = store_file(json_path, self.db)
        if run_id is None:
            say(f"effbench-results: warning: {json_path}: not stored: {note}")
        entry = {"rep": rep, "json": str(json_path), "run_id": run_id, "stored": note,
                 "elapsed_s": outcome.elapsed_s, "exit": outcome.code, "value": None,
                 "error": None, "blame": []}
        if outcome.timed_out:
            entry["error"] = f"over its time budget ({check.time_budget:g} s): the launch " \
                             "was ended"
            return entry
        error = launch.failure_message(outcome, records)
        if check.kind == GUIDELINES and launch.only_guidelines_violated(outcome, records):
            error = None  # its exit status 1 is the verdict being judged, not a failure
        run = next((r for r in records if r.get("type") == "run"), None)
        if error is None and run is not None:
            error = placement_problem(check, run)
        got = measure(check, records)
        entry.update(value=got.value, blame=got.blame_if_failed,
                     failing_links=got.failing_links)
        entry["error"] = error or got.error
        if entry["error"]:  # the message names what it can (the watchdog: ranks, hosts)
            entry["value"], entry["blame"] = None, []
        return entry

    def _recover(self, check: Check, cs: dict) -> None:
        """A launch the state says was running when effbench-results stopped: its records are
        stored, the repetition is measured again."""
        running = cs.pop("running", None)
        if running:
            path = Path(running["json"])
            run_id, note = store_file(path, self.db)
            cs["interrupted"].append({**running, "run_id": run_id, "stored": note})
            _save(self.state_path, self.state)


def _fresh_state(profile: Profile, digest: str) -> dict:
    return {"profile": str(profile.path), "profile_sha256": digest, "checks": {},
            "launches": 0}


def _open_state(args, profile: Profile, out: Path) -> dict | None:
    digest = hashlib.sha256(profile.path.read_bytes()).hexdigest()
    path = out / STATE
    if not path.exists():
        if args.resume:
            say(f"effbench-results: nothing to resume in {out}: starting the profile")
        return _fresh_state(profile, digest)
    if not args.resume:
        say(f"effbench-results: error: {path} exists (a run of this profile): --resume "
            "continues it, or choose another --output DIR")
        return None
    state = json.loads(path.read_text())
    if state.get("profile_sha256") != digest:
        say(f"effbench-results: error: {profile.path} changed since {path} was written: "
            "a resumed run must judge the same checks (choose another --output DIR)")
        return None
    done = sum(1 for c in state["checks"].values() if c.get("done"))
    say(f"resuming {path}: {done} of {len(profile.checks)} checks done")
    return state


def _on_signal(signum, _frame):
    raise launch.Stopped(signal.Signals(signum).name)


def accept(args) -> int:
    from ..launcher import LaunchError, choose_launcher, find_effbench
    try:
        profile = load_profile(args.profile)
    except ProfileError as exc:
        say(f"effbench-results: error: {exc}")
        return EXIT_USAGE
    try:
        launcher = choose_launcher(args.launcher, dict(os.environ))
    except LaunchError as exc:
        say(f"effbench-results: error: {exc}")
        return EXIT_USAGE
    eff = find_effbench(args.effbench)
    bindir = Path(eff).resolve().parent if eff and "/" in eff else None
    missing = sorted({c.words[0] for c in profile.checks
                      if launch.find_program(c.words[0], bindir) is None})
    if missing:
        say(f"effbench-results: error: {', '.join(missing)}: no such program"
            + (f" in {bindir}" if bindir else "") + " nor on PATH (--effbench PATH names "
            "effbench, whose directory holds the programs)")
        return EXIT_USAGE
    out = Path(args.output or f"accept-{slug(profile.path.stem)}").resolve()
    out.mkdir(parents=True, exist_ok=True)
    state = _open_state(args, profile, out)
    if state is None:
        return EXIT_USAGE
    runner = Runner(profile, out, state, launcher, args.mpiexec, bindir, args.db)
    old = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        for i, check in enumerate(profile.checks):
            runner.run_check(i, check)
            say(describe(judge(check, runner.check_state(check))))
    except launch.Stopped as exc:
        _save(out / STATE, state)
        say(f"effbench-results: stopped by {exc}; what was measured is stored; "
            f"`effbench-results accept {shlex.quote(args.profile)} --output {out} --resume` "
            "continues")
        return EXIT_STOPPED
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    verdicts = [judge(c, runner.check_state(c)) for c in profile.checks]
    return write_outputs(args, profile, out, launcher, verdicts)


def write_outputs(args, profile: Profile, out: Path, launcher: str,
                  verdicts: list[CheckVerdict]) -> int:
    title = (f"effbench acceptance: {profile.name} ({profile.path}, {len(verdicts)} checks, "
             f"launcher {launcher}, files in {out})")
    text = verdict_text(title, verdicts)
    (out / "verdict.txt").write_text(text)
    print(text, end="")
    if args.junit:
        from .junit import write_junit
        write_junit(Path(args.junit), profile.name, str(profile.path), verdicts)
        say(f"JUnit XML: {args.junit}")
    if args.report:
        from .html import write_verdict_report
        index = write_verdict_report(Path(args.report), title, verdicts)
        say(f"report: {index}")
    return EXIT_PASS if all(v.passed for v in verdicts) else EXIT_FAIL
