"""IMB-P2P against IMB 2021.11's own IMB-P2P (tests/python/data/samples/imb2021/p2p, made by
bench/imb-p2p-samples, docs/imb-p2p.md): the same command line gives the same text, numbers
masked; the figures follow from the bytes, the message counts and the loop times; the
stencils' grids and neighbour counts are IMB's; bad command lines are refused with IMB's words;
-check finds a flipped byte.  Samples of this test's MPI library only."""
import json
import math
import re

import pytest

from effb import BUILD, MPI, ROOT, SAMPLES, library_samples, listed, read_jsonl, run
from osu_helpers import mask_numbers
from test_corruption import flip_is_reported

P2P = SAMPLES / "imb2021" / "p2p"
INDEX = json.loads((P2P / "index.json").read_text())
FAST = ["-pause", "0", "-iter", "50"]
# IMB's defaults (up to 100000 repetitions, 0.1 s pauses) take minutes on this machine: such
# a sample is compared with FAST added (the repetition counts are numbers, masked; the rule
# is asserted on the sample itself in test_default_repetitions)
SLOW = {"default_msglog1"}


def mine(kind, exits=None):
    return library_samples(INDEX, kind, exits)


def tag(s):
    return re.sub(r"_np\d+\.out$", "", s["file"].split("/")[-1])


def normal(text):
    """Numbers masked; the date, the program's path and the calling sequence's words
    (a SLOW sample's options differ) reduced."""
    text = re.sub(r"^# Date {18}: .*$", "# Date", text, flags=re.M)
    text = re.sub(r"(# Calling sequence was:\n#\n)# .*\n", r"\1# CALL\n", text)
    return mask_numbers(text)


def sample_text(s):
    return (P2P / s["file"]).read_text()


def rows_of(text):
    """Every table row: (bytes, repetitions, t, Mbytes/sec, Msg/sec[, defects])."""
    return [tuple(float(x) for x in ln.split())
            for ln in text.splitlines() if re.match(r"^ +\d+ +\d+ +[\d.]+ +[\d.]+ +\d+", ln)]


# messages a repetition counts on P ranks, / P (IMB's count: every rank's sends and receives,
# / 2)
MESSAGES = {"PingPong": 1, "PingPing": 1, "Unirandom": 1, "Birandom": 2, "Corandom": 1,
            "Stencil2D": 4, "Stencil3D": 6, "SendRecv_Replace": 1}
# IMB's grids (rows x columns, planes x rows x columns) on P ranks; other counts: invalid
GRIDS = {"Stencil2D": {4: [2, 2], 6: [3, 2], 8: [2, 4]}, "Stencil3D": {8: [2, 2, 2]}}


