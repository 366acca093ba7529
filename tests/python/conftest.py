"""Fixtures: sample files, real output of the C program made in this test run, and stores on
SQLite and on a throwaway PostgreSQL cluster started here."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SAMPLES = DATA / "samples"
PG_BIN = Path(os.environ.get("EFFBENCH_PG_BIN", "/usr/lib/postgresql/15/bin"))

# The MPI tests' Open MPI environment (root, oversubscription, no CMA, osc/pt2pt for the
# one-sided components in containers): one copy, in tests/mpi/effb.py.
sys.path.insert(0, str(REPO / "tests" / "mpi"))
from effb import OPENMPI_ENV  # noqa: E402


@pytest.fixture(scope="session")
def samples() -> Path:
    return SAMPLES


# --- the C program ------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def effbench_bin() -> Path:
    path = Path(os.environ.get("EFFBENCH_BIN", REPO / "build" / "effbench"))
    if not path.is_file():
        if os.environ.get("EFFBENCH_PY_ONLY") == "1":
            pytest.skip("EFFBENCH_PY_ONLY=1: tests that need the C program are skipped")
        pytest.fail(f"effbench executable {path} not found: build it (cmake --build build) or "
                    "set EFFBENCH_BIN; EFFBENCH_PY_ONLY=1 skips these tests")
    return path


@pytest.fixture(scope="session")
def mpiexec() -> list[str]:
    cmd = os.environ.get("EFFBENCH_MPIEXEC")
    if not cmd:
        cmd = "mpiexec.openmpi" if shutil.which("mpiexec.openmpi") else "mpiexec"
    return cmd.split()


@pytest.fixture(scope="session")
def mpi_env() -> dict:
    return {**os.environ, **OPENMPI_ENV}


def run_c(effbench_bin, mpiexec, mpi_env, outdir: Path, name: str, np: int, args: list[str],
          json_option: str = "--json", cwd: Path | None = None):
    """Run effbench once; returns (JSON Lines path, text output path)."""
    jsonl, text = outdir / f"{name}.jsonl", outdir / f"{name}.txt"
    cmd = [*mpiexec, "-n", str(np), str(effbench_bin), *args, json_option, str(jsonl)]
    with open(text, "w") as out:
        # seconds when idle; the timeout only catches a hang (a busy machine is slower)
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, env=mpi_env,
                              timeout=600, text=True, cwd=cwd)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed: {proc.stderr}"
    return jsonl, text


# IMB-MPI1 at one process: PingPong and PingPing need two (`skip` records). Listed in IMB's
# order, which is also the order they run in.
SKIPPING = ["mpi1", "PingPong", "PingPing", "Sendrecv", "Exchange", "Barrier", "-msglog", "0:2",
            "-time", "0.02", "-iter", "100"]


@pytest.fixture(scope="session")
def c_output(effbench_bin, mpiexec, mpi_env, tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """Real output of the C program: JSON Lines and IMB text of a point-to-point run, of a
    multi-mode run, and of a run with `skip` records that was cut after its third row (as a
    crash leaves it) and finished with --resume (a `resume` record)."""
    outdir = tmp_path_factory.mktemp("c_output")
    resumed, _ = run_c(effbench_bin, mpiexec, mpi_env, outdir, "resumed", 1, SKIPPING)
    lines = resumed.read_text().splitlines(keepends=True)
    assert [json.loads(x)["type"] for x in lines[:6]] == ["run", "skip", "skip", "result",
                                                         "result", "result"]
    resumed.write_text("".join(lines[:6]))
    return {
        "p2p": run_c(effbench_bin, mpiexec, mpi_env, outdir, "p2p", 2,
                     ["mpi1", "PingPong", "PingPing", "Sendrecv", "Exchange", "-msglog", "0:8",
                      "-time", "0.05", "-iter", "200"]),
        "multi": run_c(effbench_bin, mpiexec, mpi_env, outdir, "multi", 4,
                       ["mpi1", "PingPong", "-multi", "1", "-msglog", "0:4", "-time", "0.05",
                        "-iter", "100"]),
        "resumed": run_c(effbench_bin, mpiexec, mpi_env, outdir, "resumed", 1, SKIPPING,
                         json_option="--resume"),
    }


# The other IMB components at 2 ranks, briefly: every benchmark of each default list (IMB-IO's
# files in a RAM file system when there is one: every MPI_File_sync to disk costs ~10 ms).
IMB_RUNS = {
    "ext": ["ext", "-msglog", "0:3", "-iter", "20,40,10,off", "-time", "0.05"],
    "rma": ["rma", "-msglog", "0:3", "-iter", "20,40,10,off", "-time", "0.05"],
    "nbc": ["nbc", "-msglog", "0:3", "-iter", "20", "-iter_policy", "off", "-time", "0.05"],
    "io": ["io", "-msglog", "0:2", "-iter", "10", "-time", "0.02", "--target-cpu-secs", "0.001"],
}


@pytest.fixture(scope="session")
def imb_output(effbench_bin, mpiexec, mpi_env, tmp_path_factory):
    """JSON Lines and IMB text of IMB-EXT, IMB-RMA, IMB-NBC and IMB-IO runs at 2 ranks, each run
    when a test first asks for it: a pytest worker runs only the components its tests need."""
    outdir = tmp_path_factory.mktemp("imb_output")
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None

    class Runs(dict):
        def __missing__(self, name: str) -> tuple[Path, Path]:
            args = IMB_RUNS[name]
            with tempfile.TemporaryDirectory(prefix="effbench-io-", dir=shm) as files:
                if name == "io":
                    args = args + ["-filename", os.path.join(files, "imbio")]
                self[name] = run_c(effbench_bin, mpiexec, mpi_env, outdir, name, 2, args)
            return self[name]
    return Runs()


# A SKaMPI configuration of one suite of each pattern and variation: a ping-pong whose accuracy
# cannot be met (Standard_error 1e-4), so refinement adds points up to Max_Steps 12 (8 grid
# points, 4 refined), a collective over the process count (2: one point), master-worker over
# chunks (the grid 1, 2, 4 only: Max_Steps 3), and the simple pattern.
TINY_SKAMPI = """@MEMORY 512
@OUTFILE tiny.sko
@LOGFILE tiny.log
@CACHEWARMUP 1
@MEASUREMENTS
Pingpong_Send_Recv
{
 Type = 1;
 Start_Argument = 4;
 End_Argument = 65536;
 Stepwidth = 4;
 Max_Steps = 12;
 Standard_error = 0.0001;
 Min_Repetition = 3;
 Max_Repetition = 6;
}
MPI_Bcast-nodes
{
 Type = 18;
 Variation = Nodes;
 Min_Repetition = 2;
 Max_Repetition = 4;
}
MasterWorker_Waitany-chunks
{
 Type = 11;
 Variation = Chunks;
 Start_Argument = 1;
 End_Argument = 4;
 Max_Steps = 3;
 Min_Repetition = 2;
 Max_Repetition = 4;
}
MPI_Wtime
{
 Type = 24;
 Min_Repetition = 2;
 Max_Repetition = 4;
}
"""


@pytest.fixture(scope="session")
def skampi_output(effbench_bin, mpiexec, mpi_env, tmp_path_factory) -> tuple[Path, Path]:
    """`effbench skampi` on TINY_SKAMPI at 2 ranks: its JSON Lines and its @OUTFILE."""
    outdir = tmp_path_factory.mktemp("skampi_output")
    (outdir / "tiny.skampi").write_text(TINY_SKAMPI)
    jsonl, _ = run_c(effbench_bin, mpiexec, mpi_env, outdir, "tiny", 2,
                     ["skampi", "tiny.skampi"], cwd=outdir)
    return jsonl, outdir / "tiny.sko"


# --- stores -------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    """A PostgreSQL server in a temporary directory, listening on a unix socket only."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="effbench-pg-"))
        self.data = self.dir / "data"
        self.sock = self.dir / "sock"
        self.sock.mkdir()
        self.port = _free_port()
        self.user = None
        if os.geteuid() == 0:
            # initdb refuses to run as root: the server runs as the postgres system user.
            shutil.chown(self.dir, "postgres")
            shutil.chown(self.sock, "postgres")
            self.user = "postgres"
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--no-sync", "-E", "UTF8")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o",
                  f"-k {self.sock} -c listen_addresses='' -p {self.port} -c fsync=off",
                  "start")
        self.counter = 0

    def _run(self, tool, *args):
        cmd = [str(PG_BIN / tool), *args]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {proc.stdout}{proc.stderr}")

    def url(self, db: str) -> str:
        return f"postgresql+psycopg://postgres@/{db}?host={self.sock}&port={self.port}"

    def new_database(self) -> str:
        import psycopg
        self.counter += 1
        name = f"effbench_test_{self.counter}"
        with psycopg.connect(host=str(self.sock), port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self):
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    if os.environ.get("EFFBENCH_NO_POSTGRES") == "1":
        pytest.skip("EFFBENCH_NO_POSTGRES=1: PostgreSQL store tests are skipped")
    if not (PG_BIN / "initdb").exists():
        pytest.fail(f"PostgreSQL server binaries not found in {PG_BIN} (apt-get install "
                    "postgresql, or set EFFBENCH_PG_BIN; EFFBENCH_NO_POSTGRES=1 skips these "
                    "tests)")
    cluster = PostgresCluster()
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty store on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'results.sqlite'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'results.sqlite'}"
