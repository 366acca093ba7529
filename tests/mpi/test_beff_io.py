"""b_eff_io under 1..4 ranks with a schedule of a few seconds in a temporary
directory: the bytes every pattern claims are in the files (every write and
rewrite read back by the program under --check, sizes and every word checked
again after a --keep run), read data verified in the program (--check, 0
errors), the schedule and the repeat rules, the summary equal to the value
recomputed from the JSON records, planned_rows, the hints in use, MT, files
removed also when the run stops on an error, clear errors."""
import array
import math
import os
import re
import subprocess
import sys
import time

import pytest

import watch
from effb import BUILD, MPI, env, mpiexec, read_jsonl, run

MIB = 1048576
NPAT = [9, 8, 8, 9, 9]
UNITS = [[0, 4, 4, 4, 2, 2, 2, 2, 2], [0, 4, 2, 1, 1, 1, 1, 2], [0, 2, 2, 1, 1, 1, 1, 2],
         [0, 2, 2, 1, 1, 1, 1, 2, 0], [0, 2, 2, 1, 1, 1, 1, 2, 0]]
DISK = [[MIB, 2 * MIB, MIB, MIB, 32768, 1024, 32776, 1032, MIB + 8]] + \
       [[MIB, 2 * MIB, MIB, 32768, 1024, 32776, 1032, MIB + 8]] * 4
MEM0 = [MIB, 2 * MIB, 2 * MIB, MIB, MIB, MIB, MIB + 256, MIB + 8192, MIB + 8]
NAMES = ["scatter", "shared", "separate", "segmented", "seg-coll"]
ACCESS = ["write", "rewrite", "read"]
DEFAULT_PARTS = {1: [1], 2: [1, 2], 3: [1, 2, 3], 4: [2, 3, 4]}
LAST = re.compile(r"^ b_eff_io = +(\d+\.\d{3}) MB/s on (\d+) processes with +64 MByte/PE, "
                  r"scheduled time=(\d+\.\d) Min, on \S+ \S+ .+ \S+, NOT VALID \(see above\)$")
SCATTER_OF = [0, 1, 3, 4, 5, 6, 7, 8]
assert sys.byteorder == "little"


def tag(t, rank):
    return ((t + 1) << 56) | ((rank << 40) if t == 2 else 0)


def verify_file(path, size, t, rank=0):
    """Every 8-byte word at byte offset o is o/8 + tag."""
    assert os.path.getsize(path) == size, path
    base = tag(t, rank)
    block = MIB
    with open(path, "rb") as f:
        w = 0
        while True:
            data = f.read(block)
            if not data:
                break
            n = len(data) // 8
            expect = array.array("Q", range(base + w, base + w + n)).tobytes()
            if data != expect:
                got = array.array("Q", data)
                bad = next(i for i in range(n) if got[i] != base + w + i)
                pytest.fail(f"{path}: word at byte {8 * (w + bad)} is {got[bad]:#x}, "
                            f"expected {base + w + bad:#x}")
            w += n


def records(js):
    recs = read_jsonl(js)
    assert recs[0]["type"] == "run" and recs[0]["component"] == "beff_io"
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    pats = [r for r in recs if r["type"] == "result" and r["level"] == "pattern"]
    types = [r for r in recs if r["type"] == "result" and r["level"] == "type"]
    summ = [r for r in recs if r["type"] == "summary"]
    assert len(summ) == 1
    # the launcher's progress bar counts every result record towards planned_rows
    assert len(pats) + len(types) == recs[0]["options"]["planned_rows"]
    # the contract's core fields (docs/json-lines.md): no time per repetition (t_us is the
    # pattern's time); a type's total has no chunk size (bytes 0) and no repetition count
    for x in pats + types:
        assert all(x[k] is None for k in ("group", "mode", "t_min_us", "t_max_us", "t_avg_us",
                                          "mbytes_per_s", "defects")), x
    assert all(x["bytes"] == x["chunk_disk_bytes"] and x["repetitions"] >= 1 for x in pats)
    assert all(x["bytes"] == 0 and x["repetitions"] is None for x in types)
    return recs, pats, types, summ[0]


