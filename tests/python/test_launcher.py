"""effbench-results run (effbench.launcher): the progress bar's state, storing and reporting
a run, its failure paths; which launcher, and the command words it builds (issue 19)."""

from __future__ import annotations

import json
import shlex
import stat
import sys
from pathlib import Path

import pytest
from conftest import DATA

from effbench.cli import build_parser, main
from effbench.importers import parse_file
from effbench.launcher import (LaunchError, ProgressState, choose_launcher, launch_prefix,
                               planned_rows)
from effbench.store.db import Store

FIXTURES = DATA / "effbench"


# --- run -----------------------------------------------------------------------------------------

def progress_of(path: Path, last: int | None = None) -> ProgressState:
    """The progress state after the first LAST records of a JSON Lines file."""
    state = ProgressState()
    for line in path.read_text().splitlines()[:last]:
        state.feed(json.loads(line))
    return state


def test_progress_imb_planned_rows(c_output):
    """IMB's components plan their rows (`planned_rows`): the bar has an end from the run
    record on and counts the rows."""
    jsonl = c_output["p2p"][0]
    state = progress_of(jsonl, 1)
    assert (state.unit, state.total, state.done, state.description) == ("rows", 40, 0, "mpi1")
    state = progress_of(jsonl, 1 + 12)
    assert (state.total, state.done) == (40, 12)
    assert state.description == "PingPing 2 procs 1 bytes"  # PingPong: 0, 1, 2, ... 256 bytes
    state = progress_of(jsonl)
    assert (state.total, state.done, state.status) == (40, 40, "ok")


def test_progress_beff_planned_rows():
    """b_eff writes `planned_rows` in its run record's options, as IMB does; a run record
    without it gives an indeterminate bar, and so does a run that does more than it planned."""
    run = parse_file(FIXTURES / "beff_np4.jsonl").run
    results = parse_file(FIXTURES / "beff_np4.jsonl").results
    state = ProgressState()
    state.feed({**run, "options": {**run["options"], "planned_rows": 126}})
    assert (state.unit, state.total, state.done) == ("rows", 126, 0)
    for rec in results[:5]:
        state.feed(rec)
    assert (state.total, state.done) == (126, 5)
    assert state.description == "random-cyc-1dim 4 procs 1 bytes"
    assert planned_rows({"type": "run", "planned_rows": 7}) == 7  # at the top also taken
    bare = ProgressState()
    bare.feed({**run, "options": {}})
    assert bare.total is None
    state = ProgressState()
    state.feed({**run, "options": {"planned_rows": 3}})
    for rec in results[:4]:
        state.feed(rec)
    assert (state.total, state.done) == (None, 4)


def test_progress_skampi_by_suite(skampi_output):
    """SKaMPI plans no row count (refinement decides): the bar counts the configuration's
    suites, a suite done when the next one starts, all when the run ends."""
    jsonl, _ = skampi_output
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert records[0]["options"]["suites"] == ["Pingpong_Send_Recv", "MPI_Bcast-nodes",
                                               "MasterWorker_Waitany-chunks", "MPI_Wtime"]
    state = ProgressState()
    seen = []
    for rec in records:
        state.feed(rec)
        seen.append((state.done, state.total))
    assert state.unit == "suites" and state.rows == 17
    # 12 points of the first suite, 1 of the second, 3 of the third, 1 of the last, the end
    assert seen == [(0, 4)] * 13 + [(1, 4)] + [(2, 4)] * 3 + [(3, 4), (4, 4)]
    assert state.status == "ok"
    mid = ProgressState()
    for rec in records[:15]:
        mid.feed(rec)
    assert mid.description == "suite MasterWorker_Waitany-chunks 2 procs 256 bytes"


def test_run_command_line_in_the_docs_sets_the_report():
    """The example of docs/results.md, parsed exactly as written: `run`'s options come before
    COMPONENT, everything after it goes to effbench."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "results.md").read_text()
    lines = [x for x in docs.splitlines() if x.startswith(".venv/bin/effbench-results run ")]
    assert len(lines) == 1
    argv = shlex.split(lines[0])[1:]
    args = build_parser().parse_args(argv)
    assert (args.command, args.np, args.report, args.component, args.args) == \
        ("run", 2, "report/", "mpi1", ["PingPong", "-msglog", "0:16"])


def test_run_stores_and_reports(effbench_bin, mpiexec, tmp_path, monkeypatch, capsys):
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    jsonl = tmp_path / "run.jsonl"
    code = main(["run", "--np", "2", "--mpiexec", " ".join(mpiexec), "--effbench",
                 str(effbench_bin), "--db", db, "--json", str(jsonl), "--report",
                 str(tmp_path / "rep"), "mpi1", "PingPong", "-msglog", "0:3", "-time", "0.05"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "5 rows of 1 benchmarks (PingPong)" in err and "stored as run 1" in err
    assert jsonl.is_file() and (tmp_path / "run.txt").read_text().count("Benchmarking") == 1
    with Store(db) as store:
        assert store.counts()["measurement"] == 5
    assert (tmp_path / "rep" / "index.html").is_file()


FAKE_MPIEXEC = """#!/bin/sh
# drops "-n N" and runs the rest, as mpiexec would on one process
shift 2
exec "$@"
"""

FAKE_EFFBENCH = """#!{python}
import json, sys
path = sys.argv[sys.argv.index("--json") + 1]
with open(path, "w") as f:
    f.write(json.dumps({{"type": "run", "schema": 1, "tool": "effbench", "component": "mpi1",
                        "procs": 2, "options": {{"benchmarks": ["PingPong"],
                        "msglog_min": 0, "msglog_max": 2}}}}) + "\\n")
    for n in (0, 1):
        f.write(json.dumps({{"type": "result", "schema": 1, "component": "mpi1",
                            "benchmark": "PingPong", "procs": 2, "bytes": n,
                            "repetitions": 10, "t_min_us": 1.0, "t_max_us": 1.0,
                            "t_avg_us": 1.0}}) + "\\n")
