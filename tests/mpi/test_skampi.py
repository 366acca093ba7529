"""effbench skampi under 1..4 ranks: suites/default.skampi with loose accuracy
(with --check at 3 ranks), the SKaMPI-style output file and its JSON twin,
configuration errors, crashes in the middle of a run and the reruns that
finish it, the ping-pong pair's choice, and the post-processor's medians."""
import os
import re
import statistics

import pytest

from effb import BUSY, MPI, ROOT, read_jsonl, run

DEFAULT = ROOT / "suites" / "default.skampi"
ROW = re.compile(r"^(count|procs|chunks)= (\d+) +(\d+)((?: +-?\d+\.\d| +nan){2}) +(\d+)((?: +-?\d+\.\d| +nan)*)$")
SIMPLE = {"MPI_Wtime", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Iprobe_unsuccessful",
          "MPI_Buffer_attach_detach"}
# MPICH busy-polls: oversubscribed (more ranks than the 2 cores) every
# synchronisation costs a time slice, so there the test runs one suite of each
# pattern and variation, with shorter length ranges.
MPICH_SUBSET = ["Pingpong_Send_Recv", "MPI_Bcast-length", "MPI_Bcast-nodes",
                "MPI_Bcast-length-window", "MasterWorker_Waitany-chunks",
                "MasterWorker_Send-nodes", "MPI_Wtime"]
NODES = {"MPI_Bcast-nodes", "MPI_Gather-nodes", "Gatherv_using_Send_Recv-nodes",
         "MPI_Alltoall-nodes", "MPI_Allreduce-nodes", "MPI_Barrier-nodes",
         "MPI_Comm_split-nodes", "MasterWorker_Send-nodes"}


def suite_blocks(text):
    """[(name, body)] of the suites of a .skampi file, in order."""
    return re.findall(r"^(\S+)\n\{\n(.*?)^\}", text, re.M | re.S)


def loosen(text, end=4096, max_steps=9, keep=None):
    """The default suites with loose accuracy and small lengths (tests only)."""
    out = []
    for part in re.split(r"(?m)^(?=\S+\n\{)", text):
        name = part.split("\n", 1)[0]
        if keep is not None and "{" in part and name not in keep:
            continue
        if "Variation = Length;" in part:
            part = part.replace("End_Argument = Max_Value;", f"End_Argument = {end};")
            part = re.sub(r"Stepwidth = [^;]*;", "Stepwidth = 4;", part)
        part = re.sub(r"Standard_error = [^;]*;", "Standard_error = 0.1;", part)
        part = re.sub(r"Max_Repetition = [^;]*;", "Max_Repetition = 4;", part)
        part = re.sub(r"Min_Repetition = [^;]*;", "Min_Repetition = 2;", part)
        part = re.sub(r"Max_Steps = [^;]*;", f"Max_Steps = {max_steps};", part)
        out.append(part)
    return "".join(out).replace("@CACHEWARMUP 5", "@CACHEWARMUP 1")


def parse_sko(text):
    """{name: rows} of a SKaMPI-style output file; rows as lists of strings."""
    res, cur, order = {}, None, []
    for line in text.splitlines():
        m = re.match(r'^# begin result "(.*)"$', line)
        if m:
            assert cur is None, line
            cur = m.group(1)
            assert cur not in res, f"result {cur} twice"
            res[cur] = []
            order.append(cur)
            continue
        m = re.match(r'^# end result "(.*)"$', line)
        if m:
            assert m.group(1) == cur
            cur = None
            continue
        if cur is not None:
            assert ROW.match(line), line
            res[cur].append(line.split())
    assert cur is None
    return res, order