def check_run(r, js, np, parts, T, rewrite0=False):
    assert r.returncode == 0, r
    recs, pats, types, summ = records(js)
    lines = r.stdout.rstrip("\n").splitlines()
    m = LAST.match(lines[-1])
    assert m, lines[-1]
    assert recs[0]["options"]["partitions"] == parts
    assert recs[0]["options"]["m_part_bytes"] == 2 * MIB
    check = recs[0]["check"]
    tpart = T / len(parts)
    values = {}
    for n in parts:
        rep = {}
        bw = {}
        for a, acc in enumerate(ACCESS):
            for t in range(5):
                pr = [x for x in pats if x["procs"] == n and x["access"] == acc
                      and x["pattern_type"] == t]
                tr = [x for x in types if x["procs"] == n and x["access"] == acc
                      and x["pattern_type"] == t]
                if acc == "rewrite" and rewrite0 and t > 0:
                    assert pr == [] and tr == []
                    bw[(acc, t)] = None
                    continue
                assert len(pr) == NPAT[t] and len(tr) == 1, (n, acc, t)
                tr = tr[0]
                assert tr["errors"] == 0
                assert tr["benchmark"] == NAMES[t]
                assert tr["moved_bytes"] == sum(x["moved_bytes"] for x in pr)
                # --check reads every write and rewrite back after the close: all the
                # bytes the patterns claim (type 2: n files, types 3/4: n segments with
                # the filler), every word as written (errors 0 above)
                assert tr["verified_bytes"] == (tr["moved_bytes"] if check and acc != "read"
                                                else None), tr
                assert tr["mb_per_s"] == pytest.approx(tr["moved_bytes"] / tr["t_us"], rel=1e-12)
                bw[(acc, t)] = tr["mb_per_s"]
                for p, x in enumerate(pr):
                    if not x["filler"]:
                        assert x["chunk_disk_bytes"] == DISK[t][p]
                        assert x["chunk_mem_bytes"] == (MEM0[p] if t == 0 else DISK[t][p])
                    assert x["units"] == UNITS[t][p]
                    assert x["moved_bytes"] == x["repetitions"] * x["chunk_mem_bytes"] * n
                    timed = acc == "write" and t <= 2 and x["units"] > 0
                    if timed:
                        assert x["scheduled_s"] == pytest.approx(tpart / 3 * x["units"] / 64)
                        assert x["batches"] >= 1 and x["repetitions"] >= 1
                        # geometric series, not a check per call: doubling batches
                        # 1, 1, 2, 4, ... then a few predicted to fit the rest
                        assert x["batches"] <= 2 * math.log2(x["repetitions"]) + 3
                    else:
                        assert x["batches"] == 0
                    if acc == "write":
                        rep[(t, p)] = x["repetitions"]
                        if t <= 2 and x["units"] == 0:
                            assert x["repetitions"] == 1
                    else:
                        assert x["repetitions"] == rep[(t, p)]
        # types 3/4: size-driven from the write repeats of types 0..2
        total = 0
        for p in range(8):
            s = SCATTER_OF[p]
            want = min(rep[(0, s)] * (MEM0[s] // DISK[0][s]), 10 * rep[(1, p)], rep[(2, p)])
            assert rep[(3, p)] == want and rep[(4, p)] == want, (n, p)
            total += want * DISK[3][p]
        lseg = -(-total // MIB) * MIB
        filler = [x for x in pats if x["procs"] == n and x["pattern_type"] == 3 and x["filler"]]
        assert all(x["segment_bytes"] == lseg for x in filler)
        assert rep[(3, 8)] == (1 if lseg > total else 0)
        if lseg > total:
            assert filler[0]["chunk_disk_bytes"] == lseg - total
        # the weighting rules
        method = {}
        for acc in ACCESS:
            b = [bw[(acc, t)] for t in range(5)]
            if acc == "rewrite" and rewrite0:
                method[acc] = b[0]
            else:
                method[acc] = (2 * b[0] + b[1] + b[2] + b[3] + b[4]) / 6
        value = 0.25 * method["write"] + 0.25 * method["rewrite"] + 0.5 * method["read"]
        w = [bw[("write", t)] for t in range(5)]
        rel21 = math.sqrt((sum(w) + bw[("rewrite", 0)]) / 6 * method["read"])
        sp = [x for x in summ["partitions"] if x["procs"] == n][0]
        assert sp["write_mb_per_s"] == pytest.approx(method["write"], rel=1e-12)
        assert sp["rewrite_mb_per_s"] == pytest.approx(method["rewrite"], rel=1e-12)
        assert sp["read_mb_per_s"] == pytest.approx(method["read"], rel=1e-12)
        assert sp["b_eff_io_mb_per_s"] == pytest.approx(value, rel=1e-12)
        assert sp["b_eff_io_rel21_mb_per_s"] == pytest.approx(rel21, rel=1e-12)
        assert sp["segment_bytes"] == lseg
        values[n] = (value, rel21, rep, lseg)
    best = max(parts, key=lambda n: values[n][0])
    assert summ["b_eff_io_mb_per_s"] == pytest.approx(values[best][0], rel=1e-12)
    # release 2.1's figure: its own maximum over the partitions (issue 21)
    assert summ["b_eff_io_rel21_mb_per_s"] == pytest.approx(max(v[1] for v in values.values()),
                                                           rel=1e-12)
    assert summ["procs"] == best
    assert summ["errors"] == 0 and summ["valid"] is False
    assert m.group(1) == f"{summ['b_eff_io_mb_per_s']:.3f}" and int(m.group(2)) == best
    assert m.group(3) == f"{tpart / 60:.1f}"
    # ... printed with the partition that has it, which need not be the new formula's best
    best21 = max(parts, key=lambda n: values[n][1])
    assert f" b_eff_io (release 2.1 formula sqrt(W*R)) = {summ['b_eff_io_rel21_mb_per_s']:8.3f} " \
           f"MB/s on {best21} processes" in r.stdout
    return values, pats


def check_total_memory(r, js, mt, given):
    """MT in the header, the run record and the summary, and each partition's
    share of it ("percent of the total memory"); M_PART does not depend on it
    (check_run: 2 MiB)."""
    recs = read_jsonl(js)
    assert re.search(rf"^-N  [\d,]+ T=\S+, MT={mt} MBytes", r.stdout, re.M), r.stdout[:600]
    assert recs[0]["options"]["mem_total_mib"] == mt
    assert recs[0]["options"]["mem_total_given"] is given
    summ = next(x for x in recs if x["type"] == "summary")
    assert summ["mem_total_mib"] == mt
    for part in summ["partitions"]:
        wb = part["write_bytes"]
        assert f"Total amount of data written/read with each access method: {wb / MIB:.3f} " \
               f"MBytes\n  = {100 * wb / MIB / mt:.1f} percent of the total memory ({mt} MBytes)" \
            in r.stdout


def expected_files(values, pats, prefix):
    """(file name, size, type, rank) of every file the run must leave with --keep."""
    out = []
    for n, (_, _, rep, lseg) in values.items():
        def size(t):
            pr = [x for x in pats if x["procs"] == n and x["access"] == "write"
                  and x["pattern_type"] == t]
            return sum(x["repetitions"] * x["chunk_mem_bytes"] for x in pr)
        out.append((f"{prefix}_n{n:03d}_t0", size(0) * n, 0, 0))
        out.append((f"{prefix}_n{n:03d}_t1", size(1) * n, 1, 0))
        for k in range(n):
            out.append((f"{prefix}_n{n:03d}_t2.{k:03d}", size(2), 2, k))
        out.append((f"{prefix}_n{n:03d}_t3", lseg * n, 3, 0))
        out.append((f"{prefix}_n{n:03d}_t4", lseg * n, 4, 0))
    return out


# b_eff_io's run is time-driven (T seconds whatever np): under ASan, two process counts (one
# even, one odd) are the stage's share
@pytest.mark.parametrize("np", [1, pytest.param(2, marks=pytest.mark.asan),
                                pytest.param(3, marks=pytest.mark.asan), 4])
def test_beff_io_files_and_summary(tmp_path, np):
    d = tmp_path / "io"
    d.mkdir()
    js = tmp_path / "bio.jsonl"
    T = 3
    r = run(np, "b_eff_io", "-T", T, "--mem-per-proc", 64, "--path", d, "--check", "--keep",
            "--json", js, timeout=120)
    values, pats = check_run(r, js, np, DEFAULT_PARTS[np], T)
    check_total_memory(r, js, 64 * np, False)
    prefix = re.search(r"PREFIX=(\S+)", r.stdout).group(1)
    files = expected_files(values, pats, prefix)
    assert sorted(os.listdir(d)) == sorted(f[0] for f in files)
    for name, size, t, k in files:
        verify_file(d / name, size, t, k)
    # the protocol prints one line per pattern and the summary tables
    for n in DEFAULT_PARTS[np]:
        assert len(re.findall(rf"^n={n:<3d} a=0 type=\d p=", r.stdout, re.M)) == 43
        assert f"Summary of file I/O bandwidth accumulated on {n:3d} processes with   64 MByte/PE" \
            in r.stdout


def test_beff_io_removes_files_rewrite0_mem_total(tmp_path):
    d = tmp_path / "io"
    d.mkdir()
    js = tmp_path / "bio.jsonl"
    r = run(2, "effbench", "beff_io", "-T", 2, "--partitions", "2", "--mem-per-proc", 64,
            "--mem-total", 1000, "--path", d, "--rewrite-type0-only", "--json", js, timeout=120)
    check_run(r, js, 2, [2], 2, rewrite0=True)
    check_total_memory(r, js, 1000, True)
    assert os.listdir(d) == []
    assert "   2 PEs      total-rewrite" in r.stdout
    row = [line for line in r.stdout.splitlines() if "total-rewrite" in line][0]
    assert row.split()[-4:] == ["-", "-", "-", "-"]


def test_old_word_beff_io_runs_the_same(tmp_path):
    """`effbench beff-io`, the word before the naming rule (docs/architecture.md), runs
    beff_io: the same help, and a run whose records and options are the new word's."""
    old, new = run(1, "effbench", "beff-io", "--help"), run(1, "effbench", "beff_io", "--help")
    assert old.returncode == new.returncode == 0 and old.stdout == new.stdout
    assert "effbench beff_io [options]" in new.stdout
    recs = {}
    for word in ("beff-io", "beff_io"):
        d = tmp_path / word
        d.mkdir()
        js = tmp_path / f"{word}.jsonl"
        r = run(1, "effbench", word, "-T", 1, "--mem-per-proc", 64, "--path", d, "--json", js,
                timeout=60)
        assert r.returncode == 0, r
        recs[word] = read_jsonl(js)
    for word, rs in recs.items():
        assert {x["component"] for x in rs if "component" in x} == {"beff_io"}
        assert rs[0]["command_line"][1] == word
    assert recs["beff-io"][0]["options"] == {**recs["beff_io"][0]["options"],
                                            "path": str(tmp_path / "beff-io")} != {}
    rows = {w: [(x["type"], x.get("level"), x.get("access"), x.get("pattern_type"),
                 x.get("pattern")) for x in rs]
            for w, rs in recs.items()}
    assert rows["beff-io"] == rows["beff_io"] and len(rows["beff_io"]) > 100


def test_beff_io_alias_hints_and_cache_warning(tmp_path):
    d = tmp_path / "io"
    d.mkdir()
    hints = tmp_path / "hints"
    hints.write_text("# ROMIO hints; unknown keys are ignored by MPI\n"
                     "all romio_cb_write enable\n0,4 cb_buffer_size 1048576\n"
                     "2 effbench_no_such_hint x\n")
    js = tmp_path / "bio.jsonl"
    r = run(1, "effbench", "beff_io", "-T", 1, "--mem-per-proc", 64, "--path", d,
            "--hints", hints, "--fs-cache", 100000, "--json", js, timeout=60)
    assert r.returncode == 0, r
    assert "HINTS=%s (3 hints)" % hints in r.stdout
    assert re.search(r"b_eff_io: 1 processes, write moved [\d.]+ MiB < 20 x --fs-cache "
                     r"100000.0 MiB", r.stderr), r.stderr
    assert "WARNING: write moved" in r.stdout
    assert os.listdir(d) == []
    # the hints in use, as MPI_File_get_info reports them after each open: both
    # libraries keep these two ROMIO hints; for an unknown key Open MPI 4.1 (ompio
    # and romio321 alike) hands back the info it was given, MPICH's ROMIO drops it
    bogus = "x" if MPI == "openmpi" else None
    want = {t: [("romio_cb_write", "enable", "enable")]
            + ([("cb_buffer_size", "1048576", "1048576")] if t in (0, 4) else [])
            + ([("effbench_no_such_hint", "x", bogus)] if t == 2 else []) for t in range(5)}
    types = [x for x in read_jsonl(js) if x["type"] == "result" and x["level"] == "type"]
    assert len(types) == 15
    for x in types:
        assert [(h["key"], h["given"], h["used"]) for h in x["hints"]] == \
            want[x["pattern_type"]], x
    lines = re.findall(r"^   hints in use: .*$", r.stdout, re.M)
    proto = {t: "   hints in use: " + ", ".join(
        f"{k}={u}" if u == g else f"{k}={u or '(not reported)'} (given {g})"
        for k, g, u in want[t]) for t in range(5)}
    assert lines == [proto[t] for t in range(5)] * 3


@pytest.mark.parametrize("np", [1, 3])
def test_beff_io_unwritable_path(tmp_path, np):
    missing = tmp_path / "missing"
    r = run(np, "b_eff_io", "-T", 1, "--path", missing, timeout=120)
    assert r.returncode == 2, r
    assert f"effbench: error: --path {missing}: cannot use: No such file or directory" \
        in r.stderr.splitlines()
    assert r.stderr.count("effbench: error:") == 1
    plain = tmp_path / "plain"
    plain.write_text("x")
    r = run(np, "b_eff_io", "-T", 1, "--path", plain, timeout=120)
    assert r.returncode == 2, r
    assert f"effbench: error: --path {plain}: not a directory" in r.stderr
    # a directory that exists but takes no files, not even from root (the tests
    # run as root, to whom chmod 555 is no obstacle): /proc refuses to create
    # any name (ENOENT, also when mounted read-only)
    r = run(np, "b_eff_io", "-T", 1, "--path", "/proc", timeout=120)
    assert r.returncode == 2, r
    assert [x for x in r.stderr.splitlines() if x.startswith("effbench: error:")] == \
        ["effbench: error: --path /proc: cannot create files: No such file or directory"]
    assert r.stdout == ""


def test_beff_io_error_mid_run_removes_files(tmp_path):
    """A run that stops on an error after its files exist: the write of pattern
    type 3 cannot open its file (the test puts a directory in its place while
    type 0 is writing); the job stops with status 1 and that message, the JSON
    keeps the rows measured and ends with status error, and every file the run
    created (types 0-2, one type-2 file per rank) is gone."""
    d = tmp_path / "io"
    d.mkdir()
    js = tmp_path / "bio.jsonl"
    # T = 8 s: the writes of types 0-2 take 8/3 x 44/64 = 1.8 s, while the test
    # looks every 5 ms for type 0's file
    cmd = mpiexec(2) + [str(BUILD / "b_eff_io"), "-T", "8", "--partitions", "2",
                        "--mem-per-proc", "64", "--path", str(d), "--json", str(js)]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env())
    squat = None
    while proc.poll() is None and squat is None and time.monotonic() - t0 < 60:
        for f in os.listdir(d):
            m = re.fullmatch(r"(b_eff_io_\d+)_n002_t0", f)
            if m:
                assert not any(x.endswith("_t3") for x in os.listdir(d)), "type 3 already open"
                squat = d / f"{m.group(1)}_n002_t3"
                squat.mkdir()
        time.sleep(0.005)
    out, err = proc.communicate(timeout=120)
    assert squat is not None, (out, err)
    assert proc.returncode == 1, (out, err)
    lines = [x for x in err.splitlines() if x.startswith("effbench: error:")]
    assert len(lines) == 1 and lines[0].startswith(
        f"effbench: error: MPI_File_open {squat} (write): "), err
    assert os.listdir(d) == [squat.name]
    recs = read_jsonl(js)
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "error"
    assert recs[-1]["message"] == lines[0][len("effbench: error: "):]
    types = [(x["access"], x["pattern_type"]) for x in recs
             if x["type"] == "result" and x["level"] == "type"]
    assert types == [("write", 0), ("write", 1), ("write", 2)]
    assert not any(x["type"] == "summary" for x in recs)
    assert len(re.findall(r"^ total pattern type:", out, re.M)) == 3


@pytest.mark.parametrize("args,msg", [
    (["--partitions", "1,3"], "--partitions 1,3: 3 is not between 1 and 2 processes"),
    (["--partitions", "2,x"], "--partitions 2,x: expected `auto` or a comma list of process counts"),
    (["-T", "0"], "-T: the scheduled time must be positive"),
    (["--frobnicate"], "unknown option '--frobnicate' (see `effbench beff_io --help`)"),
    (["--resume", "x.jsonl", "--json", "y.jsonl"], "--json and --resume name one file, once"),
    (["--resume", "/nonexistent/x.jsonl"],
     "--resume /nonexistent/x.jsonl: cannot read: No such file or directory"),
    (["--hints", "@HINTS"], "@HINTS:2: `5` is not `all` or a list of pattern types 0..4"),
    # MPI_Info_set would abort the job on a key longer than the library's limit
    (["--hints", "@LONGKEY"], "@LONGKEY:2: key `@KEY` is longer than the @MAX characters this "
     "MPI library allows (MPI_MAX_INFO_KEY)"),
    (["--mem-total", "0"], "--mem-total 0: expected a number from 1 to 1099511627776"),
    # a MiB count beyond a long long once overflowed its cast (1e300) or the
    # product with the processes: a limit, 2^30 MiB a process or node
    (["--mem-per-proc", "1e300"], "--mem-per-proc 1e300: expected a number from 1 to 1073741824"),
    (["--mem-per-node", "2e9"], "--mem-per-node 2e9: expected a number from 1 to 1073741824"),
    (["--mem-total", "inf"], "--mem-total inf: expected a number from 1 to 1099511627776"),
    (["--mem-per-proc", "64", "--mem-total", "100"],
     "--mem-total 100: less than the memory of the 2 processes (2 x 64 MiB = 128 MiB)"),
])
def test_beff_io_bad_options(tmp_path, args, msg):
    hints = tmp_path / "hints"
    hints.write_text("all a b\n5 key value\n")
    # MPI_MAX_INFO_KEY - 1: Open MPI 35, MPICH 254
    limit = 35 if MPI == "openmpi" else 254
    key = "k" * (limit + 1)
    longkey = tmp_path / "longkey"
    longkey.write_text(f"all {'k' * limit} fits\nall {key} 1\n")
    subst = {"@HINTS": str(hints), "@LONGKEY": str(longkey), "@KEY": key, "@MAX": str(limit)}
    args = [subst.get(a, a) for a in args]
    for k, v in subst.items():
        msg = msg.replace(k, v)
    r = run(2, "b_eff_io", *args, "--path", tmp_path, timeout=120)
    assert r.returncode == 2, r
    assert f"effbench: error: {msg}" in r.stderr, r.stderr
    assert [f for f in os.listdir(tmp_path) if f.startswith("b_eff_io")] == []


def test_release21_maximum_is_its_own(tmp_path):
    """"Maximum over all" gives release 2.1's sqrt(W*R) figure as the maximum over the
    partitions of that figure, with the partition it came from (not the partition where the
    new formula is highest)."""
    d = tmp_path / "d"
    d.mkdir()
    r = run(2, "b_eff_io", "-T", 4, "--mem-per-proc", 16, "--path", d, timeout=240)
    assert r.returncode == 0, r
    per_part = [float(m) for m in re.findall(
        r"^b_eff_io by release 2\.1's formula sqrt\(W\*R\) = +([\d.]+) MB/s", r.stdout, re.M)]
    parts = [int(n) for n in re.findall(r"^ total partition: n=(\d+)", r.stdout, re.M)]
    assert len(per_part) == len(parts) == 2
    m = re.search(r"^ b_eff_io \(release 2\.1 formula sqrt\(W\*R\)\) = +([\d.]+) MB/s on (\d+) "
                  r"processes$", r.stdout, re.M)
    best = max(range(2), key=lambda i: per_part[i])
    assert (float(m.group(1)), int(m.group(2))) == (per_part[best], parts[best])


# Watching a long run (docs/beff-io.md): stdout grows by pattern type, the
# progress line is drawn on a terminal only.
TIME = r"(\d+ s|\d+ min \d\d s|\d+ h \d\d min)"
PROGRESS = (rf"b_eff_io: +(\d+)% done, {TIME} elapsed, about {TIME} left \((write|rewrite|read), "
            r"(\d+) process(?:es)?, type ([0-4]) (scatter|shared|separate|segmented|seg-coll), "
            r"pattern (\d+)/(\d+)\)\x1b\[K")


def test_beff_io_output_grows_while_it_runs(tmp_path):
    d = tmp_path / "io"
    d.mkdir()
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    proc = watch.start(2, "b_eff_io", "-T", 6, "--mem-per-proc", 64, "--path", d, cwd=tmp_path,
                       stdout=out, stderr=err)
    try:
        (live,) = watch.read_while_alive(proc, [out], lambda t: " total pattern type:" in t[0])
    finally:
        status = proc.wait(timeout=300)
    assert status == 0, err.read_text()
    final = out.read_text()
    # the first partition's first pattern type, written before the end, as in the end
    assert final.startswith(live) and "b_eff_io = " not in live
    assert len(re.findall(r"^n=1   a=0 type=0 p= ?\d ", live, re.M)) == 9
    assert "% done" not in err.read_text()


def test_beff_io_progress_line_on_a_terminal(tmp_path):
    d = tmp_path / "io"
    d.mkdir()
    status, drawn = watch.on_terminal("b_eff_io", "-T", 2, "--mem-per-proc", 64, "--path", d,
                                      cwd=tmp_path, stdout=tmp_path / "out.txt")
    assert status == 0, drawn[-2000:]
    text = drawn.decode()
    lines = re.findall("\r" + PROGRESS + "\r", text)
    assert lines and re.sub("\r" + PROGRESS + "\r", "", text) == "\x1b[K", text[:500]
    done = [int(x[0]) for x in lines]
    assert done == sorted(done) and done[-1] == 100 and lines[-1][2] == "0 s"
    # the last pattern: read, type 4, its last pattern
    assert lines[-1][3:] == ("read", "1", "4", "seg-coll", "9", "9")
    out = (tmp_path / "out.txt").read_text()
    assert "% done" not in out and "\r" not in out and " b_eff_io = " in out


def test_beff_io_progress_line_on_request_not_in_files(tmp_path):
    d = tmp_path / "io"
    d.mkdir()
    r = run(2, "b_eff_io", "-T", 2, "--mem-per-proc", 64, "--path", d)
    assert r.returncode == 0, r
    assert "% done" not in r.stderr
    r = run(2, "b_eff_io", "-T", 2, "--mem-per-proc", 64, "--path", d, "--progress")
    assert r.returncode == 0, r
    # (text mode reads "\r" as a line end)
    assert re.search(f"^{PROGRESS}$", r.stderr, re.M) and r.stderr.endswith("\x1b[K")
    assert "% done" not in r.stdout
