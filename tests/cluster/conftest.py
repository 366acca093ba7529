"""The emulated cluster (scripts/cluster, docs/cluster.md) for the multi-node tests: brought up
once per shape, taken down at the end; skipped with the script's reason where it cannot run
(not root, no namespaces).  Ranks see their own /tmp, so the tests work in a shared folder."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "mpi"))
CLUSTER = ROOT / "scripts" / "cluster"
RSH = ROOT / "scripts" / "cluster-rsh"
SHARED = pathlib.Path("/var/tmp/effbench-cluster-tests")  # seen by every node, unlike /tmp
NET = "10.213.0.0/24"

from effb import LIBRARIES  # noqa: E402  (scripts/mpi-libraries.conf's one reader)

# Open MPI 4.1's settings on this machine (scripts/mpi-libraries.conf; among them
# mpi_yield_when_idle: the emulated nodes share the cores, and busy-polling ranks would take
# turns only at the scheduler's tick, measured as latency), and the emulated network's subnet
BUILD = ROOT / LIBRARIES["openmpi"]["build"]
BUILD_MPICH = ROOT / LIBRARIES["mpich"]["build"]
RUN_ENV = {
    **LIBRARIES["openmpi"]["env"],
    "OMPI_MCA_btl_tcp_if_include": NET, "OMPI_MCA_oob_tcp_if_include": NET,
}


class Cluster:
    def __init__(self):
        self.shape = None

    def up(self, *args):
        if self.shape == args:
            return
        r = subprocess.run([str(CLUSTER), "up", *args], capture_output=True, text=True,
                           timeout=300)
        if r.returncode == 3:
            pytest.skip(r.stderr.strip())
        assert r.returncode == 0, r.stdout + r.stderr
        self.shape = args
        self.no_netem = pathlib.Path("/run/effbench-cluster/no-netem").exists()

    def down(self):
        subprocess.run([str(CLUSTER), "down"], capture_output=True, text=True, timeout=120)
        self.shape = None


@pytest.fixture(scope="session")
def cluster():
    c = Cluster()
    yield c
    c.down()


@pytest.fixture
def workdir(request):
    d = SHARED / request.node.name.replace("[", "_").replace("]", "").replace("/", "_")
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def run_env():
    e = dict(os.environ)
    e.update(RUN_ENV)
    return e


def srun(nodes, ntasks, program, *args, cwd, timeout=300, build=BUILD):
    cmd = ["srun", "-N", str(nodes), "-n", str(ntasks), "--mpi=pmix",
           str(build / program), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=run_env(),
                          timeout=timeout)


def mpirun(hosts, ntasks, program, *args, cwd, timeout=300):
    cmd = ["mpiexec.openmpi", "--host", hosts, "-n", str(ntasks), "--map-by", "node",
           "--mca", "plm_rsh_agent", str(RSH), str(BUILD / program), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=run_env(),
                          timeout=timeout)


def hydra(hosts, ntasks, program, *args, cwd, timeout=300):
    cmd = ["mpiexec.mpich", "-launcher", "ssh", "-launcher-exec", str(RSH), "-iface", "ebbr0",
           "-hosts", hosts, "-n", str(ntasks), str(BUILD_MPICH / program), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=run_env(),
                          timeout=timeout)
