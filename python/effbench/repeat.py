"""`effbench-results run --repeat N [--shuffle [--seed S]] -- CMD... [-- CMD...]`: every
command launched N times as separate processes, the launches of all commands in one
(seeded) random order, each run stored as it ends and tied into its command's group
(docs/statistics.md). A launch that fails is recorded as failed and the others go on."""

from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
import time
import uuid
from datetime import datetime
from pathlib import Path

# `run` options that take a value: skipped when looking for --repeat before the component
VALUE_OPTIONS = {"--np", "--launcher", "--nodes", "--mpiexec", "--effbench", "--json",
                 "--report", "--db", "--repeat", "--seed", "--commands", "--dir", "--timeout"}
REPEAT_OPTIONS = ("--repeat", "--commands")


def wants_repeat(argv: list[str]) -> bool:
    """Whether `run`'s own options (before the first `--` and before the component) include
    --repeat or --commands: then the words after `--` are whole commands."""
    if not argv or argv[0] != "run":
        return False
    words = iter(argv[1:])
    for word in words:
        if word == "--" or not word.startswith("-"):
            return False
        name = word.split("=", 1)[0]
        if name in REPEAT_OPTIONS:
            return True
        if name in VALUE_OPTIONS and "=" not in word:
            next(words, None)
    return False


def build_parser(db_help: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="effbench-results run", description=__doc__,
        usage="effbench-results run --repeat N [--shuffle [--seed S]] [--timeout SECONDS] "
              "[--dir DIR] [--db URL] [--commands FILE] [-- CMD... [-- CMD...]]")
    p.add_argument("--repeat", type=int, required=True, metavar="N",
                   help="launches of each command")
    p.add_argument("--shuffle", action="store_true",
                   help="launch in a random order (default: round robin, repetition by "
                   "repetition)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="seed of the random order (default: a random seed, printed and stored)")
    p.add_argument("--commands", default=None, metavar="FILE",
                   help="a file of commands, one a line (shell words; # comments)")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="a launch still running after SECONDS is stopped and recorded as "
                   "failed (default: none)")
    p.add_argument("--dir", default=None, metavar="DIR",
                   help="where the runs' JSON Lines and text go (default: "
                   "effbench-group-<date>-<time>; must not exist or be empty)")
    p.add_argument("--db", help=db_help)
    return p


def split_commands(words: list[str]) -> list[list[str]]:
    """`CMD... -- CMD...`: the commands between the `--` separators."""
    out: list[list[str]] = [[]]
    for word in words:
        if word == "--":
            out.append([])
        else:
            out[-1].append(word)
    return out


def read_commands(path: str) -> list[list[str]]:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ValueError(f"--commands {path}: {exc.strerror}") from None
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from None
        if words:
            out.append(words)
    return out


def launch_order(commands: int, repeat: int, shuffle: bool, seed: int | None
                 ) -> list[tuple[int, int]]:
    """(command index, repetition) in the order they run: round robin (every command's first
    repetition, then every second, ...), or that list shuffled by random.Random(SEED)."""
    order = [(c, r) for r in range(1, repeat + 1) for c in range(commands)]
    if shuffle:
        random.Random(seed).shuffle(order)
    return order


def with_json(words: list[str], path: Path) -> list[str]:
    """The command with its JSON Lines file: a word `{json}` becomes the path, else
    `--json PATH` is appended (effbench's option, any personality)."""
    if "{json}" in words:
        return [str(path) if w == "{json}" else w for w in words]
    return [*words, "--json", str(path)]


def usage(message: str) -> int:
    print(f"effbench-results: error: run: {message}", file=sys.stderr)
    return 2


def parse(argv: list[str], db_help: str):
    """(options, commands) from `run ...` words, or an exit status after saying why not."""
    rest: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, rest = argv[:cut], argv[cut + 1:]
    args = build_parser(db_help).parse_args(argv[1:])
    try:
        commands = read_commands(args.commands) if args.commands else []
    except ValueError as exc:
        return usage(str(exc))
    if rest:
        commands += split_commands(rest)
    if args.repeat < 1:
        return usage(f"--repeat {args.repeat}: expected at least 1 launch")
    if args.seed is not None and not args.shuffle:
        return usage(f"--seed {args.seed} without --shuffle: the order is not random")
    if args.seed is not None and not 0 <= args.seed < 2**63:
        return usage(f"--seed {args.seed}: expected 0 to 2^63 - 1")
    if args.timeout is not None and not args.timeout > 0:
        return usage(f"--timeout {args.timeout:g}: expected a positive number of seconds")
    if not commands:
        return usage("--repeat needs commands: after --, or in a --commands FILE")
    if any(not words for words in commands):
        return usage("an empty command (two -- in a row, or -- at the end)")
    return args, commands


