# effbench's Spack package (docs/spack.md): `spack repo add <checkout>/packaging/spack`.
# Tested with Spack 0.23.0.dev0 (June 2024) by scripts/test-spack; written to the package API
# that current Spack keeps for repositories of this layout (docs/spack.md says what was not
# tested there).

import os
import shutil

import spack
from spack.package import *

# The checkout this file lives in (packaging/spack/packages/effbench/package.py): the
# package's git versions come from it, so an install needs no network.
_CHECKOUT = os.path.abspath(os.path.join(os.path.dirname(__file__), *[os.pardir] * 4))

# Spack 0.23.0 made the languages a package compiles dependencies ("c" a virtual that
# compilers provide); Spack 1.0 gives a package no compiler without one. 0.23's
# development snapshots before that know no "c" package and refuse the dependency.
_INFO = spack.spack_version_info
_LANGUAGE_VIRTUALS = _INFO[:3] > (0, 23, 0) or (_INFO[:3] == (0, 23, 0) and len(_INFO) == 3)


class Effbench(CMakePackage):
    """One MPI benchmark suite that does the work of IMB, OSU, b_eff, b_eff_io and SKaMPI,
    answering to their program names (IMB-MPI1, osu_latency, b_eff, ...), with JSON Lines
    records and result tools (effbench-results)."""

    homepage = "file://" + _CHECKOUT
    git = "file://" + _CHECKOUT

    version("develop", branch="main")

    variant(
        "results",
        default=False,
        description="Install the result tools (effbench-results: store, reports, web "
        "database) with Spack's Python; PostgreSQL's driver psycopg 3 comes from pip "
        "(docs/spack.md)",
    )

    depends_on("mpi")
    # where the ranks ran: cores, sockets, NUMA nodes (src/core/topology.c), found by pkg-config
    depends_on("hwloc@2:")
    depends_on("pkgconfig", type="build")
    depends_on("cmake@3.18:", type="build")
    if _LANGUAGE_VIRTUALS:
        depends_on("c", type="build")

    # The result tools: python/pyproject.toml's dependencies as Spack's py-* packages, at
    # the same lower bounds. Not here: psycopg 3 (Spack packages psycopg 2 only), needed
    # for a PostgreSQL store alone (SQLite needs nothing).
    with when("+results"):
        extends("python")
        depends_on("python@3.11:", type=("build", "run"))
        depends_on("py-pip", type="build")
        depends_on("py-setuptools@64:", type="build")
        # setuptools before 70.1 builds wheels with the wheel package (Spack 0.23's
        # python-venv, pip --no-build-isolation: nothing brings it otherwise)
        depends_on("py-wheel", type="build", when="^py-setuptools@:70.0")
        depends_on("py-sqlalchemy@2.0:2", type=("build", "run"))
        depends_on("py-alembic@1.12:", type=("build", "run"))
        depends_on("py-platformdirs@3:", type=("build", "run"))
        depends_on("py-plotly@5.15:", type=("build", "run"))
        depends_on("py-matplotlib@3.7:", type=("build", "run"))
        depends_on("py-rich@13:", type=("build", "run"))
        depends_on("py-fastapi@0.100:", type=("build", "run"))
        depends_on("py-uvicorn@0.23:", type=("build", "run"))
        depends_on("py-python-multipart@0.0.6:", type=("build", "run"))
        depends_on("py-jinja2@3.1:", type=("build", "run"))
        depends_on("py-httpx@0.24:", type=("build", "run"))

    def cmake_args(self):
        return [
            # the MPI library Spack chose, not whichever mpicc comes first on PATH
            self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc),
            # -Werror is for the project's own CI, not for every compiler a site has
            self.define("EFFBENCH_WERROR", False),
        ]

    @run_after("install")
    def install_results_tools(self):
        if "+results" not in self.spec:
            return
        # a copy, so that pip's build leaves nothing in a developed checkout
        src = join_path(self.stage.path, "effbench-python")
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(join_path(self.stage.source_path, "python"), src)
        python = Executable(self.spec["python"].command.path)
        python("-m", "pip", "install", "--no-deps", "--no-index", "--no-build-isolation",
               "--prefix", self.prefix, src)

    # `spack test run effbench`: the installed programs under the MPI library they were
    # built with.
    def _mpiexec(self):
        launcher = None
        for name in ("mpiexec", "mpirun"):
            path = join_path(self.spec["mpi"].prefix.bin, name)
            if os.path.exists(path):
                launcher = Executable(path)
                break
        launcher = launcher or which("mpiexec", "mpirun", "srun")
        assert launcher, "no MPI launcher in the MPI library's bin/ nor on PATH"
        # Spack's test environment drops every variable whose name ends in _ROOT, Open MPI's
        # OMPI_ALLOW_RUN_AS_ROOT among them; a user who set it (as root in a container) has
        # OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 left, which stands for both.
        if os.environ.get("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM") == "1":
            launcher.add_default_env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        return launcher

    def test_pingpong_check(self):
        """two ranks of the installed IMB-MPI1 PingPong with -check: every length, no defect"""
        out = self._mpiexec()(
            "-n", "2", join_path(self.prefix.bin, "IMB-MPI1"), "PingPong", "-check",
            output=str, error=str,
        )
        lines = out.splitlines()
        header = [i for i, l in enumerate(lines) if l.split()[:1] == ["#bytes"]]
        assert len(header) == 1, f"one PingPong table expected:\n{out}"
        assert lines[header[0]].split()[-1] == "defects", lines[header[0]]
        rows = []
        for line in lines[header[0] + 1 :]:
            cells = line.split()
            if len(cells) != 5:
                break
            rows.append(cells)
        assert [int(r[0]) for r in rows] == [0] + [2**k for k in range(23)], out
        bad = [r for r in rows if r[4] != "0.00"]
        assert not bad, f"defects in PingPong -check: {bad}"

    def test_osu_latency(self):
        """two ranks of the installed osu_latency: one row per length up to 1 KiB"""
        out = self._mpiexec()(
            "-n", "2", join_path(self.prefix.bin, "osu_latency"), "-m", "1:1024",
            output=str, error=str,
        )
        assert "# OSU MPI Latency Test" in out, out
        sizes = [int(l.split()[0]) for l in out.splitlines() if l[:1].isdigit()]
        assert sizes == [2**k for k in range(11)], out

    def test_version(self):
        """effbench --version and, with +results, effbench-results --version agree"""
        out = Executable(join_path(self.prefix.bin, "effbench"))("--version", output=str)
        name, version = out.split()
        assert name == "effbench" and version.count(".") == 2, out
        if "+results" in self.spec:
            tools = Executable(join_path(self.prefix.bin, "effbench-results"))
            assert tools("--version", output=str).split() == ["effbench-results", version]
