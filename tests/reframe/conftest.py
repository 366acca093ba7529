"""The ReFrame checks (reframe/, docs/sites.md) run by real ReFrame: on this machine under
mpirun, and on the emulated Slurm cluster (tests/cluster's fixtures, loaded from its conftest
under a name of their own)."""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECKS = ROOT / "reframe" / "effbench_checks.py"
CONFIG = ROOT / "reframe" / "config"
REFRAME = pathlib.Path(sys.executable).parent / "reframe"
TMP_LOGS = pathlib.Path(tempfile.gettempdir()) / "rfm-*.log"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cluster_support = _load("cluster_support", ROOT / "tests" / "cluster" / "conftest.py")
store_support = _load("store_support", ROOT / "tests" / "python" / "conftest.py")
cluster = cluster_support.cluster
workdir = cluster_support.workdir
postgres = store_support.postgres

# short runs: a first look, not a site's nightly figures (docs/sites.md)
QUICK = [
    "-S", "EffbenchPingPong.max_log2_bytes=16", "-S", "EffbenchPingPong.options=-time,0.05",
    "-S", "EffbenchAllreduce.large_log2_bytes=12",
    "-S", "EffbenchAllreduce.options=-time,0.05,-iter,100",
    "-S", "EffbenchBeff.num_tasks=2",
    "-S", "EffbenchBeff.options=--mem-per-proc,1,--random-patterns,1,--loop-ms,0.05,--repeat,1",
    "-S", "EffbenchBeffIO.num_tasks=2", "-S", "EffbenchBeffIO.minutes=0.01",
    "-S", "EffbenchBeffIO.options=--mem-per-proc,2",
    "-S", "EffbenchNodeMatrix.options=--bytes,1048576,--reps,50,--bw-reps,4",
]


class Run:
    """One `reframe ... -r`: its exit status, its output and its report's test cases."""

    def __init__(self, proc, prefix):
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.prefix = prefix
        report = json.loads((prefix / "report.json").read_text())
        self.cases = {c["name"]: c for run in report["runs"] for c in run["testcases"]}

    def perf(self, name):
        """name's performance variables: {variable: (value, unit, result)}."""
        return {k.rsplit(":", 1)[1]: (v[0], v[4], v[5])
                for k, v in self.cases[name]["perfvalues"].items()}

    def records(self, name):
        case = self.cases[name]
        where = case["outputdir"] if case["result"] == "pass" else case["stagedir"]
        path = pathlib.Path(where) / "effbench.jsonl"
        return path, [json.loads(line) for line in path.read_text().splitlines()]


def reframe(config, prefix, *args, env=None, timeout=600):
    """Runs the checks one after another (benchmarks share no node with another job)."""
    cmd = [str(REFRAME), "-C", str(config), "-c", str(CHECKS), "--prefix", str(prefix),
           "--report-file", str(prefix / "report.json"), "--exec-policy=serial", *QUICK,
           *args, "-r"]
    before = set(TMP_LOGS.parent.glob(TMP_LOGS.name))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env or dict(os.environ),
                          timeout=timeout, cwd=prefix)
    # ReFrame logs into temporary files of its own and keeps them: this run's are removed
    for log in set(TMP_LOGS.parent.glob(TMP_LOGS.name)) - before:
        if str(config) in log.read_text(errors="replace"):
            log.unlink(missing_ok=True)
    return Run(proc, prefix)
