"""IMB-MT (docs/imb-mt.md) against IMB 2021.11's own IMB-MT (tests/python/data/samples/imb2021/mt,
made by bench/imb-mt-samples): each sample's command line prints the same text, numbers masked;
-help and -list the same bytes; a command line IMB-MT refuses is refused with exit 2, naming the
option.  Then the values (per-thread records, rates from bytes and times), -check finding a
flipped byte, and the refusal of a library that grants less than MPI_THREAD_MULTIPLE."""
import json
import re

import pytest

from effb import BUILD, MPI, ROOT, SAMPLES, listed, read_jsonl, run
from osu_helpers import mask_numbers

MT = SAMPLES / "imb2021" / "mt"
INDEX = json.loads((MT / "index.json").read_text())
THREADS = {"OMP_NUM_THREADS": "2"}


def mine(group):
    return [pytest.param(s, id=s["tag"]) for s in INDEX
            if s["group"] == group and s["mpi"] == MPI]


def imb_mt(*args, np=2, extra_env=None, timeout=120):
    return run(np, "IMB-MT", *args, extra_env={**THREADS, **(extra_env or {})},
               timeout=timeout)


@pytest.mark.parametrize("s", mine("run"))
def test_runs_print_imb_mt_text(s):
    r = imb_mt(*s["args"])
    assert r.returncode == 0, r
    assert mask_numbers(r.stdout) == mask_numbers((MT / s["file"]).read_text()), r


@pytest.mark.parametrize("s", mine("help"))
def test_help_and_list_are_imb_mt_bytes(s):
    r = imb_mt(*s["args"], np=1)
    assert r.returncode == 0, r
    # IMB-MT prints -help and -list on every rank, effbench on rank 0
    assert r.stdout * s["np"] == (MT / s["file"]).read_text()


def test_listing_is_imb_mt_list():
    """effbench --list-json's IMB-MT entries, in IMB-MT's run order, are what IMB-MT's -list
    names (sorted there); the barrier alone moves no data to check."""
    names = [b["name"] for b in listed("IMB-MT")]
    sample = (MT / "help" / "openmpi" / "list_np2.out").read_text()
    listed_there = [ln.strip() for ln in sample.splitlines() if ln.startswith("    ")]
    assert listed_there == sorted(names) * 2  # once per rank
    assert names[:6] == ["PingPongMT", "PingPingMT", "SendRecvMT", "ExchangeMT", "UniBandMT",
                         "BiBandMT"]
    assert [b["name"] for b in listed("IMB-MT", checked=False)] == ["BarrierMT"]


def test_docs_table_is_the_listing():
    """docs/imb-mt.md's benchmark table: the listing's names, order and classes."""
    text = (ROOT / "docs" / "imb-mt.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| (\w+) \|", text, re.M)
    assert rows == [(b["name"], b["class"]) for b in listed("IMB-MT")]


# The word each refusal names (the option, or the benchmark as IMB-MT names it).
NAMED = {"unknown_option": "-foo", "unknown_benchmark": "nosuchmt", "barrier": "-barrier",
         "datatype": "-datatype", "check_char": "-check", "count": "-count",
         "malloc_algo": "-malloc_algo", "thread_level": "-thread_level"}


@pytest.mark.parametrize("s", mine("bad"))
def test_refused_command_lines_exit_2_naming_the_option(s):
    r = imb_mt(*s["args"])
    assert r.returncode == 2, r
    assert "Benchmarking" not in r.stdout
    err = [ln for ln in r.stderr.splitlines() if ln.startswith("effbench: error:")]
    assert len(err) == 1 and NAMED[s["tag"]] in err[0], r.stderr
    # IMB-MT's own words are in the message where it has one
    imb = (MT / s["file"]).read_text().splitlines()
    theirs = imb[0].removeprefix("IMB-MT: ").removeprefix("EXCEPTION: ")
    if not theirs.startswith("ERROR: Parse error"):
        assert theirs in err[0], (theirs, err[0])


@pytest.mark.parametrize("args, word", [
    (["-repeat", "0"], "-repeat 0"), (["-stride", "-1"], "-stride -1"),
    (["-count", "4,-2"], "-count -2"), (["-window_size", "x"], "-window_size x"),
    (["-warmup"], "-warmup")])
def test_bad_values_refused(args, word):
    r = imb_mt(*args, "PingPongMT", np=1)
    assert r.returncode == 2, r
    assert word in r.stderr, (word, r.stderr)


