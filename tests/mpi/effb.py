"""Shared helpers for the MPI tests: launching effbench under one of the MPI
libraries of scripts/mpi-libraries.conf and parsing IMB-format output and
JSON Lines files.

Environment:
  EFFBENCH_MPI    the library: openmpi (Debian's 4.1, the default), mpich
                  (Debian's 4.0), openmpi5, mpich5, impi (docs/mpi-libraries.md)
  EFFBENCH_BUILD  build directory holding `effbench` and its symlinks
                  (default: the library's, e.g. <repo>/build-mpich)
"""
import functools
import json
import os
import pathlib
import re
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
# real output of the original programs, kept in the repository (one copy,
# shared with the Python tests)
SAMPLES = ROOT / "tests" / "python" / "data" / "samples"
LIBRARIES_CONF = ROOT / "scripts" / "mpi-libraries.conf"


def read_libraries(path=LIBRARIES_CONF):
    """scripts/mpi-libraries.conf as {library: {key: value, "env": {NAME: value}}}:
    the one place for what each library needs here."""
    libs = {}
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        lib, key, value = line.split(None, 2)
        entry = libs.setdefault(lib, {"env": {}})
        if key == "env":
            name, _, val = value.partition("=")
            entry["env"][name] = val
        else:
            entry[key] = value
    for entry in libs.values():
        prefix = entry["prefix"]
        prefix = prefix if prefix.startswith("/") else str(ROOT / prefix)
        entry["env"] = {k: v.replace("@prefix", prefix) for k, v in entry["env"].items()}
    return libs


LIBRARIES = read_libraries()
MPI = os.environ.get("EFFBENCH_MPI", "openmpi")
if MPI not in LIBRARIES:
    raise SystemExit(f"EFFBENCH_MPI={MPI}: not a library of {LIBRARIES_CONF} "
                     f"({', '.join(LIBRARIES)})")
LIBRARY = LIBRARIES[MPI]
# its waiting ranks busy-poll: runs with more ranks than cores crawl
BUSY = LIBRARY["busy"] == "yes"
# resolved now: tests run programs with other working directories
BUILD = pathlib.Path(os.environ.get("EFFBENCH_BUILD", ROOT / LIBRARY["build"])).resolve()

# A run that has not ended after this many seconds hangs (the test fails
# with the run's output).  Tests assert no time of the work itself: speed is
# measured in bench/, and a loaded machine must not fail a test.

# Debian's Open MPI's settings (the Python tests launch it)
OPENMPI_ENV = LIBRARIES["openmpi"]["env"]


class Result:
    def __init__(self, proc, elapsed):
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.elapsed = elapsed

    def __repr__(self):
        return (f"<Result of {MPI} rc={self.returncode} elapsed={self.elapsed:.1f}s\n"
                f"stdout:\n{self.stdout[-3000:]}\nstderr:\n{self.stderr[-3000:]}>")


def mpiexec(np, library=MPI):
    words = LIBRARIES[library]["mpiexec"].split()
    if "/" in words[0] and not words[0].startswith("/"):
        words[0] = str(ROOT / words[0])
    return words + ["-n", str(np)]


def env(library=MPI):
    """The environment with the library's settings and without another
    library's (Open MPI 4.1's OMPI_MCA_osc=pt2pt stops Open MPI 5 in MPI_Init)."""
    e = {k: v for k, v in os.environ.items()
         if not any(k in lib["env"] for lib in LIBRARIES.values())}
    e.update(LIBRARIES[library]["env"])
    return e


def run(np, program, *args, timeout=300, cwd=None, extra_env=None):
    """Run BUILD/program under mpiexec with np ranks; never raises on failure."""
    cmd = mpiexec(np) + [str(BUILD / program)] + [str(a) for a in args]
    e = env()
    if extra_env:
        e.update(extra_env)
    t0 = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, env=e)
    return Result(proc, time.monotonic() - t0)


# The tests' CUDA driver double (tests/support/cuda_double.c): device memory
# that is host memory, so device-buffer runs are tested without a GPU.
CUDA_DOUBLE = BUILD / "libeb_cuda_double.so"


