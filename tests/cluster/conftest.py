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
BUILD = ROOT / "build"
BUILD_MPICH = ROOT / "build-mpich"
SHARED = pathlib.Path("/var/tmp/effbench-cluster-tests")  # seen by every node, unlike /tmp
NET = "10.213.0.0/24"

RUN_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none", "OMPI_MCA_osc": "pt2pt",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    # the emulated nodes share this machine's cores: ranks that busy-poll take turns only at
    # the scheduler's tick (4 ms), which would be measured as latency
    "OMPI_MCA_mpi_yield_when_idle": "1",
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
