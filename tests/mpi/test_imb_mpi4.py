"""IMB-MPI4 (IMB 2021.11's MPI-4 persistent collectives): under MPICH the
_persist flavours by default (IMB-NBC's overlap columns) and the
_persist_pure ones by name or -include (t_min/t_max/t_avg), zero defects
under -check, a corrupted byte caught, one JSON record per row, the
benchmark blocks of the real IMB-MPI4's output (tests/python/data/samples/
imb2021/mpi4, bench/imb-mpi4-samples) with the numbers masked; under Open
MPI 4.1 (no MPI_Allreduce_init) the program refused; bad options refused
under either.

MPICH 4.0.2's default schedules of MPI_Gather_init, MPI_Allgather_init and
MPI_Scatter_init deliver stale data (docs/imb-mpi4.md): the checked runs
pick the library's correct algorithms (test_osu_coll.MPICH_SOUND)."""
import json
import re

import pytest

from effb import MPI, ROOT, imb_procs, listed, np_params, parse_imb, read_jsonl, run
from test_corruption import flip_is_reported
from test_nbc import HEAD_OVRL, HEAD_OVRL_BARRIER, HEAD_PURE, HEAD_PURE_BARRIER, overlap
from test_osu_coll import MPICH_SOUND

SAMPLES = ROOT / "tests" / "python" / "data" / "samples" / "imb2021" / "mpi4"
MPI4 = listed("IMB-MPI4")
PERSIST = [b["name"] for b in MPI4 if b["name"].endswith("_persist")]
PURE = [b["name"] for b in MPI4 if b["name"].endswith("_persist_pure")]
DEFAULT = [b["name"] for b in MPI4 if b["default"]]
REDUCTIONS = {b["name"] for b in MPI4 if b["reduction"]}
NO_BYTES = {b["name"] for b in MPI4 if "NO_BYTES" in b["flags"]}
ITER = ["-iter", "10", "-iter_policy", "off", "-time", "0.05"]
BYTE_SIZES = [0, 1, 2, 4, 8]
FLOAT_SIZES = [0, 4, 8]
REFUSAL = ("effbench: error: IMB-MPI4 needs MPI_Allreduce_init (MPI-4.0 persistent "
           "collectives), which this MPI library (")

mpich_only = pytest.mark.skipif(MPI != "mpich", reason="MPI-4 persistent collectives: MPICH")
openmpi_only = pytest.mark.skipif(MPI != "openmpi", reason="the refusal is Open MPI 4.1's")


def test_listing_has_imb_2021s_benchmarks():
    """IMB 2021.11's IMB-MPI4 list (IMB_bnames_mpi4.h), each operation in two flavours."""
    ops = ["Bcast", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv",
           "Alltoall", "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce", "Barrier"]
    assert PERSIST == [o + "_persist" for o in ops]
    assert PURE == [o + "_persist_pure" for o in ops]
    # IMB 2021.11's program (src_cpp/MPI4/MPI4_benchmark.cpp) runs Allgather_persist by name
    assert DEFAULT == [n for n in PERSIST if n != "Allgather_persist"]
    assert REDUCTIONS == {f"{o}_persist{p}" for o in ("Reduce", "Reduce_scatter", "Allreduce")
                          for p in ("", "_pure")}
    # a barrier moves no data: no #bytes, not checked; every other one is checked
    assert NO_BYTES == {b["name"] for b in MPI4 if not b["checked"]} == \
        {"Barrier_persist", "Barrier_persist_pure"}


def check_blocks(blocks, results, checked):
    """Every row against its JSON record: the flavour's columns, the lengths,
    the repetitions, t_min <= t_avg <= t_max, the overlap recomputable."""
    it = iter(results)
    for b in blocks:
        pure = b["name"].endswith("_pure")
        op = b["name"][:-5] if pure else b["name"]
        if b["name"] in NO_BYTES:
            head = HEAD_PURE_BARRIER if pure else HEAD_OVRL_BARRIER
            assert len(b["rows"]) == 1
        else:
            head = HEAD_PURE if pure else HEAD_OVRL
            sizes = FLOAT_SIZES if op in REDUCTIONS else BYTE_SIZES
            assert [int(row[0]) for row in b["rows"]] == sizes, b["name"]
        assert b["header_line"] == head + ("      defects" if checked else "")
        for row in b["rows"]:
            verified = checked and b["name"] not in NO_BYTES
            if checked:
                assert row[-1] == ("0.00" if verified else "not checked"), (b["name"], row)
                row = row[:-1]
            rec = next(it)
            assert rec["component"] == "mpi4" and rec["benchmark"] == b["name"]
            assert rec["procs"] == b["procs"] and rec["repetitions"] == 10
            assert rec["defects"] == (0 if verified else None)
            assert 0 < rec["t_min_us"] <= rec["t_avg_us"] <= rec["t_max_us"], rec
            if b["name"] not in NO_BYTES:
                assert rec["bytes"] == int(row[0])
            if pure:
                assert "t_ovrl_us" not in rec
                assert row[-3:] == [f"{rec[k]:.2f}" for k in ("t_min_us", "t_max_us", "t_avg_us")]
                continue
            o, p, c, pct = (rec[k] for k in ("t_ovrl_us", "t_pure_us", "t_cpu_us", "overlap_pct"))
            assert row[-4:] == [f"{o:.2f}", f"{p:.2f}", f"{c:.2f}", f"{pct:.2f}"], (row, rec)
            assert o == rec["t_max_us"] and p > 0 and c > 0  # the rank of the largest t_ovrl
            assert pct == pytest.approx(overlap(p, c, o), abs=1e-9)
    assert next(it, None) is None


