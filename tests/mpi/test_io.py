"""IMB-IO under 1..4 ranks: every benchmark with -check and zero defects, the
block/mode/column structure of real IMB-IO output, files removed afterwards,
file names of the guide, hints files, and clean errors for unwritable places."""
import os
import pathlib
import shutil
import tempfile

import pytest

from effb import SAMPLES, imb_procs, parse_imb, read_jsonl, run

SAMPLE = SAMPLES / "imb" / "io_np2.txt"

SHAPES = [("S", "Indv"), ("S", "Expl"), ("P", "Indv"), ("P", "Shared"), ("P", "Priv"),
          ("P", "Expl"), ("C", "Indv"), ("C", "Shared"), ("C", "Expl")]
# IMB's default list: writes, then reads, each blocking then nonblocking
ALL = [f"{c}_{i}{a}_{p}" for a in ("Write", "Read") for c, p in SHAPES for i in ("", "I")]
ALL.append("Open_Close")
assert len(ALL) == 37

SIZES = [0, 1, 2, 4, 8]
COLS_T = "       #bytes #repetitions      t[usec]   Mbytes/sec      defects"
COLS_RANGE = ("       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
              "   Mbytes/sec      defects")
COLS_OVRL = ("       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]"
             "      defects")
COLS_SYNC = " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects"

FAST = ["-time", "0.02", "--target-cpu-secs", "0.001"]


@pytest.fixture
def io_dir(tmp_path):
    """Where the benchmark files go.  On this VM every MPI_File_sync to disk
    costs ~10 ms, so the full-suite runs use a RAM file system when there is
    one; test_files_removed_on_disk covers a real disk directory."""
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        d = pathlib.Path(tempfile.mkdtemp(prefix="effbench-io-", dir="/dev/shm"))
        yield d
        shutil.rmtree(d, ignore_errors=True)
    else:
        yield tmp_path / "io"


def nonblocking(name):
    return name.split("-")[-1][2] == "I"  # S_IWrite_Indv, Multi-P_IRead_Priv


def expected_blocks(names, np):
    """(name, procs, mode, waiting) of every block IMB-IO prints."""
    out = []
    for n in names:
        if n == "Open_Close":
            modes = [None]
        elif nonblocking(n):
            modes = ["NON-AGGREGATE"]
        elif "Write" in n:
            modes = ["AGGREGATE", "NON-AGGREGATE"]
        else:
            modes = ["AGGREGATE"]
        qs = [1] if n.startswith("S_") else imb_procs(np, first=1)
        for q in qs:
            for m in modes:
                out.append((n, q, m, np - q))
    return out


def header_of(name):
    if name == "Open_Close":
        return COLS_SYNC
    if nonblocking(name):
        return COLS_OVRL
    return COLS_T if name.startswith("S_") else COLS_RANGE


