"""OSU 7.4's one-sided programs (docs/osu/one-sided.md): every program with
its defaults and every -w / -s it allows (Open MPI; the main combinations
under MPICH), OSU's header per table, values against their definitions
(-z's percentiles bound the row's figure), the checked pass (-check, -c)
passing, a flipped byte of a put, a get, an accumulate and a fetch-and-op
found, bad -w / -s / options and process counts refused."""
import re
import subprocess
import sys

import pytest

from effb import BUILD, MPI, env, matrix_beyond_first, mpiexec, read_jsonl, run
from osu_helpers import parse_osu
from test_corruption import flip_is_reported

FIELD = 18  # OSU 7.4's configured FIELD_WIDTH
ALL_SYNCS = ["lock", "pscw", "fence", "flush", "flush_local", "lock_all"]
WINS = ["create", "allocate", "dynamic"]
WIN_CALL = {"create": "MPI_Win_create", "allocate": "MPI_Win_allocate",
            "dynamic": "MPI_Win_create_dynamic"}
SYNC_CALL = {"lock": "MPI_Win_lock/unlock", "pscw": "MPI_Win_post/start/complete/wait",
             "fence": "MPI_Win_fence", "flush": "MPI_Win_flush",
             "flush_local": "MPI_Win_flush_local", "lock_all": "MPI_Win_lock_all/unlock_all"}

# name: (title, default -w, default -s, allowed -s, bandwidth row, one row per datatype)
PROGRAMS = {
    "osu_put_latency": ("OSU MPI_Put Latency Test", "allocate", "flush", ALL_SYNCS, False, False),
    "osu_get_latency": ("OSU MPI_Get latency Test", "allocate", "flush", ALL_SYNCS, False, False),
    "osu_put_bw": ("OSU MPI_Put Bandwidth Test", "allocate", "flush", ALL_SYNCS, True, False),
    "osu_get_bw": ("OSU MPI_Get Bandwidth Test", "allocate", "flush", ALL_SYNCS, True, False),
    "osu_put_bibw": ("OSU MPI_Put Bi-directional Bandwidth Test", "allocate", "pscw",
                     ["pscw", "fence"], True, False),
    "osu_acc_latency": ("OSU MPI_Accumulate latency Test", "allocate", "flush", ALL_SYNCS,
                        False, False),
    "osu_get_acc_latency": ("OSU MPI_Get_accumulate latency Test", "create", "lock", ALL_SYNCS,
                            False, False),
    "osu_fop_latency": ("OSU MPI_Fetch_and_op latency Test", "allocate", "flush", ALL_SYNCS,
                        False, True),
    "osu_cas_latency": ("OSU MPI_Compare_and_swap latency Test", "allocate", "flush", ALL_SYNCS,
                        False, True),
}
SMALL = ["-m", "1:8", "-i", "10", "-x", "2"]
SIZES = [1, 2, 4, 8]


def combinations():
    """(program, -w, -s): all under Open MPI; under MPICH (busy-polling, slow
    passive targets) each program's default and five mixed ones."""
    mpich = [("create", "lock"), ("dynamic", "fence"), ("allocate", "pscw"),
             ("create", "lock_all"), ("dynamic", "flush_local")]
    out = []
    for p, (_, w0, s0, syncs, _, _) in PROGRAMS.items():
        pairs = [(w, s) for w in WINS for s in syncs] if MPI == "openmpi" else \
            [(w0, s0)] + [(w, s) for w, s in mpich if s in syncs]
        out += [(p, w, s) for w, s in pairs]
    return out


def header_lines(program, win, sync, datatype="MPI_CHAR", extra=""):
    title, *_ , bw, _ = PROGRAMS[program]
    lines = [f"# {title} v7.4", f"# Window creation: {WIN_CALL[win]}",
             f"# Synchronization: {SYNC_CALL[sync]}"]
    if program != "osu_get_acc_latency":
        lines.append(f"# Datatype: {datatype}.")
    col = "Bandwidth (MB/s)" if bw else "Latency (us)"
    return lines + [f"{'# Size':<10}{col:>{FIELD}}{extra}"]


def results(path):
    return [r for r in read_jsonl(path) if r["type"] == "result"]


def check_rows(out, recs, program, sizes, validation=None):
    """Rows exactly as OSU prints them, equal to the JSON values."""
    bw = PROGRAMS[program][4]
    rows = [line for line in out.splitlines() if line and not line.startswith("#")]
    assert len(rows) == len(sizes) == len(recs), out
    for line, size, rec in zip(rows, sizes, recs):
        value = rec["mb_per_s"] if bw else rec["t_avg_us"]
        assert value > 0 and rec["bytes"] == size, rec
        text = f"{size:<10}{value:>{FIELD}.2f}" + (f"{validation:>{FIELD}}" if validation else "")
        assert line == text, (line, text)