def run_repeated(argv: list[str], db_help: str) -> int:
    parsed = parse(argv, db_help)
    if isinstance(parsed, int):
        return parsed
    args, commands = parsed
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    directory = Path(args.dir or f"effbench-group-{stamp}").resolve()
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        return usage(f"--dir {directory} exists and is not an empty directory: choose "
                     "another, the runs of an earlier batch stay where they are")
    seed = args.seed
    if args.shuffle and seed is None:
        seed = random.SystemRandom().randrange(2**31)
    from .store.db import Store
    with Store(args.db) as store:
        return Batch(store, commands, args.repeat, args.shuffle, seed, directory,
                     args.timeout).run()


class Batch:
    """The launches of one `run --repeat`, recorded in the store one by one."""

    def __init__(self, store, commands, repeat, shuffle, seed, directory: Path,
                 timeout: float | None = None):
        from .store.groups import plan_batch
        self.store, self.commands, self.repeat = store, commands, repeat
        self.timeout = timeout
        self.order = launch_order(len(commands), repeat, shuffle, seed)
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        labels = [shlex.join(words) for words in commands]
        self.batch = uuid.uuid4().hex
        self.groups = plan_batch(store, commands, labels, repeat, self.order, shuffle, seed,
                                 str(directory), self.batch)
        say(f"batch {self.batch[:12]}: {len(commands)} command{'s' * (len(commands) > 1)} x "
            f"{repeat} launches, {len(self.order)} in "
            + (f"shuffled order (seed {seed})" if shuffle else "round-robin order")
            + f"; files in {directory}")
        for gid, label in zip(self.groups, labels):
            say(f"group {gid}: {label}")

    def run(self) -> int:
        failed = 0
        for place, (index, rep) in enumerate(self.order, start=1):
            gid = self.groups[index]
            ok = self.launch(f"[{place}/{len(self.order)}] group {gid}, repetition {rep}",
                             gid, rep, self.commands[index])
            failed += not ok
        from .store.groups import describe_members, load_group
        for gid in self.groups:
            group = load_group(self.store, gid)
            print(f"group {gid}: {describe_members(group)}; runs "
                  f"{', '.join(map(str, group.ok_runs)) or 'none'}: "
                  f"effbench-results summary group:{gid}")
        return 1 if failed else 0

    def launch(self, title: str, gid: int, rep: int, words: list[str]) -> bool:
        """One launch, followed with a progress bar, stored and recorded: True when it ended
        well and its run is stored."""
        from .launcher import Launch, follow_run
        from .store.groups import FAILED, OK, record_launch
        base = self.directory / f"g{gid}-r{rep}"
        json_path, text_path = base.with_suffix(".jsonl"), base.with_suffix(".txt")
        cmd = with_json(words, json_path)
        say(f"{title}: {shlex.join(cmd)}")
        started = time.monotonic()
        # the launch knows its place: a script around effbench may name its files by it
        env = {**os.environ, "EFFBENCH_GROUP": str(gid), "EFFBENCH_REPETITION": str(rep)}
        launch = Launch(cmd, env, json_path, text_path, timeout=self.timeout)
        outcome = follow_run(launch)
        seconds = time.monotonic() - started
        if outcome is None:  # follow_run said why
            record_launch(self.store, gid, rep, status=FAILED, exit_code=None,
                          message=f"cannot start {cmd[0]}", seconds=seconds)
            return False
        code, status, stderr = outcome
        if stderr:
            sys.stderr.write(stderr)
        run_id, problem = self.store_file(json_path)
        if code == 0 and status == "ok" and problem is None and not launch.timed_out:
            record_launch(self.store, gid, rep, status=OK, run_id=run_id, exit_code=0,
                          json_path=str(json_path), seconds=seconds)
            say(f"{title}: ok, run {run_id} ({seconds:.1f} s)")
            return True
        why = f"over its time limit of {self.timeout:g} s: stopped" if launch.timed_out \
            else problem if code == 0 and status == "ok" else (
            f"exit status {code}"
            + ("" if status == "ok" else f", run status {status or 'missing'}")
            + (f": {last_line(stderr)}" if last_line(stderr) else ""))
        record_launch(self.store, gid, rep, status=FAILED, run_id=run_id, exit_code=code,
                      message=why, json_path=str(json_path), seconds=seconds)
        kept = (f"; what it measured is stored as run {run_id}" if run_id is not None else "") \
            + (f"; its JSON Lines stay in {json_path}" if json_path.exists() else "")
        say(f"{title}: FAILED: {why}{kept}; the other launches go on")
        return False

    def store_file(self, json_path: Path) -> tuple[int | None, str | None]:
        """Import the launch's JSON Lines, complete or cut short: (run id, None), or (None,
        why not)."""
        from sqlalchemy.exc import SQLAlchemyError

        from .importers import parse_file
        from .records import FormatError
        from .store.db import StoreError, database_error
        if not json_path.exists():
            return None, "no JSON Lines file was written"
        try:
            parsed = parse_file(json_path, "jsonl")
            if not parsed.results:
                return None, "no result was written"
            run_id, _ = self.store.import_run(parsed)
            return run_id, None
        except (FormatError, StoreError) as exc:
            return None, f"not stored: {exc}"
        except SQLAlchemyError as exc:
            return None, f"not stored: {database_error(exc)}"


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