@pytest.mark.asan
@pytest.mark.parametrize("np", [1, 2, 3, 4])
def test_every_benchmark_checked(io_dir, tmp_path, np):
    io_dir.mkdir(exist_ok=True)
    js = tmp_path / "io.jsonl"
    # oversubscribed runs (3, 4 ranks on 2 cores) are slow at every barrier:
    # fewer lengths there
    msglog, sizes = ("0:3", SIZES) if np <= 2 else ("0:1", SIZES[:3])
    r = run(np, "IMB-IO", "-msglog", msglog, "-iter", "10,16,5", *FAST, "-check",
            "-filename", io_dir / "IMB_out", "--json", js, timeout=400)
    assert r.returncode == 0, r
    assert list(io_dir.iterdir()) == []  # every file removed
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"], b["mode"], b["waiting"]) for b in blocks] == \
        expected_blocks(ALL, np)
    recs = read_jsonl(js)
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    results = iter([x for x in recs if x["type"] == "result"])
    for b in blocks:
        name = b["name"]
        assert b["header_line"] == header_of(name), name
        if name == "Open_Close":
            assert len(b["rows"]) == 1
        else:
            assert [int(row[0]) for row in b["rows"]] == sizes, name
        for row in b["rows"]:
            assert row[-1] == "0.00", (name, row)  # defects
            rec = next(results)
            assert rec["component"] == "io" and rec["benchmark"] == name
            assert rec["procs"] == b["procs"] and rec["defects"] == 0
            assert rec["mode"] == (b["mode"].lower() if b["mode"] else None)
            reps = rec["repetitions"]
            assert int(row[-5 if name == "Open_Close" else 1]) == reps
            # MSGSPERSAMPLE (-iter 10) / MSGS_NONAGGR (5) bound the counts
            assert 1 <= reps <= (10 if rec["mode"] != "non-aggregate" else 5)
            if nonblocking(name):
                t_ovrl, t_pure, t_cpu = rec["t_ovrl_us"], rec["t_pure_us"], rec["t_cpu_us"]
                assert row[2:6] == [f"{t_ovrl:.2f}", f"{t_pure:.2f}", f"{t_cpu:.2f}",
                                    f"{rec['overlap_pct']:.2f}"]
                lo = min(t_pure, t_cpu)
                ov = 100 * max(0, min(1, (t_pure + t_cpu - t_ovrl) / lo)) if lo > 0 else 0
                assert rec["overlap_pct"] == pytest.approx(ov, abs=1e-9)
                assert rec["mbytes_per_s"] is None
                assert t_cpu > 100  # --target-cpu-secs 0.001 is 1000 us of work
            elif name != "Open_Close":
                mb = rec["bytes"] / 1.048576 / rec["t_max_us"]
                assert rec["mbytes_per_s"] == pytest.approx(mb, rel=1e-12)
                assert row[-2] == f"{rec['mbytes_per_s']:.2f}"
    assert next(results, None) is None


# P_ and C_ benchmarks, blocking and nonblocking, every file pointer
PC = [n for n in ALL if n[0] in "PC"]
assert len(PC) == 28


@pytest.mark.asan
@pytest.mark.parametrize("np", [3, 4])
def test_uneven_portions_on_every_rank_checked(io_dir, tmp_path, np):
    """Lengths where every rank holds data and the parts differ (4096, 1000,
    37 bytes: at 4 ranks 1024 x 4 / 252 252 248 248 / 12 12 8 5, the last
    part ragged): 0 defects for every P_ and C_ benchmark at Q = np."""
    io_dir.mkdir(exist_ok=True)
    lengths = tmp_path / "lengths"
    lengths.write_text("4096\n1000\n37\n")
    js = tmp_path / "io.jsonl"
    r = run(np, "IMB-IO", *PC, "-npmin", np, "-msglen", lengths, "-iter", "4,16,2", *FAST,
            "-check", "-filename", io_dir / "IMB_out", "--json", js, timeout=120)
    assert r.returncode == 0, r
    assert list(io_dir.iterdir()) == []
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"], b["mode"], b["waiting"]) for b in blocks] == [
        (n, q, m, w) for n, q, m, w in expected_blocks(PC, np) if q == np]
    for b in blocks:
        assert [int(row[0]) for row in b["rows"]] == [4096, 1000, 37], b["name"]
        assert all(row[-1] == "0.00" for row in b["rows"]), (b["name"], b["mode"], b["rows"])
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert len(results) == 3 * len(blocks) and all(x["defects"] == 0 for x in results)


def test_blocks_and_header_as_real_imb_io(io_dir):
    """The calling sequence of the real IMB-IO sample gives the same blocks,
    process counts, modes and column headers."""
    io_dir.mkdir(exist_ok=True)
    r = run(2, "IMB-IO", "S_Write_indv", "P_Read_expl", "-msglog", "0:2", "-iter", "10",
            *FAST, "-filename", io_dir / "IMB_out")
    assert r.returncode == 0, r
    mine = parse_imb(r.stdout)
    key = [(b["name"], b["procs"], b["mode"], b["waiting"], b["header_line"]) for b in mine]
    real = parse_imb(SAMPLE.read_text())
    assert key == [(b["name"], b["procs"], b["mode"], b["waiting"], b["header_line"])
                   for b in real]
    assert key[0] == ("S_Write_Indv", 1, "AGGREGATE", 1,
                      "       #bytes #repetitions      t[usec]   Mbytes/sec")
    assert "MPI-IO part" in r.stdout.splitlines()[1]
    assert "# Minimum io portion in bytes:   0" in r.stdout
    assert "# Maximum io portion in bytes:   4" in r.stdout
    assert "# List of Benchmarks to run:\n\n# S_Write_Indv\n# P_Read_Expl\n" in r.stdout
    assert "MPI_Datatype" not in r.stdout
    # dashes as wide as the table
    lines = r.stdout.splitlines()
    i = lines.index("# Benchmarking S_Write_Indv ")
    assert lines[i - 1] == "#" + "-" * 51
    i = lines.index("# Benchmarking P_Read_Expl ")
    assert lines[i - 1] == "#" + "-" * 77
    assert list(io_dir.iterdir()) == []


