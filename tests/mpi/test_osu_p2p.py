"""OSU 7.4's point-to-point and start-up programs (docs/osu/pt2pt.md): osu_latency,
osu_bw, osu_bibw, osu_mbw_mr, osu_multi_lat, osu_latency_mp, osu_bw_fan_in/out, the
persistent three, osu_init and osu_hello.  Values are checked through relations that
hold whatever the timing (JSON against text, Messages/s against MB/s, percentiles
ordered, Transmit Size from the derived type), never through how fast anything ran."""
import re

import pytest

from effb import BUILD, MPI, busy_mpich, read_jsonl, run
from osu_helpers import parse_osu

SMALL = ["-i", "20", "-x", "2"]
OSU_WIDTH = 18  # OSU_FIELD_WIDTH (src/osu/osu.h: OSU 7.4 configure's)
LAT_HEADER = "# Size" + " " * 4 + "Avg Latency(us)".rjust(OSU_WIDTH)
BW_HEADER = "# Size" + " " * 4 + "Bandwidth (MB/s)".rjust(OSU_WIDTH)
LIB = BUILD / "libeb_corrupt.so"
FOUR = busy_mpich(4)


def osu(tmp_path, np, program, *args, extra_env=None):
    """Run, expect success; returns (text, result records, end record)."""
    js = tmp_path / f"{program}.jsonl"
    r = run(np, program, *args, "--json", js, timeout=120, extra_env=extra_env)
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    end = recs[-1]
    assert end["type"] == "end" and end["rows"] == end["planned_rows"], end
    results = [x for x in recs if x["type"] == "result"]
    assert len(results) == end["rows"]
    return r.stdout, results, end


def columns(header):
    """Titles of a column line: "# Size" 10 wide, then fields OSU_WIDTH wide (split on
    blanks, "P50 Tail BW(MB/s)" has only one blank before it)."""
    rest = header[10:]
    return [header[:10].strip()] + [rest[k:k + OSU_WIDTH].strip()
                                    for k in range(0, len(rest), OSU_WIDTH)]


def table_rows(table):
    """[{column title: value}] of a table, by its fixed-width column line."""
    cols = columns(table["header"])
    return [dict(zip(cols, r)) for r in table["rows"]]


def sizes(lo, hi):
    out, s = [], lo
    while s <= hi:
        out.append(s)
        s *= 2
    return out


def refused(np, program, *args, words, extra_env=None):
    r = run(np, program, *args, timeout=60, extra_env=extra_env)
    assert r.returncode == 2, r
    for w in words:
        assert w in r.stderr, (w, r)


# ---- latency programs ------------------------------------------------------

LATENCY = [(2, "osu_latency", "OSU MPI Latency Test"),
           (2, "osu_latency_persistent", "OSU MPI Latency Persistent Test"),
           (2, "osu_multi_lat", "OSU MPI Multi Latency Test"),
           pytest.param(4, "osu_multi_lat", "OSU MPI Multi Latency Test", marks=FOUR)]


@pytest.mark.parametrize("np,program,title", LATENCY)
def test_latency_rows(tmp_path, np, program, title):
    text, rows, _ = osu(tmp_path, np, program, "-m", "512", *SMALL, "-c")
    t = parse_osu(text)
    assert t["title"] == f"# {title} v7.4"
    assert text.startswith("\n# ")
    (table,) = t["tables"]
    assert table["datatype"] == "MPI_CHAR"
    assert table["header"] == LAT_HEADER + "Validation".rjust(OSU_WIDTH)
    got = table_rows(table)
    # OSU's minimum size is 0, but a size of no whole element is skipped
    assert [int(x["# Size"]) for x in got] == sizes(1, 512)
    assert [x["bytes"] for x in rows] == sizes(1, 512)
    for x, j in zip(got, rows):
        assert x["Validation"] == "Pass" and j["defects"] == 0 and j["checked"] is True
        assert j["t_avg_us"] > 0 and x["Avg Latency(us)"] == f"{j['t_avg_us']:.2f}"
        assert j["procs"] == np and j["repetitions"] == 20