@pytest.mark.parametrize("program", PROGRAMS)
def test_defaults(tmp_path, program):
    """The program's default window and synchronisation, OSU's header and rows."""
    _, win, sync, _, _, one_row = PROGRAMS[program]
    js = tmp_path / "r.jsonl"
    r = run(2, program, *SMALL, "--json", js, timeout=120)
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    head = header_lines(program, win, sync)
    assert lines[:len(head)] == head, r.stdout
    recs = results(js)
    assert all(x["window"] == win and x["sync"] == sync and x["checked"] is False for x in recs)
    check_rows("\n".join(lines[len(head):]), recs, program, [1] if one_row else SIZES)
    end = read_jsonl(js)[-1]
    assert end["type"] == "end" and end["rows"] == end["planned_rows"] == len(recs)


@pytest.mark.parametrize("program,win,sync",
                         matrix_beyond_first(combinations(), lambda p, w, s: p))
def test_window_and_sync(tmp_path, program, win, sync):
    """Each -w / -s the program allows: runs, names them, and its checked
    pass finds the data where it belongs."""
    js = tmp_path / "r.jsonl"
    r = run(2, program, *SMALL, "-w", win, "-s", sync, "-check", "--json", js, timeout=120)
    assert r.returncode == 0, r
    head = header_lines(program, win, sync, extra=f"{'Validation':>{FIELD}}")
    lines = r.stdout.splitlines()
    assert lines[:len(head)] == head, r.stdout
    recs = results(js)
    assert all(x["window"] == win and x["sync"] == sync and x["defects"] == 0 for x in recs)
    body = "\n".join(x for x in lines[len(head):] if not re.match(r"^(-+|Atomic|PASSED)", x))
    check_rows(body, recs, program, [1] if PROGRAMS[program][5] else SIZES, "passed")


@pytest.mark.parametrize("program", ["osu_put_latency", "osu_get_bw", "osu_put_bibw",
                                     "osu_acc_latency"])
def test_percentiles_bracket_the_row(tmp_path, program):
    """-z: the row and the percentiles in the bound that holds by construction.
    OSU reads the clock around each iteration, and the row's time runs from the
    first timed iteration to the end of the last, so it holds the iterations and
    the moments between them: a latency is at least the fastest iteration's
    (P0), a bandwidth at most the fastest's (P100).  The other side is not
    bound: one preemption between two iterations on a loaded machine puts the
    row beyond the slowest (CI's run 45: osu_get_bw 31.4 MB/s, P0 37.6)."""
    js = tmp_path / "r.jsonl"
    r = run(2, program, *SMALL, "-z0,50,100", "--json", js, timeout=120)
    assert r.returncode == 0, r
    bw = PROGRAMS[program][4]
    unit = "Tail BW(MB/s)" if bw else "Tail Lat(us)"
    # OSU pads each title as if its percentile had one digit, less one for more
    titles = "".join(f"{'':>{FIELD - len('Px ' + unit) - (p > 9)}}P{p} {unit}" for p in (0, 50, 100))
    assert f"{'# Size':<10}{'Bandwidth (MB/s)' if bw else 'Latency (us)':>{FIELD}}{titles}" \
        in r.stdout.splitlines(), r.stdout
    for rec in results(js):
        p = rec["percentiles_mb_per_s" if bw else "percentiles"]
        value = rec["mb_per_s"] if bw else rec["t_avg_us"]
        assert 0 < p["0"] <= p["50"] <= p["100"], rec
        # 1e-9: the row and the percentiles are computed apart, in floating point
        assert (value <= p["100"] * (1 + 1e-9)) if bw else (value >= p["0"] * (1 - 1e-9)), rec


@pytest.mark.asan
def test_accumulate_tables_per_datatype(tmp_path):
    """-T all: a whole header per datatype (OSU repeats its title), sizes
    below the datatype's skipped, -c's per-rank summary after the last."""
    js = tmp_path / "r.jsonl"
    r = run(2, "osu_acc_latency", *SMALL, "-T", "all", "-c", "--json", js, timeout=120)
    assert r.returncode == 0, r
    assert r.stdout.count("# OSU MPI_Accumulate latency Test v7.4\n") == 3
    for dt in ("MPI_CHAR", "MPI_INT", "MPI_FLOAT"):
        assert "\n".join(header_lines("osu_acc_latency", "allocate", "flush", dt,
                                      f"{'Validation':>{FIELD}}")) in r.stdout
    recs = results(js)
    assert [(x["datatype"], x["bytes"]) for x in recs] == \
        [("MPI_CHAR", s) for s in SIZES] + [(d, s) for d in ("MPI_INT", "MPI_FLOAT") for s in (4, 8)]
    summary = ("-------------------------------------------\n"
               "Atomic Data Validation results for Rank=0:\n"
               "-------------------------------------------\n"
               "-------------------------------------------\n"
               "Atomic Data Validation results for Rank=1:\n"
               "PASSED: All 3 combinations of ops and datatypes tested passed.\n"
               "-------------------------------------------\n")
    assert r.stdout.endswith(summary), r.stdout
    assert "SKIPPED: No validations were performed!" in r.stderr  # rank 0 only originates