def records(tmp_path, *args, extra_env=None):
    js = tmp_path / "mt.jsonl"
    r = imb_mt(*args, "--json", js, extra_env=extra_env)
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    return r, recs[0], [x for x in recs if x["type"] == "result"], recs[-1]


def table_rows(text):
    """{benchmark: [cells of each row]} of IMB-MT's text."""
    out, name = {}, None
    for line in text.splitlines():
        if line.startswith("# Benchmarking "):
            name = line.split()[-1]
            out[name] = []
        elif name and line.strip() and not line.startswith("#") and "[usec]" not in line:
            out[name].append(line.split())
    return out


def test_values_per_thread_and_rates(tmp_path):
    r, run_rec, rows, end = records(tmp_path, "-thread_level", "multiple", "-count", "1,64",
                                    "-repeat", "10", "-warmup", "2", "-window_size", "4")
    assert run_rec["component"] == "mt" and run_rec["thread_level"] == "MPI_THREAD_MULTIPLE"
    assert run_rec["options"]["methodology"] == "imb-mt-2021.11"
    assert run_rec["options"]["threads"] == 2 and run_rec["options"]["count"] == [1, 64]
    assert end["status"] == "ok"
    text = table_rows(r.stdout)
    assert list(text) == [b for b in dict.fromkeys(x["benchmark"] for x in rows)]
    assert len(text) == 10 and len(rows) == 9 * 2 + 1  # BarrierMT: one row
    mult = {"PingPongMT": 1, "PingPingMT": 1, "SendRecvMT": 2, "ExchangeMT": 4}
    for x in rows:
        assert x["methodology"] == "imb-mt-2021.11" and x["threads"] == 2 and x["procs"] == 2
        pt = x["per_thread"]
        assert [(t["rank"], t["thread"]) for t in pt] == [(0, 0), (0, 1), (1, 0), (1, 1)]
        assert all(t["took_part"] for t in pt)
        ts = [t["t_us"] for t in pt]
        assert min(ts) == pytest.approx(x["t_min_us"]) and max(ts) == pytest.approx(x["t_max_us"])
        assert sum(ts) / 4 == pytest.approx(x["t_avg_us"])
        b = x["benchmark"]
        assert x["bytes"] == (0 if b == "BarrierMT" else x["count"] * 4 * 2)
        assert x["repetitions"] == 10 and x["defects"] is None
        if b in mult:
            assert x["mb_per_s"] == pytest.approx(x["bytes"] * mult[b] / x["t_max_us"])
        if b in ("UniBandMT", "BiBandMT"):  # all pairs' data: 2 pairs of threads
            assert x["window_size"] == 4
            assert x["mb_per_s"] == pytest.approx(x["bytes"] / 2 * 2 / x["t_max_us"])
            assert abs(x["msg_per_sec"] - 2 / (x["t_avg_us"] * 1e-6)) <= 1
        # the text's row is the record's, in IMB-MT's columns
        cells = text[b][[y["count"] for y in rows if y["benchmark"] == b].index(x["count"])]
        f2 = lambda k: f"{x[k]:.2f}"  # noqa: E731
        want = ([] if b == "BarrierMT" else [str(x["bytes"])]) + ["10"]
        if "Band" in b:
            want += [f2("t_avg_us"), f2("mb_per_s"), str(x["msg_per_sec"])]
        else:
            want += [f2("t_min_us"), f2("t_max_us"), f2("t_avg_us")]
            want += [f2("mb_per_s")] if b in mult else []
        assert cells == want, (b, cells, want)


def test_threads_follow_omp_num_threads(tmp_path):
    r, _, rows, _ = records(tmp_path, "-thread_level", "multiple", "-count", "2", "-repeat", "5",
                            "-warmup", "1", "PingPongMT", extra_env={"OMP_NUM_THREADS": "3"})
    assert "# #processes = 2 (threads: 3)" in r.stdout
    assert rows[0]["bytes"] == 2 * 4 * 3 and len(rows[0]["per_thread"]) == 6
    r, _, rows, _ = records(tmp_path, "-count", "2", "-repeat", "5", "PingPongMT")
    assert "# #processes = 2 (threads: 1)" in r.stdout  # -thread_level single: one thread
    assert rows[0]["bytes"] == 8 and len(rows[0]["per_thread"]) == 2


def test_char_datatype_and_stride(tmp_path):
    r, _, rows, _ = records(tmp_path, "-thread_level", "multiple", "-datatype", "char",
                            "-count", "3", "-repeat", "5", "-stride", "2", "PingPongMT",
                            "PingPingMT,SendRecvMT")
    assert r.stdout.count("# NO SUCCESSFUL EXECUTIONS") == 2  # no pair 2 ranks apart
    assert [x["benchmark"] for x in rows] == ["SendRecvMT"] and rows[0]["bytes"] == 3 * 2


