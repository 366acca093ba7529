"""Messages of 2 GiB and more (issue 32, docs/imb.md "Messages of 2 GiB and more").

Where the MPI library has MPI-4's large-count calls (MPICH 4.0: EB_HAVE_MPI_SEND_C ...),
PingPong, Allreduce and Bcast measure lengths of 2^31 bytes and more, and -check verifies
every byte (a byte flipped past offset 2^31 is found); elsewhere (Open MPI 4.1) such a
length is refused before anything runs, with a message naming the 2^31-1 element limit,
the benchmark, the missing call and the library, exit status 2, and no header, row or JSON
file.  Benchmarks without _c calls (IMB-EXT's) are refused under every library.

The measuring tests move 2 GiB buffers (4 GiB per process, and MPICH's own copies): they
take a lock, so they never run side by side even under pytest-xdist, and do one repetition
per length (-iter 1 -iter_policy off)."""
import contextlib
import fcntl
import re

import pytest

from effb import BUILD, LIBRARY, listed_names, read_jsonl, row_cells, run

TWO_GIB = 2**31
ONE_REP = ["-iter", "1", "-iter_policy", "off"]
CORRUPTER = BUILD / "libeb_corrupt.so"


def found(call):
    """CMake found the MPI-4 call in this build's library (EB_HAVE_<CALL>)."""
    cache = (BUILD / "CMakeCache.txt").read_text()
    return re.search(rf"^EB_HAVE_{call.upper()}:INTERNAL=1$", cache, re.M) is not None


LARGE_P2P = found("MPI_Send_c")
LARGE_COLL = found("MPI_Allreduce_c")
needs_large = pytest.mark.skipif(not (LARGE_P2P and LARGE_COLL),
                                 reason="the library lacks MPI-4's large-count calls")
lacks_large = pytest.mark.skipif(LARGE_P2P or LARGE_COLL,
                                 reason="the library has MPI-4's large-count calls")


