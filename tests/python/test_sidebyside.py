"""bench/sidebyside.py's flag rules and the side-by-side harnesses' parsers
(bench/osu, bench/imb2021) on real OSU 7.4 and IMB 2021.11 output."""
import importlib.machinery
import importlib.util
import io
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "tests" / "python" / "data" / "samples"
sys.path.insert(0, str(ROOT / "bench"))
import sidebyside  # noqa: E402


def load(name):
    loader = importlib.machinery.SourceFileLoader("bench_" + name.replace("2021", ""),
                                                  str(ROOT / "bench" / name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


osu = load("osu")
imb = load("imb2021")


def test_value_flagged_only_outside_band_and_ranges_apart():
    assert sidebyside.row("p", 2, 1, "x", [1.2, 1.21, 1.22], [1.0, 1.01, 1.02])["flag"] == "value"
    # 20 % apart but the rounds' ranges overlap: noise, not a flag
    assert sidebyside.row("p", 2, 1, "x", [1.2, 0.9, 1.3], [1.0, 0.95, 1.25])["flag"] == ""
    # ranges apart but within 10 %
    assert sidebyside.row("p", 2, 1, "x", [1.09, 1.09], [1.0, 1.0])["flag"] == ""
    assert sidebyside.row("p", 2, None, "wall (s)", [3.0, 3.1], [1.0, 1.1])["flag"] == "wall"
    r = sidebyside.row("p", 2, 1, "x", [2.0, 1.0, 3.0], [4.0, 4.0, 4.0])
    assert (r["ratio"], r["effbench"]["spread"], r["reference"]["spread"]) == (0.5, 1.0, 0.0)


def test_memory_flagged_above_five_percent_either_way_of_noise():
    assert sidebyside.row("p", 2, None, "m", [10.6], [10.0], memory=True)["flag"] == "memory"
    assert sidebyside.row("p", 2, None, "m", [10.4], [10.0], memory=True)["flag"] == ""
    assert sidebyside.row("p", 2, None, "m", [5.0], [10.0], memory=True)["flag"] == ""


def test_summary_counts_flags():
    rows = [sidebyside.row("a", 2, 1, "x", [2.0], [1.0]),
            sidebyside.row("a", 2, None, "m", [2.0], [1.0], memory=True),
            sidebyside.row("b", 2, 1, "x", [1.0], [1.0])]
    out = io.StringIO()
    sidebyside.print_table(rows, "REF", out)
    lines = out.getvalue().splitlines()
    assert lines[1].endswith("FLAGGED value") and lines[3].endswith("1.000")
    assert lines[-1] == ("# summary: 3 rows of 2 programs; FLAGGED: 2 (values 1, wall times 0,"
                         " memory 1) in 1 programs")


def test_osu_parser_reads_sized_unsized_and_startup_tables():
    run = SAMPLES / "osu" / "run" / "openmpi"
    barrier = osu.parse_osu_text((run / "osu_barrier_f_np4.out").read_text())
    assert barrier[("", "Avg Latency(us)", 0)] == 10.28
    assert barrier[("", "Iterations", 0)] == 20
    nbc = osu.parse_osu_text((run / "osu_iallreduce_c_np4.out").read_text())
    assert nbc[("MPI_CHAR", "Overlap(%)", 2)] == 0.0
    assert nbc[("MPI_CHAR", "Compute(us)", 16)] == 189.53
    assert not any(k[1] == "Validation" for k in nbc)
    init = osu.parse_osu_text("# OSU MPI Init Test v7.4\nnprocs: 2, min: 267 ms, max: 277 ms,"
                              " avg: 272 ms\n")
    assert init == {("", "min (ms)", 0): 267.0, ("", "max (ms)", 0): 277.0,
                    ("", "avg (ms)", 0): 272.0}


def test_osu_options_left_out_by_optstring():
    assert osu.options_for("+:hvm:i:x:", ["-m", "1:64", "-i", "5", "-x", "1"]) == (
        ["-m", "1:64", "-i", "5", "-x", "1"], [])
    assert osu.options_for("+:hv", ["-m", "1:64", "-f", "-i5"]) == ([], ["-m", "1:64", "-f", "-i5"])
    assert osu.options_for("+:hvfm:", ["-f", "-m", "4", "-c"]) == (["-f", "-m", "4"], ["-c"])


def test_imb_parser_keeps_aggregate_modes_apart():
    text = (SAMPLES / "imb2021" / "classic" / "openmpi" / "IMB-EXT_default_np2.out").read_text()
    values = imb.parse_tables(text)
    benches = {k[0] for k in values}
    assert {"Unidir_Put aggr", "Unidir_Put non-aggr", "Window"} <= benches
    assert all(k[1] == 2 for k in values)