def test_latency_percentiles_and_types(tmp_path):
    text, rows, _ = osu(tmp_path, 2, "osu_latency", "-m", "4:64", *SMALL, "-z", "-T", "all")
    tables = parse_osu(text)["tables"]
    assert [t["datatype"] for t in tables] == ["MPI_CHAR", "MPI_INT", "MPI_FLOAT"]
    assert columns(tables[0]["header"])[2:] == ["P50 Tail Lat(us)", "P90 Tail Lat(us)",
                                        "P99 Tail Lat(us)"]
    assert [r["datatype"] for r in rows] == ["MPI_CHAR"] * 5 + ["MPI_INT"] * 5 + ["MPI_FLOAT"] * 5
    for r in rows:
        p = r["percentiles"]
        assert 0 < p["50"] <= p["90"] <= p["99"]


def test_multi_lat_percentiles_as_osu(tmp_path):
    """OSU's osu_multi_lat prints the -z titles and no values; the records have them."""
    text, rows, _ = osu(tmp_path, 2, "osu_multi_lat", "-m", "64", *SMALL, "-z")
    table = parse_osu(text)["tables"][0]
    assert columns(table["header"]) == ["# Size", "Avg Latency(us)", "P50 Tail Lat(us)",
                                        "P90 Tail Lat(us)", "P99 Tail Lat(us)"]
    assert [len(r) for r in table["rows"]] == [2] * 7
    for r in rows:
        p = r["percentiles"]
        assert 0 < p["50"] <= p["90"] <= p["99"]


def test_latency_mp_forks_and_its_row_format(tmp_path):
    text, rows, _ = osu(tmp_path, 2, "osu_latency_mp", "-m", "64", *SMALL, "-t", "3:1")
    lines = text.splitlines()
    assert lines[:4] == ["# Number of forked processes in sender: 3",
                         "# Number of forked processes in receiver: 1", "",
                         "# OSU MPI Multi-process Latency Test v7.4"]
    assert all(r["sender_processes"] == 3 and r["receiver_processes"] == 1 for r in rows)
    table = parse_osu(text)["tables"][0]
    assert table["header"] == LAT_HEADER
    # OSU prints the latency 10 wide here (without -c)
    body = [l for l in lines if re.match(r"^\d", l)]
    assert [len(l) for l in body] == [20] * len(body)
    assert [int(l[:10]) for l in body] == sizes(1, 64)
    for l, r in zip(body, rows):
        assert float(l[10:]) == pytest.approx(r["t_avg_us"], abs=0.006)
    text, _, _ = osu(tmp_path, 2, "osu_latency_mp", "-m", "8", *SMALL, "-t", "2", "-c")
    assert "sender: 0\n" in text and "receiver: 2\n" in text
    assert all(x["Validation"] == "Pass" for x in table_rows(parse_osu(text)["tables"][0]))


# ---- bandwidth programs ----------------------------------------------------

BANDWIDTH = [("osu_bw", "OSU MPI Bandwidth Test"),
             ("osu_bibw", "OSU MPI Bi-Directional Bandwidth Test"),
             ("osu_bw_persistent", "OSU MPI Bandwidth Persistent Test"),
             ("osu_bibw_persistent", "OSU MPI Bi-Directional Bandwidth Persistent Test")]