@pytest.mark.asan
@pytest.mark.parametrize("program", ["osu_fop_latency", "osu_cas_latency"])
def test_atomics_one_row_per_datatype(tmp_path, program):
    """fetch_and_op / compare_and_swap: one row per -T datatype at its size,
    whatever -m says; -c checks the returned old values on both ranks."""
    types = ["MPI_CHAR", "MPI_INT", "MPI_FLOAT"] if program == "osu_fop_latency" \
        else ["MPI_CHAR", "MPI_INT"]
    args = [a for t in types for a in ("-T", t)]
    js = tmp_path / "r.jsonl"
    r = run(2, program, "-m", "1:1024", "-i", "10", "-x", "2", *args, "-c", "--json", js,
            timeout=120)
    assert r.returncode == 0, r
    tables = parse_osu(r.stdout)["tables"]
    for t in tables:  # the summary's lines follow the last table's row
        t["rows"] = [row for row in t["rows"] if row[0].isdigit()]
    assert [t["datatype"] for t in tables] == types
    sizes = {"MPI_CHAR": 1, "MPI_INT": 4, "MPI_FLOAT": 4}
    assert [t["rows"][0][0] for t in tables] == [str(sizes[t]) for t in types]
    assert all(len(t["rows"]) == 1 and t["rows"][0][2] == "passed" for t in tables)
    assert [x["bytes"] for x in results(js)] == [sizes[t] for t in types]
    done = f"PASSED: All {len(types)} combinations of ops and datatypes tested passed.\n"
    assert r.stdout.count(done) == 2, r.stdout


@pytest.mark.parametrize("program,args,message", [
    ("osu_put_bibw", ["-s", "lock"], "Invalid option or invalid argument [-s lock]"),
    ("osu_put_bibw", ["-s", "flush"], "Invalid option or invalid argument [-s flush]"),
    ("osu_put_latency", ["-s", "sometimes"], "Invalid option or invalid argument [-s sometimes]"),
    ("osu_get_bw", ["-w", "shared"], "Invalid option or invalid argument [-w shared]"),
    ("osu_put_latency", ["-c"], "Invalid option [-c]"),
    ("osu_get_latency", ["-T", "MPI_INT"], "Invalid option [-T]"),
    ("osu_put_latency", ["-W", "8"], "Invalid option [-W]"),
    ("osu_get_acc_latency", ["-c"], "Invalid option [-c]"),
    ("osu_cas_latency", ["-T", "MPI_FLOAT"], "-T MPI_FLOAT is not possible: "
                                             "MPI_Compare_and_swap takes integer types only"),
    ("osu_cas_latency", ["-T", "all"], "MPI_Compare_and_swap takes integer types only"),
])
def test_bad_options_refused(program, args, message):
    r = run(2, program, *args, timeout=60)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert r.stdout.strip() == "", r


@pytest.mark.parametrize("program", ["osu_put_latency", "osu_fop_latency"])
def test_two_processes_only(program):
    r = run(3, program, "-i", "10", "-x", "2", timeout=60)
    assert r.returncode == 2, r
    assert "This test requires exactly two processes (it runs on 3)" in r.stderr


def test_help_lines():
    """get_acc_latency's usage line is its own (OSU's); the others' the common one."""
    r = run(1, "osu_get_acc_latency", "-h", timeout=60)
    assert r.returncode == 0, r
    assert r.stdout.startswith("Usage: ./osu_get_acc_latency -w <win_option>  -s < sync_option>"
                               " [-x ITER] [-i ITER]\n  -w, --win-options"), r.stdout
    r = run(1, "osu_put_bw", "-h", timeout=60)
    assert r.stdout.startswith("Usage: osu_put_bw [options]\nOptions:\n  -w, --win-options"), r
    assert "  -W, --window-size" in r.stdout and "--validation" not in r.stdout


@pytest.mark.skipif(MPI != "openmpi", reason="Open MPI's one-sided components")
@pytest.mark.parametrize("win,call", list(WIN_CALL.items()))
def test_window_the_library_cannot_make_is_refused(win, call):
    """Open MPI 4.1's osc/rdma makes no window here: refused before the
    first row, naming the library, -w and -s, not a crash or a hang."""
    r = run(2, "osu_put_latency", *SMALL, "-w", win, "-s", "fence", timeout=60,
            extra_env={"OMPI_MCA_osc": "rdma"})
    assert r.returncode == 2, r
    assert re.search(rf"osu_put_latency: the window of -w {win} \({call}\) for -s fence cannot "
                     r"be made under Open MPI v4\.1", r.stderr), r
    assert "OMPI_MCA_osc=pt2pt" in r.stderr and "# Size" not in r.stdout