@pytest.mark.parametrize("mode,label,reps_max", [("2021", "AGGREGATE", 10),
                                                  ("4.0", "NON-AGGREGATE", 5)])
def test_nonblocking_tables_per_method(io_dir, tmp_path, mode, label, reps_max):
    """The I-flavours: the guide's one NON-AGGREGATE table (MSGS_NONAGGR repetitions, t_CPU
    measured per row), or IMB 2021.11's one AGGREGATE table (MSGSPERSAMPLE repetitions all
    initiated before one wait, t_CPU its calibration's time in every row).  -iter_policy off
    with a 1 MB volume makes the reads cycle over their one prepared block."""
    io_dir.mkdir(exist_ok=True)
    js = tmp_path / "nb.jsonl"
    names = ["S_IWrite_indv", "P_IRead_indv", "P_IWrite_expl", "C_IRead_shared"]
    r = run(2, "IMB-IO", "--imb-defaults", mode, *names, "-msglog", "2:3", "-iter", "10,1,5",
            "-iter_policy", "off", "--target-cpu-secs", "0.001", "-filename", io_dir / "IMB_out",
            "--json", js, timeout=300)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["mode"]) for b in blocks] == [
        ("S_IWrite_Indv", label), ("P_IRead_Indv", label), ("P_IRead_Indv", label),
        ("P_IWrite_Expl", label), ("P_IWrite_Expl", label), ("C_IRead_Shared", label),
        ("C_IRead_Shared", label)]
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert len(rows) == 7 * 3 and {x["repetitions"] for x in rows} == {reps_max}
    assert {x["mode"] for x in rows} == {label.lower()}
    cpu = {x["t_cpu_us"] for x in rows}
    assert (len(cpu) == 1) == (mode == "2021"), cpu
    assert ("# For nonblocking benchmarks:" in r.stdout) == (mode == "2021")
    assert list(io_dir.iterdir()) == []


@pytest.mark.asan
def test_multi_groups_rows_and_checks(io_dir):
    io_dir.mkdir(exist_ok=True)
    r = run(4, "IMB-IO", "S_Write_Expl", "P_IRead_Priv", "C_Write_Shared", "-multi", "1",
            "-msglog", "0:2", "-iter", "10", *FAST, "-check", "-filename", io_dir / "f")
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [(b["name"], b["procs"], b["mode"]) for b in blocks] == [
        # in the order named, as IMB runs them
        ("Multi-S_Write_Expl", 1, "AGGREGATE"), ("Multi-S_Write_Expl", 1, "NON-AGGREGATE"),
        ("Multi-P_IRead_Priv", 1, "NON-AGGREGATE"), ("Multi-P_IRead_Priv", 2, "NON-AGGREGATE"),
        ("Multi-P_IRead_Priv", 4, "NON-AGGREGATE"),
        ("Multi-C_Write_Shared", 1, "AGGREGATE"), ("Multi-C_Write_Shared", 1, "NON-AGGREGATE"),
        ("Multi-C_Write_Shared", 2, "AGGREGATE"), ("Multi-C_Write_Shared", 2, "NON-AGGREGATE"),
        ("Multi-C_Write_Shared", 4, "AGGREGATE"), ("Multi-C_Write_Shared", 4, "NON-AGGREGATE")]
    for b in blocks:
        assert b["header"][0] == "#group"
        groups = 4 // b["procs"]
        assert len(b["groups"]) == groups
        assert [(int(row[0]), int(row[1])) for row in b["rows"]] == [
            (g, x) for x in (0, 1, 2, 4) for g in range(groups)]
        assert all(row[-1] == "0.00" for row in b["rows"]), b
    assert list(io_dir.iterdir()) == []


