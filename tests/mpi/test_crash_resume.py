"""Crash safety (issue 12): rows are flushed as measured, so killing one rank
mid-run loses only the row in flight; --resume measures what is missing and
appends, giving one complete run."""
import json
import os
import signal
import subprocess
import time

from effb import BUILD, env, mpiexec, parse_imb, read_jsonl, run


def rank_pids(marker):
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if cmd and cmd[0].endswith(b"effbench") or (cmd and cmd[0].endswith(b"IMB-MPI1")):
            if marker.encode() in cmd:
                pids.append(int(pid))
    return pids


def test_kill_a_rank_then_resume(tmp_path):
    js = tmp_path / "crash.jsonl"
    args = ["PingPong", "Sendrecv", "-msglog", "0:18", "-iter", "200,off", "--json", str(js)]
    proc = subprocess.Popen(mpiexec(3) + [str(BUILD / "IMB-MPI1"), *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if js.exists() and js.read_text().count('"type": "result"') >= 8:
            break
        time.sleep(0.02)
    victims = rank_pids(str(js))
    assert len(victims) == 3
    os.kill(victims[-1], signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    recs = read_jsonl(js)  # every line that is there parses
    assert recs[0]["type"] == "run" and recs[-1]["type"] != "end"
    done = [r for r in recs if r["type"] == "result"]
    assert 8 <= len(done) < recs[0]["options"]["planned_rows"]

    r = run(3, "IMB-MPI1", *args[:-2], "--resume", js)
    assert r.returncode == 0, r
    assert f"already in {js}: not measured again (--resume)" in r.stdout
    final = read_jsonl(js)
    assert [x["type"] for x in final[:len(recs)]] == [x["type"] for x in recs]
    assert final[len(recs)]["type"] == "resume"
    assert final[len(recs)]["rows_kept"] == len(done)
    assert final[-1]["type"] == "end" and final[-1]["status"] == "ok"
    rows = [(x["benchmark"], x["procs"], x["bytes"]) for x in final if x["type"] == "result"]
    assert len(rows) == len(set(rows)) == final[0]["options"]["planned_rows"]
    # the rows measured before the crash are kept as they were
    assert [x for x in final if x["type"] == "result"][:len(done)] == done
    # the printed tables hold only the new rows
    printed = sum(len(b["rows"]) for b in parse_imb(r.stdout))
    assert printed == len(rows) - len(done)
    # and the result tools take it as one complete run
    from effbench.importers.jsonl import parse_jsonl
    parsed = parse_jsonl(js)
    assert len(parsed.results) == len(rows) and parsed.end["status"] == "ok"


def test_resume_refuses_another_component_or_missing_file(tmp_path):
    js = tmp_path / "other.jsonl"
    js.write_text(json.dumps({"type": "run", "schema": 1, "component": "beff"}) + "\n")
    r = run(2, "IMB-MPI1", "--resume", js)
    assert r.returncode == 2
    assert f"effbench: error: --resume {js}:1: the file is a 'beff' run, not 'mpi1'" in r.stderr
    r = run(2, "IMB-MPI1", "--resume", tmp_path / "none.jsonl")
    assert r.returncode == 2
    assert "cannot read: No such file or directory" in r.stderr
