"""Where the ranks ran (docs/placement.md): the run record's per-rank cores,
sockets and NUMA nodes under hwloc synthetic topologies that the launcher binds
to (HWLOC_SYNTHETIC with HWLOC_THISSYSTEM=1, the PUs numbered by two CPUs this
process may use, so the OS binding and the topology agree), and
--expect-placement accepted and refused before anything is measured, by every
program, the option taken out before the program's own parser sees it."""
import json
import os
import platform
import subprocess

import pytest

from effb import BUILD, MPI, env, matrix_beyond_first, mpiexec, read_jsonl, run

CPUS = sorted(os.sched_getaffinity(0))[:2]
# Open MPI's mpirun binds by hwloc's view (--bind-to core); MPICH's Hydra has its own
needs_binding = pytest.mark.skipif(MPI not in ("openmpi", "openmpi5") or len(CPUS) < 2,
                                   reason="binding to a synthetic topology: Open MPI, 2 CPUs")
TWO_PACKAGES = f"pack:2 numa:1 core:1 pu:1(indexes={CPUS[0]},{CPUS[-1]})"
TWO_NUMA_ONE_PACKAGE = f"pack:1 numa:2 core:1 pu:1(indexes={CPUS[0]},{CPUS[-1]})"
HOST = platform.node()


def bound_run(synthetic, bind, *args, tmp_path=None):
    """osu_latency on 2 ranks, one per core (bind "core") or unbound ("none"), under
    the synthetic topology, 2 sizes of 10 iterations."""
    e = env()
    e.update(HWLOC_SYNTHETIC=synthetic, HWLOC_THISSYSTEM="1")
    cmd = (mpiexec(2) + ["--bind-to", bind, "--map-by", "core", str(BUILD / "osu_latency"),
                         "-m", "1:2", "-i", "10", "-x", "1"] + list(args))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=e,
                          cwd=tmp_path)


def refusal(want, what, *ranks):
    """The one message: ranks (rank, sockets) in order."""
    where = "; ".join(f"rank {r}: host {HOST}, {'socket' if s.isdigit() else 'sockets'} {s}"
                      for r, s in ranks)
    subject = f"ranks {ranks[0][0]} and {ranks[1][0]}" if len(ranks) == 2 else \
        f"rank {ranks[0][0]}"
    return f"effbench: error: --expect-placement {want}: {subject} {what} ({where})\n"


def errors(stderr):
    return [line + "\n" for line in stderr.splitlines() if line.startswith("effbench: error:")]


