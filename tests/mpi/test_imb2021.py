"""IMB 2021.11's command-line options (issue 21, docs/imb.md): job scripts
written for IMB 2021 run, and each option changes what IMB's does: the rows
(-zero_size, -msgsize, -data_type, -red_data_type), the tables
(-aggregate_mode, Uniband/Biband's columns), the header, the run record, and
the MPI calls made (-sync, -imb_barrier, -warm_up, -root_shift,
-window_size), counted on rank 0 by a PMPI library (tests/pmpi/calls.c)."""

import pytest

from effb import BUILD, parse_imb, read_jsonl, run

CALLS = BUILD / "libeb_calls.so"
OFF20 = ["-iter", "20,off", "-time", "1"]


def run_counted(tmp_path, tag, program, *args, np=2):
    """Run with the call-counting library; returns (Result, {key: count}, records)."""
    calls, js = tmp_path / f"{tag}.calls", tmp_path / f"{tag}.jsonl"
    r = run(np, program, *args, "--json", js, timeout=180,
            extra_env={"LD_PRELOAD": str(CALLS), "EFFBENCH_CALLS_FILE": str(calls)})
    assert r.returncode == 0, r
    counts = {}
    for line in calls.read_text().splitlines():
        key, n = line.rsplit(" ", 1)
        counts[key] = int(n)
    return r, counts, read_jsonl(js)


def sizes(block):
    return [int(row[0]) for row in block["rows"]]


def options(recs):
    return recs[0]["options"]


def test_sync_1_pingpong_runs_as_in_imb_2021(tmp_path):
    """The issue's command line: `IMB-MPI1 -sync 1 PingPong` (PingPong has no
    per-repetition barrier in IMB 2021 either: its table is unchanged)."""
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-MPI1", "-sync", "1", "PingPong", "-msglog", "3", *OFF20, "--json", js)
    assert r.returncode == 0, r
    (b,) = parse_imb(r.stdout)
    assert b["name"] == "PingPong" and sizes(b) == [0, 1, 2, 4, 8]
    assert b["header"] == ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"]
    assert "# -sync on (IMB 2021): collectives time each repetition on its own, a barrier after each" in r.stdout
    recs = read_jsonl(js)
    assert options(recs)["imb_sync"] == 1 and options(recs)["sync"] == "barrier"


def test_sync_adds_one_barrier_per_repetition_of_a_collective(tmp_path):
    """-sync 1: a barrier after every timed repetition (20 per row, 2 rows of
    Allreduce at -msglog 2); -sync 0 and the guide's default: none."""
    args = ["Allreduce", "-msglog", "2", *OFF20]
    _, guide, rg = run_counted(tmp_path, "guide", "IMB-MPI1", *args)
    _, off, _ = run_counted(tmp_path, "off", "IMB-MPI1", *args, "-sync", "0")
    _, on, ro = run_counted(tmp_path, "on", "IMB-MPI1", *args, "-sync", "on")
    assert off["Barrier"] == guide["Barrier"]
    assert on["Barrier"] - off["Barrier"] == 2 * 20
    assert options(rg)["imb_sync"] is None and options(ro)["imb_sync"] == 1
    # the benchmark's own calls are the same in all three
    assert guide["Allreduce:MPI_FLOAT"] == off["Allreduce:MPI_FLOAT"] == on["Allreduce:MPI_FLOAT"]


@pytest.mark.parametrize("bench", ["Reduce_local", "Reduce_scatter_block"])
def test_sync_applies_to_imb_2021_reductions(tmp_path, bench):
    """IMB 2021's Reduce_local and Reduce_scatter_block: -sync 1 adds a barrier
    after every repetition (2 rows of 20), as for the other collectives."""
    args = [bench, "-msglog", "2", *OFF20]
    _, off, _ = run_counted(tmp_path, "off", "IMB-MPI1", *args, "-sync", "0")
    r, on, _ = run_counted(tmp_path, "on", "IMB-MPI1", *args, "-sync", "1")
    assert on["Barrier"] - off["Barrier"] == 2 * 20
    (b,) = parse_imb(r.stdout)
    assert b["name"] == bench and sizes(b) == [0, 4]
    assert b["header"] == ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"]


