"""Across nodes, on the emulated cluster (scripts/cluster): every component under srun, mpirun
and MPICH's Hydra on two nodes, the hosts and placement in the records, the intra/inter labels
of transfers, the launcher storing a Slurm run; then accuracy against links of a rate we set,
and the node-pair matrix finding the one slow node of four."""
import json
import os
import re
import signal
import subprocess
import time

import pytest
from conftest import BUILD, ROOT, hydra, mpirun, run_env, srun

from effbench.validate import validate_file

QUICK_BEFF = ["--mem-per-proc", "4", "--random-patterns", "2", "--loop-ms", "0.05"]
MB = 1048576.0


def records(path):
    assert validate_file(path) == []
    return [json.loads(line) for line in path.read_text().splitlines()]


def hosts_of(run):
    return {h["name"]: h["ranks"] for h in run["hosts"]}


@pytest.fixture
def two_nodes(cluster):
    cluster.up("-N", "2")
    return cluster


def test_srun_imb_hosts_placement_and_links(two_nodes, workdir):
    js = workdir / "pp.jsonl"
    r = srun(2, 4, "IMB-MPI1", "PingPong", "Sendrecv", "-msglog", "0:4", "-time", "0.1",
             "--json", js, cwd=workdir)
    assert r.returncode == 0, r.stderr
    recs = records(js)
    run = recs[0]
    assert hosts_of(run) == {"ebn1": [0, 1], "ebn2": [2, 3]}  # srun's block distribution
    assert [p["host"] for p in run["placement"]] == ["ebn1", "ebn1", "ebn2", "ebn2"]
    assert all(p["cpus"] for p in run["placement"])
    # hwloc's view of each node (one package, one NUMA node here): docs/placement.md
    assert all(p["sockets"] == [0] and p["numa_nodes"] == [0] and p["cores"]
               for p in run["placement"])
    assert run["slurm"]["job_id"].isdigit() and run["slurm"]["nodelist"] == "ebn[1-2]"
    assert run["environment"]["OMPI_MCA_btl_tcp_if_include"] == "10.213.0.0/24"
    links = {(x["benchmark"], x["procs"]): x["link"] for x in recs if x["type"] == "result"}
    assert links[("PingPong", 2)] == "intra"          # ranks 0 and 1 share ebn1
    assert links[("Sendrecv", 4)] == "mixed"          # a ring over both nodes
    assert links[("Sendrecv", 2)] == "intra"
    head = r.stdout.split("# Benchmarking")[0]
    assert "# Hosts                 : 2\n# Host                  : ebn1 (ranks 0-1)\n" \
           "# Host                  : ebn2 (ranks 2-3)\n" in head
    assert re.search(r"^\s+0\s+1000\s+\d+\.\d\d\s+0\.00$", r.stdout, re.M)


def test_same_node_check_across_two_nodes_is_refused(two_nodes, workdir):
    """--expect-placement same-node launched on two nodes stops before measuring, naming the
    ranks and their hosts (docs/placement.md)."""
    js = workdir / "lat.jsonl"
    r = srun(2, 2, "osu_latency", "--expect-placement", "same-node", "--json", js,
             cwd=workdir, timeout=120)
    assert r.returncode == 2, r.stderr
    assert [line for line in r.stderr.splitlines() if line.startswith("effbench: error:")] == [
        "effbench: error: --expect-placement same-node: ranks 0 and 1 are on different hosts "
        "(rank 0: host ebn1, socket 0; rank 1: host ebn2, socket 0)"]
    assert "Latency" not in r.stdout and not js.exists()


def test_mpirun_across_nodes_collectives(two_nodes, workdir):
    js = workdir / "coll.jsonl"
    r = mpirun("ebn1:2,ebn2:2", 4, "IMB-MPI1", "PingPong", "Alltoallv", "Allgather", "-npmin",
               "4", "-msglog", "0:4", "-time", "0.1", "-check", "--json", js, cwd=workdir)
    assert r.returncode == 0, r.stderr
    recs = records(js)
    assert hosts_of(recs[0]) == {"ebn1": [0, 2], "ebn2": [1, 3]}  # --map-by node
    res = [x for x in recs if x["type"] == "result"]
    assert {x["benchmark"] for x in res} == {"PingPong", "Alltoallv", "Allgather"}
    assert all(x["defects"] == 0 for x in res)
    assert {x["link"] for x in res if x["benchmark"] == "PingPong"} == {"inter"}
    assert all("link" not in x for x in res if x["benchmark"] != "PingPong")
    assert {x["procs"] for x in res if x["benchmark"] != "PingPong"} == {4}