@mpich_only
@pytest.mark.asan
@pytest.mark.parametrize("np", np_params([2, 4]))
def test_persist_default_checked(tmp_path, np):
    js = tmp_path / "mpi4.jsonl"
    r = run(np, "IMB-MPI4", "-msglog", "3", *ITER, "-check", "--json", js,
            extra_env=MPICH_SOUND, timeout=120)
    assert r.returncode == 0, r
    assert "MPI-4 part" in r.stdout.splitlines()[1]
    head = r.stdout.split("# List of Benchmarks to run:\n\n", 1)[1].split("\n\n", 1)[0]
    assert head.splitlines() == ["# " + n for n in DEFAULT]
    blocks = parse_imb(r.stdout)
    qs = imb_procs(np)
    assert [(b["name"], b["procs"]) for b in blocks] == [(n, q) for n in DEFAULT for q in qs]
    recs = read_jsonl(js)
    assert recs[0]["type"] == "run" and recs[0]["component"] == "mpi4"
    # IMB-MPI4's own defaults: IMB 2021's -sync on and -warm_up on
    assert recs[0]["options"]["imb_sync"] == 1 and recs[0]["options"]["warm_up"] == 1
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    check_blocks(blocks, [x for x in recs if x["type"] == "result"], checked=True)


@mpich_only
@pytest.mark.asan
def test_pure_by_include_checked(tmp_path):
    js = tmp_path / "pure.jsonl"
    r = run(2, "effbench", "mpi4", "-include", ",".join(PURE), "-exclude", ",".join(DEFAULT),
            "-msglog", "3", *ITER, "-check", "--json", js, extra_env=MPICH_SOUND, timeout=120)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [b["name"] for b in blocks] == PURE
    check_blocks(blocks, [x for x in read_jsonl(js) if x["type"] == "result"], checked=True)


@mpich_only
@pytest.mark.parametrize("args", [["-sync", "off"], ["-root_shift", "on"],
                                  ["-off_cache", "1,64"], ["-warm_up", "off", "-sync", "0"]])
def test_options_keep_the_data_right(tmp_path, args):
    """The persistent request keeps repetition 0's root and buffers, whatever
    -root_shift and -off_cache say; the checked pass still sees fresh data."""
    names = ["Bcast_persist_pure", "Scatterv_persist", "Reduce_persist_pure",
             "Alltoall_persist_pure"]
    js = tmp_path / "opts.jsonl"
    r = run(2, "IMB-MPI4", *names, "-msglog", "3", *ITER, *args, "-check", "--json", js,
            extra_env=MPICH_SOUND, timeout=120)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert [b["name"] for b in blocks] == names
    check_blocks(blocks, [x for x in read_jsonl(js) if x["type"] == "result"], checked=True)


@mpich_only
@pytest.mark.parametrize("bench", ["Allreduce_persist_pure", "Gather_persist",
                                   "Alltoallv_persist_pure"])
def test_corrupted_byte_is_reported(tmp_path, bench):
    """The PMPI corrupter (tests/pmpi/corrupt.c) flips a byte of the last
    persistent completion rank 0 counts: that row's defects, no other's."""
    args = [bench, "-msglog", "2:3", "-iter", "6,off", "-check", "-npmin", "2"]
    flip_is_reported(tmp_path, "IMB-MPI4", args, lambda rows: len(rows) - 1, env=MPICH_SOUND)


# --- the real IMB-MPI4's output ------------------------------------------------------------

NUMBER = re.compile(r" *-?\d+(?:\.\d+)?")
FINALIZE = "# All processes entering MPI_Finalize"


def blocks_text(text):
    """The benchmark blocks (each from its "#-----" line to the blank line
    after its table, data rows' numbers masked with their field widths kept),
    and the lines after the last table (effbench's header differs: docs/imb.md)."""
    lines = text.splitlines()
    starts = [k - 1 for k, ln in enumerate(lines) if ln.startswith("# Benchmarking ")]
    end = lines.index(FINALIZE)
    masked = [ln if ln.startswith("#") else NUMBER.sub(lambda m: "#" * len(m.group(0)), ln)
              for ln in lines]
    blocks = [masked[a:b] for a, b in zip(starts, starts[1:] + [end])]
    tail = masked[end:]
    while blocks[-1][-1] == "":  # the blank lines before the tail are the tail's
        tail.insert(0, blocks[-1].pop())
    return blocks, tail