def test_sync_in_nbc_covers_both_loops(tmp_path):
    """IMB-NBC -sync 1: a barrier after every repetition of t_pure's loop and
    of the overlap loop (2 x 20 per row, 2 rows)."""
    args = ["Ibcast", "-msglog", "1:1", *OFF20]
    _, off, _ = run_counted(tmp_path, "off", "IMB-NBC", *args, "-sync", "0")
    r, on, _ = run_counted(tmp_path, "on", "IMB-NBC", *args, "-sync", "1")
    assert on["Barrier"] - off["Barrier"] == 2 * 2 * 20
    (b,) = parse_imb(r.stdout)
    assert sizes(b) == [0, 2]
    assert b["header"] == ["#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]",
                           "overlap[%]"]


def test_imb_barrier_replaces_the_barriers_before_each_loop(tmp_path):
    """-imb_barrier on: the N_BARR = 2 barriers before each timed loop are
    IMB's own (one zero-byte MPI_Sendrecv round at 2 ranks)."""
    args = ["Allreduce", "-msglog", "2", *OFF20]
    _, plain, _ = run_counted(tmp_path, "plain", "IMB-MPI1", *args)
    r, own, recs = run_counted(tmp_path, "own", "IMB-MPI1", *args, "-imb_barrier", "1")
    assert plain["Barrier"] - own["Barrier"] == 2 * 2
    assert own["Sendrecv0"] - plain.get("Sendrecv0", 0) == 2 * 2
    assert options(recs)["imb_barrier"] is True
    assert "# -imb_barrier on: IMB's own barrier" in r.stdout


def test_warm_up(tmp_path):
    """The guide (no option): 2 untimed calls before the first length;
    -warm_up 0: none; -warm_up 1 (IMB 2021): n/10 = 2 before every length."""
    args = ["Allreduce", "-msglog", "3", *OFF20]  # lengths 0, 4, 8
    _, guide, rg = run_counted(tmp_path, "guide", "IMB-MPI1", *args)
    _, none, rn = run_counted(tmp_path, "none", "IMB-MPI1", *args, "-warm_up", "0")
    _, each, re_ = run_counted(tmp_path, "each", "IMB-MPI1", *args, "-warm_up", "yes")
    assert none["Allreduce:MPI_FLOAT"] == 3 * 20
    assert guide["Allreduce:MPI_FLOAT"] == 3 * 20 + 2
    assert each["Allreduce:MPI_FLOAT"] == 3 * 20 + 3 * 2
    assert [options(x)["warm_up"] for x in (rg, rn, re_)] == [None, 0, 1]


def test_root_shift(tmp_path):
    """The guide and -root_shift 1: root i % 2 in repetition i; -root_shift 0:
    root 0 always.  -check verifies the data against the root it used."""
    args = ["Bcast", "-msglog", "1", *OFF20, "-check"]  # lengths 0, 1, 2
    _, guide, _ = run_counted(tmp_path, "guide", "IMB-MPI1", *args)
    _, shift, _ = run_counted(tmp_path, "shift", "IMB-MPI1", *args, "-root_shift", "1")
    r, fixed, recs = run_counted(tmp_path, "fixed", "IMB-MPI1", *args, "-root_shift", "0")
    reps = 2 + 3 * 20 + 3 * 20  # warm-up, timed, checked pass
    assert guide["Bcast:MPI_BYTE:root0"] == guide["Bcast:MPI_BYTE:root1"] == reps // 2
    assert shift["Bcast:MPI_BYTE:root0"] == shift["Bcast:MPI_BYTE:root1"] == reps // 2
    assert fixed["Bcast:MPI_BYTE:root0"] == reps and "Bcast:MPI_BYTE:root1" not in fixed
    assert [x["defects"] for x in recs if x["type"] == "result"] == [0, 0, 0]
    assert options(recs)["root_shift"] == 0
    assert "# -root_shift off: rooted collectives use root 0 in every repetition" in r.stdout


