"""osu_latency_mt (docs/osu/pt2pt.md): OSU 7.4's multi-threaded latency test on effbench's
thread team.  No OSU 7.4 build was at hand to sample its runs, so the text is checked against
the format in OSU's source (osu_latency_mt.c and osu_util.c: the thread lines, the title,
"%-10s%18s" titles and "%-10d%18.2f" rows); its help sample is in tests/mpi/test_osu_formats.py."""
import re

import pytest

from effb import BUILD, read_jsonl, run

ROW = re.compile(r"^(\d+) {0,9}( *\d+\.\d\d)$")


def lat_mt(*args, timeout=120, extra_env=None):
    return run(2, "osu_latency_mt", *args, timeout=timeout, extra_env=extra_env)


def test_text_is_osu_format_and_rows_are_sizes(tmp_path):
    js = tmp_path / "mt.jsonl"
    r = lat_mt("-m", "64", "-i", "40", "-x", "4", "--json", js)
    assert r.returncode == 0, r
    lines = r.stdout.splitlines()
    assert lines[:6] == ["# Number of Sender threads: 1 ", "# Number of Receiver threads: 2", "",
                         "# OSU MPI Multi-threaded Latency Test v7.4", "# Datatype: MPI_CHAR.",
                         # OSU 7.4's osu_latency_mt prints print_only_header's column, as
                         # its real run shows (not print_header's "Latency (us)")
                         "# Size       Avg Latency(us)"]
    rows = lines[6:]
    assert [int(ROW.match(x).group(1)) for x in rows] == [1, 2, 4, 8, 16, 32, 64]  # no size 0
    assert all(len(x) == 28 for x in rows), rows
    recs = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [x["bytes"] for x in recs] == [1, 2, 4, 8, 16, 32, 64]
    for x, line in zip(recs, rows):
        assert x["benchmark"] == "osu_latency_mt" and x["methodology"] == "osu-7.4"
        assert x["sender_threads"] == 1 and x["receiver_threads"] == 2
        assert x["repetitions"] == 40 and x["t_avg_us"] > 0
        assert line.split()[1] == f"{x['t_avg_us']:.2f}"


def test_threads_and_check(tmp_path):
    js = tmp_path / "mt.jsonl"
    r = lat_mt("-m", "4:16", "-i", "20", "-x", "2", "-t", "3:3", "-c", "-T", "mpi_int",
               "--json", js)
    assert r.returncode == 0, r
    assert "# Number of Sender threads: 3 \n# Number of Receiver threads: 3\n" in r.stdout
    assert "# Size       Avg Latency(us)        Validation\n" in r.stdout
    assert "# Datatype: MPI_INT." in r.stdout
    recs = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [x["bytes"] for x in recs] == [4, 8, 16]
    assert all(x["defects"] == 0 and x["validation"] == "Pass" for x in recs)
    assert all(x["sender_threads"] == 3 for x in recs)
    assert r.stdout.count("Pass") == 3


def test_percentiles():
    r = lat_mt("-m", "1", "-i", "30", "-x", "2", "-z", "-t", "2:2")
    assert r.returncode == 0, r
    row = r.stdout.splitlines()[-1].split()
    assert row[0] == "1" and len(row) == 5  # size, latency, P50, P90, P99
    assert float(row[2]) <= float(row[3]) <= float(row[4])


@pytest.mark.parametrize("args, words", [
    (["-t", "0"], "Invalid Number of Threads [-t 0]"),
    (["-t", "128"], "Invalid Number of Threads [-t 128]"),
    (["-c", "-t", "4"], "Number of sender and receiver threads must be same"),
    (["-D", "cont"], "osu_latency_mt -D"),
])
def test_refusals(args, words):
    r = lat_mt(*args)
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1 and words in r.stderr, r.stderr


def test_refused_without_thread_multiple():
    r = lat_mt(extra_env={"LD_PRELOAD": str(BUILD / "libeb_thread_level.so"),
                          "EFFBENCH_GRANT_THREAD_LEVEL": "serialized"}, timeout=60)
    assert r.returncode == 2, r
    assert "MPI_Init_thread must return MPI_THREAD_MULTIPLE!" in r.stderr
    assert "granted MPI_THREAD_SERIALIZED" in r.stderr and "Latency" not in r.stdout