def cuda_double_env(log=None, devices=2, takes_device_pointers=True, **settings):
    """The environment of a run on the double: `log` a path prefix for its call
    counts (read_cuda_double_log), `takes_device_pointers` the user's word for
    the MPI library (EFFBENCH_MPI_DEVICE_POINTERS; None: ask the library),
    settings more EB_CUDA_DOUBLE_<NAME>=value (protect=1, memory=..., no_init=1)."""
    e = {"EFFBENCH_LIBCUDA": str(CUDA_DOUBLE), "EB_CUDA_DOUBLE_DEVICES": str(devices)}
    if takes_device_pointers is not None:
        e["EFFBENCH_MPI_DEVICE_POINTERS"] = "1" if takes_device_pointers else "0"
    if log:
        e["EB_CUDA_DOUBLE_LOG"] = str(log)
    e.update({f"EB_CUDA_DOUBLE_{k.upper()}": str(v) for k, v in settings.items()})
    return e


def skip_on_a_gpu_node():
    """A test of the refusal of a machine without an NVIDIA driver skips where one loads."""
    import ctypes
    import pytest
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return
    pytest.skip("skipped: this machine has libcuda.so.1 (a GPU node): the refusal of a machine "
                "without one cannot be seen here")


def read_cuda_double_log(prefix):
    """The double's call counts of every process of a run: a list (one per
    process, in pid order) of {call: (count, bytes)}."""
    prefix = pathlib.Path(prefix)
    out = []
    for f in sorted(prefix.parent.glob(prefix.name + ".*"), key=lambda p: int(p.suffix[1:])):
        out.append({name: (int(c), int(b)) for name, c, b in
                    (line.split() for line in f.read_text().splitlines())})
    return out


@functools.cache
def listing():
    """`effbench --list-json` of the build under test, run once: every benchmark's descriptor
    (docs/json-lines.md, "The benchmark listing").  Tests take names, classes and flags from
    it instead of keeping lists of their own."""
    proc = subprocess.run([str(BUILD / "effbench"), "--list-json"], capture_output=True,
                          text=True, timeout=60, env=env())
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    doc = json.loads(proc.stdout)
    assert doc["schema"] == 1, doc["schema"]
    return doc


def listed(program=None, **match):
    """The listing's benchmarks of `program` (all without), in run order, whose fields equal
    `match` (e.g. class="collective", default=True)."""
    return [b for b in listing()["benchmarks"]
            if (program is None or b["program"] == program)
            and all(b[k] == v for k, v in match.items())]


def listed_names(program=None, **match):
    return [b["name"] for b in listed(program, **match)]


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def row_cells(line):
    """The cells of a table row; -check's "not checked" is one cell."""
    return re.findall(r"not checked|\S+", line)


def parse_imb(text):
    """Parse IMB-format output into blocks:
    {name, procs, groups: [[ranks]], mode, waiting, header: [col], rows: [[str]], notes: [str]}.
    """
    blocks = []
    cur = None
    for line in text.splitlines():
        m = re.match(r"^# Benchmarking (\S+) $", line)
        if m:
            cur = {"name": m.group(1), "procs": None, "groups": [], "mode": None,
                   "waiting": 0, "header": None, "rows": [], "notes": []}
            blocks.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"^# #processes = (\d+)", line)
        if m:
            cur["procs"] = int(m.group(1))
            continue
        m = re.match(r"^# \( (\d+) groups? of (\d+) process(?:es)? each running simultaneously \) $", line)
        if m:
            cur["procs"] = int(m.group(2))
            continue
        m = re.match(r"^# Group (\d+):((?: \d+)+)$", line)
        if m:
            cur["groups"].append([int(v) for v in m.group(2).split()])
            continue
        m = re.match(r"^# \( (\d+) additional process(?:es)? waiting in MPI_Barrier\)$", line)
        if m:
            cur["waiting"] = int(m.group(1))
            continue
        m = re.match(r"^#    MODE: (AGGREGATE|NON-AGGREGATE) $", line)
        if m:
            cur["mode"] = m.group(1)
            continue
        if line.startswith("# All processes entering MPI_Finalize"):
            cur = None
            continue
        if line.startswith("#"):
            if line.startswith("# ") and not line.startswith("# #"):
                cur["notes"].append(line[2:])
            continue
        if not line.strip():
            continue
        if cur["header"] is None:
            cur["header"] = line.split()
            cur["header_line"] = line
        else:
            cur["rows"].append(row_cells(line))
    return blocks