@needs_binding
def test_two_packages_recorded_and_checked(tmp_path):
    r = bound_run(TWO_PACKAGES, "core", "--expect-placement", "different-sockets", "--json",
                  "p.jsonl", tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    run_rec = read_jsonl(tmp_path / "p.jsonl")[0]
    assert run_rec["expect_placement"] == "different-sockets"
    assert run_rec["topology"] == {"hwloc": run_rec["topology"]["hwloc"],
                                   "source": f"synthetic: {TWO_PACKAGES}",
                                   "packages": 2, "numa_nodes": 2, "cores": 2, "pus": 2}
    got = [{k: p[k] for k in ("rank", "host", "cpus", "cpu", "numa", "cores", "sockets",
                              "numa_nodes")} for p in run_rec["placement"]]
    assert got == [{"rank": i, "host": HOST, "cpus": str(c), "cpu": c, "numa": i, "cores": [i],
                    "sockets": [i], "numa_nodes": [i]} for i, c in enumerate(CPUS)]
    r = bound_run(TWO_PACKAGES, "core", "--expect-placement", "same-socket", "--json",
                  "q.jsonl", tmp_path=tmp_path)
    assert r.returncode == 2
    assert errors(r.stderr) == [refusal("same-socket", "are on different sockets",
                                        (0, "0"), (1, "1"))]
    assert "Latency" not in r.stdout and not (tmp_path / "q.jsonl").exists()


@needs_binding
def test_one_package_two_numa_nodes(tmp_path):
    r = bound_run(TWO_NUMA_ONE_PACKAGE, "core", "--expect-placement", "same-socket", "--json",
                  "p.jsonl", tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    rec = read_jsonl(tmp_path / "p.jsonl")[0]
    assert [(p["cores"], p["sockets"], p["numa_nodes"], p["numa"]) for p in rec["placement"]] \
        == [([0], [0], [0], 0), ([1], [0], [1], 1)]
    r = bound_run(TWO_NUMA_ONE_PACKAGE, "core", "--expect-placement", "different-sockets")
    assert r.returncode == 2
    assert errors(r.stderr) == [refusal("different-sockets", "are on one socket",
                                        (0, "0"), (1, "0"))]


@needs_binding
def test_unbound_rank_is_on_no_one_socket(tmp_path):
    """Bound to nothing, a rank's CPUs span both packages: every list holds both, and a
    socket check refuses it; same-node still holds."""
    r = bound_run(TWO_PACKAGES, "none", "--expect-placement", "same-socket")
    assert r.returncode == 2
    assert errors(r.stderr) == [refusal("same-socket", "is not bound within one socket",
                                        (0, "0-1"))]
    r = bound_run(TWO_PACKAGES, "none", "--expect-placement", "same-node", "--json", "p.jsonl",
                  tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    rec = read_jsonl(tmp_path / "p.jsonl")[0]
    assert [(p["cores"], p["sockets"], p["numa_nodes"]) for p in rec["placement"]] \
        == [([0, 1], [0, 1], [0, 1])] * 2


# every personality, refused before it prints or measures anything
PROGRAMS = [["IMB-MPI1", "PingPong"], ["osu_latency"], ["osu_allreduce"], ["b_eff"],
            ["b_eff_io"], ["effbench", "skampi"], ["effbench", "nodes"], ["IMB-P2P"],
            ["IMB-MT"], ["IMB-NBC"], ["IMB-RMA"], ["IMB-EXT"], ["IMB-IO"], ["IMB-MPI4"]]


@pytest.mark.parametrize("program", matrix_beyond_first(PROGRAMS, lambda p: "all"),
                         ids=lambda p: " ".join(p))
def test_every_program_refuses_ranks_on_one_node(program, tmp_path):
    r = run(2, program[0], *program[1:], "--expect-placement", "different-nodes", "--json",
            "r.jsonl", cwd=tmp_path, timeout=120)
    assert r.returncode == 2
    [msg] = errors(r.stderr)
    assert msg.startswith("effbench: error: --expect-placement different-nodes: ranks 0 and 1 "
                          f"are on one host (rank 0: host {HOST}, socket"), msg
    assert f"; rank 1: host {HOST}, socket" in msg
    assert r.stdout == "" and not (tmp_path / "r.jsonl").exists()


def test_nodes_named_by_the_node_map(tmp_path):
    """Two ranks per node (EFFBENCH_TEST_RANKS_PER_NODE=2 names rank r's node HOST-node<r/2>):
    same-node refused naming both hosts, different-nodes refused for ranks 0 and 1, accepted
    on one rank per node.  The emulated cluster does the same with real hosts."""
    per_node = {"EFFBENCH_TEST_RANKS_PER_NODE": "2"}
    r = run(4, "osu_latency", "--expect-placement", "same-node", extra_env=per_node,
            timeout=120)
    assert r.returncode == 2
    [msg] = errors(r.stderr)
    assert msg.startswith("effbench: error: --expect-placement same-node: ranks 0 and 2 are on "
                          f"different hosts (rank 0: host {HOST}-node0, socket"), msg
    assert f"; rank 2: host {HOST}-node1, socket" in msg
    r = run(4, "osu_latency", "--expect-placement", "different-nodes", extra_env=per_node,
            timeout=120)
    assert r.returncode == 2 and "ranks 0 and 1 are on one host" in r.stderr
    r = run(2, "osu_latency", "-m", "1:1", "-i", "10", "-x", "1", "--expect-placement",
            "different-nodes", "--json", "r.jsonl", cwd=tmp_path, timeout=120,
            extra_env={"EFFBENCH_TEST_RANKS_PER_NODE": "1"})
    assert r.returncode == 0, r
    rec = read_jsonl(tmp_path / "r.jsonl")[0]
    assert [p["host"] for p in rec["placement"]] == [f"{HOST}-node0", f"{HOST}-node1"]


def test_imb_parses_its_options_around_it(tmp_path):
    """The option between IMB's own: IMB still reads -msglog, -iter and the benchmark."""
    r = run(2, "IMB-MPI1", "-msglog", "0:1", "--expect-placement", "same-node", "-iter", "10",
            "PingPong", "--json", "r.jsonl", cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r
    assert "# Benchmarking PingPong" in r.stdout
    rows = [line.split() for line in r.stdout.splitlines()
            if line.strip() and line.split()[0].isdigit()]
    assert [row[:2] for row in rows] == [["0", "10"], ["1", "10"], ["2", "10"]]
    recs = read_jsonl(tmp_path / "r.jsonl")
    assert recs[0]["expect_placement"] == "same-node"
    assert recs[0]["command_line"][1:6] == ["-msglog", "0:1", "--expect-placement", "same-node",
                                            "-iter"]


def test_bad_value():
    r = run(2, "osu_latency", "--expect-placement", "same-rack", timeout=120)
    assert r.returncode == 2
    assert errors(r.stderr) == ["effbench: error: --expect-placement same-rack: expected "
                                "same-node, different-nodes, same-socket, different-sockets or "
                                "different-gpus\n"]
