"""Crash safety (issue 12): rows are flushed as measured, so killing one rank
mid-run loses only the row in flight; --resume measures what is missing and
appends, giving one complete run.  Every component: the IMB family, b_eff,
b_eff_io (SKaMPI's log-based resume is tested in test_skampi.py)."""
import json
import math
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from effb import BUILD, env, mpiexec, parse_imb, rank_pids, read_jsonl, run


def records_of(text):
    """The complete lines of a JSON Lines text being written, as records."""
    return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]


def is_type_row(x, procs, access, t):
    return (x.get("level") == "type" and x["procs"] == procs and x["access"] == access
            and x["pattern_type"] == t)


def crash(np, program, args, js, min_rows, victim=-1, ready=None):
    """Start program, SIGKILL one rank once js holds min_rows results (and
    ready(text of js) holds); return the records left (every line must
    parse) but for the `end` record of status "terminated" that rank 0 writes
    when mpirun's SIGTERM reaches it (docs/json-lines.md)."""
    proc = subprocess.Popen(mpiexec(np) + [str(BUILD / program), *map(str, args)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        text = js.read_text() if js.exists() else ""
        if text.count('"type": "result"') >= min_rows and (ready is None or ready(text)):
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before the kill: make it longer"
    victims = rank_pids(program, str(js))
    assert len(victims) == np
    os.kill(sorted(victims)[victim], signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    recs = read_jsonl(js)  # every line that is there parses
    assert recs[0]["type"] == "run"
    # a rank killed: no end record, or one that says so: mpirun's SIGTERM reached rank 0, or
    # rank 0's next MPI call (a file operation with the dead rank) failed first
    if recs[-1]["type"] == "end":
        end = recs[-1]
        assert end["status"] in ("terminated", "error"), end
        if end["status"] == "terminated":
            assert end["message"].startswith("ended by SIGTERM after "), end
        else:
            assert end["message"], end
        recs = recs[:-1]  # --resume drops it, as it drops any trailing end record
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


# under ASan all but IMB-IO's, which takes 45 s there
@pytest.mark.parametrize("component", [c if c == "io" else pytest.param(c, marks=pytest.mark.asan)
                                       for c in sorted(IMB)])
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


@pytest.mark.invalid_records  # a hand-made run record of another component
def test_resume_refuses_another_component_or_missing_file(tmp_path):
    js = tmp_path / "other.jsonl"
    js.write_text(json.dumps({"type": "run", "schema": 1, "component": "beff"}) + "\n")
    r = run(2, "IMB-MPI1", "--resume", js)
    assert r.returncode == 2
    assert f"effbench: error: --resume {js}:1: the file is a 'beff' run, not 'mpi1'" in r.stderr
    r = run(2, "IMB-MPI1", "--resume", tmp_path / "none.jsonl")
    assert r.returncode == 2
    assert "cannot read: No such file or directory" in r.stderr



@pytest.mark.parametrize("np,args,message", [
    (2, ["-iter", "50,off"], "'msgspersample' is 20 in the file but 50 in this run"),
    (2, ["-msglog", "3"], "'msglog_max' is 2 in the file but 3 in this run"),
    (3, [], "'procs' is 2 in the file but 3 in this run"),
])
def test_imb_resume_refuses_other_options(tmp_path, np, args, message):
    """Rows kept and rows measured after --resume must come from the same
    method: the options that shape a row must be the interrupted run's."""
    js = tmp_path / "run.jsonl"
    base = ["PingPong", "-msglog", "2", "-iter", "20,off"]
    r = run(2, "IMB-MPI1", *base, "--json", js)
    assert r.returncode == 0, r
    before = js.read_text()
    changed = base[:]
    for k in range(0, len(args), 2):
        changed[changed.index(args[k]) + 1] = args[k + 1]
    r = run(np, "IMB-MPI1", *changed, "--resume", js)
    assert r.returncode == 2, r
    errors = [l for l in r.stderr.splitlines() if l.startswith("effbench: error:")]
    assert errors == [f"effbench: error: --resume {js}:1: {message} "
                      "(resume with the options of the interrupted run)"], r
    assert js.read_text() == before  # nothing lost, nothing appended


# ------------------------------------------------------------------ b_eff

BEFF = ["--mem-per-proc", "1", "--random-patterns", "2", "--loop-ms", "0.05"]


def beff_key(x):
    return (x["pattern"], x["method"], x["rep"], x["length_index"])


def next_loop(n, t_loop, loop_ms):
    """beff_next_looplength (docs/beff.md): keep n inside the window, else
    scale to 1.5 loop_ms, at least 1."""
    lo = loop_ms * 1e-3
    if lo <= t_loop <= 2 * lo:
        return n
    want = min(n * 1.5 * lo / t_loop, 1e8) if t_loop > 0 else n * 10.0
    return max(1, math.floor(want + 0.5))


def random_orders(stdout):
    block = stdout.split("Random patterns, ranks in ring order")[1].split("\n\n")[0]
    return re.findall(r"^ p\d\d:((?: \d+)+)$", block, re.M)


@pytest.mark.asan
def test_beff_kill_a_rank_then_resume(tmp_path):
    from test_beff import recompute
    js = tmp_path / "crash.jsonl"
    recs = crash(3, "b_eff", BEFF + ["--json", js], js, 800)
    done = [r for r in recs if r["type"] == "result"]
    seed = recs[0]["options"]["seed"]

    # no --seed: the random patterns come from the file's seed
    r = run(3, "b_eff", *BEFF, "--resume", js)
    assert r.returncode == 0, r
    assert (f"--resume {js}: {len(done)} measurements read back from the interrupted run, "
            "not measured again") in r.stdout
    final = read_jsonl(js)
    check_resumed(final, recs, done)
    rows = [x for x in final if x["type"] == "result"]
    keys = [beff_key(x) for x in rows]
    assert len(keys) == len(set(keys))
    full_js = tmp_path / "full.jsonl"
    full = run(3, "b_eff", *BEFF, "--seed", seed, "--json", full_js)
    assert full.returncode == 0, full
    full_recs = read_jsonl(full_js)
    assert sorted(keys) == sorted(beff_key(x) for x in full_recs if x["type"] == "result")
    assert final[0]["options"] == full_recs[0]["options"]
    assert random_orders(r.stdout) == random_orders(full.stdout)
    # the loop lengths follow the rule across the crash, as in one run
    by_key = {(x["pattern"], x["method"], x["rep"], x["length_index"]): x for x in rows}
    for (p, m, rep, l), x in by_key.items():
        prev = by_key.get((p, m, rep - 1, l) if rep > 0 else (p, m, 0, l - 1))
        if prev is None:
            assert l == 0 and rep == 0 and x["repetitions"] == 300
        else:
            n = prev["repetitions"]
            assert x["repetitions"] == next_loop(n, prev["t_max_us"] * 1e-6 * n, 0.05), (x, prev)
    # one summary, computed from old and new rows together
    summaries = [x for x in final if x["type"] == "summary"]
    assert len(summaries) == 1
    b_eff, lmax, lmax_rings = recompute(rows)
    assert summaries[0]["b_eff_mb_per_s"] == pytest.approx(b_eff, rel=1e-12)
    assert summaries[0]["b_eff_lmax_mb_per_s"] == pytest.approx(lmax, rel=1e-12)
    assert f"b_eff = {b_eff:10.3f} MB/s" in r.stdout


@pytest.fixture(scope="module")
def beff_partial(tmp_path_factory):
    """The first 40 lines of a b_eff run with --seed 5 (as if it crashed)."""
    d = tmp_path_factory.mktemp("beff")
    full = d / "full.jsonl"
    r = run(3, "b_eff", *BEFF, "--seed", "5", "--json", full)
    assert r.returncode == 0, r
    return full.read_text().splitlines(keepends=True)[:40]


def row_edit(lines, n, field, value):
    rec = json.loads(lines[n - 1])
    rec[field] = value
    return lines[:n - 1] + [json.dumps(rec) + "\n"] + lines[n:]


BEFF_REFUSALS = [
    (3, ["--seed", "6"], None,
     ":1: 'seed' is 5 in the file but 6 in this run (resume with the options of the interrupted run)"),
    (3, ["--mem-per-proc", "2"], None, ":1: 'mem_per_proc_mb' is 1 in the file but 2 in this run"),
    (2, [], None, ":1: 'procs' is 3 in the file but 2 in this run"),
    (3, ["--split-nonblocking"], None, ":1: 'split_nonblocking' is false in the file but true"),
    (3, ["-check"], None, ":1: 'check' is false in the file but true in this run"),
    (3, [], lambda ls: row_edit(ls, 3, "pattern", 99),
     ":3: pattern 99 'ring-1*3fix' is not a pattern of this run"),
    (3, [], lambda ls: row_edit(ls, 5, "bytes", 3), ":5: length 0 of 3 bytes is not a length of "
     "this run"),
    (3, [], lambda ls: ls + [ls[3]], ":41: ring-1*3fix nonblocking length 0 repetition 0 is in "
     "the file twice"),
    (3, [], lambda ls: [ls[0].replace('"beff"', '"nbc"', 1)] + ls[1:],
     ":1: the file is a 'nbc' run, not 'beff'"),
]


@pytest.mark.parametrize("np_,args,edit,msg", BEFF_REFUSALS)
def test_beff_resume_refusals(tmp_path, beff_partial, np_, args, edit, msg):
    js = tmp_path / "partial.jsonl"
    text = "".join(edit(beff_partial) if edit else beff_partial)
    js.write_text(text)
    r = run(np_, "b_eff", *BEFF, *args, "--resume", js, timeout=60)  # later options win
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1
    assert f"effbench: error: --resume {js}{msg}" in r.stderr
    assert js.read_text() == text  # nothing written, nothing lost


# --------------------------------------------------------------- b_eff_io

# M = 64 MiB as test_beff_io.check_run expects (M_PART is 2 MiB from 1 to 256 MiB)
BIO = ["-T", "3", "--mem-per-proc", "64"]


def bio_key(x):
    return (x["procs"], x["access"], x["level"], x["pattern_type"], x.get("pattern"))


def complete_partitions(rows):
    from test_beff_io import NPAT
    done = set()
    for n in {x["procs"] for x in rows}:
        mine = [x for x in rows if x["procs"] == n]
        if all(sum(x["access"] == acc and x["pattern_type"] == t and x["level"] == "pattern"
                   for x in mine) == NPAT[t]
               and sum(x["access"] == acc and x["pattern_type"] == t and x["level"] == "type"
                       for x in mine) == 1
               for acc in ("write", "rewrite", "read") for t in range(5)):
            done.add(n)
    return done


@pytest.mark.asan
def test_beff_io_kill_a_rank_then_resume(tmp_path, shm_dir):
    from test_beff_io import check_run
    js = tmp_path / "crash.jsonl"
    args = BIO + ["--path", shm_dir]
    # partition 1 finished (its last record is read type 4): the kill lands
    # in the read phase of partition 2 or 3
    recs = crash(3, "b_eff_io", args + ["--json", js], js, 1,
                 ready=lambda t: any(is_type_row(x, 1, "read", 4) for x in records_of(t)))
    done = [x for x in recs if x["type"] == "result"]
    kept_parts = complete_partitions(done)
    assert 1 in kept_parts and kept_parts != {1, 2, 3}
    kept = [x for x in done if x["procs"] in kept_parts]
    assert os.listdir(shm_dir)  # the killed run left its files

    r = run(3, "b_eff_io", *args, "--resume", js)
    assert r.returncode == 0, r
    for n in (1, 2, 3):
        note = f"--resume {js}: partition n={n} is complete in the file: not measured again"
        assert (note in r.stdout) == (n in kept_parts)
    final = read_jsonl(js)
    check_resumed(final, recs, kept)
    resume = [x for x in final if x["type"] == "resume"][0]
    assert resume.get("rows_dropped", 0) == len(done) - len(kept) > 0
    keys = [bio_key(x) for x in final if x["type"] == "result"]
    assert len(keys) == len(set(keys))
    # every partition complete, the summary from old and new type records
    check_run(r, js, 3, [1, 2, 3], 3)
    # the unfinished partitions were measured again by this run, into its files
    new_files = {x["file"].split("_n")[0] for x in final[final.index(resume):]
                 if x["type"] == "result"}
    old_files = {x["file"].split("_n")[0] for x in done}
    assert len(new_files) == len(old_files) == 1 and new_files != old_files
    assert os.listdir(shm_dir) == []  # both runs' files removed


@pytest.fixture(scope="module")
def bio_partial(tmp_path_factory):
    """The records of a 2-process b_eff_io run (partitions 1, 2) up to its
    read phase, as if it crashed there."""
    d = tmp_path_factory.mktemp("bio")
    full = d / "full.jsonl"
    r = run(2, "b_eff_io", "-T", 1, "--mem-per-proc", 64, "--path", d, "--json", full)
    assert r.returncode == 0, r
    lines = full.read_text().splitlines(keepends=True)
    first_read = next(i for i, x in enumerate(lines) if '"access": "read"' in x)
    return d, lines[:first_read]


def type_row(lines, procs, access, t):
    return next(i for i, x in enumerate(lines) if is_type_row(json.loads(x), procs, access, t))


BIO_REFUSALS = [
    (["-T", 2], None, ":1: 'T_s' is 1 in the file but 2 in this run (resume with the options "
     "of the interrupted run)"),
    (["--partitions", "2"], None, ":1: 'partitions' is [1, 2] in the file but [2] in this run"),
    (["--check"], None, ":1: 'check' is false in the file but true in this run"),
    ([], lambda ls: ls[:5] + [ls[5].replace('"procs": 1,', '"procs": 5,')] + ls[6:],
     ":6: a partition of 5 processes is not in this run's --partitions"),
    ([], lambda ls: ls + [ls[type_row(ls, 1, "write", 0)]],
     f":{{n}}: the total of write pattern type 0 on 1 processes is in the file twice"),
    ([], lambda ls: [ls[0].replace('"beff_io"', '"beff"', 1)] + ls[1:],
     ":1: the file is a 'beff' run, not 'beff_io'"),
]


@pytest.mark.parametrize("args,edit,msg", BIO_REFUSALS)
def test_beff_io_resume_refusals(tmp_path, bio_partial, args, edit, msg):
    d, lines = bio_partial
    lines = edit(lines) if edit else lines
    js = tmp_path / "partial.jsonl"
    js.write_text("".join(lines))
    # a later option overrides an earlier one
    r = run(2, "b_eff_io", "-T", 1, "--mem-per-proc", 64, "--path", d, *args, "--resume", js,
            timeout=60)
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1
    assert f"effbench: error: --resume {js}{msg.format(n=len(lines))}" in r.stderr
    assert js.read_text() == "".join(lines)
