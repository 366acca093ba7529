"""b_eff under mpiexec at 1..4 processes with small memory (4 MB: L_max =
32 KiB), 2 random patterns and a short loop window, so each run takes
seconds.  The rules are docs/beff-spec.md; docs/beff.md."""
import math
import os
import re

import pytest

import watch
from effb import BUSY, MPI, read_jsonl, run

QUICK = ["--mem-per-proc", "4", "--random-patterns", "2", "--loop-ms", "0.05"]
# where a test is not about repetitions or lengths: one repetition of each measurement and
# L_max = 8 KiB (1 MB per process), a third of the loops and shorter messages, which matters
# on a loaded machine, where each loop waits for time slices
QUICK1 = ["--mem-per-proc", "1", "--random-patterns", "2", "--loop-ms", "0.05", "--repeat", "1"]

LINE_RE = re.compile(
    r"^b_eff = +(\d+\.\d{3}) MB/s = +(\d+\.\d{3}) \* +(\d+) PEs with +(\d+) MB/PE on (.+)$")

LENGTHS_4MB = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
               5312, 6889, 8933, 11585, 15024, 19484, 25268, 32768]

SECTIONS = ["HEAD", "ELAPSED", "PATTERN", "MEASUREMENTS", "BY-METHODS", "BY-REPETITIONS",
            "BY-MTHD-MSGLNG", "BY-MSGLNG", "BY-PATTERN-MSGLNG", "BEFF"]

RINGS = {1: ["ring-1*1fix"] * 6, 2: ["ring-1*2fix"] * 6, 3: ["ring-1*3fix"] * 6,
         4: ["ring-2*2fix"] + ["ring-1*4fix"] * 5}
ANALYSIS = {
    1: ["worst-cyc-1dim"],
    2: ["worst-cyc-1dim", "best  bi-section", "worst bi-section", "one PingPong Pair",
        "acyclic-2dim-all", "acyclic-3dim-all", "cyclic-2dim-x", "cyclic-2dim-all",
        "cyclic-3dim-x", "cyclic-3dim-all"],
    3: ["worst-cyc-1dim", "best  bi-section", "worst bi-section", "one PingPong Pair",
        "acyclic-2dim-all", "acyclic-3dim-all", "cyclic-2dim-x", "cyclic-2dim-all",
        "cyclic-3dim-x", "cyclic-3dim-all"],
    # the sample b_eff_np4.short, p36..p47
    4: ["worst-cyc-1dim", "best  bi-section", "worst bi-section", "one PingPong Pair",
        "acyclic-2dim-all", "acyclic-3dim-all", "cyclic-2dim-x", "cyclic-2dim-y",
        "cyclic-2dim-all", "cyclic-3dim-x", "cyclic-3dim-y", "cyclic-3dim-all"],
}
# messages per iteration over all processes, per analysis pattern (the
# sample's "total number of messages" column at 4 processes)
MESSAGES_4 = [8, 4, 4, 2, 8, 8, 4, 4, 8, 4, 4, 8]


# The original's table headers (samples/beff/b_eff_np4.sum and .short), verbatim.
SUMMARY_HEADER = """\
            | number  |   b_eff   |  Lmax  |   b_eff   |   b_eff   | Latency | Latency | Latency | ping-pong  
            | of pro  |           |        |  at Lmax  |  at Lmax  | rings & |  rings  |  ping-  | bandwith   
            | cessors |           |        |  rings &  |   rings   | random  |  only   |  pong   |            
            |         |           |        |  random   |   only    | micro-  | micro-  | micro-  |            
            |         |  MByte/s  |        |  MByte/s  |  MByte/s  |  sec    |  sec    |  sec    |  MByte/s   
--------------------------------------------------------------------------------------------------------------
"""
PATTERN_HEADER = """\
Pattern parameters: sendrecv  total number  messages/  messages/  unused  best method
                       calls   of messages  used node  node&call   nodes  per repetition
---- ----------------- -----  ------------  ---------  ---------  ------  --------------
"""


def needs_cores(np_):
    """MPICH busy-polls: oversubscribed, every message waits for a time slice
    and b_eff's 300-iteration first loops take many minutes (Open MPI yields)."""
    if BUSY and np_ > (os.cpu_count() or 1):
        pytest.skip(f"{MPI} with {np_} processes on {os.cpu_count()} cores busy-polls")