def without_gap(block):
    """A block without its blank line after the table (one, but after the last block)."""
    assert block[-1] == "" and block[-2] != "", block
    return block[:-1]


def first_cells(text):
    """Each block's first and repetitions columns (lengths, repetitions)."""
    return [[(row[0], row[-5 if "t_ovrl" in b["header_line"] else -4]) for row in b["rows"]]
            for b in parse_imb(text)]


SAMPLE_RUNS = [pytest.param(r, id=r["file"], marks=np_params([r["np"]])[0].marks)
               for r in json.loads((SAMPLES / "index.json").read_text())
               if r["file"].startswith("run/")]


@mpich_only
@pytest.mark.parametrize("sample", SAMPLE_RUNS)
def test_blocks_match_imb_2021(sample):
    ref = (SAMPLES / sample["file"]).read_text()
    assert sample["exit"] == 0 and sample["program"] == "IMB-MPI4"
    assert sample["env"] == MPICH_SOUND  # the settings the tests run with
    r = run(sample["np"], "IMB-MPI4", *sample["args"], extra_env=MPICH_SOUND, timeout=120)
    assert r.returncode == 0, r
    (got, got_tail), (want, want_tail) = blocks_text(r.stdout), blocks_text(ref)
    assert got_tail == want_tail
    if "-include" in sample["args"]:
        # IMB 2021 runs the included benchmarks first, effbench after the defaults
        # (the guide's order, as its other families; docs/imb-mpi4.md)
        got = sorted([without_gap(b) for b in got[:-1]] + got[-1:])
        want = sorted([without_gap(b) for b in want[:-1]] + want[-1:])
    assert got == want
    # not masked: the lengths and repetition counts of every row (IMB's -iter)
    ours, imb = first_cells(r.stdout), first_cells(ref)
    if "-include" in sample["args"]:
        ours, imb = sorted(ours), sorted(imb)
    assert ours == imb


def test_list_matches_imb_2021():
    """-list: every benchmark in alphabetical order, "(non-default)" as IMB 2021.11's
    program says it; the first line is effbench's program name where IMB prints its
    version (as for every family)."""
    ref = (SAMPLES / "help" / "list_np1.out").read_text().splitlines()
    r = run(1, "IMB-MPI4", "-list", timeout=60)
    assert r.returncode == 0, r
    got = r.stdout.splitlines()
    assert got[0] == "IMB-MPI4" and ref[0] == "Intel(R) MPI Benchmarks 2021.11"
    assert got[1:] == ref[1:]


def test_samples_cover_the_flavours():
    """The samples hold both flavours' tables, 2 and 4 ranks, -help and a refused option."""
    index = json.loads((SAMPLES / "index.json").read_text())
    assert {r["np"] for r in index if r["file"].startswith("run/")} >= {2, 4}
    text = "".join((SAMPLES / r["file"]).read_text() for r in index)
    assert HEAD_OVRL in text and HEAD_PURE in text and HEAD_OVRL_BARRIER in text
    assert any(r["file"].startswith("help/") for r in index)
    assert any(r["file"].startswith("bad/") and r["exit"] != 0 for r in index)


# --- refusals ------------------------------------------------------------------------------

@openmpi_only
def test_refused_without_mpi4():
    r = run(2, "IMB-MPI4", "-msglog", "2", timeout=60)
    assert r.returncode == 2, r
    (err,) = [ln for ln in r.stderr.splitlines() if ln.startswith("effbench: error:")]
    assert err.startswith(REFUSAL) and "Open MPI v4.1" in err, r
    assert r.stdout == ""
    # -list and -help still answer: what the program would run
    lst = run(1, "IMB-MPI4", "-list")
    assert lst.returncode == 0 and "    Allreduce_persist_pure (non-default)\n" in lst.stdout


@pytest.mark.parametrize("args,message", [
    (["-data_type", "int"], "-data_type: IMB-MPI4 has no such option in IMB 2021.11 "
                            "(IMB-MPI1 has it)"),
    (["-aggregate_mode", "aggregate"], "-aggregate_mode: IMB-MPI4 has no such option in IMB "
                                       "2021.11 (IMB-RMA, IMB-EXT and IMB-IO have it)"),
    (["-sync", "maybe"], "-sync maybe: expected barrier or window (effbench's -sync_method), or "
                         "IMB 2021's on or off (1|enable|yes, 0|disable|no)"),
    (["Allreduce_persistent"], "unknown benchmark 'Allreduce_persistent' for IMB-MPI4; known: "
                               "Bcast_persist Allgather_persist"),
])
def test_bad_options_refused(args, message):
    r = run(2, "IMB-MPI4", *args, timeout=60)
    assert r.returncode == 2, r
    assert r.stderr.startswith("effbench: error: " + message), r
    assert r.stdout == ""