def check_run(tmp_path, np, r, names):
    assert r.returncode == 0, r
    sko = (tmp_path / "skampi.out").read_text()
    assert sko.startswith("# SKaMPI Version effbench-")
    assert re.search(r"^# Started at \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$", sko, re.M)
    assert re.search(r"\n\n\n# Finished at .*\n# Total runtime \d+ seconds\n$", sko)
    res, order = parse_sko(sko)
    recs = read_jsonl(tmp_path / "out.jsonl")
    assert recs[0]["type"] == "run" and recs[0]["component"] == "skampi"
    assert recs[0]["procs"] == np and recs[0]["options"]["outfile"] == "skampi.out"
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    results = [x for x in recs if x["type"] == "result"]
    return sko, res, order, results


@pytest.mark.asan
@pytest.mark.parametrize("np", [2, 3, 4])
def test_default_suites(tmp_path, np):
    text = DEFAULT.read_text()
    names = [n for n, _ in suite_blocks(text)]
    types = {int(re.search(r"Type = (\d+);", b).group(1)) for _, b in suite_blocks(text)}
    # every instance of the type table
    assert types == set(range(1, 9)) | {34} | set(range(10, 29)) | {32, 33} | set(range(35, 49))
    end = 4096
    if BUSY and np > 2:
        names, end = MPICH_SUBSET, 256
    (tmp_path / "loose.skampi").write_text(loosen(text, end=end, keep=names))
    # at 3 processes with --check: every point of every instance that moves
    # data is verified once before it is measured (docs/skampi.md)
    check = ["--check"] if np == 3 else []
    r = run(np, "effbench", "skampi", *check, "--json", "out.jsonl", "loose.skampi", cwd=tmp_path,
            timeout=120)
    sko, res, order, results = check_run(tmp_path, np, r, names)
    assert order == names
    # one JSON record per printed row, in the same order, same numbers
    rows = [(n, row) for n in order for row in res[n]]
    assert len(results) == len(rows)
    for (name, row), rec in zip(rows, results):
        assert rec["component"] == "skampi" and rec["benchmark"] == name
        moves_data = rec["pattern"] != "simple" and rec["type_number"] not in (19, 23)
        assert rec["defects"] == (0 if check and moves_data else None), rec
        assert int(row[2]) == rec["bytes"]
        assert int(row[5]) == rec["repetitions"]
        if rec["sync"] == "window" and rec["repetitions"] < 2:
            # windows that keep starting late (a loaded machine) end the
            # point after Max_Repetition late starts
            assert rec["invalid"] == 4, rec
            continue
        assert row[3] == f"{rec['t_avg_us']:.1f}"
        assert row[4] == f"{rec['std_error_us']:.1f}"
        assert int(row[5]) == rec["repetitions"]
        assert 2 <= rec["repetitions"] <= 4
        # the mean of equal values may round one ulp past them
        ulp = 1e-12 * rec["t_max_us"]
        assert rec["t_min_us"] - ulp <= rec["t_avg_us"] <= rec["t_max_us"] + ulp
        assert len(rec["node_times_us"]) == rec["procs"] == len(row) - 6
        assert [f"{v:.1f}" for v in rec["node_times_us"]] == row[6:]
        if rec["pattern"] == "ping-pong":
            assert rec["procs"] == 2 and rec["sync"] is None
            assert rec["pair"][0] < rec["pair"][1] < np
            assert row[0] == "count=" and int(row[1]) * 4 == rec["bytes"]
        elif rec["pattern"] == "collective":
            assert rec["sync"] == ("window" if name.endswith("-window") else "barrier")
        elif rec["pattern"] == "master-worker":
            assert rec["sync"] == "barrier" and rec["chunks"] >= 1
        else:
            assert name in SIMPLE and row[:3] == ["procs=", "1", "0"]
    # variations
    for name in names:
        recs = [x for x in results if x["benchmark"] == name]
        if name in NODES:
            assert [x["procs"] for x in recs] == list(range(2, np + 1))
            assert all(x["bytes"] == (0 if name in ("MPI_Barrier-nodes", "MPI_Comm_split-nodes")
                                      else 256) for x in recs)
        elif name == "MasterWorker_Waitany-chunks":
            assert [x["chunks"] for x in recs] == [1, 2, 4, 8, 16, 32, 64]
            assert all(x["bytes"] == 1024 and x["procs"] == np for x in recs)
        elif name in SIMPLE:
            assert len(recs) == 1 and recs[0]["bytes"] == 0 and recs[0]["calls_per_run"] >= 1
        else:
            # Dynamic_log from 0 to `end` bytes: 0, then one element * 4^k, then at
            # most Max_Steps points in all, refinement inside the grid (an element:
            # one MPI_INT, or 12 of them for the vector pattern)
            b = [x["bytes"] for x in recs]
            u = 48 if name in ("Pingpong_Pack_vector", "Pingpong_CopyLoop_vector") else 4
            grid = [0] + [u * 4 ** k for k in range(6) if u * 4 ** k < end] + [end // u * u]
            g = len(grid)
            assert b[:g] == grid and g <= len(b) <= max(9, g), (name, b)
            assert [x["refined"] for x in recs] == [False] * g + [True] * (len(b) - g)
            assert all(x % 4 == 0 and x not in grid and 0 < x < end for x in b[g:])
    if np == 2:
        pp = [x for x in results if x["pattern"] == "ping-pong"]
        assert all(x["pair"] == [0, 1] for x in pp)
    log = (tmp_path / "skampi.log").read_text()
    assert re.search(r"ping-pong pair: ranks \d+ and \d+ \(largest round trip", log)
    assert log.rstrip().endswith("run end")


def test_refinement_and_accuracy(tmp_path):
    """Dynamic_log with room to refine: refined points appear between grid points."""
    (tmp_path / "r.skampi").write_text(
        "@MEMORY 512\n@OUTFILE r.out\n@LOGFILE r.log\n@MEASUREMENTS\nPP\n{\n Type = 1;\n"
        " Start_Argument = 4;\n End_Argument = 65536;\n Stepwidth = 4;\n Max_Steps = 12;\n"
        " Standard_error = 0.0001;\n Min_Repetition = 3;\n Max_Repetition = 6;\n Cut_Quantile = 0.2;\n}\n")
    r = run(2, "effbench", "skampi", "--json", "r.jsonl", "r.skampi", cwd=tmp_path)
    assert r.returncode == 0, r
    recs = [x for x in read_jsonl(tmp_path / "r.jsonl") if x["type"] == "result"]
    grid = [4, 16, 64, 256, 1024, 4096, 16384, 65536]
    assert [x["bytes"] for x in recs[:8]] == grid and not any(x["refined"] for x in recs[:8])
    # eps 1e-4 cannot be met: Max_Steps ends the refinement
    assert len(recs) == 12 and all(x["refined"] for x in recs[8:])
    for x in recs[8:]:
        lo = max(g for g in grid if g < x["bytes"])
        assert x["bytes"] % 4 == 0 and lo < x["bytes"] < 4 * lo
    # repetitions within Min..Max_Repetition, Cut_Quantile 0.2 drops floor(0.2 n) at each end;
    # eps 1e-4 is out of reach for nearly every point
    for x in recs:
        n = x["repetitions"]
        assert 3 <= n <= 6 and x["kept"] == n - 2 * int(0.2 * n), x
    assert sum(x["repetitions"] == 6 for x in recs) >= 8


def test_time_limits(tmp_path):
    """Time_Suite ends a suite after the point that exceeds it; Time_Measurement
    ends a point's repetitions (at least one run)."""
    (tmp_path / "t.skampi").write_text(
        "@MEASUREMENTS\nTS\n{\n Type = 18;\n End_Argument = 1024;\n Time_Suite = 0.000001;\n}\n"
        "TM\n{\n Type = 18;\n Scale = Fixed_log;\n Start_Argument = 4;\n End_Argument = 64;\n"
        " Stepwidth = 4;\n Time_Measurement = 0.000000001;\n Min_Repetition = 5;\n}\n")
    r = run(2, "effbench", "skampi", "--json", "t.jsonl", "t.skampi", cwd=tmp_path)
    assert r.returncode == 0, r
    recs = [x for x in read_jsonl(tmp_path / "t.jsonl") if x["type"] == "result"]
    assert [x["benchmark"] for x in recs] == ["TS", "TM", "TM", "TM"]
    assert all(x["repetitions"] == 1 for x in recs if x["benchmark"] == "TM")
    assert "note: TS: Time_Suite 1e-06 s reached" in (tmp_path / "skampi.log").read_text()


def test_crash_and_resume(tmp_path):
    """A crash after two of B's three points, a rerun that crashes before C's
    first (the switch's two forms, docs/skampi.md), and a third run that
    finishes: every output row once, the unfinished blocks cut, the crashed
    suites last, and the JSON `resume` records naming the superseded suites."""
    cfg = ("@OUTFILE run.sko\n@LOGFILE run.log\n@CACHEWARMUP 1\n@MEASUREMENTS\n" + "".join(
        f"{n}\n{{\n Type = {t};\n Scale = Fixed_log;\n Start_Argument = 4;\n End_Argument = 64;\n"
        f" Stepwidth = 4;\n Max_Repetition = 3;\n Min_Repetition = 2;\n}}\n"
        for n, t in [("A", 1), ("B", 18), ("C", 20), ("D", 10)]))
    (tmp_path / "c.skampi").write_text(cfg)
    cmd = ("effbench", "skampi", "--json", "c.jsonl", "c.skampi")
    r = run(2, *cmd, cwd=tmp_path, extra_env={"EFFBENCH_SKAMPI_CRASH_SUITE": "B:2"})
    assert r.returncode != 0, r
    sko = (tmp_path / "run.sko").read_text()
    assert '# end result "A"' in sko and '# end result "B"' not in sko and "# Finished at" not in sko
    # B crashed in the middle: two of its rows (4 and 16 bytes) are written
    b_rows = sko.split('# begin result "B"\n')[1].splitlines()
    assert [line.split()[2] for line in b_rows] == ["4", "16"] and all(ROW.match(x) for x in b_rows)
    log1 = (tmp_path / "run.log").read_text()
    assert "suite begin B" in log1 and "suite end B" not in log1
    recs = read_jsonl(tmp_path / "c.jsonl")
    assert [(x["benchmark"], x["bytes"]) for x in recs if x["type"] == "result"] == \
        [("A", 4), ("A", 16), ("A", 64), ("B", 4), ("B", 16)]

    # the same command again: A skipped, B's two rows cut from the output
    # file, C and D, then B last; this run crashes before C's first point
    r = run(2, *cmd, cwd=tmp_path, extra_env={"EFFBENCH_SKAMPI_CRASH_SUITE": "C"})
    assert r.returncode != 0, r
    log2 = (tmp_path / "run.log").read_text()
    assert log2.startswith(log1)
    tail = log2[len(log1):]
    assert 'note: removed the unfinished result "B" (2 rows) from run.sko' in tail
    assert "note: resuming the unfinished run of run.sko: 3 suites left" in tail
    assert re.findall(r"suite begin (\w)", tail) == ["C"]
    sko = (tmp_path / "run.sko").read_text()
    assert '# begin result "B"' not in sko and sko.rstrip().endswith('# begin result "C"')

    # the third run: D, then the crashed suites oldest first
    r = run(2, *cmd, cwd=tmp_path)
    assert r.returncode == 0, r
    res, order = parse_sko((tmp_path / "run.sko").read_text())
    assert order == ["A", "D", "B", "C"]
    assert all([row[2] for row in res[n]] == ["4", "16", "64"] for n in order)
    log = (tmp_path / "run.log").read_text()
    assert log.startswith(log2)
    tail = log[len(log2):]
    assert 'note: removed the unfinished result "C" (0 rows) from run.sko' in tail
    assert "note: resuming the unfinished run of run.sko: 3 suites left" in tail
    assert "note: retrying suite B last: it was running when an earlier run crashed" in tail
    assert "note: retrying suite C last: it was running when an earlier run crashed" in tail
    assert re.findall(r"suite begin (\w)", tail) == ["D", "B", "C"]
    assert log.rstrip().endswith("run end")
    # one JSON run, continued after each `resume` record (docs/json-lines.md);
    # B's two rows from the first run stay, and both records say they are
    # superseded by the rows that follow
    recs = read_jsonl(tmp_path / "c.jsonl")
    types = [x["type"] for x in recs]
    assert types.count("run") == 1 and types.count("end") == 1 and recs[-1]["status"] == "ok"
    assert recs[0]["options"]["resumed"] is False
    assert recs[0]["options"]["suites"] == ["A", "B", "C", "D"]
    raw = (tmp_path / "c.jsonl").read_text().splitlines()
    assert raw[7].endswith('"rows_kept": 5, "superseded": ["B", "C"]}')
    resumes = [i for i, t in enumerate(types) if t == "resume"]
    assert resumes == [6, 7]
    assert recs[6]["rows_kept"] == 5 and recs[6]["superseded"] == ["B"]
    assert recs[7]["rows_kept"] == 5 and recs[7]["superseded"] == ["B", "C"]
    assert "rows_dropped" not in recs[6] and "rows_dropped" not in recs[7]
    assert [x["benchmark"] for x in recs if x["type"] == "result"] == \
        ["A"] * 3 + ["B"] * 2 + ["D"] * 3 + ["B"] * 3 + ["C"] * 3
    # a run after a complete one is a new run with the next output file
    r = run(2, "effbench", "skampi", "c.skampi", cwd=tmp_path)
    assert r.returncode == 0, r
    res2, order2 = parse_sko((tmp_path / "run.sko.1").read_text())
    assert order2 == ["A", "B", "C", "D"]


# delays of tens of milliseconds: far above what a busy, oversubscribed machine adds to a
# round trip's median (a few scheduler ticks of 4 ms)
@pytest.mark.parametrize("np,delay,want", [(3, "2:25000", 2), (4, "3:25000", 3),
                                           (4, "1:40000,3:20000", (1, 3))])
def test_pingpong_pair_choice(tmp_path, np, delay, want):
    """The pair search at 3 and 4 processes: the test switch slows every
    round trip of the search that involves the delayed ranks by their delays
    (the measurements themselves are not delayed).  One delayed rank: the
    pair contains it; two: exactly those two, the slowest pair."""
    if BUSY and np > (os.cpu_count() or 1):
        pytest.skip(f"{MPI} busy-polls: oversubscribed, a round trip waits for time slices "
                    "longer than the delays")
    (tmp_path / "pp.skampi").write_text(
        "@MEASUREMENTS\nPP\n{\n Type = 1;\n Scale = Fixed_log;\n Start_Argument = 4;\n"
        " End_Argument = 64;\n Stepwidth = 4;\n Max_Repetition = 3;\n Min_Repetition = 2;\n}\n")
    r = run(np, "effbench", "skampi", "--json", "pp.jsonl", "pp.skampi", cwd=tmp_path,
            extra_env={"EFFBENCH_SKAMPI_PAIR_DELAY": delay})
    assert r.returncode == 0, r
    recs = [x for x in read_jsonl(tmp_path / "pp.jsonl") if x["type"] == "result"]
    assert [x["bytes"] for x in recs] == [4, 16, 64]
    pairs = {tuple(x["pair"]) for x in recs}
    assert len(pairs) == 1
    pair = pairs.pop()
    assert pair == want if isinstance(want, tuple) else (want in pair and pair[0] < pair[1] < np)
    m = re.search(r"ping-pong pair: ranks (\d+) and (\d+) \(largest round trip ([\d.]+) us\)",
                  (tmp_path / "skampi.log").read_text())
    assert (int(m.group(1)), int(m.group(2))) == pair
    delays = dict(map(int, d.split(":")) for d in delay.split(","))
    assert float(m.group(3)) >= sum(delays.get(k, 0) for k in pair)
    # the measurements are not delayed: a delay in them would put every row above it (one
    # row may still wait that long for a time slice on a loaded machine)
    assert min(x["t_avg_us"] for x in recs) < min(delays.values())


def test_pair_delay_refused(tmp_path):
    (tmp_path / "pp.skampi").write_text("@MEASUREMENTS\nPP\n{\n Type = 1;\n}\n")
    r = run(2, "effbench", "skampi", "pp.skampi", cwd=tmp_path,
            extra_env={"EFFBENCH_SKAMPI_PAIR_DELAY": "2:100"})
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1
    assert ("effbench: error: EFFBENCH_SKAMPI_PAIR_DELAY: rank 2, but this run has 2 processes\n"
            in r.stderr)
    assert not (tmp_path / "skampi.out").exists()


def test_postproc_at_end_of_run(tmp_path):
    (tmp_path / "p.skampi").write_text(
        "@OUTFILE p.sko\n@LOGFILE p.log\n@POSTPROC yes\n@MEASUREMENTS\nA\n{\n Type = 18;\n"
        " Scale = Fixed_log;\n Start_Argument = 4;\n End_Argument = 1024;\n Stepwidth = 4;\n"
        " Max_Repetition = 3;\n Min_Repetition = 2;\n}\nW\n{\n Type = 24;\n}\n")
    for _ in range(3):
        r = run(2, "effbench", "skampi", "p.skampi", cwd=tmp_path)
        assert r.returncode == 0, r
    files = [parse_sko((tmp_path / n).read_text())[0] for n in ("p.sko", "p.sko.1", "p.sko.2")]
    med, order = parse_sko((tmp_path / "p.sko.median").read_text())
    assert order == ["A", "W"]
    for name in order:
        for i, row in enumerate(med[name]):
            rows = [f[name][i] for f in files]
            assert row[:3] == rows[0][:3]
            for c in range(3, len(row)):
                m = statistics.median(float(x[c]) for x in rows)
                assert row[c] == (f"{m:.1f}" if c != 5 else str(int(m)))


def test_postprocess_command(tmp_path):
    head = "# SKaMPI Version 6.0.0\n\n# Started at Sun Nov 22 03:09:18 2026\n\n\n"
    foot = "\n\n# Finished at Sun Nov 22 03:09:25 2026\n# Total runtime 7 seconds\n"
    vals = {"a": [(1.0, 0.1, 10, 1.1), (2.0, 0.2, 12, 2.2)],
            "b": [(3.0, 0.3, 20, 3.3), (1.0, 0.4, 14, 1.0)],
            "c": [(2.5, 0.2, 17, 2.7), (9.0, 0.9, 8, 9.9)]}
    for f, rows in vals.items():
        body = "".join(f"count= {k} {4 * k:8d} {m:9.1f} {e:9.1f} {n:8d} {t:9.1f}\n"
                       for k, (m, e, n, t) in zip((1, 2), rows))
        (tmp_path / f).write_text(head + f'# begin result "R"\n{body}# end result "R"\n'
                                  "# duration = 1.00 sec\n\n" + foot)
    r = run(1, "effbench", "skampi", "--postprocess", "a", "b", "c", "-o", "m.sko", cwd=tmp_path)
    assert r.returncode == 0, r
    res, _ = parse_sko((tmp_path / "m.sko").read_text())
    # medians by hand: (2.5 0.2 17 2.7) and (2.0 0.4 12 2.2)
    assert res["R"] == [["count=", "1", "4", "2.5", "0.2", "17", "2.7"],
                        ["count=", "2", "8", "2.0", "0.4", "12", "2.2"]]
    r = run(1, "effbench", "skampi", "--postprocess", "a", "missing", cwd=tmp_path)
    assert r.returncode == 2
    assert "effbench: error: missing: cannot read: No such file or directory\n" in r.stderr


ERRORS = [
    ("@MEASUREMENTS\nS\n{\n Type = 1;\n Stepwidht = 2;\n}\n",
     "bad.skampi:5: suite 'S': unknown key 'Stepwidht'"),
    ("@MEASUREMENTS\nS\n{\n Type = 1;\n Send_Datatype_Number = 51;\n}\n",
     "bad.skampi:5: suite 'S': key 'Send_Datatype_Number': unknown datatype pattern 51 "
     "(0-13 and 50; see docs/skampi-datatypes.md)"),
    ("@MEMORY 64\n@MEASUREMENTS\nS\n{\n Type = 21;\n End_Argument = 65536;\n}\n",
     "bad.skampi:6: suite 'S': key 'End_Argument': 65536 bytes do not fit the buffers of "
     "@MEMORY 64 KB (at most 16384 bytes for type 21 on 2 processes)"),
    ("@MEASUREMENTS\nS\n{\n Type = 18;\n Variation = Nodes;\n End_Argument = 3;\n}\n",
     "bad.skampi:6: suite 'S': key 'End_Argument': 3 processes, but this run has 2"),
    ("@MEASUREMENTS\nS\n{\n Type = 1;\n Synchronization = Window;\n}\n",
     "bad.skampi:5: suite 'S': key 'Synchronization': Window applies to the collective pattern "
     "only (type 1 is ping-pong)"),
    ("@MEASUREMENTS\nS\n{\n Type = 11;\n Variation = Chunks;\n}\n",
     "bad.skampi:2: suite 'S': key 'End_Argument': Max_Value is not defined for Chunks: give a number"),
]


@pytest.mark.parametrize("text,msg", ERRORS)
def test_config_errors(tmp_path, text, msg):
    (tmp_path / "bad.skampi").write_text(text)
    r = run(2, "effbench", "skampi", "bad.skampi", cwd=tmp_path)
    assert r.returncode == 2, r
    assert f"effbench: error: {msg}\n" in r.stderr
    assert r.stderr.count("effbench: error:") == 1
    assert not (tmp_path / "skampi.out").exists()


def test_usage_errors(tmp_path):
    r = run(2, "effbench", "skampi", cwd=tmp_path)
    assert r.returncode == 2 and "effbench: error: no configuration file" in r.stderr
    r = run(2, "effbench", "skampi", "nothere.skampi", cwd=tmp_path)
    assert r.returncode == 2
    assert "effbench: error: nothere.skampi: cannot read the configuration file\n" in r.stderr
    r = run(1, "effbench", "skampi", "--bogus", cwd=tmp_path)
    assert r.returncode == 2
    assert "effbench: error: unknown option '--bogus' (effbench skampi -h lists them)\n" in r.stderr


def test_single_process_skips_pairs(tmp_path):
    (tmp_path / "one.skampi").write_text(
        "@MEASUREMENTS\nPP\n{\n Type = 1;\n End_Argument = 64;\n}\n"
        "B\n{\n Type = 18;\n Scale = Fixed_log;\n End_Argument = 64;\n Stepwidth = 4;\n"
        " Max_Repetition = 3;\n}\n")
    r = run(1, "effbench", "skampi", "one.skampi", cwd=tmp_path)
    assert r.returncode == 0, r
    res, order = parse_sko((tmp_path / "skampi.out").read_text())
    assert order == ["B"] and [row[2] for row in res["B"]] == ["0", "4", "16", "64"]
    assert "suite skipped PP: the ping-pong pattern needs at least 2 processes" in \
        (tmp_path / "skampi.log").read_text()