def logavg(v):
    return math.exp(sum(math.log(x) for x in v) / len(v))


def recompute(results):
    """b_eff from the JSON measurements: max over reps and methods, mean over
    the 21 lengths, log average over rings and over random patterns."""
    best = {}
    kind = {}
    for r in results:
        key = (r["pattern"], r["length_index"])
        best[key] = max(best.get(key, 0.0), r["b_mb_per_s"])
        kind[r["pattern"]] = r["pattern_kind"]
    avg = {p: sum(best[(p, l)] for l in range(21)) / 21 for p in kind}
    rings = logavg([avg[p] for p in sorted(kind) if kind[p] == "ring"])
    rnd = logavg([avg[p] for p in sorted(kind) if kind[p] == "random"])
    lmax_rings = logavg([best[(p, 20)] for p in sorted(kind) if kind[p] == "ring"])
    lmax_rnd = logavg([best[(p, 20)] for p in sorted(kind) if kind[p] == "random"])
    return logavg([rings, rnd]), logavg([lmax_rings, lmax_rnd]), lmax_rings


def sections_in_order(text):
    names = re.findall(r"^SECTION-(.+)-BEGIN$", text, re.M)
    ends = re.findall(r"^SECTION-(.+)-END$", text, re.M)
    return names, ends


@pytest.mark.asan
# 2 and 4 ranks here, 1 and 3 in CI's matrix stage
@pytest.mark.parametrize("np_", [pytest.param(1, marks=pytest.mark.matrix), 2,
                                 pytest.param(3, marks=pytest.mark.matrix), 4])
