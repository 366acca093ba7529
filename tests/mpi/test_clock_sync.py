"""Clock synchronisation against known clocks (issue 40, docs/clock-sync.md).

tests/pmpi/skew.c shifts and skews every rank's MPI_Wtime by amounts chosen
here: rank r's clock minus rank 0's is exactly (o_r - o_0) + (d_r - d_0)(t - T0),
t the machine's monotonic clock, T0 rank 0's at MPI_Init (the library prints it).
EFFBENCH_TEST_CLOCK_TRACE makes every rank print its model after every
synchronisation: its offset (global minus local, us) at its local time local_s,
and what the check after the synchronisation measured: the rank's offset from the
reference (check_us) at the moment of the exchange it kept (its local time
check_local_s), that measurement's error bound (check_self_error_us) and the
model's offset at that moment (model_at_check_us).

- Each method recovers the injected offsets, and the check measures what the
  method left, honestly: at the check's moment the model's true error
  (model_at_check_us minus the truth) equals the measured offset within the
  measurement's bound (half the round trip of the exchange it came from), and
  the largest measured offset is below the smallest injected offset (3 ms).
- IMB-MPI1 Bcast -sync window measures the same (t_min: its fastest valid repetition)
  under skewed clocks as under true ones (within the true runs' spread, at least 2 us), and with -clock_sync none (each
  local clock taken as the global one) it comes out wrong by at least half the
  injected offset, so the library is shown to skew the clocks.
"""
import re
import statistics

import pytest

from effb import BUILD, read_jsonl, run

LIB = BUILD / "libeb_skew.so"
pytestmark = pytest.mark.skipif(not LIB.exists(), reason="no PMPI clock skewer")

OFFSETS_MS = [0.0, 5.0, -3.0, 8.0]
DRIFTS_PPM = [0.0, 20.0, -30.0, 10.0]
TRACE = re.compile(r"effbench clock: method (\S+) world_rank (\d+) rank \d+ offset_us \S+ "
                   r"drift_ppm \S+ check_us (\S+) check_error_us \S+ check_max_us \S+ "
                   r"error_us \S+ local_s \S+ check_local_s (\S+) check_self_error_us (\S+) "
                   r"model_at_check_us (\S+)\n")


def skew_env(offsets, drifts, **more):
    return {"LD_PRELOAD": str(LIB),
            "EFFBENCH_SKEW_OFFSET_MS": ",".join(str(o) for o in offsets),
            "EFFBENCH_SKEW_DRIFT_PPM": ",".join(str(d) for d in drifts), **more}


def truth_us(rank, local_s, t0):
    """Rank 0's clock minus rank's at the moment rank's clock read local_s."""
    o, d = [x * 1e-3 for x in OFFSETS_MS], [x * 1e-6 for x in DRIFTS_PPM]
    since = (local_s - o[rank] - t0) / (1 + d[rank])  # t - T0
    return 1e6 * ((o[0] - o[rank]) + (d[0] - d[rank]) * since)


def assert_check_measured_truth(stderr, method, n):
    """The n trace lines of a run under the skewing library: the model's true error when the
    check measured it equals what the check measured, within the bound it gives."""
    t0 = float(re.search(r"effbench skew: t0 (\S+)", stderr).group(1))
    lines = TRACE.findall(stderr)
    assert len(lines) == n
    for m, rank, check, at, check_err, model in lines:
        rank = int(rank)
        assert m == method
        # 1 ns: the trace's rounding to 6 decimals and double arithmetic on times since boot
        real = float(model) - truth_us(rank, float(at), t0)
        assert abs(real - float(check)) <= float(check_err) + 1e-3, \
            (rank, real, check, check_err)
        # recovered: the model's error, so bounded, is below the smallest injected offset (3 ms)
        assert abs(float(check)) + float(check_err) < 3000, (rank, check, check_err)
        if rank == 0:  # the reference: its global clock is its own
            assert float(check) == float(check_err) == float(model) == 0


