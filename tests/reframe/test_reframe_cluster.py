"""The ReFrame checks on the emulated Slurm cluster (reframe/config/emulated-cluster.py:
ReFrame's Slurm scheduler, srun): every check passes on four even nodes; with one node's link
slowed (tbf), the node-matrix check fails and names that node."""
import json
import re

from conftest import CONFIG, reframe

from effbench.validate import validate_file

CLUSTER_CONFIG = CONFIG / "emulated-cluster.py"
LINK = ["-N", "4", "--link", "0us,400mbit"]
SLOW = "ebn3"
RATE_MIB = 400e6 / 8 / 1048576  # the links' rate in MiB/s


def records(path):
    assert validate_file(path) == []
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_check_passes_on_the_cluster(cluster, workdir):
    cluster.up(*LINK)
    r = reframe(CLUSTER_CONFIG, workdir)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr
    assert set(r.cases) == {"EffbenchPingPong", "EffbenchAllreduce", "EffbenchBeff",
                            "EffbenchBeffIO", "EffbenchNodeMatrix"}
    assert {c["result"] for c in r.cases.values()} == {"pass"}
    assert {c["scheduler"] for c in r.cases.values()} == {"squeue"}
    # each check ran in a Slurm job of its own, started with srun, on the nodes it asked for
    hosts = {}
    for name, case in r.cases.items():
        script = (workdir / case["outputdir"] / "rfm_job.sh").read_text()
        assert "#SBATCH --partition=emu\n" in script and "#SBATCH --exclusive\n" in script
        assert re.search(r"^srun \S+/build/\S+ .* --json effbench\.jsonl$", script, re.M)
        path, recs = r.records(name)
        records(path)
        assert recs[0]["slurm"]["job_id"] == case["jobid"]
        hosts[name] = {h["name"]: h["ranks"] for h in recs[0]["hosts"]}
    assert hosts["EffbenchPingPong"] == {"ebn1": [0], "ebn2": [1]}
    assert hosts["EffbenchNodeMatrix"] == {f"ebn{i + 1}": [i] for i in range(4)}
    _, pp = r.records("EffbenchPingPong")
    assert {x["link"] for x in pp if x["type"] == "result"} == {"inter"}
    perf = r.perf("EffbenchNodeMatrix")
    assert {k: v[1] for k, v in perf.items()} == {
        "latency_median": "us", "bandwidth_median": "MiB/s", "bandwidth_min": "MiB/s"}
    # no link is faster than the rate the emulation sets (how close a loaded machine comes
    # to it is tests/cluster's question)
    assert 0 < perf["bandwidth_min"][0] <= perf["bandwidth_median"][0] <= RATE_MIB * 1.05, perf
    assert perf["latency_median"][1:] == ("us", "pass") and perf["latency_median"][0] > 0


def test_a_slow_node_fails_the_node_matrix_check_and_is_named(cluster, workdir):
    # tbf shapes what a node sends: a ping-pong with the slow node is slow one way only, and
    # on a loaded machine the healthy links fall short of their rate; a 16th of it keeps the
    # slow node's links far below the others' (tests/cluster flags a quarter, on a quiet one)
    cluster.up(*LINK, "--slow", f"{SLOW}:0us,25mbit")
    r = reframe(CLUSTER_CONFIG, workdir, "-n", "EffbenchNodeMatrix")
    assert r.returncode == 1, r.stdout[-4000:] + r.stderr
    case = r.cases["EffbenchNodeMatrix"]
    assert case["result"] == "fail" and case["fail_phase"] == "sanity"
    said = f"flagged slow: node {SLOW} (bandwidth_mb_per_s)"
    assert case["fail_reason"].endswith(said), case["fail_reason"]
    assert f"* Reason: sanity error: {said}\n" in r.stdout
    # the failed check's records stay in its stage folder for the store and the dashboard
    path, recs = r.records("EffbenchNodeMatrix")
    records(path)
    summary = [x for x in recs if x["type"] == "summary"][0]
    assert [f["node"] for f in summary["flagged_nodes"]] == [SLOW]
