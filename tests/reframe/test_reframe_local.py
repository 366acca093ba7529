"""The ReFrame checks on this machine (reframe/config/local.py: local scheduler, mpirun):
they pass, their performance variables are the records' values with their units, a site's
reference is judged, and the kept records are stored by effbench-results in PostgreSQL."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from conftest import CONFIG, ROOT, reframe

from effbench.web import create_app

SITES = ROOT / "docs" / "sites.md"
RESULTS = str(Path(sys.executable).parent / "effbench-results")

LOCAL_CHECKS = {"EffbenchPingPong", "EffbenchAllreduce", "EffbenchBeff", "EffbenchBeffIO"}
UNITS = {
    "EffbenchPingPong": {"latency": "us", "bandwidth": "MiB/s"},
    "EffbenchAllreduce": {"t_avg_small": "us", "t_avg_large": "us"},
    "EffbenchBeff": {"b_eff": "MB/s", "b_eff_per_proc": "MB/s", "latency": "us",
                     "pingpong_bandwidth": "MB/s"},
    "EffbenchBeffIO": {"b_eff_io": "MB/s"},
}


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    return reframe(CONFIG / "local.py", tmp_path_factory.mktemp("rfm-local"))


def one(records, **match):
    found = [r for r in records if all(r.get(k) == v for k, v in match.items())]
    assert len(found) == 1, match
    return found[0]


def test_every_local_check_passes(local_run):
    r = local_run
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    # the node matrix needs nodes: the local partition has no 'multinode' feature
    assert set(r.cases) == LOCAL_CHECKS
    assert {c["result"] for c in r.cases.values()} == {"pass"}
    assert re.search(r"PASSED .*Ran 4/4 test case\(s\) from 4 check\(s\) \(0 failure", r.stdout)
    assert {c["system"] + ":" + c["partition"] for c in r.cases.values()} == {"local:mpirun"}


def test_performance_variables_are_the_records_values(local_run):
    r = local_run
    for name, units in UNITS.items():
        perf = r.perf(name)
        assert {k: v[1] for k, v in perf.items()} == units, name
        assert all(v[2] == "pass" and v[0] > 0 for v in perf.values()), (name, perf)
    _, pp = r.records("EffbenchPingPong")
    assert pp[0]["type"] == "run" and pp[0]["procs"] == 2 and pp[-1]["status"] == "ok"
    perf = r.perf("EffbenchPingPong")
    assert perf["latency"][0] == one(pp, type="result", bytes=0)["t_max_us"]
    assert perf["bandwidth"][0] == one(pp, type="result", bytes=65536)["mbytes_per_s"]
    assert [x["bytes"] for x in pp if x["type"] == "result"] == [0] + [2 ** k for k in range(17)]
    _, ar = r.records("EffbenchAllreduce")
    perf = r.perf("EffbenchAllreduce")
    assert perf["t_avg_small"][0] == one(ar, type="result", bytes=8)["t_avg_us"]
    assert perf["t_avg_large"][0] == one(ar, type="result", bytes=4096)["t_avg_us"]
    _, beff = r.records("EffbenchBeff")
    s = one(beff, type="summary")
    perf = r.perf("EffbenchBeff")
    assert (perf["b_eff"][0], perf["latency"][0]) == (s["b_eff_mb_per_s"], s["latency_us"])
    assert perf["b_eff_per_proc"][0] == pytest.approx(perf["b_eff"][0] / 2, rel=1e-12)
    _, bio = r.records("EffbenchBeffIO")
    assert r.perf("EffbenchBeffIO")["b_eff_io"][0] == one(bio, type="summary")["b_eff_io_mb_per_s"]


def docs_block(marker):
    """The code block after `<!-- marker -->` in docs/sites.md."""
    text = SITES.read_text()
    m = re.search(rf"<!-- {re.escape(marker)} -->\n```python\n(.*?)```\n", text, re.S)
    assert m, f"docs/sites.md has no python block after <!-- {marker} -->"
    return m.group(1)


def test_the_docs_show_the_configuration_the_tests_run():
    for name in ("emulated-cluster.py",):
        assert docs_block(f"reframe/config/{name}") == (CONFIG / name).read_text()


def test_a_sites_references_and_installed_effbench(tmp_path):
    """docs/sites.md's site.py over local.py, its reference numbers swapped for ones whose
    verdict is known on any machine (latency at most 1e7 us, bandwidth at least 1e9 MiB/s),
    and effbench installed by `cmake --install`, its bin/ folder given as effbench_bin."""
    prefix = tmp_path / "opt"
    inst = subprocess.run(["cmake", "--install", str(ROOT / "build"), "--prefix", str(prefix)],
                          capture_output=True, text=True, timeout=120)
    assert inst.returncode == 0, inst.stdout + inst.stderr
    site = docs_block("site references")
    for old, new in [("'/opt/effbench/reframe/config/local.py'", repr(str(CONFIG / "local.py"))),
                     ("(2.0, None, 0.1, 'us')", "(1e7, None, 0.1, 'us')"),
                     ("(10000, -0.1, None, 'MiB/s')", "(1e9, -0.1, None, 'MiB/s')")]:
        assert site.count(old) == 1, old
        site = site.replace(old, new)
    config = tmp_path / "site.py"
    config.write_text(site)
    r = reframe(config, tmp_path, "-n", "EffbenchPingPong",
                "-S", f"effbench_bin={prefix / 'bin'}")
    assert r.returncode == 1, r.stdout[-3000:]
    case = r.cases["EffbenchPingPong"]
    assert case["executable"] == str(prefix / "bin" / "IMB-MPI1")
    _, recs = r.records("EffbenchPingPong")
    assert recs[0]["command_line"][0] == str(prefix / "bin" / "IMB-MPI1")
    assert recs[-1]["status"] == "ok"
    assert case["result"] == "fail" and case["fail_phase"] == "performance"
    perf = case["perfvalues"]
    assert perf["local:mpirun:latency"][1:] == [1e7, None, 0.1, "us", "pass"]
    assert perf["local:mpirun:bandwidth"][1:] == [1e9, -0.1, None, "MiB/s", "fail"]
    assert "bandwidth" in case["fail_reason"] and "latency" not in case["fail_reason"]


def test_the_kept_records_are_stored_in_postgresql(local_run, postgres, tmp_path):
    """The nightly job's store step (docs/sites.md): every kept file into the shared
    database once, and each stored run exported again is its file's records."""
    url = postgres.new_database()
    files = {name: local_run.records(name) for name in sorted(LOCAL_CHECKS)}
    paths = [str(path) for path, _ in files.values()]
    imp = subprocess.run([RESULTS, "import", "--db", url, *paths], capture_output=True,
                         text=True, timeout=120)
    assert imp.returncode == 0, imp.stderr
    ids = re.findall(r"effbench.jsonl: imported as run (\d+) ", imp.stdout + imp.stderr)
    assert len(ids) == 4, imp.stdout + imp.stderr
    again = subprocess.run([RESULTS, "import", "--db", url, *paths], capture_output=True,
                           text=True, timeout=120)
    assert re.findall(r"already stored as run (\d+)", again.stdout + again.stderr) == ids
    for (path, recs), run_id in zip(files.values(), ids):
        out = tmp_path / f"{run_id}.jsonl"
        exp = subprocess.run([RESULTS, "export", run_id, "--db", url, "-o", str(out)],
                             capture_output=True, text=True, timeout=120)
        assert exp.returncode == 0, exp.stderr
        stored = [json.loads(line) for line in out.read_text().splitlines()]
        assert stored[0]["component"] == recs[0]["component"]
        assert [x for x in stored if x["type"] == "result"] == \
            [x for x in recs if x["type"] == "result"], path

    # the dashboard of the machine shows the nightly figures the checks measured
    _, pp = files["EffbenchPingPong"]
    _, ar = files["EffbenchAllreduce"]
    _, beff = files["EffbenchBeff"]
    _, bio = files["EffbenchBeffIO"]
    machine = pp[0]["uname"]["nodename"]
    data = TestClient(create_app(url)).get("/api/dashboard", params={"machine": machine}).json()
    latest = {f["name"]: [s["latest"]["value"] for s in f["series"]] for f in data["figures"]}
    assert latest["b_eff"] == [one(beff, type="summary")["b_eff_mb_per_s"]]
    assert latest["b_eff_io"] == [one(bio, type="summary")["b_eff_io_mb_per_s"]]
    assert latest["Allreduce 8 B"] == [one(ar, type="result", bytes=8)["t_avg_us"]]
    # ping-pong latency: IMB's series (t_avg_us at 0 bytes) and b_eff's own ping-pong
    assert latest["ping-pong latency"] == [one(pp, type="result", bytes=0)["t_avg_us"],
                                           one(beff, type="summary")["pingpong_latency_us"]]


def test_a_program_that_fails_fails_its_check_with_its_own_message(tmp_path):
    r = reframe(CONFIG / "local.py", tmp_path, "-n", "EffbenchPingPong",
                "-S", "EffbenchPingPong.options=-time,0.05,-bogus")
    assert r.returncode == 1, r.stdout[-3000:]
    case = r.cases["EffbenchPingPong"]
    assert (case["result"], case["fail_phase"]) == ("fail", "sanity")
    assert case["fail_reason"].endswith("effbench.jsonl was not written: effbench: error: "
                                        "unknown option '-bogus' (see IMB-MPI1 -h)"), case