def test_beff_run(np_, tmp_path):
    needs_cores(np_)
    js = tmp_path / "b.jsonl"
    prot = tmp_path / "b.prot"
    r = run(np_, "b_eff", *QUICK, "-check", "--seed", "7", "--json", js, "--protocol", prot,
            timeout=240)
    assert r.returncode == 0, r
    lines = r.stdout.rstrip("\n").split("\n")
    m = LINE_RE.match(lines[-1])
    assert m, lines[-1]
    u = os.uname()
    assert m.group(5) == f"{u.sysname} {u.nodename} {u.release} {u.version} {u.machine}"
    assert int(m.group(3)) == np_ and int(m.group(4)) == 4
    assert prot.read_text() == r.stdout

    names, ends = sections_in_order(r.stdout)
    assert names == SECTIONS and ends == SECTIONS
    assert "msglng= " + " ".join(map(str, LENGTHS_4MB)) + "\n" in r.stdout
    assert "Used methods:  0=Sndrcv  1=Alltoal  2=non-blk\n" in r.stdout

    recs = read_jsonl(js)
    assert recs[0]["type"] == "run" and recs[-1]["type"] == "end"
    assert recs[-1]["status"] == "ok"
    opts = recs[0]["options"]
    assert opts["lengths"] == LENGTHS_4MB and opts["seed"] == 7
    want_names = RINGS[np_] + ["random-cyc-1dim"] * 2 + ANALYSIS[np_]
    assert opts["patterns"] == want_names
    results = [x for x in recs if x["type"] == "result"]
    summ = [x for x in recs if x["type"] == "summary"]
    assert len(summ) == 1
    s = summ[0]

    # every (pattern, length, method, rep) measured once; ping-pong Sendrecv only
    keys = {(x["pattern"], x["length_index"], x["method"], x["rep"]) for x in results}
    assert len(keys) == len(results)
    npp = 1 if "one PingPong Pair" in want_names else 0
    assert len(results) == ((len(want_names) - npp) * 3 + npp) * 21 * 3
    # the launcher's progress bar counts the result records towards planned_rows
    assert opts["planned_rows"] == len(results)
    for x in results:
        assert x["component"] == "beff" and x["procs"] == np_
        assert x["bytes"] == LENGTHS_4MB[x["length_index"]]
        assert x["benchmark"] == want_names[x["pattern"]]
        assert x["repetitions"] >= 1
        assert x["t_min_us"] <= x["t_avg_us"] * (1 + 1e-12) <= x["t_max_us"] * (1 + 1e-9)
        # b = L * messages * looplength / max loop time, in 1e6 B/s
        assert x["b_mb_per_s"] == pytest.approx(x["bytes"] * x["messages"] / x["t_max_us"],
                                                rel=1e-9)
        # -check: every byte of every message from the right neighbour
        assert x["defects"] == 0
    assert {x["method"] for x in results} == {"sendrecv", "alltoallv", "nonblocking"}

    beff, lmax_all, lmax_rings = recompute(results)
    assert s["b_eff_mb_per_s"] == pytest.approx(beff, rel=1e-12)
    assert s["b_eff_lmax_mb_per_s"] == pytest.approx(lmax_all, rel=1e-12)
    assert s["b_eff_lmax_rings_mb_per_s"] == pytest.approx(lmax_rings, rel=1e-12)
    assert s["b_eff_per_proc_mb_per_s"] == pytest.approx(beff / np_, rel=1e-12)
    assert s["procs"] == np_ and s["mem_per_proc_mb"] == 4 and s["l_max_bytes"] == 32768
    assert float(m.group(1)) == pytest.approx(beff, abs=0.0005)
    assert float(m.group(2)) == pytest.approx(beff / np_, abs=0.0005)
    assert s["line"] == lines[-1]
    pp = [x for x in results if x["benchmark"] == "one PingPong Pair"]
    if np_ == 1:
        assert s["pingpong_bw_mb_per_s"] is None and s["pingpong_latency_us"] is None
    else:
        assert {x["method"] for x in pp} == {"sendrecv"}
        at_lmax = max(x["b_mb_per_s"] for x in pp if x["length_index"] == 20)
        assert s["pingpong_bw_mb_per_s"] == pytest.approx(at_lmax, rel=1e-12)
        at_1 = max(x["b_mb_per_s"] for x in pp if x["length_index"] == 0)
        assert s["pingpong_latency_us"] == pytest.approx(1 / at_1, rel=1e-12)

    # the summary table's b_eff and the BEFF section agree with the JSON
    assert f"The effective bandwidth is b_eff = {s['b_eff_mb_per_s']:10.3f} MByte/s on {np_} processes" in r.stdout
    row = re.search(r"^accumulated \|\s+(\d+)\s+(\d+)", r.stdout, re.M)
    assert int(row.group(1)) == np_ and int(row.group(2)) == round(beff)
    assert SUMMARY_HEADER in r.stdout and PATTERN_HEADER in r.stdout
    # per pattern in the official path: per-process average and accumulated value
    for p, name in enumerate(want_names):
        rows = [x for x in results if x["pattern"] == p]
        best = [max(x["b_mb_per_s"] for x in rows if x["length_index"] == l) for l in range(21)]
        avg = sum(best) / 21
        sec = r.stdout.split("SECTION-BY-PATTERN-MSGLNG-BEGIN")[1]
        line = re.search(rf"^ p{p:02d} {re.escape(name)} +:\( *[\d.]+\)((?: +[\d.]+){{6}}) -> +([\d.]+) -> +([\d.]+) MByte/s$",
                         sec, re.M)
        assert line, name
        assert float(line.group(2)) == pytest.approx(avg / np_, abs=0.0006)
        assert float(line.group(3)) == pytest.approx(avg, abs=0.0006)


def test_beff_messages_and_rings_at_4(tmp_path):
    needs_cores(4)
    js = tmp_path / "b.jsonl"
    r = run(4, "b_eff", *QUICK1, "--json", js, timeout=240)
    assert r.returncode == 0, r
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    msgs = {}
    for x in results:
        msgs[x["pattern"]] = x["messages"]
    # rings: 2x2 (pong dropped) then 1x4; random: one ring of 4
    assert [msgs[p] for p in range(8)] == [4, 8, 8, 8, 8, 8, 8, 8]
    assert [msgs[p] for p in range(8, 20)] == MESSAGES_4
    assert "2-dim-patterns: size = 2 * 2\n" in r.stdout
    assert "3-dim-patterns: size = 2 * 2 * 1\n" in r.stdout
    assert re.search(r"^ p00 ring-2\*2fix +1 +4 +1\.00 +1\.00 +0  \(", r.stdout, re.M)
    assert re.search(r"^ p11 one PingPong Pair +2 +2 +1\.00 +0\.50 +2  \(", r.stdout, re.M)