@contextlib.contextmanager
def big_memory():
    """One 2 GiB run on the machine at a time (other test processes wait here)."""
    with open("/tmp/effbench-large-messages.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def table_rows(stdout, name):
    """The number cells of benchmark `name`'s table rows in the IMB text."""
    block = stdout.split(f"# Benchmarking {name} \n", 1)[1].split("# Benchmarking", 1)[0]
    return [row_cells(line) for line in block.splitlines()
            if line.strip() and not line.startswith("#")][1:]


def library_name():
    """The start of the library's version string, any white space between its words."""
    return r"\s+".join(re.escape(w) for w in LIBRARY["record"].split()[:3])


def assert_measured(r, recs, name, lengths, throughput):
    """Rows of `name` at `lengths`, 1 repetition, 0 defects; with `throughput` the JSON
    Mbytes/sec is bytes / 1.048576 / t_max and the text shows it rounded."""
    rows = [x for x in recs if x["type"] == "result" and x["benchmark"] == name]
    assert [x["bytes"] for x in rows] == lengths, rows
    assert all(x["repetitions"] == 1 and x["defects"] == 0 and x["checked"] for x in rows), rows
    text = table_rows(r.stdout, name)
    assert [int(c[0]) for c in text] == lengths, r
    assert all(c[-1] == "0.00" for c in text), r  # the defects column
    for rec, cells in zip(rows, text):
        if rec["bytes"] and throughput:
            want = rec["bytes"] / 1.048576 / rec["t_max_us"]
            assert rec["mbytes_per_s"] == pytest.approx(want, rel=1e-12), rec
            assert cells[3] == f"{rec['mbytes_per_s']:.2f}", (cells, rec)
        assert rec["t_max_us"] > 0 and rec["t_min_us"] <= rec["t_avg_us"] <= rec["t_max_us"]


@needs_large
def test_pingpong_of_2_gib_is_measured_and_checked(tmp_path):
    """2^31 bytes of MPI_BYTE: MPI_Send_c / MPI_Recv_c; buffers 4 GiB per process, so
    -mem 4 (GB) is enough."""
    js = tmp_path / "pp.jsonl"
    with big_memory():
        r = run(2, "IMB-MPI1", "PingPong", "-msglog", "31:31", "-mem", "4", "-check", *ONE_REP,
                "--json", js, timeout=900)
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    assert_measured(r, recs, "PingPong", [0, TWO_GIB], throughput=True)
    assert recs[-1]["status"] == "ok" and recs[-1]["rows"] == 2, recs[-1]
    print(f"PingPong 2^31 under {LIBRARY['record']}:",
          {k: recs[-2][k] for k in ("t_max_us", "mbytes_per_s")})


@needs_large
def test_allreduce_and_bcast_of_2_gib_are_measured_and_checked(tmp_path):
    """Allreduce of 2^31 bytes (2^29 floats: an int count) and Bcast of 2^31 bytes
    (MPI_Bcast_c), every result byte verified."""
    js = tmp_path / "coll.jsonl"
    with big_memory():
        r = run(2, "IMB-MPI1", "Allreduce", "Bcast", "-msglog", "31:31", "-mem", "4", "-check",
                "-npmin", "2", *ONE_REP, "--json", js, timeout=900)
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    assert_measured(r, recs, "Allreduce", [0, TWO_GIB], throughput=False)
    assert_measured(r, recs, "Bcast", [0, TWO_GIB], throughput=False)
    for rec in recs:
        if rec["type"] == "result" and rec["bytes"]:
            print(f"{rec['benchmark']} 2^31 under {LIBRARY['record']}: t_avg {rec['t_avg_us']} us")


@needs_large
def test_a_byte_flipped_past_2_gib_is_found(tmp_path):
    """2^31 + 3 bytes from a -msglen file: the corrupter flips byte 2^31 + 1 of the checked
    pass's message (rank 0's fourth MPI_Recv(_c): two warm-up receives, the timed one,
    the checked one); -check reports exactly that one byte."""
    lengths = tmp_path / "lengths"
    lengths.write_text(f"{TWO_GIB + 3}\n")
    js = tmp_path / "flip.jsonl"
    env = {"LD_PRELOAD": str(CORRUPTER), "EFFBENCH_CORRUPT_AT": "4",
           "EFFBENCH_CORRUPT_BYTE": str(TWO_GIB + 1)}
    with big_memory():
        r = run(2, "IMB-MPI1", "PingPong", "-msglen", lengths, "-mem", "5", "-check", *ONE_REP,
                "--json", js, timeout=900, extra_env=env)
    assert r.returncode == 0, r
    (row,) = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert row["bytes"] == TWO_GIB + 3 and row["defects"] == 1, row


@needs_large
@pytest.mark.parametrize("program,want", [
    ("IMB-MPI1", ["Send_c:MPI_BYTE", "Allreduce_c:MPI_FLOAT", "Allgatherv_c:MPI_BYTE"]),
    ("IMB-NBC", ["Iallreduce_c:MPI_FLOAT"]),
])
def test_every_large_count_call_moves_the_right_data(tmp_path, program, want):
    """EFFBENCH_LARGE_COUNT_CALLS=always sends every row through the _c calls: every
    checked benchmark of the program (the listing's), at small lengths, 0 defects, and the
    calls counted by tests/pmpi/calls.c are the _c forms."""
    names = listed_names(program, checked=True)
    js, calls = tmp_path / "r.jsonl", tmp_path / "calls"
    env = {"EFFBENCH_LARGE_COUNT_CALLS": "always", "EFFBENCH_CALLS_FILE": str(calls),
           "LD_PRELOAD": str(BUILD / "libeb_calls.so")}
    r = run(2, program, *names, "-msglog", "0:2", "-check", "-iter", "3", "-iter_policy", "off",
            "-npmin", "2", "--json", js, extra_env=env)
    assert r.returncode == 0, r
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert {x["benchmark"] for x in rows} == set(names), rows
    assert all(x["defects"] == 0 and x["checked"] for x in rows), rows
    counted = dict(line.split() for line in calls.read_text().splitlines())
    assert all(int(counted.get(k, 0)) > 0 for k in want), counted
    assert not any(k.startswith(("Send:MPI_BYTE", "Allreduce:MPI_FLOAT")) for k in counted), counted


REFUSAL = (r"^effbench: error: {name} on {np} processes at #bytes = {x}: its MPI calls need a "
           r"count of {count} elements \({dtype}\), past MPI's int limit of 2147483647 "
           r"\(2\^31-1\) elements; {why}: use lengths up to 2147483647 elements$")


def assert_refused_before_anything(r, js, pattern):
    """Status 2, the message, and nothing claimed: no header, no table, no JSON file."""
    assert r.returncode == 2, r
    assert re.search(pattern, r.stderr, re.M), r
    assert "#bytes" not in r.stdout and "Benchmarking" not in r.stdout, r
    assert not js.exists(), js.read_text()


def lacking(call, what):
    return (rf"that needs {re.escape(call)} \(MPI-4\.0 {what}\), which this MPI library "
            rf"\({library_name()}[^)]*\) does not have")


@lacks_large
@pytest.mark.parametrize("program,args,name,np,count,dtype,why", [
    ("IMB-MPI1", ["PingPong", "-msglog", "31:31", "-mem", "8", "-check"], "PingPong", 2,
     TWO_GIB, "MPI_BYTE", lacking("MPI_Send_c", "large counts")),
    ("IMB-MPI1", ["Allreduce", "-msglog", "31:31", "-mem", "8", "-red_data_type", "char"],
     "Allreduce", 2, TWO_GIB, "MPI_CHAR",
     lacking("MPI_Allreduce_c", "large-count collectives")),
    # Allgatherv's int displacements: the last is 3 * 2^30 elements on 4 processes
    ("IMB-MPI1", ["Allgatherv", "-msglog", "30:30", "-mem", "8", "-npmin", "4"], "Allgatherv",
     4, 3 * 2**30, "MPI_BYTE", lacking("MPI_Allreduce_c", "large-count collectives")),
    ("IMB-NBC", ["Ibcast", "-msglog", "31:31", "-mem", "8", "-npmin", "2"], "Ibcast", 2,
     TWO_GIB, "MPI_BYTE", lacking("MPI_Iallreduce_c", "large-count nonblocking collectives")),
])
def test_length_past_int_is_refused_without_large_counts(tmp_path, program, args, name, np,
                                                          count, dtype, why):
    js = tmp_path / "r.jsonl"
    r = run(np, program, *args, "--json", js)
    x = TWO_GIB if "31:31" in args else 2**30
    assert_refused_before_anything(r, js, REFUSAL.format(name=name, np=np, x=x, count=count,
                                                         dtype=dtype, why=why))


def test_benchmark_without_large_count_calls_is_refused_everywhere(tmp_path):
    """IMB-EXT's one-sided calls take int counts under every library; its lengths are
    floats' (2^29 of them at 2^31 bytes) but its puts count bytes: refused at 2^31 bytes."""
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-EXT", "Unidir_Put", "-msglog", "31:31", "-mem", "8", "--json", js)
    why = (r"effbench's Unidir_Put makes int-count calls only \(MPI library: "
           rf"{library_name()}[^)]*\)")
    assert_refused_before_anything(r, js, REFUSAL.format(
        name="Unidir_Put", np=2, x=TWO_GIB, count=TWO_GIB, dtype="MPI_BYTE", why=why))


OSU_REFUSAL = (r"^effbench: error: {name} on 2 processes at -m {m}: its MPI calls need a count "
               r"of {count} elements \(MPI_CHAR{blocks}\), past MPI's int limit of 2147483647 "
               r"\(2\^31-1\) elements; effbench's OSU programs make int-count calls, as OSU "
               r"7\.4's do \(MPI library: {lib}[^)]*\): use a smaller -m$")


@pytest.mark.parametrize("name,args,m,count,blocks", [
    ("osu_latency", ["-m", str(TWO_GIB)], TWO_GIB, TWO_GIB, ""),
    ("osu_bw", ["-m", f"{TWO_GIB}:{TWO_GIB}"], TWO_GIB, TWO_GIB, ""),
    # the gathering programs: -M allows 2 * 2^30 bytes, the blocks together pass the limit
    ("osu_allgather", ["-m", str(2**30), "-M", str(2**33)], 2**30, TWO_GIB,
     ", every process's block"),
])
def test_osu_size_past_int_is_refused(tmp_path, name, args, m, count, blocks):
    """OSU 7.4 counts in int and overflows past 2^31-1 elements; effbench's OSU programs
    refuse such a -m before anything runs, under every library (docs/osu.md)."""
    js = tmp_path / "r.jsonl"
    r = run(2, name, *args, "--json", js)
    assert r.stdout == "", r  # not even OSU's title
    assert_refused_before_anything(r, js, OSU_REFUSAL.format(
        name=name, m=m, count=count, blocks=blocks, lib=library_name()))