def test_check_counts_no_defects_and_a_flipped_int(tmp_path):
    args = ["-check", "on", "-count", "4", "-repeat", "3", "-warmup", "1"]
    r, run_rec, rows, _ = records(tmp_path, *args, "PingPongMT", "BcastMT", "AllReduceMT")
    assert run_rec["check"] is True and "CHECK FAILURES" not in r.stdout
    assert [x["defects"] for x in rows] == [0, 0, 0] and all(x["checked"] for x in rows)
    _, _, rows, _ = records(tmp_path, *args, "BarrierMT")
    assert rows[0]["checked"] is False and rows[0]["defects"] is None
    # rank 0's MPI_INT buffers (tests/pmpi/corrupt.c): effbench's own, PingPongMT's receives,
    # then the row's two (the threads that took part, each thread's part): flip the last receive
    lib = {"LD_PRELOAD": str(BUILD / "libeb_corrupt.so"), "EFFBENCH_CORRUPT_INT": "1"}
    count = tmp_path / "count"
    r, _, rows, _ = records(tmp_path, *args, "PingPongMT",
                            extra_env={**lib, "EFFBENCH_CORRUPT_COUNT_FILE": str(count)})
    assert rows[0]["defects"] == 0
    at = int(count.read_text()) - 2
    r, _, rows, _ = records(tmp_path, *args, "PingPongMT",
                            extra_env={**lib, "EFFBENCH_CORRUPT_AT": str(at)})
    assert "CHECK FAILURES: rank 0: 1\n" in r.stdout, r
    assert rows[0]["defects"] == 1


def test_thread_level_refused_when_not_granted():
    lib = {"LD_PRELOAD": str(BUILD / "libeb_thread_level.so"),
           "EFFBENCH_GRANT_THREAD_LEVEL": "serialized"}
    r = imb_mt("-thread_level", "multiple", "PingPongMT", extra_env=lib, timeout=60)
    assert r.returncode == 2, r
    assert "needs MPI_THREAD_MULTIPLE, but the MPI library granted MPI_THREAD_SERIALIZED" \
        in r.stderr
    assert "Benchmarking" not in r.stdout


def test_input_file_names_benchmarks_in_its_order(tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("# IMB's -input: one name a line, '#' lines skipped\nBcastMT\nbarriermt\n")
    r = imb_mt("-input", names, "-count", "1", "-repeat", "3", "-warmup", "0", "-noheader")
    assert r.returncode == 0, r
    assert re.findall(r"^# Benchmarking (\w+)$", r.stdout, re.M) == ["BcastMT", "BarrierMT"]
    assert not r.stdout.startswith("#---")  # -noheader: the table's blank line comes first
    r = imb_mt("-input", tmp_path / "missing.txt", np=1)
    assert r.returncode == 2 and "-input" in r.stderr and "missing.txt" in r.stderr, r


@pytest.mark.parametrize("algo", ["continuous", "parallel"])
def test_check_with_each_malloc_algo(tmp_path, algo):
    _, run_rec, rows, _ = records(tmp_path, "-thread_level", "multiple", "-malloc_algo", algo,
                                  "-malloc_align", "256", "-check", "on", "-count", "3,16",
                                  "-repeat", "3", "-warmup", "1", "ExchangeMT", "AllReduceMT")
    assert run_rec["options"]["malloc_algo"] == algo
    assert [x["defects"] for x in rows] == [0, 0, 0, 0]


def test_rank_without_partner_takes_no_part(tmp_path):
    """3 ranks, stride 1: rank 2 has no partner.  Its threads count 0 s, and IMB-MT's t_min
    (the minimum over every thread) is then 0."""
    js = tmp_path / "mt.jsonl"
    r = imb_mt("-thread_level", "multiple", "-count", "2", "-repeat", "5", "-warmup", "1",
               "-stride", "1", "PingPongMT", "--json", js, np=3)
    assert r.returncode == 0, r
    assert "# #processes = 2 (threads: 2)" in r.stdout
    row = [x for x in read_jsonl(js) if x["type"] == "result"][0]
    assert [t["took_part"] for t in row["per_thread"]] == [True] * 4 + [False] * 2
    assert row["t_min_us"] == 0 and row["procs"] == 2
    ts = [t["t_us"] for t in row["per_thread"]]
    assert row["t_avg_us"] == pytest.approx(sum(ts) / 4)