@pytest.mark.asan
def test_beff_seed_repeats_random_patterns(tmp_path):
    needs_cores(3)

    def orders(seed):
        r = run(3, "b_eff", *QUICK1, "--seed", seed, timeout=240)
        assert r.returncode == 0, r
        block = r.stdout.split("Random patterns, ranks in ring order")[1].split("\n\n")[0]
        return re.findall(r"^ p\d\d:((?: \d+)+)$", block, re.M)
    a, b, c = orders("11"), orders("11"), orders("12")
    assert len(a) == 2 and a == b and a != c
    for o in a + c:
        assert sorted(map(int, o.split())) == [0, 1, 2]
    assert "seed = 11 " in run(1, "b_eff", *QUICK1, "--seed", "11").stdout


def test_beff_split_nonblocking_and_rmax(tmp_path):
    js = tmp_path / "b.jsonl"
    needs_cores(3)
    r = run(3, "b_eff", *QUICK1, "--split-nonblocking", "-check", "--rmax", "2.5", "--json", js,
            timeout=240)
    assert r.returncode == 0, r
    assert "Used methods:  0=Sndrcv  1=Alltoal  2=non-blk  3=Irc+Snd  4=Isd+Rcv\n" in r.stdout
    recs = read_jsonl(js)
    results = [x for x in recs if x["type"] == "result"]
    assert {x["method"] for x in results} == {"sendrecv", "alltoallv", "nonblocking",
                                              "irecv_send", "isend_recv"}
    # five methods but one for the ping-pong pair
    assert recs[0]["options"]["planned_rows"] == len(results) == \
        ((len(recs[0]["options"]["patterns"]) - 1) * 5 + 1) * 21
    assert all(x["defects"] == 0 for x in results)
    s = [x for x in recs if x["type"] == "summary"][0]
    assert s["b_eff_mb_per_s"] == pytest.approx(recompute(results)[0], rel=1e-12)
    assert s["balance_bytes_per_flop"] == pytest.approx(s["b_eff_mb_per_s"] / 2500, rel=1e-12)
    m = re.search(r"^Balance factor: b_eff / R_max = (\S+) MByte/s / 2\.500 GFLOPS = (\S+) Byte/Flop$",
                  r.stdout, re.M)
    assert m and float(m.group(2)) == pytest.approx(s["b_eff_mb_per_s"] / 2500, abs=1e-6)
    assert LINE_RE.match(r.stdout.rstrip("\n").split("\n")[-1])


def test_beff_repeat_one(tmp_path):
    """--repeat 1: one repetition per measurement, said in the run record, the summary and
    the protocol; the averages are of that repetition alone."""
    js = tmp_path / "b.jsonl"
    needs_cores(2)
    r = run(2, "b_eff", *QUICK, "--repeat", "1", "--json", js, timeout=240)
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    results = [x for x in recs if x["type"] == "result"]
    npat = len(recs[0]["options"]["patterns"])
    assert recs[0]["options"]["repeat"] == 1
    # every pattern has all three methods but the ping-pong pair, which has one
    assert recs[0]["options"]["planned_rows"] == len(results) == ((npat - 1) * 3 + 1) * 21
    assert {x["rep"] for x in results} == {0}
    s = [x for x in recs if x["type"] == "summary"][0]
    assert s["repeat"] == 1
    assert s["b_eff_mb_per_s"] == pytest.approx(recompute(results)[0], rel=1e-12)
    assert ("Repetitions: 1 of every measurement (--repeat; b_eff's rule: 3, the fastest "
            "counts)\n") in r.stdout
    assert " pattern  /  repetition:   rep.0 -> best repetition -> accumulated\n" in r.stdout
    assert re.search(r"^ p00 ring-1\*2fix .*  \( \d \)$", r.stdout, re.M)
    # the default says nothing of it, and has three repetitions
    d = run(1, "b_eff", *QUICK, "--json", tmp_path / "d.jsonl", timeout=240)
    assert "Repetitions:" not in d.stdout
    assert "repetition:   rep.0   rep.1   rep.2 -> best" in d.stdout
    assert read_jsonl(tmp_path / "d.jsonl")[0]["options"]["repeat"] == 3


