"""Simulated runs (docs/simulation.md): `effbench-results simulate` runs effbench under
SimGrid's SMPI through scripts/simulate and stores the run (marked as simulated: see
effbench.records.simulation_label)."""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from .records import simulation_label

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "simulate"


def add_parser(sub, db_help: str) -> None:
    s = sub.add_parser("simulate", help="run effbench on a simulated platform (SimGrid SMPI), "
                       "then store the run marked as simulated (docs/simulation.md)")
    s.add_argument("--platform", required=True,
                   help="a preset (t3e-900, sr8000, pair), a spec such as "
                   "torus:8x8x8,lat=1us,bw=350MBps, or a SimGrid XML file (with --hostfile)")
    s.add_argument("-np", "--np", type=int, required=True, help="simulated processes")
    s.add_argument("--placement", choices=["sequential", "roundrobin"], default="sequential",
                   help="ranks on SMP nodes: fill a node first, or deal them out")
    s.add_argument("--hostfile", default=None, help="hostfile for an XML --platform")
    s.add_argument("--reps", type=int, default=None,
                   help="repetitions per loop at most (default 10: a simulation has no noise)")
    s.add_argument("--json", default=None, help="JSON Lines file to write (default: "
                   "effbench-sim-<component>-<time>.jsonl)")
    s.add_argument("--db", help=db_help)
    s.add_argument("component", metavar="COMPONENT", help="e.g. IMB-MPI1, b_eff, mpi1, skampi")
    s.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS")
    s.set_defaults(func=cmd_simulate)


def cmd_simulate(args) -> int:
    from .launcher import import_finished_run, say

    if not SCRIPT.exists():
        say(f"effbench-results: error: {SCRIPT} not found: simulate runs from an effbench "
            "checkout (pip install -e python)")
        return 2
    extra = [a for a in args.args if a != "--"]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    json_path = Path(args.json or f"effbench-sim-{args.component}-{stamp}.jsonl").resolve()
    if json_path.exists():
        say(f"effbench-results: error: {json_path} exists: choose another --json FILE")
        return 2
    text_path = json_path.with_suffix(".txt")
    cmd = ["bash", str(SCRIPT), "--platform", args.platform, "-np", str(args.np),
           "--placement", args.placement]
    if args.hostfile:
        cmd += ["--hostfile", args.hostfile]
    if args.reps:
        cmd += ["--reps", str(args.reps)]
    cmd += ["--", args.component, *extra, "--json", str(json_path)]
    started = time.monotonic()
    with open(text_path, "w") as out:
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, text=True)
    if proc.stderr:
        sys.stderr.write(proc.stderr)
    if proc.returncode != 0 or not json_path.exists():
        say(f"effbench-results: error: the simulation exited with status {proc.returncode}; "
            f"its output is in {text_path}")
        return proc.returncode or 2
    stored = import_finished_run(json_path, args.db)
    if stored is None:
        return 2
    parsed, run_id, where = stored
    say(f"{len(parsed.results)} rows in {time.monotonic() - started:.1f} s of wall time; "
        f"stored as run {run_id} in {where} ({simulation_label(parsed.run)}); "
        f"JSON Lines: {json_path}; text output: {text_path}")
    return 0
