"""The run's guard (src/core/guard.h): a run that hangs is ended by the watchdog with a message
naming the row and its ranks, and a run ended by SIGTERM or SIGINT says so; in both cases every
line of the JSON file parses, every finished row is in it, and the end record says how the run
ended and how far it came."""
import os
import signal
import subprocess
import time

import pytest

from effb import BUILD, env, mpiexec, rank_of, rank_pids, read_jsonl, run

# rows bounded by -time (a loaded machine makes each repetition slower, not the row longer),
# 46 of them: the tests stop the run after two
LONG = ["PingPong", "Allreduce", "-time", "0.2", "-msglog", "0:22"]


def start(np, args, js, out):
    proc = subprocess.Popen(mpiexec(np) + [str(BUILD / "IMB-MPI1"), *args, "--json", str(js)],
                            stdout=open(out, "w"), stderr=subprocess.PIPE, text=True, env=env())
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if js.exists() and js.read_text().count('"type": "result"') >= 2:
            return proc
        time.sleep(0.05)
    proc.kill()
    pytest.fail("the run wrote no rows to stop")


@pytest.mark.parametrize("sig,name", [(signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "SIGINT")])
def test_signal_ends_the_run_with_records_that_say_so(tmp_path, sig, name):
    js, out = tmp_path / "s.jsonl", tmp_path / "s.txt"
    proc = start(2, LONG, js, out)
    # as Slurm's time limit does: the signal reaches every rank
    for pid in rank_pids("IMB-MPI1", str(js)):
        os.kill(pid, sig)
    proc.wait(timeout=120)
    assert proc.returncode != 0
    recs = read_jsonl(js)  # every line parses
    end = recs[-1]
    results = [x for x in recs if x["type"] == "result"]
    planned = recs[0]["options"]["planned_rows"]
    assert end["type"] == "end" and end["status"] == "terminated", end
    assert end["rows"] == len(results) >= 2 and end["planned_rows"] == planned > len(results)
    message = f"ended by {name} after {len(results)} of {planned} rows"
    assert end["message"] == message
    assert out.read_text().splitlines()[-1] == f"# effbench: run ended: {message}"


def test_watchdog_ends_a_hang_naming_the_row_and_ranks(tmp_path):
    js, out = tmp_path / "h.jsonl", tmp_path / "h.txt"
    proc = start(2, LONG + ["--row-timeout", "5"], js, out)
    stopped = [p for p in rank_pids("IMB-MPI1", str(js)) if rank_of(p) == 1]
    assert len(stopped) == 1
    os.kill(stopped[0], signal.SIGSTOP)
    try:
        proc.wait(timeout=120)
    finally:
        try:
            os.kill(stopped[0], signal.SIGCONT)
        except ProcessLookupError:
            pass
    assert proc.returncode != 0
    recs = read_jsonl(js)
    end = recs[-1]
    assert end["type"] == "end" and end["status"] == "timeout", end
    host = recs[0]["hosts"][0]["name"]
    results = [x for x in recs if x["type"] == "result"]
    assert end["rows"] == len(results) >= 2
    m = end["message"]
    assert m.startswith("watchdog: row 'PingPong, 2 processes, ") and "did not finish within 5 s" in m
    assert f"among the row's ranks 0 ({host}), 1 ({host})" in m
    assert out.read_text().splitlines()[-1] == f"# effbench: run ended: {m}"
    assert f"effbench: error: {m}" in proc.stderr.read()


def test_row_timeout_is_checked(tmp_path):
    r = run(1, "IMB-MPI1", "PingPong", "--row-timeout", "-1", cwd=tmp_path)
    assert r.returncode == 2
    assert "effbench: error: --row-timeout -1: expected seconds (0 turns the watchdog off)" \
        in r.stderr.splitlines()