@pytest.mark.parametrize("args,msg", [
    (["--mem-per-proc", "0"], "--mem-per-proc: '0' is not a whole number of MB >= 1"),
    (["--mem-per-proc", "abc"], "--mem-per-proc: 'abc' is not a whole number of MB >= 1"),
    (["--random-patterns", "0"], "--random-patterns: '0' is not a number >= 1"),
    (["--seed", "-1"], "--seed: '-1' is not a number in 0..2^63-1"),
    (["--rmax", "x"], "--rmax: 'x' is not a positive number of GFLOPS"),
    (["--repeat", "4"], "--repeat: '4' is not a number in 1..3"),
    (["--repeat", "0"], "--repeat: '0' is not a number in 1..3"),
    (["--frobnicate"], "--frobnicate: unknown option (see b_eff -h)"),
    (["--json"], "--json: missing value"),
    (["--json", "a.jsonl", "--resume", "b.jsonl"], "--json and --resume name one file, once"),
    (["--resume", "/nonexistent/b.jsonl"],
     "--resume /nonexistent/b.jsonl: cannot read: No such file or directory"),
    (["--mem-per-proc", "4", "--protocol", "/nonexistent/dir/b.prot"],
     "--protocol: cannot write '/nonexistent/dir/b.prot'"),
])
@pytest.mark.parametrize("np_", [1, 3])
def test_beff_errors(np_, args, msg):
    r = run(np_, "b_eff", *args, timeout=60)
    assert r.returncode == 2, r
    assert r.stderr.count(f"effbench: error: {msg}\n") == 1, r
    assert "b_eff =" not in r.stdout


def test_beff_help_and_component_name():
    r = run(1, "b_eff", "-h")
    assert r.returncode == 0 and "--mem-per-proc MB" in r.stdout
    r = run(2, "effbench", "beff", *QUICK1, "--seed", "3")
    assert r.returncode == 0, r
    assert LINE_RE.match(r.stdout.rstrip("\n").split("\n")[-1])


def test_intra_and_inter_node_pingpong_figures(tmp_path):
    """Ranks 0 and 1 on one node, 2 and 3 on another (EFFBENCH_TEST_RANKS_PER_NODE): a second
    ping-pong pair (0, 2) crosses nodes, and the summary and protocol give both figures."""
    js = tmp_path / "b.jsonl"
    r = run(4, "b_eff", *QUICK1, "--json", js, timeout=240,
            extra_env={"EFFBENCH_TEST_RANKS_PER_NODE": "2"})
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    pats = recs[0]["options"]["patterns"]
    assert pats[-1] != "PingPong inter-node"  # the analysis patterns follow it
    assert pats.count("one PingPong Pair") == pats.count("PingPong inter-node") == 1
    s = [x for x in recs if x["type"] == "summary"][0]
    assert s["pingpong_link"] == "intra"
    assert s["pingpong_intra_latency_us"] == s["pingpong_latency_us"] > 0
    assert s["pingpong_intra_bw_mb_per_s"] == s["pingpong_bw_mb_per_s"] > 0
    assert s["pingpong_inter_latency_us"] > 0 and s["pingpong_inter_bw_mb_per_s"] > 0
    for kind in ("intra", "inter"):
        line = (f"Ping-pong {kind}-node pair:   latency {s[f'pingpong_{kind}_latency_us']:10.3f} "
                f"microsec, bandwidth at Lmax {s[f'pingpong_{kind}_bw_mb_per_s']:10.3f} MByte/s")
        assert line in r.stdout.splitlines()
    # one node: no second pair, the inter-node figures are null
    r = run(2, "b_eff", *QUICK1, "--json", tmp_path / "one.jsonl", timeout=240)
    s = [x for x in read_jsonl(tmp_path / "one.jsonl") if x["type"] == "summary"][0]
    assert s["pingpong_inter_latency_us"] is None and "inter-node pair" not in r.stdout