# The check's bound holds at its moment on a loaded machine too (issue 40: compared at the
# trace line instead, tens to hundreds of ms later, the model had drifted past it by its drift
# error); the test command runs the first method (conftest's MPI_EVERY), CI's matrix stage all
@pytest.mark.parametrize("method", ["hca3_2level", "hca3", "linear", "skampi"])
def test_recovers_injected_offsets(tmp_path, method):
    out = tmp_path / "r.jsonl"
    r = run(4, "IMB-MPI1", "Bcast", "-sync", "window", "-clock_sync", method, "-msglog", "0:0",
            "-npmin", "4", "-iter", "20", "--json", out, timeout=240,
            extra_env=skew_env(OFFSETS_MS, DRIFTS_PPM, EFFBENCH_TEST_CLOCK_TRACE="1",
                               EFFBENCH_TEST_RANKS_PER_NODE="2"))
    assert r.returncode == 0, r
    assert_check_measured_truth(r.stderr, method, 4 * 2)  # two rows, a synchronisation each
    rows = [x for x in read_jsonl(out) if x["type"] == "result"]
    assert [x["clock_sync"] for x in rows] == [method, method]
    assert f"# clock synchronisation: {method} (-clock_sync); what it achieved: # clocks lines\n" \
        in r.stdout
    # the text's summary under the table: the rows' figures, as printed
    m = re.search(r"\n# clocks \((\S+)\): synchronised before each row in (\S+)\.\.(\S+) usec; "
                  r"measured offset\n# from rank 0's clock at most (\S+) usec \(\+- (\S+) usec\); "
                  r"drift estimate at most (\S+) ppm\n", r.stdout)
    assert m and m.group(1) == method, r.stdout
    assert float(m.group(2)) == round(min(x["clock_sync_us"] for x in rows), 1)
    assert float(m.group(4)) == round(max(x["clock_offset_max_us"] for x in rows), 2)
    for x in rows:
        assert x["clock_sync_us"] > 0 and x["clock_check_error_us"] > 0
        # below the smallest injected offset, 3 ms (a busy loop on one core makes the
        # ping-pongs wait for time slices: residuals of 1.9 ms measured there)
        assert 0 <= x["clock_offset_max_us"] < 3000
        assert x["clock_drift_ppm"] >= 0
    # skampi's model has no drift; linear's has none at its first estimate (the first row's),
    # and a later one turns the offset's change into a drift when more than 0.5 s lie between
    # (docs/clock-sync.md: under load the two rows' synchronisations can be that far apart)
    if method == "skampi":
        assert [x["clock_drift_ppm"] for x in rows] == [0, 0]
    if method == "linear":
        assert rows[0]["clock_drift_ppm"] == 0


def bcast_us(tmp_path, tag, method, env, column="t_min_us"):
    out = tmp_path / f"{tag}.jsonl"
    r = run(2, "IMB-MPI1", "Bcast", "-sync", "window", "-clock_sync", method, "-msglog", "2:2",
            "-npmin", "2", "-iter", "50", "--json", out, timeout=240, extra_env=env)
    assert r.returncode == 0, r
    (row,) = [x for x in read_jsonl(out) if x["type"] == "result" and x["bytes"] == 4]
    assert row["clock_sync"] == method
    return row[column]


@pytest.mark.matrix  # with a busy loop a 4-byte Bcast took 305-543 us, and the skewed run
def test_window_bcast_under_skewed_clocks(tmp_path):  # 1043 us: the residual, as above
    # rank 1 runs 1 ms ahead and 20 ppm fast
    skewed = skew_env([0, 1], [0, 20])
    # t_min: the fastest valid repetition, the least disturbed by the load
    true = [bcast_us(tmp_path, f"true{k}", "linear", {}) for k in range(2)]
    synced = [bcast_us(tmp_path, "skew", "linear", skewed)]
    # the true runs' spread, at least 2 us: a loaded machine's noise floor
    spread = max(max(true) - min(true), 2.0)
    for t in synced:
        assert min(true) - spread <= t <= max(true) + spread, (true, synced)
    # unsynchronised, rank 1 starts each window 1 ms early by the true clock and waits for the
    # root that long: the slowest rank's time (t_max) is wrong by about the offset (t_min,
    # the root's, need not be)
    raw = bcast_us(tmp_path, "raw", "none", skewed, "t_max_us")
    assert raw - statistics.median(true) >= 500


@pytest.mark.matrix  # as the two above: its bounds are the run's reported error
def test_skampi_window_under_skewed_clocks(tmp_path):
    """SKaMPI's Synchronization = Window with --clock-sync: the suite line names the method,
    every record the synchronisation it measured, and the Bcast times come out within the
    synchronisation error the run reports (not the injected offsets of 3 to 8 ms)."""
    (tmp_path / "w.skampi").write_text(
        "@OUTFILE w.sko\n@LOGFILE w.log\n@MEASUREMENTS\nW\n{\n Type = 18;\n Scale = Fixed_log;\n"
        " Start_Argument = 4;\n End_Argument = 8;\n Max_Repetition = 20;\n"
        " Synchronization = Window;\n}\n")
    r = run(4, "effbench", "skampi", "--clock-sync", "hca3", "--json", "w.jsonl", "w.skampi",
            cwd=tmp_path, timeout=240, extra_env=skew_env(OFFSETS_MS, DRIFTS_PPM))
    assert r.returncode == 0, r
    assert ('# suite "W": type 18 MPI_Bcast (collective), variation Length, scale Fixed_log, '
            'sync window, clocks hca3\n') in (tmp_path / "w.sko").read_text()
    rows = [x for x in read_jsonl(tmp_path / "w.jsonl") if x["type"] == "result"]
    assert [x["bytes"] for x in rows] == [4, 8]
    for x in rows:
        assert x["clock_sync"] == "hca3"
        assert x["clock_sync_us"] > 0 and x["clock_check_error_us"] > 0
        # far below the smallest injected offset (3 ms): with a busy loop on one core a
        # ping-pong waits for time slices, and the measured residual reached 1.9 ms
        assert 0 <= x["clock_offset_max_us"] < 3000 and x["clock_drift_ppm"] >= 0
        # a Bcast of a few bytes (under 1 ms here) plus the start and end offsets the run
        # measured: 1.9 ms of t_min with a busy loop, where that residual was 1.9 ms
        error = x["clock_offset_max_us"] + x["clock_check_error_us"]
        assert 0 < x["t_min_us"] < 1000 + 2 * error, (x["t_min_us"], error)