@pytest.mark.parametrize("program,title", BANDWIDTH)
def test_bandwidth_rows(tmp_path, program, title):
    text, rows, _ = osu(tmp_path, 2, program, "-m", "4096", "-i", "6", "-x", "1", "-W", "8",
                        "-c", "-z")
    t = parse_osu(text)
    assert t["title"] == f"# {title} v7.4"
    (table,) = t["tables"]
    assert columns(table["header"]) == ["# Size", "Bandwidth (MB/s)", "Validation",
                                        "P50 Tail BW(MB/s)", "P90 Tail BW(MB/s)",
                                        "P99 Tail BW(MB/s)"]
    got = table_rows(table)
    assert [int(x["# Size"]) for x in got] == sizes(1, 4096) == [r["bytes"] for r in rows]
    for x, r in zip(got, rows):
        assert r["mb_per_s"] > 0 and x["Bandwidth (MB/s)"] == f"{r['mb_per_s']:.2f}"
        assert x["Validation"] == "Pass" and r["defects"] == 0
        p = r["percentiles_mb_per_s"]
        assert 0 < p["50"] <= p["90"] <= p["99"]


@pytest.mark.asan
@pytest.mark.parametrize("program", ["osu_bw", "osu_bibw", "osu_bibw_persistent"])
def test_multiple_buffers_are_checked(tmp_path, program):
    text, rows, end = osu(tmp_path, 2, program, "-m", "1024", "-i", "4", "-x", "1", "-W", "5",
                          "-b", "multiple", "-c", "-T", "MPI_INT")
    assert [r["bytes"] for r in rows] == sizes(4, 1024)
    assert all(r["defects"] == 0 and r["datatype"] == "MPI_INT" for r in rows)


# ---- derived datatypes (-D) ------------------------------------------------

@pytest.mark.asan
def test_vector_type_transmit_bytes(tmp_path):
    text, rows, _ = osu(tmp_path, 2, "osu_bw", "-m", "8:512", "-i", "4", "-x", "1", "-W", "4",
                        "-D", "vect:8:3", "-check")
    table = parse_osu(text)["tables"][0]
    assert table["header"] == BW_HEADER + "Validation".rjust(OSU_WIDTH) + \
        "Transmit Size".rjust(OSU_WIDTH)
    for x, r in zip(table_rows(table), rows):
        # OSU: (elements / stride) blocks of BLOCK elements
        assert int(x["Transmit Size"]) == r["transmit_bytes"] == r["bytes"] // 8 * 3
        assert x["Validation"] == "Pass"