def test_zero_size_off_drops_the_0_byte_row(tmp_path):
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-MPI1", "PingPong", "Allreduce", "Barrier", "-msglog", "1:3", "-zero_size", "0",
            *OFF20, "--json", js)
    assert r.returncode == 0, r
    pp, ar, ba = parse_imb(r.stdout)
    assert sizes(pp) == [2, 4, 8] and sizes(ar) == [4, 8] and len(ba["rows"]) == 1
    assert "# Minimum message length in bytes:   2" in r.stdout
    recs = read_jsonl(js)
    assert options(recs)["zero_size"] is False
    assert options(recs)["planned_rows"] == len([x for x in recs if x["type"] == "result"]) == 6


def test_msgsize_lists_the_lengths(tmp_path):
    """-msgsize: the lengths of the command line; -zero_size touches only the
    -msglog series, as in IMB."""
    r = run(2, "IMB-MPI1", "PingPong", "-msgsize", "0,100,1000", "-zero_size", "off", *OFF20)
    assert r.returncode == 0, r
    (b,) = parse_imb(r.stdout)
    assert sizes(b) == [0, 100, 1000]
    assert "# Message lengths were user-defined" in r.stdout


def test_data_types(tmp_path):
    """-data_type int: p2p and data-moving collectives send MPI_INT, lengths in
    whole ints; -red_data_type double: reductions in doubles.  Checked: 0 defects."""
    args = ["PingPong", "Bcast", "Allreduce", "Reduce_scatter", "-msglog", "4",
            "-data_type", "int", "-red_data_type", "double", *OFF20, "-check"]
    r, calls, recs = run_counted(tmp_path, "typed", "IMB-MPI1", *args)
    pp, bc, ar, rs = parse_imb(r.stdout)
    assert sizes(pp) == [0, 4, 8, 16] and sizes(bc) == [0, 4, 8, 16]
    assert sizes(ar) == [0, 8, 16] and sizes(rs) == [0, 8, 16]
    assert "# MPI_Datatype                   :   MPI_INT " in r.stdout
    assert "# MPI_Datatype for reductions    :   MPI_DOUBLE " in r.stdout
    assert all(x["defects"] == 0 for x in recs if x["type"] == "result")
    # rank 0's PingPong sends: warm-up 2, 4 rows x 20 timed + 20 checked
    assert calls["Send:MPI_INT"] == 2 + 4 * 40 and "Send:MPI_BYTE" not in calls
    assert calls["Allreduce:MPI_DOUBLE"] >= 2 + 3 * 40
    assert "Allreduce:MPI_FLOAT" not in calls
    assert options(recs)["data_type"] == "int" and options(recs)["red_data_type"] == "double"


@pytest.mark.asan
@pytest.mark.parametrize("rtype", ["char", "int", "float"])
def test_reduction_types_check_clean(rtype):
    r = run(2, "IMB-MPI1", "Allreduce", "Reduce", "-msglog", "5", "-red_data_type", rtype,
            "-iter", "10,off", "-check")
    assert r.returncode == 0, r
    for b in parse_imb(r.stdout):
        assert b["rows"] and all(float(row[-1]) == 0 for row in b["rows"])


def test_window_size_uniband_biband(tmp_path):
    """Uniband and Biband (by name): IMB's columns; -window_size 8 puts 8
    messages per pair in flight per repetition (rank 0 sends 8 per repetition
    in Uniband, Biband too), against IMB's default 256."""
    args = ["Uniband", "Biband", "-msglog", "1", "-iter", "10,off", "-check"]
    r, small, recs = run_counted(tmp_path, "w8", "IMB-MPI1", *args, "-window_size", "8")
    _, big, _ = run_counted(tmp_path, "w256", "IMB-MPI1", *args)
    reps = 2 + 3 * 10 + 3 * 10  # per benchmark: warm-up, timed, checked
    assert small["Isend:MPI_BYTE"] == 2 * reps * 8
    assert big["Isend:MPI_BYTE"] == 2 * reps * 256
    uni, bi = parse_imb(r.stdout)
    for b in (uni, bi):
        assert b["header_line"] == ("       #bytes #repetitions   Mbytes/sec      Msg/sec"
                                    "      defects")
        assert sizes(b) == [0, 1, 2] and all(float(row[-1]) == 0 for row in b["rows"])
    assert "# -window_size 8: messages in flight per pair in Uniband and Biband" in r.stdout
    res = [x for x in recs if x["type"] == "result"]
    assert options(recs)["window_size"] == 8 and all(x["msg_per_sec"] > 0 for x in res)
    # Biband moves both ways: twice the messages per time
    for x in res:
        t = x["t_max_us"] / 1e6
        want = (2 if x["benchmark"] == "Biband" else 1) * 8 / t
        assert x["msg_per_sec"] == pytest.approx(want, rel=1e-9)


