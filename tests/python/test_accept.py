"""Acceptance profiles (docs/acceptance.md): the schema's errors with file and line, the
verdict (threshold, margin, repetitions allowed to fail, time budget), the value and the blame
taken from records, the JUnit XML read back by junitparser, and the runner with a stand-in
launcher (no MPI): time budget, crash with the watchdog's message, stop and --resume. The real
launches are in tests/mpi/test_accept.py and tests/cluster/test_accept.py."""

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import junitparser
import pytest

from effbench.accept.metrics import MIB_IN_MB, measure, placement_problem
from effbench.accept.profile import ProfileError, key_lines, parse_rate
from effbench.accept.schema import load_profile
from effbench.accept.verdict import describe, judge, verdict_text
from effbench.accept.junit import junit_xml

DATA = Path(__file__).parent / "data"

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "profiles"

GOOD = """\
[profile]
name = "pair"

[peaks]
link = "100 Mbit/s"

[defaults]
time_budget = 60

[[check]]
name = "latency"
command = "osu_latency -m 8:8"
ranks = 2
metric = "latency"
bytes = 8
threshold = 50

[[check]]
name = "bandwidth"
command = ["osu_bw", "-m", "1048576:1048576"]
ranks = 2
hosts = [
  "n1",
  "n2",
]
metric = "bandwidth"
bytes = 1048576
threshold = { fraction = 0.85, of = "link" }
repetitions = 3
allowed_failures = 1
"""