def check_figures(r, recs):
    """Each record's figures from its bytes, message count and loop times, as IMB-P2P derives
    them; the text rounds them; the stencils' grids are IMB's."""
    res = [x for x in recs if x["type"] == "result"]
    assert recs[0]["component"] == "p2p" and recs[-1]["status"] == "ok"
    assert recs[0]["options"]["methodology"] == "imb-p2p-2021.11"
    rows = rows_of(r.stdout)
    assert len(rows) == len(res) > 0
    for x, row in zip(res, rows):
        b, n, m, p = x["benchmark"], x["repetitions"], x["messages"], x["procs"]
        assert x["methodology"] == "imb-p2p-2021.11"
        assert m == MESSAGES[b] * n * p, x
        f = 2 if b == "PingPong" else 1
        assert math.isclose(x["t_avg_us"], 1e6 * x["time_sum_s"] / (m * f), rel_tol=1e-9)
        assert x["t_usec"] == x["t_avg_us"]
        assert math.isclose(x["mb_per_s"], m * x["bytes"] / (1e6 * x["time_max_s"]),
                            rel_tol=1e-9)
        assert math.isclose(x["messages_per_s"], m / x["time_max_s"], rel_tol=1e-9)
        assert x["time_sum_s"] >= x["time_max_s"] > 0
        assert x["mbytes_per_s"] is None and x["t_min_us"] is None and x["defects"] is None
        assert x["warm_up"] == (1 if n // 10 == 0 and n > 1 else n // 10)
        assert row == (x["bytes"], n, round(x["t_avg_us"], 2), round(x["mb_per_s"], 2),
                       round(x["messages_per_s"]))
        if b in GRIDS:
            assert x["grid"] == GRIDS[b][p] and x["neighbours"] == 2 * len(x["grid"]), x
    # the lengths of each table in the order given
    sizes = recs[0]["options"]["sizes"]
    assert [x["bytes"] for x in res] == sizes * (len(res) // len(sizes))


@pytest.mark.parametrize("s", mine("run", exits={0}))
def test_same_text_as_imb(s, tmp_path):
    """The text, numbers masked; and (--json) the figures behind it."""
    js = tmp_path / "p2p.jsonl"
    args = s["args"] + (FAST if tag(s) in SLOW else [])
    r = run(s["np"], "IMB-P2P", *args, "--json", js, timeout=240, cwd=P2P)
    assert r.returncode == 0, r
    want = sample_text(s)
    assert normal(r.stdout) == normal(want), (
        f"{' '.join(s['args'])}:\n--- IMB-P2P\n{want}\n--- effbench\n{r.stdout}")
    call = re.search(r"Calling sequence was:\n#\n# (\S+)(.*)\n", r.stdout)
    assert call.group(1).endswith("IMB-P2P")
    assert call.group(2) == "".join(f" {a}" for a in args + ["--json", str(js)])
    check_figures(r, read_jsonl(js))


def test_default_repetitions():
    """IMB's rule in IMB's own output: n = round(800 MiB / bytes), at most 100000."""
    s = next(s for s in INDEX if tag(s) == "default_msglog1")
    rows = rows_of(sample_text(s))
    assert rows and [(b, n) for b, n, *_ in rows] == \
        [(b, min(100000, round(800 * 2**20 / b)) if b else 100000) for b, *_ in rows]


# ---- the figures ----------------------------------------------------------------------------

def jsonl_run(tmp_path, np, *args):
    js = tmp_path / "p2p.jsonl"
    r = run(np, "IMB-P2P", *args, "--json", js, timeout=120)
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    return r, recs, [x for x in recs if x["type"] == "result"]


def test_iter_rule_and_lengths_in_order(tmp_path):
    """-iter max,numerator: n = round(numerator MiB / bytes) within [1, max]; warm-up n/10
    (1 when n > 1); -msgsz adds lengths in the order given, after -msglog's."""
    _, _, res = jsonl_run(tmp_path, 2, "PingPing", "-iter", "300,1", "-msglog", "16:20",
                          "-msgsz", "3", "-msgsz", "1k", "-pause", "0")
    assert [x["bytes"] for x in res] == [2**16, 2**17, 2**18, 2**19, 2**20, 3, 1024]
    assert [x["repetitions"] for x in res] == [16, 8, 4, 2, 1, 300, 300]
    assert [x["warm_up"] for x in res] == [1, 1, 1, 1, 0, 30, 30]


def test_effbench_word_runs_the_same():
    """IMB-P2P's program name, its component's word, and the word before the naming rule
    (`imb-p2p`, docs/architecture.md) run the same."""
    a = run(1, "IMB-P2P", "-list")
    b = run(1, "effbench", "p2p", "-list")
    c = run(1, "effbench", "imb-p2p", "-list")
    assert a.returncode == b.returncode == c.returncode == 0
    assert a.stdout == b.stdout == c.stdout
    assert [ln[2:] for ln in a.stdout.splitlines()[5:-1]] == \
        [x["name"] for x in listed("IMB-P2P")]


def test_old_word_writes_the_new_name(tmp_path):
    """`effbench imb-p2p ...` measures what `effbench p2p ...` does, and its records name the
    component p2p; --help names it p2p too."""
    args = ["PingPong", "Stencil2D", "-msglog", "0:2", "-iter", "10", "-pause", "0"]
    recs = {}
    for word in ("imb-p2p", "p2p"):
        js = tmp_path / f"{word}.jsonl"
        r = run(4, "effbench", word, *args, "--json", js, timeout=120)
        assert r.returncode == 0, r
        recs[word] = read_jsonl(js)
        assert {x["component"] for x in recs[word] if "component" in x} == {"p2p"}
        assert recs[word][0]["command_line"][1:] == [word, *args, "--json", str(js)]
    old, new = recs["imb-p2p"], recs["p2p"]
    assert old[0]["options"] == new[0]["options"]
    key = ("type", "benchmark", "procs", "bytes", "repetitions", "messages", "grid")
    assert [[x.get(k) for k in key] for x in old] == [[x.get(k) for k in key] for x in new]
    assert len(old) == 2 + 2 * 3  # run, 3 lengths of each benchmark, end
    h = run(1, "effbench", "--help")
    assert re.search(r"^  p2p +\(IMB-P2P\) IMB-P2P", h.stdout, re.M), h.stdout
    assert "imb-p2p" not in h.stdout


def test_resume_measures_the_rows_the_file_lacks(tmp_path):
    args = ["PingPong", "Birandom", "-msglog", "2:3", "-pause", "0", "-iter", "10"]
    _, recs, res = jsonl_run(tmp_path, 2, *args)
    lines = (tmp_path / "p2p.jsonl").read_text().splitlines()
    cut = tmp_path / "cut.jsonl"  # a run that ended after its first two rows
    cut.write_text("\n".join(lines[:3]) + "\n")
    r = run(2, "IMB-P2P", *args, "--resume", cut, timeout=120)
    assert r.returncode == 0, r
    assert [row[0] for row in rows_of(r.stdout)] == [4, 8]  # Birandom's rows only
    new = read_jsonl(cut)
    again = [x for x in new if x["type"] == "result"]
    assert [(x["benchmark"], x["bytes"]) for x in again] == \
        [(x["benchmark"], x["bytes"]) for x in res]
    assert again[:2] == res[:2] and [x["type"] for x in new][-2:] == ["result", "end"]
    # another length series is another run: refused
    r = run(2, "IMB-P2P", *args[:-1], "20", "--resume", cut, timeout=120)
    assert r.returncode == 2 and "iter_max" in r.stderr, r


# ---- help, list, bad command lines ----------------------------------------------------------

EFFBENCH_BLOCK = re.compile(r"^# effbench adds:\n(#  .*\n)*#\n", re.M)


@pytest.mark.parametrize("s", mine("help"))
def test_help_and_list_as_imb(s):
    """IMB-P2P prints these on every rank; effbench once, and its additions after the usage."""
    r = run(s["np"], "IMB-P2P", *s["args"], timeout=60, cwd=P2P)
    assert r.returncode == 0 == s["exit"], r
    ours = EFFBENCH_BLOCK.sub("", r.stdout)
    assert sample_text(s) == ours * s["np"], r.stdout
    assert ("# effbench adds:" in r.stdout) == ("# Usage: IMB-P2P" in r.stdout)


def imb_words(s):
    """IMB's message (its first line, up to its first full stop)."""
    return sample_text(s).splitlines()[0].split(". ")[0]


@pytest.mark.parametrize("s", mine("bad"))
def test_bad_command_lines(s):
    r = run(s["np"], "IMB-P2P", *s["args"], timeout=60, cwd=P2P)
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1 and r.stdout == "", r
    if s["exit"] == 0:  # IMB ignores the word; effbench names it
        word = next(a for a in s["args"] if a in ("-foo", "Pingpongg", "abc", "0"))
        assert f"'{word}'" in r.stderr and "effbench refuses it" in r.stderr, r
    else:
        assert s["exit"] == 1 and imb_words(s) in r.stderr, (imb_words(s), r.stderr)


@pytest.mark.parametrize("args,words", [
    (["-msglog", "31"], "2^31 bytes is more than an MPI count holds"),
    (["-msgsz", "2g"], "more bytes than an MPI count holds"),
    (["-iter", "5,x"], "-iter '5,x'"),
    (["-msgwr", "1", "--json"], "Missing argument after \"--json\""),
])
def test_effbench_refusals(args, words):
    r = run(2, "IMB-P2P", *args, timeout=60)
    assert r.returncode == 2 and words in r.stderr, r


# ---- -check ---------------------------------------------------------------------------------

@pytest.mark.skipif(not (BUILD / "libeb_corrupt.so").exists(), reason="no PMPI corrupter")
@pytest.mark.parametrize("bench", ["PingPong", "Corandom"])
def test_check_finds_a_flipped_byte(tmp_path, bench):
    """tests/pmpi/corrupt.c flips byte 0 of rank 0's last received message, which is the
    checked step of the last length: that row's defects are 1, every other row's 0."""
    args = [bench, "-msglog", "2:3", "-iter", "6", "-pause", "0", "-check"]
    r, recs = flip_is_reported(tmp_path, "IMB-P2P", args, lambda rows: len(rows) - 1)
    assert "# CHECK: -check is on" in r.stdout
    assert [row[-1] for row in rows_of(r.stdout)] == [0, 1]
    assert all(x["checked"] for x in recs if x["type"] == "result")


@pytest.mark.asan
def test_check_passes_every_benchmark(tmp_path):
    _, _, res = jsonl_run(tmp_path, 4, "-msglog", "3", "-iter", "4", "-pause", "0", "-check",
                          "-msgwr", "on", "-msgrd", "on")
    assert {x["benchmark"] for x in res} == set(MESSAGES) - {"Stencil3D"}
    assert all(x["checked"] and x["defects"] == 0 for x in res), res


# ---- the docs -------------------------------------------------------------------------------

def test_docs_table_is_the_listing():
    text = (ROOT / "docs" / "imb-p2p.md").read_text()
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("| benchmark |"))
    names = []
    for ln in lines[i + 2:]:
        if not ln.startswith("|"):
            break
        names.append(ln.split("|")[1].strip().strip("`"))
    assert names == [x["name"] for x in listed("IMB-P2P")]
