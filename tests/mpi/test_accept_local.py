"""`effbench-results accept` on local ranks (docs/acceptance.md): a generous threshold passes,
an impossible one fails with its margin, a check over its time budget fails as such while the
next check still runs, and every launch is stored. Two ranks, a few iterations: seconds."""
import re
import subprocess
import sys

import effb
import junitparser

PROFILE = """\
[defaults]
ranks = 2
time_budget = 120
row_timeout = 60

[[check]]
name = "generous"
command = "osu_latency -m 8:8 -i 20 -x 2"
metric = "latency"
bytes = 8
threshold = 1e6

[[check]]
name = "impossible"
command = "osu_latency -m 8:8 -i 20 -x 2"
metric = "latency"
bytes = 8
threshold = 0.001

[[check]]
name = "tiny budget"
command = "osu_latency -m 1:1048576 -i 100000 -x 10"
metric = "latency"
bytes = 8
threshold = 1e6
time_budget = 0.3

[[check]]
name = "after the budget"
command = "osu_bw -m 65536:65536 -i 4 -x 1"
metric = "bandwidth"
bytes = 65536
threshold = 0.001
"""


def test_accept_local_pass_fail_and_budget(tmp_path):
    profile = tmp_path / "local.toml"
    profile.write_text(PROFILE)
    mpiexec = " ".join(effb.mpiexec(2)[:-2])
    cmd = [sys.executable, "-m", "effbench.cli", "accept", str(profile), "--launcher", "mpirun",
           "--mpiexec", mpiexec, "--effbench", str(effb.BUILD / "effbench"),
           "--db", str(tmp_path / "r.sqlite"), "--output", str(tmp_path / "out"),
           "--junit", str(tmp_path / "j.xml")]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path,
                       env=effb.env())
    assert r.returncode == 1, r.stderr
    v = [ln for ln in r.stdout.splitlines() if ln.startswith(("PASS", "FAIL"))]
    assert re.fullmatch(r"PASS  generous: latency at 8 B [\d.]+ us; threshold <= 1e\+06 us; "
                        r"margin \+[\d.e+]+ us \(\+100\.0%\); 1 of 1 repetitions passed \(0 may "
                        r"fail\)", v[0]), v[0]
    m = re.fullmatch(r"FAIL  impossible: latency at 8 B ([\d.]+) us; threshold <= 0\.001 us; "
                     r"margin (-[\d.]+) us \((-[\d.]+)%\); 1 of 1 repetitions failed \(0 may "
                     r"fail\); blame: node (\S+)", v[1])
    assert m, v[1]
    measured, margin, pct = float(m[1]), float(m[2]), float(m[3])
    assert abs(margin - (0.001 - measured)) <= 1e-3 * measured + 1e-3
    assert abs(pct - margin / 0.001 * 100) <= 1e-3 * abs(pct) + 0.1
    assert re.fullmatch(r"FAIL  tiny budget: latency at 8 B not measured; threshold <= 1e\+06 "
                        r"us; over its time budget \(0\.3 s\): 1 of 1 repetitions ran in "
                        r"[\d.]+ s", v[2]), v[2]
    assert v[3].startswith("PASS  after the budget: bandwidth at 65536 B "), v[3]
    assert r.stdout.splitlines()[-1] == ("verdict: FAIL (2 of 4 checks failed: impossible, "
                                         "tiny budget)")
    out = r.stdout
    assert len(re.findall(r"; run \d+; ", out)) == 4  # every launch stored
    suite = list(junitparser.JUnitXml.fromfile(str(tmp_path / "j.xml")))[0]
    assert (suite.tests, suite.failures) == (4, 2)
    assert {c.name: c.is_passed for c in suite} == {
        "generous": True, "impossible": False, "tiny budget": False, "after the budget": True}