def test_files_removed_on_disk(tmp_path):
    d = tmp_path / "disk"
    d.mkdir()
    r = run(2, "IMB-IO", "P_Write_Indv", "C_Read_Shared", "P_IWrite_Priv", "Open_Close",
            "-msglog", "0:1", "-iter", "4,16,2", *FAST, "-check", "-filename", d / "IMB_out")
    assert r.returncode == 0, r
    assert all(row[-1] == "0.00" for b in parse_imb(r.stdout) for row in b["rows"])
    assert list(d.iterdir()) == []


def unwritable_dir(tmp_path):
    """A directory where files cannot be created: chmod 555, or for root (who
    ignores permissions) the read-only top of sysfs."""
    if os.geteuid() != 0:
        d = tmp_path / "ro"
        d.mkdir()
        d.chmod(0o555)
        return d
    return pathlib.Path("/sys")


@pytest.mark.parametrize("np,bench,suffix", [
    (1, "P_Write_Indv", ""), (3, "C_IRead_Expl", ""), (2, "S_Read_Indv", "_0"),
    (3, "Multi-P_Write_Priv", "_g0_0"), (2, "Open_Close", "")])
def test_unwritable_directory(tmp_path, np, bench, suffix):
    d = unwritable_dir(tmp_path)
    base = d / "effbench_io_test"
    r = run(np, "IMB-IO", bench, "-msglog", "0:1", *FAST, "-filename", base, timeout=60)
    assert r.returncode == 2, r
    err = [line for line in r.stderr.splitlines() if line.startswith("effbench: error:")]
    assert len(err) == 1, r.stderr
    assert err[0].startswith(f"effbench: error: IMB-IO file {base}{suffix}: cannot create it: "), err
    assert "MPI_Abort" not in r.stderr and "backtrace" not in r.stderr.lower()


def test_info_hints(io_dir, tmp_path):
    io_dir.mkdir(exist_ok=True)
    hints = tmp_path / "hints.txt"
    hints.write_text("# ROMIO hints\nromio_cb_write enable\n\nstriping_unit 65536\n")
    r = run(2, "IMB-IO", "C_Write_Indv", "-msglog", "0:1", "-iter", "4", *FAST, "-check",
            "--info", hints, "-filename", io_dir / "IMB_out")
    assert r.returncode == 0, r
    assert (f"# File info hints from {hints}: romio_cb_write=enable striping_unit=65536"
            in r.stdout)
    assert all(row[-1] == "0.00" for b in parse_imb(r.stdout) for row in b["rows"])
    assert list(io_dir.iterdir()) == []

    bad = tmp_path / "bad.txt"
    bad.write_text("romio_cb_write enable\ncb_nodes\n")
    r = run(2, "IMB-IO", "C_Write_Indv", "--info", bad, timeout=60)
    assert r.returncode == 2, r
    assert f"effbench: error: {bad}:2: hint 'cb_nodes' has no value (expected 'key value')" \
        in r.stderr.splitlines()

    r = run(1, "IMB-IO", "--info", tmp_path / "missing.txt", timeout=60)
    assert r.returncode == 2, r
    assert f"effbench: error: --info {tmp_path / 'missing.txt'}: cannot read:" in r.stderr


@pytest.mark.parametrize("args,msg", [
    (["-filename"], "option -filename needs a value"),
    (["--target-cpu-secs", "0"], "--target-cpu-secs 0: expected seconds in (0, 100]"),
    (["P_Write_Everything"], "unknown benchmark 'P_Write_Everything' for IMB-IO"),
])
def test_option_errors(args, msg):
    r = run(2, "IMB-IO", *args, timeout=60)
    assert r.returncode == 2, r
    assert any(line.startswith(f"effbench: error: {msg}") for line in r.stderr.splitlines()), \
        r.stderr