def test_vector_type_of_ints_and_contiguous(tmp_path):
    _, rows, _ = osu(tmp_path, 2, "osu_latency", "-m", "4:256", *SMALL, "-D", "vect:4:2",
                     "-T", "mpi_int")
    assert [r["transmit_bytes"] for r in rows] == [s // 4 // 4 * 2 * 4 for s in sizes(4, 256)]
    _, rows, _ = osu(tmp_path, 2, "osu_bibw", "-m", "64", "-i", "4", "-x", "1", "-D", "cont")
    assert [r["transmit_bytes"] for r in rows] == sizes(1, 64)


def test_indexed_type_from_file(tmp_path):
    f = tmp_path / "blocks.txt"
    f.write_text("# displacement, block length\n2, 10\n20, 3\n")
    text, rows, _ = osu(tmp_path, 2, "osu_mbw_mr", "-m", "4:32", "-i", "4", "-x", "1", "-W", "4",
                        "-D", f"indx:{f}", "-check")
    table = parse_osu(text)["tables"][0]
    assert columns(table["header"]) == ["# Size", "MB/s", "Messages/s", "Validation",
                                        "Transmit Size"]
    for x, r in zip(table_rows(table), rows):
        assert x["Transmit Size"] == "13" and r["transmit_bytes"] == 13
        # the rate counts messages of the type, 13 bytes each
        assert r["messages_per_s"] == pytest.approx(r["mb_per_s"] * 1e6 / 13, rel=1e-12)


def test_derived_types_with_c_refused_as_osu():
    """OSU refuses -c with -D; effbench's -check (above) checks derived types."""
    refused(2, "osu_latency", "-D", "cont", "-c", words=["Derived data type does not support "
                                                         "validation [-c]"])
    refused(2, "osu_bw", "-c", "-D", "vect:4:2", words=["does not support validation [-D "
                                                        "vect:4:2]"])


def test_bad_index_file_refused(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("2, ten\n")
    refused(2, "osu_bw", "-m", "8", "-D", f"indx:{f}", words=["bad.txt:1", "-D indx"])
    refused(2, "osu_latency", "-m", "8", "-D", f"indx:{tmp_path}/none.txt",
            words=["none.txt", "Unable to open"])


# ---- osu_mbw_mr ------------------------------------------------------------

@pytest.mark.parametrize("pairs", [1, 2])
@FOUR
def test_mbw_mr_pairs(tmp_path, pairs):
    text, rows, end = osu(tmp_path, 4, "osu_mbw_mr", "-m", "2048", "-i", "5", "-x", "1", "-W", "8",
                          "-p", str(pairs), "-c")
    lines = text.splitlines()
    assert lines[:2] == ["# OSU MPI Multiple Bandwidth / Message Rate Test v7.4",
                         f"# [ pairs: {pairs} ] [ window size: 8 ]"]
    table = parse_osu(text)["tables"][0]
    assert table["header"] == "# Size" + " " * 4 + "MB/s".rjust(OSU_WIDTH) + \
        "Messages/s".rjust(OSU_WIDTH) + "Validation".rjust(OSU_WIDTH)
    for x, r in zip(table_rows(table), rows):
        size = r["bytes"]
        # the processes that take part, and the lines above the table
        assert (r["procs"], r["pairs"], r["window_size"]) == (2 * pairs, pairs, 8)
        assert r["messages_per_s"] == pytest.approx(r["mb_per_s"] * 1e6 / size, rel=1e-12)
        mbs, rate = float(x["MB/s"]), float(x["Messages/s"])
        # the printed rate is the printed MB/s times 10^6 / size, up to MB/s's rounding
        assert abs(rate - mbs * 1e6 / size) <= 0.005 * 1e6 / size + 0.005
        assert x["Validation"] == "Pass"
    assert [r["bytes"] for r in rows] == sizes(1, 2048)


def test_mbw_mr_no_rate(tmp_path):
    text, rows, _ = osu(tmp_path, 2, "osu_mbw_mr", "-m", "64", "-i", "4", "-x", "1", "-R", "0")
    assert "# [ pairs: 1 ] [ window size: 64 ]" in text
    assert columns(parse_osu(text)["tables"][0]["header"]) == ["# Size", "MB/s"]
    assert all(r["messages_per_s"] > 0 for r in rows)  # the records keep the rate


def test_mbw_mr_varied_window(tmp_path):
    text, rows, end = osu(tmp_path, 2, "osu_mbw_mr", "-m", "16", "-i", "3", "-x", "1", "-V")
    lines = text.splitlines()
    windows = "#      " + "".join(f"  {w:10d}" for w in (1, 2, 4, 8, 16, 32, 64, 128))
    assert lines[:6] == ["# OSU MPI Multiple Bandwidth / Message Rate Test v7.4",
                         "# [ pairs: 1 ] [ window size: varied ]", "",
                         "# Uni-directional Bandwidth (MB/sec)", "# Datatype: MPI_CHAR.", windows]
    bw = lines[6:11]
    assert lines[11:14] == ["", "# Message Rate Profile", windows]
    rate = lines[14:19]
    assert len(lines) == 19
    # a record per size and window, as OSU's text import writes them
    assert end["rows"] == len(rows) == 5 * 8
    for k, (size, b, q) in enumerate(zip(sizes(1, 16), bw, rate)):
        recs = rows[8 * k:8 * k + 8]
        assert [(r["bytes"], r["window_size"], r["pairs"]) for r in recs] == \
            [(size, w, 1) for w in (1, 2, 4, 8, 16, 32, 64, 128)]
        assert b == f"{size:<7d}" + "".join(f"  {r['mb_per_s']:10.2f}" for r in recs)
        assert q == f"{size:<7d}" + "".join(f"  {r['messages_per_s']:10.2f}" for r in recs)
        for r in recs:
            assert r["messages_per_s"] == pytest.approx(r["mb_per_s"] * 1e6 / size, rel=1e-12)


def test_mbw_mr_too_many_pairs_refused():
    refused(2, "osu_mbw_mr", "-p", "2", "-m", "8", words=["Invalid Number of Pairs", "-p 2"])


# ---- congestion: osu_bw_fan_in / osu_bw_fan_out -----------------------------

FANS = [(2, "1"), pytest.param(3, "1", marks=busy_mpich(3)), pytest.param(4, "2", marks=FOUR)]


@pytest.mark.parametrize("program", ["osu_bw_fan_in", "osu_bw_fan_out"])
@pytest.mark.parametrize("np,per_node", FANS)
def test_fan(tmp_path, program, np, per_node):
    env = {"EFFBENCH_TEST_RANKS_PER_NODE": per_node}
    text, rows, _ = osu(tmp_path, np, program, "-m", "256", "-i", "4", "-x", "1", "-W", "4",
                        "-check", "-z", extra_env=env)
    t = parse_osu(text)
    assert t["title"] == "# OSU MPI Bandwidth Test v7.4"
    table = t["tables"][0]
    # OSU 7.4 titles these MB/s as latencies (docs/osu/pt2pt.md)
    assert columns(table["header"]) == ["# Size", "Avg Latency(us)", "Validation",
                                        "P50 Tail Lat(us)", "P90 Tail Lat(us)", "P99 Tail Lat(us)"]
    assert [r["bytes"] for r in rows] == sizes(1, 256)
    for x, r in zip(table_rows(table), rows):
        assert r["defects"] == 0 and r["checked"] is True and x["Validation"] == "Pass"
        assert r["mb_per_s"] > 0 and x["Avg Latency(us)"] == f"{r['mb_per_s']:.2f}"
        p = r["percentiles_mb_per_s"]
        assert 0 < p["50"] <= p["90"] <= p["99"]


@busy_mpich(3)
def test_fan_needs_nodes_of_equal_size():
    refused(3, "osu_bw_fan_in", "-m", "8", words=["osu_bw_fan_in", "more than 1 node"])
    refused(3, "osu_bw_fan_out", "-m", "8", words=["same ppn for all nodes"],
            extra_env={"EFFBENCH_TEST_RANKS_PER_NODE": "2"})


def test_fan_has_no_c_option():
    refused(2, "osu_bw_fan_in", "-c", words=["Invalid option", "-c"],
            extra_env={"EFFBENCH_TEST_RANKS_PER_NODE": "1"})


# ---- start-up programs -----------------------------------------------------

@pytest.mark.parametrize("np", [1, 2])
def test_init(tmp_path, np):
    text, rows, end = osu(tmp_path, np, "osu_init")
    lines = text.splitlines()
    assert lines[0] == "# OSU MPI Init Test v7.4" and len(lines) == 2
    m = re.fullmatch(r"nprocs: (\d+), min: (\d+) ms, max: (\d+) ms, avg: (\d+) ms", lines[1])
    assert m, lines
    n, mn, mx, avg = map(int, m.groups())
    assert n == np and mn <= avg <= mx
    (r,) = rows
    assert end["planned_rows"] == 1 and "datatype" not in r  # no "# Datatype:" line
    assert 0 < r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"]
    # the text is OSU's whole milliseconds of the same durations
    assert mn == int(r["t_min_us"] // 1000) and mx == int(r["t_max_us"] // 1000)


def test_hello(tmp_path):
    text, rows, end = osu(tmp_path, 2, "osu_hello")
    assert text == "# OSU MPI Hello World Test v7.4\nThis is a test with 2 processes\n"
    assert len(rows) == 1 and rows[0]["checked"] is False


@pytest.mark.parametrize("program,args", [("osu_hello", ["-x", "3"]), ("osu_init", ["-m", "16"])])
def test_startup_programs_ignore_options_as_osu(program, args):
    """OSU's osu_hello reads no option and osu_init ignores its parser's verdict: both run;
    effbench says what it ignored."""
    r = run(2, program, *args, timeout=60)
    assert r.returncode == 0, r
    assert f"effbench: warning: {program}: Invalid option [-{args[0][1]}]" in r.stderr, r
    assert r.stdout.startswith("# OSU MPI ") and len(r.stdout.splitlines()) == 2, r


def test_init_session():
    r = run(2, "osu_init", "-I", timeout=60)
    if MPI == "mpich":
        assert r.returncode == 0, r
        assert re.search(r"^nprocs: 2, min: \d+ ms", r.stdout, re.M), r
    else:  # Open MPI 4.1 has no sessions: refused, naming the call
        assert r.returncode == 2 and "MPI_Session_init" in r.stderr, r


# ---- corruption, bad options, process counts -------------------------------

@pytest.mark.parametrize("program,rank", [("osu_latency", "0"), ("osu_bw", "1")])
def test_corrupted_message_detected(tmp_path, program, rank):
    """tests/pmpi/corrupt.c flips one byte of the receiving rank's last MPI_FLOAT
    message, which falls in the last size's checked pass."""
    args = ["-m", "4:64", "-i", "4", "-x", "1", "-T", "mpi_float", "-c"]
    if program == "osu_bw":
        args += ["-W", "4"]
    env = {"LD_PRELOAD": str(LIB), "EFFBENCH_CORRUPT_RANK": rank,
           "EFFBENCH_CORRUPT_COUNT_FILE": str(tmp_path / "n")}
    clean = run(2, program, *args, "--json", tmp_path / "c.jsonl", extra_env=env, timeout=60)
    assert clean.returncode == 0, clean
    n = int((tmp_path / "n").read_text())
    del env["EFFBENCH_CORRUPT_COUNT_FILE"]
    env["EFFBENCH_CORRUPT_AT"] = str(n)
    r = run(2, program, *args, "--json", tmp_path / "f.jsonl", extra_env=env, timeout=60)
    assert r.returncode == 1, r
    rows = [x for x in read_jsonl(tmp_path / "f.jsonl") if x["type"] == "result"]
    assert [x["bytes"] for x in rows] == sizes(4, 64)
    assert [x["defects"] > 0 for x in rows] == [False] * 4 + [True]
    table = table_rows(parse_osu(r.stdout)["tables"][0])
    assert [x["Validation"] for x in table if x["# Size"].isdigit()] == ["Pass"] * 4 + ["Fail"]
    assert f"DATA VALIDATION ERROR: {program} exited with status 1 on message size 64." \
        in r.stdout


BAD = [("osu_bw", ["-W", "0"], ["Invalid Window Size", "-W 0"]),
       ("osu_bibw", ["-b", "several"], ["single' or 'multiple", "-b several"]),
       ("osu_mbw_mr", ["-R", "2"], ["Invalid message rate flag", "-R 2"]),
       ("osu_latency_mp", ["-t", "0"], ["Invalid Number of Processes", "-t 0"]),
       ("osu_latency", ["-W", "4"], ["Invalid option", "-W"]),
       ("osu_latency_persistent", ["-D", "vect:2"], ["Invalid ddt type", "-D vect:2"])]


@pytest.mark.parametrize("program,args,words", BAD)
def test_bad_options_refused(program, args, words):
    refused(2, program, *args, words=words)


COUNTS = [(1, "osu_bibw", "exactly two"), (1, "osu_latency_mp", "exactly two"),
          (1, "osu_bw_persistent", "exactly two"), (1, "osu_mbw_mr", "at least two"),
          pytest.param(3, "osu_latency", "exactly two", marks=busy_mpich(3)),
          pytest.param(3, "osu_multi_lat", "an even number", marks=busy_mpich(3)),
          pytest.param(3, "osu_mbw_mr", "an even number", marks=busy_mpich(3))]


@pytest.mark.parametrize("np,program,words", COUNTS)
def test_wrong_process_count_refused(np, program, words):
    refused(np, program, "-m", "8", words=[program, words])
