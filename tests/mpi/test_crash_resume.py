"""Crash safety (issue 12): rows are flushed as measured, so killing one rank
mid-run loses only the row in flight; --resume measures what is missing and
appends, giving one complete run.  Every component: the IMB family, b_eff,
b_eff_io (SKaMPI's log-based resume is tested in test_skampi.py)."""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from effb import BUILD, env, mpiexec, parse_imb, read_jsonl, run


def rank_pids(program, marker):
    """The processes of `program` whose command line holds `marker`."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if cmd and os.path.basename(cmd[0]) == program.encode() and marker.encode() in cmd:
            pids.append(int(pid))
    return pids


def crash(np, program, args, js, min_rows, victim=-1):
    """Start program, SIGKILL one rank once js holds min_rows results; return
    the records left (every line must parse)."""
    proc = subprocess.Popen(mpiexec(np) + [str(BUILD / program), *map(str, args)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if js.exists() and js.read_text().count('"type": "result"') >= min_rows:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before the kill: make it longer"
    victims = rank_pids(program, str(js))
    assert len(victims) == np
    os.kill(sorted(victims)[victim], signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    recs = read_jsonl(js)  # every line that is there parses
    assert recs[0]["type"] == "run" and recs[-1]["type"] != "end"
    assert sum(r["type"] == "result" for r in recs) >= min_rows
    return recs


def check_resumed(final, recs, kept):
    """The records of the crash are kept as they were (but for dropped rows),
    then one `resume` record, and the run ends ok."""
    done = [x for x in recs if x["type"] == "result"]
    assert [x["type"] for x in final].count("run") == 1
    resumes = [i for i, x in enumerate(final) if x["type"] == "resume"]
    assert len(resumes) == 1
    assert final[resumes[0]]["rows_kept"] == len(kept)
    assert [x for x in final[:resumes[0]] if x["type"] == "result"] == kept
    assert all(x in done for x in kept)
    assert final[-1]["type"] == "end" and final[-1]["status"] == "ok"
    from effbench.importers.jsonl import parse_jsonl
    return parse_jsonl


def imb_key(x):
    return (x["benchmark"], x["mode"], x["group"], x["procs"], x["bytes"])


@pytest.fixture
def shm_dir(tmp_path):
    """IMB-IO and b_eff_io files: a RAM file system when there is one (every
    MPI_File_sync to this VM's disk costs ~10 ms)."""
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        d = tempfile.mkdtemp(prefix="effbench-crash-", dir="/dev/shm")
        yield d
        shutil.rmtree(d, ignore_errors=True)
    else:
        d = tmp_path / "io"
        d.mkdir()
        yield str(d)


# program, arguments, rows before the kill; each run takes about 1-2 s here
IMB = {
    "mpi1": ("IMB-MPI1", ["PingPong", "Sendrecv", "-msglog", "0:18", "-iter", "200,off"], 8),
    "nbc": ("IMB-NBC", ["Iallreduce", "Ibcast", "-msglog", "0:15", "-iter", "200,off"], 10),
    "ext": ("IMB-EXT", ["Unidir_Put", "Bidir_Get", "-msglog", "0:16", "-iter", "500,off"], 10),
    "rma": ("IMB-RMA", ["Unidir_put", "Bidir_get", "-msglog", "0:16", "-iter", "500,off"], 10),
    "io": ("IMB-IO", ["P_Write_Indv", "C_Read_Shared", "-msglog", "0:16", "-iter", "400,off"],
           20),
}


@pytest.mark.parametrize("component", sorted(IMB))
def test_imb_kill_a_rank_then_resume(tmp_path, shm_dir, component):
    program, args, min_rows = IMB[component]
    if component == "io":
        args = args + ["-filename", os.path.join(shm_dir, "imbio")]
    js = tmp_path / "crash.jsonl"
    recs = crash(3, program, args + ["--json", js], js, min_rows)
    done = [r for r in recs if r["type"] == "result"]
    planned = recs[0]["options"]["planned_rows"]
    assert len(done) < planned

    r = run(3, program, *args, "--resume", js)
    assert r.returncode == 0, r
    assert f"already in {js}: not measured again (--resume)" in r.stdout
    final = read_jsonl(js)
    parse_jsonl = check_resumed(final, recs, done)
    assert final[len(recs)]["type"] == "resume"
    assert [x["type"] for x in final[:len(recs)]] == [x["type"] for x in recs]
    rows = [imb_key(x) for x in final if x["type"] == "result"]
    assert len(rows) == len(set(rows)) == planned
    # the printed tables hold only the new rows
    printed = sum(len(b["rows"]) for b in parse_imb(r.stdout))
    assert printed == len(rows) - len(done)
    # and the result tools take it as one complete run
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