# Watching a long run (docs/beff.md): the rows of the protocol while it runs,
# the progress line on a terminal only.
ROW_RE = re.compile(r"^ p(\d\d) .{17} \d=\S+ +(\d) +(\d+) +(\d+) +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+$")
TIME = r"(\d+ s|\d+ min \d\d s|\d+ h \d\d min)"
PROGRESS = (rf"b_eff: +(\d+)% done, {TIME} elapsed, about {TIME} left \(repetition ([123])/[13], "
            r"(\d+) bytes, pattern (\d+)/(\d+)\)\x1b\[K")
# drawn as "\r" LINE "\033[K" "\r": the cursor waits at the start of the line
PROGRESS_RE = re.compile("\r" + PROGRESS + "\r")


def test_beff_protocol_grows_while_it_runs(tmp_path):
    """Output in files: the protocol file shows the head and the rows of each
    (repetition, length) as it ends, stdout the head section; at the end both
    hold the whole protocol as always, with the rows seen before the end."""
    prot, out, err = tmp_path / "b.prot", tmp_path / "out.txt", tmp_path / "err.txt"
    # 62 more (repetition, length) steps of some 50 loops each follow the first rows
    proc = watch.start(2, "b_eff", *QUICK, "--seed", "7", "--protocol", prot, cwd=tmp_path,
                       stdout=out, stderr=err)
    try:
        live, live_out = watch.read_while_alive(
            proc, [prot, out],
            lambda t: "\n p00 " in t[0] and "SECTION-HEAD-END" in t[1])
    finally:
        status = proc.wait(timeout=600)
    assert status == 0, err.read_text()
    final = out.read_text()
    assert prot.read_text() == final
    # the head section came first, and is stdout's beginning
    head = final[:final.index("SECTION-HEAD-END\n\n") + len("SECTION-HEAD-END\n\n")]
    assert live_out == head
    assert live.startswith(head + "\nSECTION-MEASUREMENTS-BEGIN\n\n")
    assert "SECTION-ELAPSED" not in live and "SECTION-MEASUREMENTS-END" not in live
    rows = [line for line in live[len(head):].splitlines() if re.match(r" p\d\d ", line)]
    complete = rows if live.endswith("\n") else rows[:-1]
    assert complete and all(ROW_RE.match(r) for r in complete), complete[:3]
    # rep 0, length 1 first; every complete row is in the final protocol as it was
    m = ROW_RE.match(complete[0])
    assert (m.group(1), m.group(2), m.group(3)) == ("00", "0", "1")
    section = final.split("SECTION-MEASUREMENTS-BEGIN")[1].split("SECTION-MEASUREMENTS-END")[0]
    assert "\n".join(complete) + "\n" in section
    assert "% done" not in err.read_text()  # no progress line into a file


def test_beff_progress_line_on_a_terminal(tmp_path):
    status, drawn = watch.on_terminal("b_eff", *QUICK, "--seed", "7", cwd=tmp_path,
                                      stdout=tmp_path / "out.txt")
    assert status == 0, drawn[-2000:]
    text = drawn.decode()
    lines = PROGRESS_RE.findall(text)
    assert lines, text[:500]
    # the whole terminal output is progress lines and the final erase
    assert PROGRESS_RE.sub("", text) == "\x1b[K"
    done = [int(x[0]) for x in lines]
    assert done == sorted(done) and done[-1] == 100 and lines[-1][2] == "0 s"
    assert (lines[-1][3], lines[-1][4]) == ("3", "32768") and lines[-1][5] == lines[-1][6]
    out = (tmp_path / "out.txt").read_text()
    assert "% done" not in out and "\r" not in out and LINE_RE.match(out.splitlines()[-1])


def test_beff_progress_line_on_request_not_in_files(tmp_path):
    """Under mpiexec stderr is a pipe: no line unless --progress asks for it."""
    r = run(2, "b_eff", *QUICK1)
    assert r.returncode == 0, r
    assert "% done" not in r.stderr
    r = run(2, "b_eff", *QUICK1, "--progress")
    assert r.returncode == 0, r
    # (text mode reads "\r" as a line end)
    assert re.search(f"^{PROGRESS}$", r.stderr, re.M) and r.stderr.endswith("\x1b[K")
    assert "% done" not in r.stdout