sys.stderr.write("effbench: error: simulated crash\\n")
sys.exit(3)
"""


def fake_launch(tmp_path):
    """A fake mpiexec and a fake effbench that crashes after three records,
    and a database URL, for the launcher's failure paths."""
    mpiexec = tmp_path / "fake-mpiexec"
    mpiexec.write_text(FAKE_MPIEXEC)
    fake = tmp_path / "fake-effbench"
    fake.write_text(FAKE_EFFBENCH.format(python=sys.executable))
    for f in (mpiexec, fake):
        f.chmod(f.stat().st_mode | stat.S_IXUSR)
    return mpiexec, fake, f"sqlite:///{tmp_path / 'r.sqlite'}"


def test_run_failure_keeps_json(tmp_path, capsys):
    mpiexec, fake, db = fake_launch(tmp_path)
    jsonl = tmp_path / "crash.jsonl"
    code = main(["run", "--mpiexec", str(mpiexec), "--effbench", str(fake), "--db", db,
                 "--json", str(jsonl), "mpi1", "PingPong"])
    err = capsys.readouterr().err
    assert code == 3
    assert "simulated crash" in err and f"the results so far are in {jsonl}" in err
    assert len(jsonl.read_text().splitlines()) == 3
    with Store(db) as store:
        assert store.counts()["run"] == 0


def test_run_refuses_to_replace_files(tmp_path, capsys):
    """An existing --json FILE (or its .txt) is a user's earlier run: refused unless
    --overwrite, and then replaced, not appended to."""
    mpiexec, fake, db = fake_launch(tmp_path)
    jsonl = tmp_path / "old.jsonl"
    argv = ["run", "--mpiexec", str(mpiexec), "--effbench", str(fake), "--db", db, "--json",
            str(jsonl), "mpi1", "PingPong"]
    for existing in (jsonl, tmp_path / "old.txt"):
        existing.write_text("an earlier run\n")
        assert main(argv) == 2
        assert capsys.readouterr().err == (
            f"effbench-results: error: {existing} exists: choose another --json FILE, or "
            "--overwrite to replace it and its .txt file\n")
        assert existing.read_text() == "an earlier run\n"
        existing.unlink()
    jsonl.write_text("an earlier run\n")
    assert main([*argv[:1], "--overwrite", *argv[1:]]) == 3  # the fake's crash
    assert [json.loads(x)["type"] for x in jsonl.read_text().splitlines()] == \
        ["run", "result", "result"]


def test_run_without_effbench(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("EFFBENCH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["run", "mpi1"]) == 2
    assert "no effbench executable" in capsys.readouterr().err


# --- which launcher, and its command words ---------------------------------------------------

def test_srun_inside_an_allocation_mpirun_outside():
    assert choose_launcher(None, {"SLURM_JOB_ID": "42"}) == "srun"
    assert choose_launcher(None, {}) == "mpirun"
    assert choose_launcher("mpirun", {"SLURM_JOB_ID": "42"}) == "mpirun"
    with pytest.raises(LaunchError, match="--launcher aprun: expected one of srun, mpirun"):
        choose_launcher("aprun", {})


def test_command_words(monkeypatch):
    monkeypatch.delenv("EFFBENCH_MPIEXEC", raising=False)
    assert launch_prefix("srun", 4, 2, None) == ["srun", "-n", "4", "-N", "2", "--mpi=pmix"]
    assert launch_prefix("srun", 4, None, None) == ["srun", "-n", "4", "--mpi=pmix"]
    assert launch_prefix("mpirun", 4, 2, None) == ["mpiexec", "-n", "4", "--map-by",
                                                   "ppr:2:node"]
    assert launch_prefix("mpirun", 3, None, "mpiexec.openmpi --oversubscribe") == [
        "mpiexec.openmpi", "--oversubscribe", "-n", "3"]
    monkeypatch.setenv("EFFBENCH_MPIEXEC", "mpiexec.mpich")
    assert launch_prefix("mpirun", 2, None, None) == ["mpiexec.mpich", "-n", "2"]


@pytest.mark.parametrize("np,nodes,message", [
    (3, 2, "--nodes 2: mpirun places the same number of ranks on every node, and 3 processes "
           "do not divide by 2"),
    (2, 3, r"--nodes 3: expected 1 to --np \(2\) nodes"),
    (0, None, "--np 0: expected at least 1 process"),
])
def test_impossible_placements_are_refused(np, nodes, message):
    with pytest.raises(LaunchError, match=message):
        launch_prefix("mpirun", np, nodes, None)