def write(tmp_path, text, name="p.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def profile_error(tmp_path, text) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as exc:
        load_profile(path)
    return str(exc.value).replace(str(path), "p.toml")


def test_a_good_profile():
    p = load_profile_text(GOOD)
    lat, bw = p.checks
    assert (lat.words, lat.kind, lat.ranks, lat.metric, lat.bytes, lat.threshold.value,
            lat.time_budget, lat.repetitions, lat.allowed_failures) == \
        (["osu_latency", "-m", "8:8"], "rows", 2, "latency", 8, 50.0, 60.0, 1, 0)
    assert p.peaks == {"link": 12.5}  # 100 Mbit/s in MB/s of 10^6 bytes
    assert bw.threshold.value == pytest.approx(0.85 * 12.5)
    assert (bw.hosts, bw.nodes, bw.ranks_per_node) == (["n1", "n2"], 2, 1)
    assert (lat.line, bw.line) == (10, 18)


def load_profile_text(text):
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        return load_profile(write(Path(d), text))


@pytest.mark.parametrize("old, new, message", [
    ('threshold = 50\n', 'treshold = 50\n',
     "p.toml:16: check 'latency': unknown key 'treshold' (did you mean 'threshold'?)"),
    ('bytes = 8\n', '',
     "p.toml:10: check 'latency': bytes is missing: the message size whose row is judged"),
    ('"100 Mbit/s"', '"100 Mbps"',
     "p.toml:5: [peaks] link: expected a rate such as"),
    ('of = "link"', 'of = "lnk"',
     "p.toml:28: check 'bandwidth': threshold: no peak 'lnk' in [peaks] (declared: link)"),
    ('command = "osu_latency -m 8:8"', 'command = "osu_latencyy -m 8:8"',
     "p.toml:12: check 'latency': command: unknown program 'osu_latencyy -m' (did you mean "
     "'osu_latency'?)"),
    ('threshold = 50\n', 'threshold = { fraction = 0.5, of = "link" }\n',
     "p.toml:16: check 'latency': threshold: a fraction of a peak judges a bandwidth"),
    ('allowed_failures = 1', 'allowed_failures = 3',
     "p.toml:30: check 'bandwidth': allowed_failures 3 must be below repetitions 3"),
    ('time_budget = 60', 'time_budget = "1 min"',
     "p.toml:8: check 'latency': time_budget: expected seconds (a number above 0), not '1 min'"),
    ('name = "bandwidth"', 'name = "latency"',
     "p.toml:19: check 'latency': the name of check 1 too (names must differ)"),
    ('ranks = 2\nhosts', 'ranks = 3\nhosts',
     "p.toml:21: check 'bandwidth': 3 ranks do not divide evenly over 2 nodes"),
    ('metric = "latency"', 'metric = "latncy"',
     "p.toml:14: check 'latency': metric: expected one of latency, bandwidth, message_rate"),
    ('[defaults]', '[defaults',
     "p.toml:7: TOML syntax: "),
])
def test_schema_errors_name_file_and_line(tmp_path, old, new, message):
    assert old in GOOD
    assert profile_error(tmp_path, GOOD.replace(old, new, 1)).startswith(message)


def test_summary_and_node_metrics_are_checked(tmp_path):
    base = '[defaults]\ntime_budget = 9\n[[check]]\nname = "x"\nranks = 4\n'
    assert profile_error(tmp_path, base + 'command = "b_eff"\nmetric = "latency"\n'
                         'threshold = 1\n').startswith(
        "p.toml:7: check 'x': metric: b_eff is judged by its summary: one of b_eff_mb_per_s")
    p = load_profile_text(base + 'command = "b_eff_io -T 1"\nmetric = "b_eff_io"\n'
                          'threshold = 1\n')
    assert (p.checks[0].kind, p.checks[0].metric) == ("beff_io", "b_eff_io_mb_per_s")
    assert profile_error(tmp_path, base + 'command = "effbench nodes"\nmetric = "latency"\n'
                         'bytes = 64\nthreshold = 1\n').startswith(
        "p.toml:8: check 'x': bytes: effbench nodes measures latency at 0 and 8 bytes")
    assert profile_error(tmp_path, base + 'command = "osu_bw --json x"\nmetric = "bandwidth"\n'
                         'bytes = 8\nthreshold = 1\n').startswith(
        "p.toml:6: check 'x': command: --json is effbench's to set")


def test_key_lines_skip_strings_and_arrays():
    text = textwrap.dedent('''\
        [profile]
        description = """
        [[check]]
        name = "not a key"
        """
        [[check]]
        hosts = [
          "a", # x = 1
        ]
        "quoted key" = { a = 1,
          b = 2 }
        [[check]]
        name = "two"
        ''')
    assert key_lines(text) == {("profile",): 1, ("profile", "description"): 2,
                               ("check", 0): 6, ("check", 0, "hosts"): 7,
                               ("check", 0, "quoted key"): 10, ("check", 1): 12,
                               ("check", 1, "name"): 13}


def test_rates():
    assert parse_rate("100 Mbit/s") == 12.5
    assert parse_rate("1 GiB/s") == 1073.741824
    assert parse_rate("25 GB/s") == 25000.0
    assert parse_rate("12,5 GB/s") is None and parse_rate(100) is None


# --- the verdict ---------------------------------------------------------------------------

def checks():
    return load_profile_text(GOOD).checks


def rep(i, value=None, error=None, blame=()):
    return {"rep": i, "value": value, "error": error, "blame": list(blame), "run_id": i,
            "json": f"r{i}.jsonl", "elapsed_s": 1.0}


def test_verdict_margins_and_allowed_failures():
    lat, bw = checks()
    v = judge(lat, {"reps": [rep(1, 40.0)], "elapsed_s": 1.0})
    assert (v.passed, v.measured, v.margin, v.margin_rel) == (True, 40.0, 10.0, 0.2)
    assert describe(v) == ("PASS  latency: latency at 8 B 40 us; threshold <= 50 us; margin "
                           "+10 us (+20.0%); 1 of 1 repetitions passed (0 may fail)")
    v = judge(lat, {"reps": [rep(1, 62.5, blame=["link n1 - n2"])]})
    assert (v.passed, v.margin, v.margin_rel, v.blame) == (False, -12.5, -0.25, ["link n1 - n2"])
    # 3 repetitions, 1 may fail: the second worst decides
    t = 0.85 * 12.5
    v = judge(bw, {"reps": [rep(1, 12.0), rep(2, 9.0, blame=["link n1 - n2"]), rep(3, 11.0)]})
    assert (v.passed, v.measured) == (True, 11.0) and v.blame == []
    assert v.margin == pytest.approx(11.0 - t)
    v = judge(bw, {"reps": [rep(1, 12.0), rep(2, 9.0, blame=["link n1 - n2"]),
                            rep(3, None, "timeout: row 1048576 bytes: ranks 1 (n2) did not "
                                "arrive")]})
    assert (v.passed, v.measured, v.blame) == (False, 9.0, ["link n1 - n2"])
    assert v.reason == "2 of 3 repetitions failed (1 may fail)"
    assert describe(v).startswith(
        "FAIL  bandwidth: bandwidth at 1048576 B 9 MB/s; threshold >= 10.625 MB/s (0.85 x link "
        "12.5 MB/s); margin -1.625 MB/s (-15.3%)")


def test_verdict_of_a_crash_and_of_the_time_budget():
    lat, _ = checks()
    v = judge(lat, {"reps": [rep(1, None, "timeout: no answer from rank 1 in 30 s")]})
    assert (v.passed, v.measured, v.margin) == (False, None, None)
    assert v.reason == ("1 of 1 repetitions failed (0 may fail): timeout: no answer from rank 1 "
                        "in 30 s")
    v = judge(lat, {"reps": [rep(1, 40.0)], "over_budget": True, "elapsed_s": 61.0})
    assert not v.passed and v.over_budget
    assert v.reason == "over its time budget (60 s): 1 of 1 repetitions ran in 61.0 s"
    text = verdict_text("t", [v, judge(lat, {"reps": [rep(1, 1.0)]})])
    assert text.splitlines()[-1] == "verdict: FAIL (1 of 2 checks failed: latency)"


# --- values and blame from records ----------------------------------------------------------

def run_record(*hosts):
    return {"type": "run", "placement": [{"rank": i, "host": h} for i, h in enumerate(hosts)]}


def test_values_from_osu_imb_nodes_and_beff_records(tmp_path):
    lat, bw = checks()
    osu = [run_record("n1", "n2"),
           {"type": "result", "benchmark": "osu_latency", "procs": 2, "bytes": 8,
            "t_avg_us": 3.5},
           {"type": "result", "benchmark": "osu_bw", "procs": 2, "bytes": 1048576,
            "mb_per_s": 11.0}]
    lat.benchmark = "osu_latency"
    got = measure(lat, osu)
    assert (got.value, got.blame_if_failed) == (3.5, ["link n1 - n2"])
    bw.benchmark = "osu_bw"
    assert measure(bw, osu).value == 11.0
    imb = [run_record("a", "a"), {"type": "result", "benchmark": "PingPong", "procs": 2,
                                  "bytes": 1048576, "t_avg_us": 90.0, "mbytes_per_s": 10.0}]
    bw.benchmark = None
    got = measure(bw, imb)
    assert (got.value, got.blame_if_failed) == (10.0 * MIB_IN_MB, ["node a"])
    bw.bytes = 4
    assert measure(bw, imb).error == "no row of PingPong at 4 bytes (measured sizes: 1048576)"
    nodes = load_profile_text('[[check]]\nname = "m"\ncommand = "effbench nodes --bytes 64"\n'
                              'ranks = 3\nnodes = 3\nmetric = "bandwidth"\nbytes = 64\n'
                              'threshold = 10\ntime_budget = 9\n').checks[0]
    pairs = [{"type": "result", "benchmark": "NodePair", "bytes": 64, "mbytes_per_s": v,
              "node_a": a, "node_b": b} for a, b, v in
             [("x", "y", 20.0), ("x", "z", 5.0), ("y", "z", 5.0)]]
    summary = {"type": "summary", "flagged_nodes": [{"node": "z", "metrics":
                                                     ["bandwidth_mb_per_s"]}]}
    got = measure(nodes, [run_record("x", "y", "z")] + pairs + [summary])
    assert (got.value, got.blame_if_failed) == (5.0 * MIB_IN_MB, ["node z"])
    assert got.failing_links == ["link x - z", "link y - z"]
    got = measure(nodes, [run_record("x", "y", "z")] + pairs)  # nothing flagged: the links
    assert got.blame_if_failed == ["link x - z", "link y - z"]
    beff = load_profile_text('[[check]]\nname = "b"\ncommand = "b_eff"\nranks = 4\n'
                             'metric = "b_eff"\nthreshold = 10\ntime_budget = 9\n').checks[0]
    got = measure(beff, [run_record("a"), {"type": "summary", "b_eff_mb_per_s": 123.0}])
    assert (got.value, got.blame_if_failed) == (123.0, [])


def test_placement_from_the_run_record():
    lat, _ = checks()
    lat.expect_placement = "different-nodes"
    assert placement_problem(lat, run_record("n1", "n2")) is None
    assert placement_problem(lat, run_record("n1", "n1")) == \
        "ranks not where asked (different-nodes): rank 0 on n1, rank 1 on n1"
    lat.expect_placement = "same-node"
    assert placement_problem(lat, run_record("n1", "n1")) is None
    # the sockets: the run record's per-rank lists (docs/placement.md)
    run = run_record("n1", "n1")
    for place, sockets in zip(run["placement"], ([0], [1])):
        place["sockets"] = sockets
    lat.expect_placement = "different-sockets"
    assert placement_problem(lat, run) is None
    lat.expect_placement = "same-socket"
    assert placement_problem(lat, run) == ("ranks not where asked (same-socket): rank 0 on n1 "
                                           "sockets [0], rank 1 on n1 sockets [1]")
    run["placement"][1]["sockets"] = [0, 1]  # not bound: on no one socket
    lat.expect_placement = "different-sockets"
    assert placement_problem(lat, run).startswith("ranks not where asked (different-sockets)")
    del run["placement"][0]["sockets"]  # a record that does not say: no verdict from it
    assert placement_problem(lat, run) is None
    # the GPUs: the run record's devices (docs/gpu.md)
    lat.expect_placement = "different-gpus"
    assert placement_problem(lat, run) == ("ranks not where asked (different-gpus): the run "
                                           "has no device buffers")
    run["devices"] = [{"rank": r, "host": "n1", "pci_bus_id": f"0000:1{r}:00.0"} for r in (0, 1)]
    assert placement_problem(lat, run) is None
    run["devices"][1]["pci_bus_id"] = "0000:10:00.0"
    assert placement_problem(lat, run) == ("ranks not where asked (different-gpus): rank 0 on n1 "
                                           "GPU 0000:10:00.0, rank 1 on n1 GPU 0000:10:00.0")
    run["devices"][1]["host"] = "n2"  # the same bus id on another host is another GPU
    assert placement_problem(lat, run) is None


# --- JUnit XML, read back by a JUnit parser -----------------------------------------------

def test_junit_xml_reads_back(tmp_path):
    lat, bw = checks()
    verdicts = [judge(lat, {"reps": [rep(1, 40.0)], "elapsed_s": 1.5}),
                judge(bw, {"reps": [rep(1, 9.0, blame=["link n1 - n2"]), rep(2, 8.0),
                                    rep(3, 12.0)], "elapsed_s": 3.0}),
                judge(lat, {"reps": [], "over_budget": True, "elapsed_s": 60.0})]
    verdicts[2].check = load_profile_text(GOOD.replace('"latency"\ncommand',
                                                       '"slow"\ncommand', 1)).checks[0]
    path = tmp_path / "j.xml"
    path.write_bytes(junit_xml("pair", "p.toml", verdicts))
    xml = junitparser.JUnitXml.fromfile(str(path))
    suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
    assert len(suites) == 1
    suite = suites[0]
    assert (suite.name, suite.tests, suite.failures, suite.errors) == ("pair", 3, 2, 0)
    cases = {c.name: c for c in suite}
    assert cases["latency"].is_passed
    bad = cases["bandwidth"].result[0]
    assert isinstance(bad, junitparser.Failure) and bad.type == "below threshold"
    assert "margin -1.625 MB/s" in bad.message and "blame: link n1 - n2" in bad.message
    slow = cases["slow"].result[0]
    assert slow.type == "over time budget" and "over its time budget (60 s)" in slow.message
    assert "repetition 2: 8 MB/s (fails); run 2" in cases["bandwidth"].system_out


# --- the runner, with a stand-in for mpiexec and the program (no MPI) -----------------------

FAKE_MPIEXEC = '''\
import json, os, signal, sys, time
argv = sys.argv[1:]
out = argv[argv.index("--json") + 1]
def opt(name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default
def emit(rec):
    with open(out, "a") as f:
        f.write(json.dumps(rec) + "\\n")
def stop(*_):
    emit({"type": "end", "schema": 1, "status": "terminated",
          "message": "ended by SIGTERM after 1 of 2 rows"})
    sys.exit(143)
signal.signal(signal.SIGTERM, stop)
emit({"type": "run", "schema": 1, "tool": "effbench", "version": "0.1.0", "component": "osu",
      "procs": 2, "start": str(time.time()), "check": False, "options": {},
      "placement": [{"rank": 0, "host": "n1"}, {"rank": 1, "host": "n2"}]})
emit({"type": "result", "schema": 1, "component": "osu", "benchmark": "osu_latency",
      "methodology": "osu-7.4", "group": None, "mode": None, "procs": 2, "bytes": 8,
      "repetitions": 10, "t_avg_us": float(opt("--fake-value", "5")), "t_min_us": None,
      "t_max_us": None, "mbytes_per_s": None, "defects": None})
if os.path.exists(opt("--fake-sleep-if", "/nonexistent")):
    time.sleep(float(opt("--fake-sleep", "0")))
if "--fake-hang" in argv:
    emit({"type": "end", "schema": 1, "status": "timeout",
          "message": "osu_latency: 16 bytes: rank 1 (n2) did not answer in 30 s"})
    sys.exit(3)
emit({"type": "end", "schema": 1, "status": "ok", "message": None})
'''


@pytest.fixture
def fake(tmp_path):
    (tmp_path / "fake_mpiexec.py").write_text(FAKE_MPIEXEC)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name in ("effbench", "osu_latency"):
        (bindir / name).write_text("#!/bin/sh\nexit 0\n")
        (bindir / name).chmod(0o755)
    return tmp_path


def accept_cmd(fake, profile, *more):
    return [sys.executable, "-m", "effbench.cli", "accept", str(profile), "--launcher", "mpirun",
            "--mpiexec", f"{sys.executable} {fake / 'fake_mpiexec.py'}",
            "--effbench", str(fake / "bin" / "effbench"), "--db", str(fake / "r.sqlite"),
            "--output", str(fake / "out"), *more]


def check_toml(name, args, budget=30, threshold=50):
    return (f'[[check]]\nname = "{name}"\ncommand = "osu_latency {args}"\nranks = 2\n'
            f'metric = "latency"\nbytes = 8\nthreshold = {threshold}\n'
            f'time_budget = {budget}\n')


def stored_runs(db):
    from effbench.store.db import Store
    with Store(str(db)) as store:
        return store.list_runs()


def test_runner_budget_crash_and_the_next_check(fake):
    (fake / "sleep").touch()
    profile = write(fake, check_toml("pass", "--fake-value 5")
                    + check_toml("slow", f"--fake-sleep 60 --fake-sleep-if {fake / 'sleep'}",
                                 budget=1)
                    + check_toml("hang", "--fake-hang")
                    + check_toml("short", "--fake-value 80"))
    r = subprocess.run(accept_cmd(fake, profile, "--junit", str(fake / "j.xml"), "--report",
                                  str(fake / "report")), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    verdicts = [ln for ln in lines if ln.startswith(("PASS", "FAIL"))]
    assert verdicts[0].startswith("PASS  pass: latency at 8 B 5 us; threshold <= 50 us; "
                                  "margin +45 us (+90.0%)")
    assert verdicts[1].startswith("FAIL  slow: latency at 8 B not measured; threshold <= 50 us;"
                                  " over its time budget (1 s): 1 of 1 repetitions ran in ")
    assert verdicts[2] == ("FAIL  hang: latency at 8 B not measured; threshold <= 50 us; 1 of 1 "
                           "repetitions failed (0 may fail): timeout: osu_latency: 16 bytes: "
                           "rank 1 (n2) did not answer in 30 s")
    assert verdicts[3] == ("FAIL  short: latency at 8 B 80 us; threshold <= 50 us; margin -30 us "
                           "(-60.0%); 1 of 1 repetitions failed (0 may fail); blame: link n1 - n2")
    assert lines[-1] == "verdict: FAIL (3 of 4 checks failed: slow, hang, short)"
    assert (fake / "out" / "verdict.txt").read_text() == r.stdout
    # every launch stored, the one ended at its budget too (with its end record)
    runs = stored_runs(fake / "r.sqlite")
    assert [x["status"] for x in runs] == ["ok", "terminated", "timeout", "ok"]
    suite = list(junitparser.JUnitXml.fromfile(str(fake / "j.xml")))[0]
    assert (suite.tests, suite.failures) == (4, 3)
    page = (fake / "report" / "index.html").read_text()
    assert "<h2>Acceptance: FAIL (3 of 4 checks failed)</h2>" in page
    assert "<td>-30 us (-60.0%)</td><td>1 of 1 repetitions failed (0 may fail)</td>" \
        "<td>link n1 - n2</td>" in page
    for name in ("pass", "slow", "hang", "short"):  # each check's last run
        assert f"<h2>{name}, repetition 1</h2>" in page


def test_stop_and_resume(fake):
    (fake / "sleep").touch()
    profile = write(fake, check_toml("first", "--fake-value 5")
                    + check_toml("second", f"--fake-sleep 60 --fake-sleep-if {fake / 'sleep'}",
                                 budget=100))
    proc = subprocess.Popen(accept_cmd(fake, profile), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    state = fake / "out" / "accept-state.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if state.exists() and "running" in json.loads(state.read_text())["checks"].get(
                "second", {}):
            break
        time.sleep(0.05)
    time.sleep(0.5)  # the stand-in has written its rows
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "stopped by SIGTERM; what was measured is stored;" in err and "--resume" in err
    assert [x["status"] for x in stored_runs(fake / "r.sqlite")] == ["ok", "terminated"]
    # without --resume, the state is not overwritten
    r = subprocess.run(accept_cmd(fake, profile), capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "accept-state.json exists" in r.stderr
    os.unlink(fake / "sleep")
    r = subprocess.run(accept_cmd(fake, profile, "--resume"), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert "resuming" in r.stderr and "1 of 2 checks done" in r.stderr
    assert "'first'" not in r.stderr  # not launched again
    assert r.stdout.splitlines()[-1] == "verdict: PASS (2 of 2 checks passed)"
    assert sorted(p.name for p in (fake / "out").glob("*.jsonl")) == [
        "001-first-r1.jsonl", "002-second-r1.jsonl", "003-second-r1.jsonl"]
    assert len(stored_runs(fake / "r.sqlite")) == 3
    # a changed profile is not resumed
    profile.write_text(profile.read_text().replace("threshold = 50", "threshold = 40"))
    r = subprocess.run(accept_cmd(fake, profile, "--resume"), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "changed since" in r.stderr


def test_a_bad_profile_exits_2_naming_the_line(fake):
    profile = write(fake, check_toml("x", "").replace("ranks = 2", "ranks = 0"))
    r = subprocess.run(accept_cmd(fake, profile), capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == (f"effbench-results: error: {profile}:4: check 'x': ranks: expected a "
                        "whole number of at least 1, not 0\n")


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.toml")))
def test_the_example_profiles_load(example):
    assert load_profile(EXAMPLES / example).checks


def test_launch_words_for_srun_and_mpirun(tmp_path):
    from effbench.accept import launch
    _, bw = checks()
    bw.expect_placement, bw.row_timeout = "different-nodes", 30.0
    prog = tmp_path / "osu_bw"
    prog.write_bytes(b"\x7fELF ... --expect-placement ...")
    assert launch.command(bw, "srun", None, str(prog), tmp_path / "x.jsonl") == [
        "srun", "-n", "2", "-N", "2", "--ntasks-per-node", "1", "-w", "n1,n2", "--mpi=pmix",
        "--kill-on-bad-exit=1", str(prog), "-m", "1048576:1048576",
        "--expect-placement", "different-nodes", "--row-timeout", "30",
        "--json", str(tmp_path / "x.jsonl")]
    old = tmp_path / "old_osu_bw"  # a program without the option is not given it
    old.write_bytes(b"\x7fELF ... --row-timeout ...")
    assert launch.command(bw, "mpirun", "mpiexec.openmpi", str(old), tmp_path / "x.jsonl") == [
        "mpiexec.openmpi", "-n", "2", "--host", "n1:1,n2:1", "--map-by", "ppr:1:node",
        str(old), "-m", "1048576:1048576", "--row-timeout", "30", "--json",
        str(tmp_path / "x.jsonl")]


# --- effbench guidelines: judged by the guidelines it finds violated ----------------------

GUIDELINES_PROFILE = """\
[[check]]
name = "guidelines"
command = "effbench guidelines --collectives=bcast,scan --sizes=8,1048576 -check"
ranks = 2
metric = "violations"
threshold = 0
time_budget = 60
"""


def test_guidelines_check_counts_violations_and_names_them():
    from effbench.accept.launch import Outcome, only_guidelines_violated
    check = load_profile_text(GUIDELINES_PROFILE).checks[0]
    assert (check.kind, check.metric, check.threshold.value) == ("guidelines", "violations", 0)
    # a real run with Open MPI's Bcast forced to a slow algorithm (tests/python/data/effbench)
    records = [json.loads(line) for line in
               (DATA / "effbench/guidelines_np2.jsonl").read_text().splitlines()]
    got = measure(check, records)
    assert got.value == 3.0
    assert got.blame_if_failed == [
        f"MPI_Bcast 1048576 B slower than {r['mockup']} (factor {r['factor']:.3g}, "
        f"p_holm {r['p_holm']:.3g})"
        for r in records if r.get("type") == "result" and r["violated"]]
    v = judge(check, {"reps": [rep(1, got.value, blame=got.blame_if_failed)], "elapsed_s": 1.0})
    assert (v.passed, v.measured, v.margin, v.margin_rel) == (False, 3.0, -3.0, None)
    assert "margin -3 guidelines violated;" in describe(v)
    # its exit status 1 with "N of M guidelines violated" is the finding, not a failed launch
    assert only_guidelines_violated(Outcome(1, False, "", 1.0), records)
    assert not only_guidelines_violated(Outcome(2, False, "", 1.0), records)
    # the schema: its one metric, whole numbers, no rows to choose
    for old, new, message in [
            ('metric = "violations"', 'metric = "latency"', "metric: effbench guidelines is "
             'judged by the guidelines it finds violated: "violations", not \'latency\''),
            ("threshold = 0", "threshold = 0.5", "threshold: expected a whole number >= 0"),
            ("threshold = 0", "threshold = 0\nbytes = 8", "bytes: the violations are counted")]:
        with pytest.raises(ProfileError, match=re.escape(message)):
            load_profile_text(GUIDELINES_PROFILE.replace(old, new))