def test_mpich_pingpong_across_nodes(two_nodes, workdir):
    if not (ROOT / "build-mpich" / "IMB-MPI1").exists():
        pytest.skip("no MPICH build (build-mpich/)")
    js = workdir / "pp.jsonl"
    r = hydra("ebn1:1,ebn2:1", 2, "IMB-MPI1", "PingPong", "-msglog", "0:4", "-time", "0.1",
              "--json", js, cwd=workdir)
    assert r.returncode == 0, r.stderr
    recs = records(js)
    assert hosts_of(recs[0]) == {"ebn1": [0], "ebn2": [1]}
    assert {x["link"] for x in recs if x["type"] == "result"} == {"inter"}


def test_beff_and_skampi_under_srun(two_nodes, workdir):
    js = workdir / "beff.jsonl"
    r = srun(2, 4, "b_eff", *QUICK_BEFF, "--json", js, cwd=workdir)
    assert r.returncode == 0, r.stderr
    recs = records(js)
    assert hosts_of(recs[0]) == {"ebn1": [0, 1], "ebn2": [2, 3]}
    summary = [x for x in recs if x["type"] == "summary"][0]
    assert summary["b_eff_mb_per_s"] > 0 and summary["procs"] == 4
    assert re.search(r"^b_eff = +\d+\.\d{3} MB/s = +\d+\.\d{3} \* +4 PEs", r.stdout, re.M)
    suite = workdir / "pp.skampi"
    suite.write_text("@MEASUREMENTS\nPP\n{\n Type = 1;\n Scale = Fixed_log;\n"
                     " Start_Argument = 4;\n End_Argument = 64;\n Stepwidth = 4;\n"
                     " Max_Repetition = 4;\n Min_Repetition = 2;\n}\n")
    sk = workdir / "sk.jsonl"
    r = srun(2, 2, "effbench", "skampi", "--json", sk, suite, cwd=workdir)
    assert r.returncode == 0, r.stderr
    recs = records(sk)
    assert hosts_of(recs[0]) == {"ebn1": [0], "ebn2": [1]}
    assert [x["bytes"] for x in recs if x["type"] == "result"] == [4, 16, 64]


def test_beff_io_on_a_shared_directory(two_nodes, workdir):
    js = workdir / "io.jsonl"
    r = srun(2, 2, "b_eff_io", "-T", "1", "--mem-per-proc", "4", "--path", workdir,
             "--json", js, cwd=workdir, timeout=300)
    assert r.returncode == 0, r.stderr
    recs = records(js)
    assert hosts_of(recs[0]) == {"ebn1": [0], "ebn2": [1]}
    assert any(x["type"] == "summary" for x in recs) and recs[-1]["status"] == "ok"
    assert sorted(p.name for p in workdir.iterdir()) == ["io.jsonl"]  # its files removed


