"""An acceptance profile on the emulated cluster (docs/acceptance.md): four nodes on links of
400 Mbit/s, one of them (ebn3) slowed to 100 Mbit/s. Under srun, exactly the checks that
involve ebn3 fail and the verdict names it (the pair's link, the node matrix's flagged node);
the checks of the other nodes pass at 85 % of the configured rate; a threshold above the link
rate fails with its margin; a check given too small a time budget fails as over budget while
the next checks still run. The JUnit XML is read back by junitparser."""
import re
import subprocess
import sys

import junitparser
import pytest
from conftest import BUILD, run_env

# a scenario of four nodes: CI's matrix stage (scripts/test-matrix); its parts (the verdict,
# the blame, the budget, JUnit) are tests/python/test_accept.py's and test_accept_local.py's
pytestmark = pytest.mark.matrix

RATE_MB = 400e6 / 8 / 1e6  # 50 MB/s (10^6 bytes/s)

PROFILE = """\
[peaks]
link = "400 Mbit/s"

[defaults]
ranks = 2
ranks_per_node = 1
expect_placement = "different-nodes"
time_budget = 120
row_timeout = 60

[[check]]
name = "latency ebn1-ebn2"
command = "osu_latency -m 8:8 -i 100 -x 10"
hosts = ["ebn1", "ebn2"]
metric = "latency"
bytes = 8
threshold = 20000            # no netem here: the latency is the loaded host's scheduling

[[check]]
name = "bandwidth ebn1-ebn2"
command = "osu_bw -m 4194304:4194304 -i 4 -x 1 -W 2"
hosts = ["ebn1", "ebn2"]
metric = "bandwidth"
bytes = 4194304
threshold = { fraction = 0.85, of = "link" }
repetitions = 2
allowed_failures = 1         # the emulated nodes share two busy cores: the better of two

[[check]]
name = "bandwidth ebn3-ebn4"
command = "osu_bw -m 4194304:4194304 -i 4 -x 1 -W 2"
hosts = ["ebn3", "ebn4"]
metric = "bandwidth"
bytes = 4194304
threshold = { fraction = 0.85, of = "link" }

[[check]]
name = "above the link rate"
command = "osu_bw -m 4194304:4194304 -i 4 -x 1 -W 2"
hosts = ["ebn1", "ebn2"]
metric = "bandwidth"
bytes = 4194304
threshold = { fraction = 1.2, of = "link" }

[[check]]
name = "tiny budget"
command = "effbench nodes --bytes 4194304"
ranks = 4
nodes = 4
metric = "bandwidth"
bytes = 4194304
threshold = { fraction = 0.85, of = "link" }
time_budget = 0.5

[[check]]
name = "matrix without ebn3"
command = "effbench nodes --bytes 4194304 --reps 20 --bw-reps 4"
ranks = 3
hosts = ["ebn1", "ebn2", "ebn4"]
metric = "bandwidth"
bytes = 4194304
threshold = { fraction = 0.85, of = "link" }
repetitions = 3
allowed_failures = 1         # the second worst of three decides

[[check]]
name = "matrix"
command = "effbench nodes --bytes 4194304 --reps 20 --bw-reps 4"
ranks = 4
nodes = 4
metric = "bandwidth"
bytes = 4194304
threshold = { fraction = 0.85, of = "link" }
"""


def test_accept_profile_names_the_slow_node(cluster, workdir):
    cluster.up("-N", "4", "--link", "0us,400mbit", "--slow", "ebn3:0us,100mbit")
    (workdir / "c.toml").write_text(PROFILE)
    cmd = [sys.executable, "-m", "effbench.cli", "accept", "c.toml", "--launcher", "srun",
           "--effbench", str(BUILD / "effbench"), "--db", str(workdir / "r.sqlite"),
           "--output", str(workdir / "out"), "--junit", str(workdir / "j.xml")]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir, env=run_env(),
                       timeout=600)
    assert r.returncode == 1, r.stdout + r.stderr
    print(r.stdout)  # the verdict, for the record (pytest -s)
    lines = {m[2]: m[0] for m in re.finditer(r"^(PASS|FAIL)  ([^:]+): .*$", r.stdout, re.M)}
    verdict = {name: line.split()[0] for name, line in lines.items()}
    assert verdict == {"latency ebn1-ebn2": "PASS", "bandwidth ebn1-ebn2": "PASS",
                       "bandwidth ebn3-ebn4": "FAIL", "above the link rate": "FAIL",
                       "tiny budget": "FAIL", "matrix without ebn3": "PASS", "matrix": "FAIL"}
    assert lines["bandwidth ebn3-ebn4"].endswith("blame: link ebn3 - ebn4")
    assert lines["matrix"].endswith("blame: node ebn3")
    m = re.search(r"bandwidth at 4194304 B ([\d.]+) MB/s; threshold >= 60 MB/s \(1\.2 x link "
                  r"50 MB/s\); margin (-[\d.]+) MB/s \((-[\d.]+)%\); 1 of 1 repetitions failed",
                  lines["above the link rate"])
    assert m, lines["above the link rate"]
    measured, margin, pct = float(m[1]), float(m[2]), float(m[3])
    assert abs(margin - (measured - 1.2 * RATE_MB)) < 0.05  # 4 significant digits
    assert abs(pct - margin / (1.2 * RATE_MB) * 100) < 0.1
    assert "blame: link ebn1 - ebn2" in lines["above the link rate"]
    assert "over its time budget (0.5 s)" in lines["tiny budget"]
    suite = list(junitparser.JUnitXml.fromfile(str(workdir / "j.xml")))[0]
    assert (suite.tests, suite.failures) == (7, 4)
    failed = {c.name: c.result[0].type for c in suite if not c.is_passed}
    assert failed == {"bandwidth ebn3-ebn4": "below threshold",
                      "above the link rate": "below threshold",
                      "tiny budget": "over time budget", "matrix": "below threshold"}