def imb_procs(np, first=2):
    """IMB's process counts Q = first, 2*first, ..., P (1 alone on one
    process); first = 1 for families that start at one process (IMB-IO)."""
    if np == 1:
        return [1]
    out, q = [], first
    while q < np:
        out.append(q)
        q *= 2
    return out + [np]


def busy_mpich(n):
    """Skip mark: MPICH (and the libraries built on it) busy-poll, so runs with
    more ranks than cores crawl."""
    import pytest
    return pytest.mark.skipif(BUSY and n > (os.cpu_count() or 1),
                              reason=f"{MPI} with more ranks than cores busy-polls")


def np_params(nps):
    """Process counts for parametrize, each with busy_mpich."""
    import pytest
    return [pytest.param(n, marks=busy_mpich(n)) for n in nps]


def matrix_beyond_first(params, key):
    """parametrize values with every value after the first of its kind (key(value): the
    program, say) marked `matrix`: the test command runs one case of each kind, CI's matrix
    stage (scripts/test-matrix) the rest (docs/testing.md)."""
    import pytest
    from _pytest.mark import ParameterSet
    seen, out = set(), []
    for p in params:
        values, marks, pid = (p.values, list(p.marks), p.id) if isinstance(p, ParameterSet) \
            else ((p if isinstance(p, tuple) else (p,)), [], None)
        k = key(*values)
        if k in seen:
            marks.append(pytest.mark.matrix)
        seen.add(k)
        out.append(pytest.param(*values, marks=marks, id=pid))
    return out


def library_samples(index, kind=None, exits=None):
    """parametrize values for the real samples of an index (the reference tools' output, one
    record per sample: file, mpi, np, exit) that this library made: of one group (the file's
    first folder: run, help, bad) when KIND is given, with an exit status in EXITS when
    given; MPICH's on at most 2 ranks (its waiting ranks busy-poll 2 cores).  The id is the
    file's name without .out."""
    import pytest
    out = []
    for s in index:
        if s["mpi"] != MPI or (kind is not None and not s["file"].startswith(kind + "/")):
            continue
        if MPI == "mpich" and s["np"] > 2:
            continue
        if exits is not None and s["exit"] not in exits:
            continue
        out.append(pytest.param(s, id=s["file"].rsplit("/", 1)[-1].removesuffix(".out")))
    return out


def imb_layout(text):
    """What a job script or parser of IMB output relies on: the header's list
    of benchmarks (with its comment lines) and each block's name, process
    count, MODE and column header line."""
    lines = text.splitlines()
    i = lines.index("# List of Benchmarks to run:")
    listed = []
    for line in lines[i + 2:]:
        if not line.startswith("#"):
            break
        listed.append(line)
    return listed, [(b["name"], b["procs"], b["mode"], b["header_line"])
                    for b in parse_imb(text)]


def rank_pids(program, marker):
    """The processes of `program` whose command line holds `marker`, by rank order of start
    (lowest pid first is not the rank; callers that need a rank ask the process)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if cmd and os.path.basename(cmd[0]) == program.encode() and marker.encode() in cmd:
            pids.append(int(pid))
    return pids


def rank_of(pid):
    """The MPI rank of a process started by mpiexec (Open MPI or MPICH), from its environment."""
    env_vars = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
    for var in env_vars:
        for key in (b"OMPI_COMM_WORLD_RANK=", b"PMI_RANK=", b"PMIX_RANK="):
            if var.startswith(key):
                return int(var[len(key):])
    raise LookupError(f"process {pid} has no rank in its environment")