def test_clock_sync_across_nodes(two_nodes, workdir):
    """Clock synchronisation across nodes (docs/clock-sync.md): under the skewing library
    (tests/pmpi/skew.c; the emulated nodes share the machine's monotonic clock, so the true
    offsets are known) the two-level scheme, HCA3 between the nodes' leaders and inside each
    node, recovers every rank's injected offset within the error the run measures."""
    from test_clock_sync import OFFSETS_MS, DRIFTS_PPM, assert_check_measured_truth
    lib = BUILD / "libeb_skew.so"
    export = ",".join(["ALL", f"LD_PRELOAD={lib}", "EFFBENCH_TEST_CLOCK_TRACE=1",
                       "EFFBENCH_SKEW_OFFSET_MS=" + ":".join(map(str, OFFSETS_MS)),
                       "EFFBENCH_SKEW_DRIFT_PPM=" + ":".join(map(str, DRIFTS_PPM))])
    js = workdir / "clock.jsonl"
    cmd = ["srun", "-N", "2", "-n", "4", "--mpi=pmix", f"--export={export}",
           str(BUILD / "IMB-MPI1"), "Bcast", "-sync", "window", "-clock_sync", "hca3_2level",
           "-msglog", "0:0", "-npmin", "4", "-iter", "20", "--json", str(js)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir, env=run_env(),
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert hosts_of(records(js)[0]) == {"ebn1": [0, 1], "ebn2": [2, 3]}
    assert_check_measured_truth(r.stderr, "hca3_2level", 4 * 2)
    rows = [x for x in records(js) if x["type"] == "result"]
    assert rows and all(0 <= x["clock_offset_max_us"] < 3000 for x in rows)  # below 3 ms


def test_launcher_stores_a_slurm_run(two_nodes, workdir):
    db = f"sqlite:///{workdir / 'r.sqlite'}"
    cmd = [str(ROOT / ".venv" / "bin" / "effbench-results"), "run", "--launcher", "srun",
           "--nodes", "2", "--np", "2", "--effbench", str(BUILD / "effbench"), "--db", db,
           "--json", str(workdir / "l.jsonl"), "mpi1", "--", "PingPong", "-msglog", "0:2"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir, env=run_env(),
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "running: srun -n 2 -N 2 --mpi=pmix " in r.stderr
    assert re.search(r"stored as run \d+", r.stderr)
    run = records(workdir / "l.jsonl")[0]
    assert run["slurm"]["nnodes"] == "2" and hosts_of(run) == {"ebn1": [0], "ebn2": [1]}


# --- accuracy against a network whose rate we set --------------------------------------------

RATE_MBIT = 100
RATE_IMB = RATE_MBIT * 1e6 / 8 / MB  # IMB's Mbytes/sec


def test_pingpong_bandwidth_is_the_link_rate(cluster, workdir):
    cluster.up("-N", "2", "--link", f"0us,{RATE_MBIT}mbit")
    (workdir / "lens").write_text("0\n4194304\n")
    js = workdir / "bw.jsonl"
    r = srun(2, 2, "IMB-MPI1", "PingPong", "-msglen", "lens", "-time", "5", "--json", js,
             cwd=workdir)
    assert r.returncode == 0, r.stderr
    row = [x for x in records(js) if x["type"] == "result" and x["bytes"] == 4194304][0]
    assert row["link"] == "inter"
    assert row["mbytes_per_s"] == pytest.approx(RATE_IMB, rel=0.10), row


def test_beff_pingpong_bandwidth_is_the_link_rate(cluster, workdir):
    cluster.up("-N", "2", "--link", f"0us,{RATE_MBIT}mbit")
    js = workdir / "beff.jsonl"
    r = srun(2, 2, "b_eff", "--mem-per-proc", "64", "--random-patterns", "2", "--loop-ms",
             "0.05", "--json", js, cwd=workdir)
    assert r.returncode == 0, r.stderr
    s = [x for x in records(js) if x["type"] == "summary"][0]
    assert s["l_max_bytes"] == 524288 and s["pingpong_link"] == "inter"
    # b_eff's MByte/s are 10^6 bytes/s (docs/beff.md)
    assert s["pingpong_bw_mb_per_s"] == pytest.approx(RATE_MBIT * 1e6 / 8 / 1e6, rel=0.10), s
    assert s["pingpong_inter_bw_mb_per_s"] == s["pingpong_bw_mb_per_s"]
    assert s["pingpong_intra_bw_mb_per_s"] is None


def test_pingpong_latency_is_the_link_delay(cluster, workdir):
    cluster.up("-N", "2", "--link", f"200us,{RATE_MBIT}mbit")
    if cluster.no_netem:
        pytest.skip("this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM): a link's latency "
                    "cannot be set here (docs/cluster.md)")
    (workdir / "lens").write_text("0\n")
    js = workdir / "lat.jsonl"
    base = srun(2, 2, "IMB-MPI1", "PingPong", "-msglen", "lens", "--json", js, cwd=workdir)
    assert base.returncode == 0, base.stderr
    t = [x for x in records(js) if x["type"] == "result"][0]["t_max_us"]
    assert 200 <= t <= (200 + 60) * 1.25, t


# --- the node-pair matrix finds the slow node -----------------------------------------------

NODES_ARGS = ["--bytes", "1048576", "--reps", "50", "--bw-reps", "4"]


@pytest.mark.parametrize("slow", [None, "ebn3"])
def test_nodes_flags_the_slow_node_and_only_it(cluster, workdir, slow):
    shape = ["-N", "4", "--link", "0us,400mbit"] + (["--slow", f"{slow}:0us,100mbit"] if slow else [])
    cluster.up(*shape)
    js = workdir / "nodes.jsonl"
    r = srun(4, 4, "effbench", "nodes", *NODES_ARGS, "--json", js, cwd=workdir)
    assert r.returncode == 0, r.stderr
    recs = records(js)
    summary = [x for x in recs if x["type"] == "summary"][0]
    assert summary["nodes"] == ["ebn1", "ebn2", "ebn3", "ebn4"]
    # the links' rate is what the emulation sets; their latency is the loaded host's
    # scheduling (no netem here), so the test judges the bandwidth flags
    bw = "bandwidth_mb_per_s"
    flagged = [f["node"] for f in summary["flagged_nodes"] if bw in f["metrics"]]
    links = [f["nodes"] for f in summary["flagged_links"] if bw in f["metrics"]]
    assert links == [], r.stdout
    if slow is None:
        assert flagged == [], r.stdout
    else:
        assert flagged == [slow], r.stdout
        assert re.search(rf"^#   node {slow}: bandwidth [\d.]+ Mbytes/sec", r.stdout, re.M)
    print(r.stdout)  # the matrix, for the record (pytest -s)


# --- faults of a real cluster ----------------------------------------------------------------

# rows bounded by -time, so a loaded machine cannot stretch one past the watchdog's limit
LONG = ["PingPong", "Sendrecv", "-time", "0.2", "-msglog", "0:22"]


def start_srun(nodes, ntasks, args, js, cwd):
    # --kill-on-bad-exit: a task that dies ends the step (docs/cluster.md)
    proc = subprocess.Popen(["srun", "-N", str(nodes), "-n", str(ntasks), "--mpi=pmix",
                             "--kill-on-bad-exit=1",
                             str(BUILD / "IMB-MPI1"), *map(str, args), "--json", str(js)],
                            cwd=cwd, env=run_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if js.exists() and js.read_text().count('"type": "result"') >= 3:
            return proc
        time.sleep(0.05)
    proc.kill()
    pytest.fail("the run wrote no rows")


def node_processes(node, name):
    pids = subprocess.run(["ip", "netns", "pids", node], capture_output=True,
                          text=True).stdout.split()
    out = []
    for pid in pids:
        try:
            if open(f"/proc/{pid}/comm").read().strip() == name:
                out.append(int(pid))
        except OSError:
            pass
    return out


def test_a_node_dies_mid_run_and_resume_completes_it(cluster, workdir):
    cluster.up("-N", "2")
    js = workdir / "dies.jsonl"
    args = ["PingPong", "-msglog", "0:16", "-time", "0.2", "-npmin", "2"]
    proc = start_srun(2, 2, args, js, workdir)
    victims = node_processes("ebn2", "IMB-MPI1")
    assert victims, "no rank on ebn2"
    for pid in victims:  # the node's ranks die with it
        os.kill(pid, signal.SIGKILL)
    proc.communicate(timeout=120)
    assert proc.returncode != 0
    recs = records(js)  # every line parses and passes the validator
    done = [x for x in recs if x["type"] == "result"]
    planned = recs[0]["options"]["planned_rows"]
    assert 3 <= len(done) < planned
    if recs[-1]["type"] == "end":  # rank 0 was told: the run is marked, with the reason
        assert recs[-1]["status"] in ("terminated", "error"), recs[-1]
    r = srun(2, 2, "IMB-MPI1", *args, "--resume", js, cwd=workdir)
    assert r.returncode == 0, r.stderr
    final = records(js)
    rows = [(x["benchmark"], x["bytes"]) for x in final if x["type"] == "result"]
    assert len(rows) == len(set(rows)) == planned
    assert final[-1]["type"] == "end" and final[-1]["status"] == "ok"


def test_a_dead_link_is_ended_by_the_watchdog(cluster, workdir):
    cluster.up("-N", "2")
    js = workdir / "link.jsonl"
    proc = start_srun(2, 2, LONG + ["--row-timeout", "5"], js, workdir)
    subprocess.run([str(ROOT / "scripts" / "cluster"), "exec", "ebn2", "ip", "link", "set",
                    "eth0", "down"], check=True)
    try:
        out, err = proc.communicate(timeout=180)
    finally:
        subprocess.run([str(ROOT / "scripts" / "cluster"), "exec", "ebn2", "ip", "link", "set",
                        "eth0", "up"], check=True)
    assert proc.returncode != 0
    recs = records(js)
    end = recs[-1]
    assert end["type"] == "end" and end["status"] == "timeout", end
    assert "did not finish within 5 s" in end["message"] and "1 (ebn2)" in end["message"]
    assert f"effbench: error: {end['message']}" in err
    assert out.splitlines()[-1] == f"# effbench: run ended: {end['message']}"
