"""Fixtures: sample files, real output of the C program made in this test run, and stores on
SQLite and on a throwaway PostgreSQL cluster started here."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SAMPLES = DATA / "samples"
PG_BIN = Path(os.environ.get("EFFBENCH_PG_BIN", "/usr/lib/postgresql/15/bin"))

OPENMPI_ROOT_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


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
    return {**os.environ, **OPENMPI_ROOT_ENV}


def run_c(effbench_bin, mpiexec, mpi_env, outdir: Path, name: str, np: int, args: list[str]):
    """Run effbench once; returns (JSON Lines path, text output path)."""
    jsonl, text = outdir / f"{name}.jsonl", outdir / f"{name}.txt"
    cmd = [*mpiexec, "-n", str(np), str(effbench_bin), *args, "--json", str(jsonl)]
    with open(text, "w") as out:
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, env=mpi_env,
                              timeout=120, text=True)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed: {proc.stderr}"
    return jsonl, text


@pytest.fixture(scope="session")
def c_output(effbench_bin, mpiexec, mpi_env, tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """Real output of the C program: JSON Lines and IMB text of a point-to-point run and of a
    multi-mode run."""
    outdir = tmp_path_factory.mktemp("c_output")
    return {
        "p2p": run_c(effbench_bin, mpiexec, mpi_env, outdir, "p2p", 2,
                     ["mpi1", "PingPong", "PingPing", "Sendrecv", "Exchange", "-msglog", "0:8",
                      "-time", "0.05", "-iter", "200"]),
        "multi": run_c(effbench_bin, mpiexec, mpi_env, outdir, "multi", 4,
                       ["mpi1", "PingPong", "-multi", "1", "-msglog", "0:4", "-time", "0.05",
                        "-iter", "100"]),
    }


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