def jsonl_results(recs):
    return [x for x in recs if x["type"] == "result"]


@pytest.mark.parametrize("program,args", [
    ("osu_put_latency", ["-s", "flush"]),
    ("osu_put_bw", ["-s", "fence", "-W", "4"]),
    ("osu_get_latency", ["-s", "pscw"]),
    ("osu_get_bw", ["-s", "lock", "-W", "4"]),
    ("osu_acc_latency", ["-T", "MPI_INT", "-s", "lock_all"]),
    ("osu_fop_latency", ["-T", "MPI_INT"]),
])
def test_flipped_byte_is_reported(tmp_path, program, args):
    """tests/pmpi/corrupt.c flips the last one-sided transfer rank 0
    originates (in the checked pass of the last row): a put's or an
    accumulate's payload, a get's or a fetch's result.  That row reports it,
    the table ends with OSU's DATA VALIDATION ERROR, the run exits 1."""
    r, recs = flip_is_reported(tmp_path, program, ["-m", "1:8", "-i", "4", "-x", "1", "-check",
                                                   *args],
                               lambda rows: len(rows) - 1, rows_of=jsonl_results,
                               flipped_status=1)
    last = jsonl_results(recs)[-1]
    assert re.search(rf"^{last['bytes']} +\d+\.\d\d +failed$", r.stdout, re.M), r.stdout
    assert f"DATA VALIDATION ERROR: {program} exited with status 1 on message size " \
           f"{last['bytes']}." in r.stdout, r.stdout


# Started by mpiexec in front of each rank: runs the program and writes the
# peak resident memory of that one child (the wrapper's own is not counted).
RSS_WRAPPER = r'''
import os, resource, subprocess, sys
status = subprocess.call(sys.argv[2:], close_fds=False)
rank = next(os.environ[k] for k in ("OMPI_COMM_WORLD_RANK", "PMI_RANK") if k in os.environ)
with open(os.path.join(sys.argv[1], "rank." + rank), "w") as f:
    f.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(status if status >= 0 else 128 - status)
'''


def peak_rss_mib(tmp_path, program, *args):
    """Each rank's peak resident memory (MiB) in a run of the program."""
    out = tmp_path / f"rss{len(list(tmp_path.glob('rss*')))}"
    out.mkdir()
    wrapper = tmp_path / "rss_wrapper.py"
    wrapper.write_text(RSS_WRAPPER)
    cmd = mpiexec(2) + [sys.executable, str(wrapper), str(out), str(BUILD / program),
                        *map(str, args)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env())
    assert proc.returncode == 0, (proc.stdout[-2000:], proc.stderr[-2000:])
    return [int((out / f"rank.{k}").read_text()) / 1024 for k in (0, 1)]


BUF_MIB = 32


@pytest.mark.skipif(MPI != "openmpi", reason="the window's memory is the library's: MPICH "
                    "puts MPI_Win_allocate's in shared memory, resident once read")
@pytest.mark.parametrize("program,args,buffers", [
    # rank 0's origin buffer; the target's window is only read, and pages
    # never written take no memory (OSU's window is not initialised either)
    ("osu_get_bw", ["-W", "64", "-m", f"{BUF_MIB << 14}:{BUF_MIB << 14}"], [1, 1]),
    # the origin's buffer on both; the target's window, written by the puts
    # (not osu_acc_latency: Open MPI's pt2pt accumulate sometimes buffers a
    # whole message on one side or the other, as under OSU)
    ("osu_put_latency", ["-m", f"{BUF_MIB << 20}:{BUF_MIB << 20}"], [1, 2]),
])
def test_buffers_are_osus(tmp_path, program, args, buffers):
    """OSU's buffers per row (allocate_memory_one_sided): an origin buffer of
    the row's window size on each rank and the window; no result or compare
    buffer for put and get, no probe of the window that writes it whole.  Measured as each rank's peak resident memory above a
    run of 1-byte rows: whole buffers of 32 MiB, counted."""
    small = peak_rss_mib(tmp_path, program, "-m", "1:1", "-i", "2", "-x", "1")
    big = peak_rss_mib(tmp_path, program, *args, "-i", "2", "-x", "1")
    counted = [(b - s) / BUF_MIB for b, s in zip(big, small)]
    for rank, (n, want) in enumerate(zip(counted, buffers)):
        assert want - 0.25 < n < want + 0.5, (rank, counted, small, big)