def test_uniband_runs_on_even_process_counts():
    r = run(3, "IMB-MPI1", "Uniband", "-msglog", "1", "-iter", "10,off")
    assert r.returncode == 0, r
    assert [b["procs"] for b in parse_imb(r.stdout)] == [2]
    r = run(2, "IMB-RMA", "-window_size", "8")
    assert r.returncode == 2
    assert ("effbench: error: -window_size: IMB-RMA has no such option in IMB 2021.11 "
            "(IMB-MPI1 has it)") in r.stderr


@pytest.mark.parametrize("mode,label", [("aggregate", "AGGREGATE"), ("non_aggregate", "NON-AGGREGATE")])
def test_aggregate_mode(tmp_path, mode, label):
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-EXT", "Unidir_Put", "-msglog", "2", "-iter", "10,off", "-aggregate_mode", mode,
            "--json", js)
    assert r.returncode == 0, r
    (b,) = parse_imb(r.stdout)
    assert b["mode"] == label and sizes(b) == [0, 4]  # IMB-EXT: lengths in floats
    recs = read_jsonl(js)
    assert options(recs)["aggregate_mode"] == mode and options(recs)["planned_rows"] == 2


def test_list():
    r = run(1, "IMB-MPI1", "-list")
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[:4] == ["IMB-MPI1", "List of benchmarks:", "IMB-MPI1:", "    Allgather"]
    assert "    Uniband (non-default)" in lines and "    PingPong" in lines
    assert lines[3:] == sorted(lines[3:])


def test_sync_method_and_its_aliases(tmp_path):
    """-sync_method window is the new name; -sync window still works; both
    are recorded as sync "window"."""
    for args in (["-sync_method", "window"], ["-sync", "window"]):
        js = tmp_path / "w.jsonl"
        r = run(2, "IMB-MPI1", "Sendrecv", "-msglog", "1", "-iter", "10,off", *args, "--json", js)
        assert r.returncode == 0, r
        (b,) = parse_imb(r.stdout)
        assert b["header"][-1] == "valid"
        assert options(read_jsonl(js))["sync"] == "window"


def test_msg_pause_is_recorded(tmp_path):
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-MPI1", "PingPong", "-msglog", "1", "-iter", "10,off", "-msg_pause", "on",
            "--json", js)
    assert r.returncode == 0, r
    assert "# -msg_pause on: a pause after every length" in r.stdout
    assert options(read_jsonl(js))["msg_pause"] is True


def test_one_put_all_completes_as_each_method_says(tmp_path):
    """One_put_all / One_get_all: the guide's pattern (N*MPI_Put)/MPI_Win_flush_all completes
    every repetition; IMB 2021.11's code (IMB_rma_put_all) flushes once after all of them,
    which --imb-defaults 2021 follows.  Counted on rank 0, the only origin: 2 lengths x 20
    repetitions (the 0-byte row's too)."""
    counts = {}
    for defaults in ("4.0", "2021"):
        for bench in ("One_put_all", "One_get_all"):
            _, c, recs = run_counted(tmp_path, f"{bench}{defaults}", "IMB-RMA", bench,
                                     "-msglog", "2:3", "-iter", "20,off",
                                     "--imb-defaults", defaults)
            rows = [x for x in recs if x["type"] == "result" and x["bytes"] > 0]
            assert [x["bytes"] for x in rows] == [4, 8] and all(x["repetitions"] == 20
                                                               for x in rows), rows
            counts[bench, defaults] = c.get("Win_flush_all", 0)
    for bench in ("One_put_all", "One_get_all"):
        # 0, 4 and 8 bytes: 20 flushes a length (at least: a probe may add one) against
        # one a kernel call, the timed loop and IMB 2021's -warm_up run before it
        assert counts[bench, "4.0"] >= 3 * 20, counts
        assert counts[bench, "2021"] == 3 * 2, counts
