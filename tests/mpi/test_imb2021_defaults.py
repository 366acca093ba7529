"""--imb-defaults 2021 / EFFBENCH_IMB_DEFAULTS=2021 against real IMB 2021.11 output
(tests/python/data/samples/imb2021/classic, made by bench/imb2021-samples from IMB's own
programs): the same command line gives the same text with the numbers masked, and the masked
lines are the banner (effbench names itself; docs/imb.md), Date, Machine, Release, Version,
the calling sequence's program path and IMB-IO's CPU_Exploit rate (its own kernel's, of any
width). Also: MB/s in 10^6 bytes (2^20 in 4.0 mode), the default
lists, the run record, and the refused switch values. Samples of this test's MPI library only."""
import json
import re

import pytest

from effb import BUILD, MPI, SAMPLES, library_samples, read_jsonl, run
from osu_helpers import mask_numbers

CLASSIC = SAMPLES / "imb2021" / "classic"
INDEX = json.loads((CLASSIC / "index.json").read_text())
BANNER = re.compile(r"^(#    )?(Intel\(R\) MPI Benchmarks 2021\.11"
                    r"|effbench \S+ \(Intel\(R\) MPI Benchmarks 2021\.11 methodology\))", re.M)
ENV_2021 = {"EFFBENCH_IMB_DEFAULTS": "2021"}


def mine():
    return library_samples(INDEX, exits={0})


def masked(text, program):
    """The masked lines reduced to their names, the program's path to IMB's "./", then every
    number masked (widths and decimals still count)."""
    text = BANNER.sub(r"\1BANNER", text)
    text = re.sub(r"^# (Date|Machine|Release|Version) ( *):.*$", r"# \1\2: X", text, flags=re.M)
    text = re.sub(r"^# \S*/" + re.escape(program) + r"\b", "# ./" + program, text, flags=re.M)
    text = text.replace(" --imb-defaults 2021", "")
    text = re.sub(r"^# performance of +[\d.]+ MFlops$", "# performance of R MFlops", text, flags=re.M)
    return mask_numbers(text)


def effbench_2021(s, by_env=False):
    args = list(s["args"]) if by_env else ["--imb-defaults", "2021", *s["args"]]
    return run(s["np"], s["program"], *args, timeout=240, cwd=CLASSIC,
               extra_env=ENV_2021 if by_env else None)


@pytest.mark.parametrize("s", mine())
def test_same_text_as_imb_2021(s):
    # the environment switch (a job script's command line untouched) for the default runs
    r = effbench_2021(s, by_env="default" in s["file"])
    assert r.returncode == 0, r
    want = (CLASSIC / s["file"]).read_text()
    assert masked(r.stdout, s["program"]) == masked(want, s["program"]), (
        f"{s['program']} {' '.join(s['args'])}:\n--- IMB 2021.11\n{want}\n--- effbench\n{r.stdout}")


def test_the_samples_cover_the_programs():
    assert {s["program"] for s in INDEX} >= {"IMB-MPI1", "IMB-NBC", "IMB-RMA", "IMB-EXT", "IMB-IO"}
    assert {s["mpi"] for s in INDEX} == {"openmpi", "mpich"}


def pingpong_rows(*extra, extra_env=None):
    r = run(2, "IMB-MPI1", "PingPong", "-msglog", "16:17", "-iter", "20", *extra,
            extra_env=extra_env)
    assert r.returncode == 0, r
    rows = [line.split() for line in r.stdout.splitlines()
            if re.match(r"^ +\d+ +\d+ +[\d.]+ +[\d.]+$", line)]
    assert [int(x[0]) for x in rows] == [0, 65536, 131072], r.stdout
    return rows


@pytest.mark.parametrize("mode,mbyte", [("2021", 1e6), ("4.0", 1048576.0)])
def test_mbytes_per_second_unit(mode, mbyte):
    """Mbytes/sec = bytes / t / 10^6 in 2021 mode (IMB 2021.11), / 2^20 in 4.0 mode (the
    guide); from the printed t (2 decimals), so within its rounding."""
    for b, _, t, mbs in pingpong_rows("--imb-defaults", mode)[1:]:
        want = int(b) / (float(t) * 1e-6) / mbyte
        assert abs(float(mbs) - want) <= want * 0.005 / float(t) + 0.01, (b, t, mbs, want)


def listed_to_run(r):
    head = r.stdout.split("# List of Benchmarks to run:", 1)[1].split("#----", 1)[0]
    return [line[2:] for line in head.splitlines() if line.startswith("# ")]


def test_default_lists_differ_as_imbs():
    """Without names, 2021 mode runs IMB 2021.11's list (with Reduce_local and
    Reduce_scatter_block), 4.0 mode the guide's; -exclude keeps this short."""
    skip = ["-exclude", "PingPong,PingPing,Sendrecv,Exchange,Allreduce,Reduce,Reduce_scatter,"
            "Allgather,Allgatherv,Gather,Gatherv,Scatter,Scatterv,Alltoall,Alltoallv,Bcast",
            "-msglog", "2", "-iter", "5"]
    old = run(2, "IMB-MPI1", *skip)
    new = run(2, "IMB-MPI1", *skip, extra_env=ENV_2021)
    assert old.returncode == 0 and new.returncode == 0, (old, new)
    assert listed_to_run(old) == ["Barrier"]
    assert listed_to_run(new) == ["Reduce_local", "Reduce_scatter_block", "Barrier"]


def test_run_record_and_rows_say_the_defaults(tmp_path):
    runs = {}
    for mode in ("2021", "4.0"):
        path = tmp_path / f"{mode}.jsonl"
        r = run(2, "IMB-MPI1", "--imb-defaults", mode, "Bcast", "-msglog", "2", "-iter", "5",
                "--json", path)
        assert r.returncode == 0, r
        runs[mode] = read_jsonl(path)
    new, old = runs["2021"], runs["4.0"]
    assert new[0]["imb_defaults"] == "2021" and new[0]["methodology"] == "imb-2021.11"
    assert old[0]["imb_defaults"] == "4.0" and old[0]["methodology"] == "imb-4.0"
    # IMB 2021.11's defaults in the options: root 0, -sync on, its warm-up
    assert (new[0]["options"]["root_shift"], new[0]["options"]["imb_sync"],
            new[0]["options"]["warm_up"]) == (0, 1, 1)
    assert (old[0]["options"]["root_shift"], old[0]["options"]["imb_sync"],
            old[0]["options"]["warm_up"]) == (None, None, None)
    rows_new = [x for x in new if x["type"] == "result"]
    rows_old = [x for x in old if x["type"] == "result"]
    assert rows_new and {x["methodology"] for x in rows_new} == {"imb-2021.11"}
    assert rows_old and all("methodology" not in x for x in rows_old)


def test_the_environment_gives_the_header_the_command_line_does_not_show():
    r = run(2, "IMB-MPI1", "Barrier", "-iter", "5", extra_env=ENV_2021)
    assert r.returncode == 0, r
    assert "Intel(R) MPI Benchmarks 2021.11 methodology), MPI-1 part" in r.stdout
    assert "--imb-defaults" not in r.stdout
    assert "# MPI Library" not in r.stdout and "# Repetitions per sample" not in r.stdout


@pytest.mark.parametrize("args,env,words", [
    (["--imb-defaults", "2020"], None, "--imb-defaults 2020: expected 2021"),
    (["--imb-defaults", "2021", "--imb-defaults", "2021"], None, "--imb-defaults given twice"),
    (["--imb-defaults"], None, "--imb-defaults needs a value"),
    ([], {"EFFBENCH_IMB_DEFAULTS": "21"}, "EFFBENCH_IMB_DEFAULTS=21: expected 2021"),
    (["--imb-defaults", "2021"], {"EFFBENCH_IMB_DEFAULTS": "yes"}, "EFFBENCH_IMB_DEFAULTS=yes"),
    (["-mem_alloc_type", "device"], ENV_2021, "-mem_alloc_type device"),
])
def test_bad_switch_values(args, env, words):
    r = run(2, "IMB-MPI1", "Barrier", *args, extra_env=env)
    assert r.returncode == 2, r
    assert words in r.stderr and "effbench: error:" in r.stderr, r.stderr


def test_the_command_line_beats_the_environment():
    r = run(2, "IMB-MPI1", "--imb-defaults", "4.0", "Barrier", "-iter", "5",
            extra_env=ENV_2021)
    assert r.returncode == 0, r
    assert "Intel(R) MPI Benchmarks 4.0 methodology" in r.stdout


def test_build_dir_has_the_programs():
    assert (BUILD / "IMB-MPI1").exists()


def header_of(text):
    return text.split("# List of Benchmarks to run:", 1)[0]


def test_imb_io_header_and_defaults(tmp_path):
    """IMB-IO without -iter and -msglog (the samples give both): the header is the real IMB-IO
    2021.11 header of tests/python/data/samples/imb/io_np2.txt (its banner's "partn" and
    missing newline included), and the repetition and length defaults are IMB 2021.11's
    IO suite's (1000,40,100 and 0:22; the 4.0 mode keeps IMB_settings_io.h's 50,16,10 and 24)."""
    want = (SAMPLES / "imb" / "io_np2.txt").read_text()
    records = {}
    for mode in ("2021", "4.0"):
        path = tmp_path / f"{mode}.jsonl"
        r = run(2, "IMB-IO", "--imb-defaults", mode, "S_Write_indv", "P_Read_expl",
                "-msglog", "2", "--json", path.name, cwd=tmp_path)
        assert r.returncode == 0, r
        records[mode] = read_jsonl(path)[0]["options"]
        if mode == "2021":
            got = header_of(r.stdout).replace(" -msglog 2 --json 2021.jsonl", "")
            got = re.sub(r"(# Maximum io portion in bytes:   )\d+", r"\g<1>4194304", got)
            assert masked(got, "IMB-IO") == masked(header_of(want), "IMB-IO"), r.stdout
            assert "MPI-IO partn#----" in r.stdout
    assert [records["2021"][k] for k in ("msgspersample", "overall_vol", "msgs_nonaggr")] == [
        1000, 40 * 1048576, 100]
    assert [records["4.0"][k] for k in ("msgspersample", "overall_vol", "msgs_nonaggr")] == [
        50, 16 * 1048576, 10]


def test_dump_and_load_round_trip(tmp_path):
    """-dump writes IMB's YAML of the options (defaults as "# {name: value} (default)"
    comments), -load reads it before the command line, whose options win."""
    first = run(2, "IMB-MPI1", "PingPong", "Bcast", "-msglog", "2:3", "-iter", "10",
                "-root_shift", "on", "-data_type", "int", "-include", "Reduce_local",
                "-dump", "s.yaml", "--json", "a.jsonl", cwd=tmp_path)
    assert first.returncode == 0, first
    yaml = (tmp_path / "s.yaml").read_text()
    for line in ("iter: [10, 40, 100]", "msglog: [2, 3]", "root_shift: true", "data_type: int",
                 "include: [Reduce_local]", "# {npmin: 2} (default)", "  - PingPong"):
        assert line + "\n" in yaml, yaml
    again = run(2, "IMB-MPI1", "-load", "s.yaml", "--json", "b.jsonl", cwd=tmp_path)
    assert again.returncode == 0, again
    a, b = (read_jsonl(tmp_path / f)[0]["options"] for f in ("a.jsonl", "b.jsonl"))
    assert a == b
    assert listed_to_run(again) == ["PingPong", "Bcast", "Reduce_local"]
    # the command line wins over the file
    third = run(2, "IMB-MPI1", "-load", "s.yaml", "-msglog", "2", "-data_type", "byte",
                "--json", "c.jsonl", cwd=tmp_path)
    assert third.returncode == 0, third
    c = read_jsonl(tmp_path / "c.jsonl")[0]["options"]
    assert (c["msglog_max"], c["data_type"], c["root_shift"]) == (2, "byte", 1)


TIME_OUT = (' time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use "-time X"'
            ' or SECS_PER_SAMPLE=X (IMB_settings.h) to increase time limit.')


@pytest.mark.parametrize("mode", ["2021", "4.0"])
def test_imb_2021_time_out(mode):
    """IMB 2021.11 stops a table once it has run max(max(#lengths, maxlog - minlog) - 1, 1) x
    -time seconds (here 1.1 ms against 1000 repetitions a length) and prints its time-out line
    in place of the row; the 4.0 mode measures every length."""
    r = run(2, "IMB-MPI1", "--imb-defaults", mode, "PingPong", "-msglog", "0:12", "-time",
            "0.0001", "-iter", "1000", "-iter_policy", "off", timeout=120)
    assert r.returncode == 0, r
    table = r.stdout.split("#bytes #repetitions", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    if mode == "4.0":
        assert TIME_OUT not in r.stdout and len(table) == 14, r.stdout
        return
    *rows, last = table
    assert re.fullmatch(r" {0,12}\d+" + re.escape(TIME_OUT), last) and len(last.split()[0]) <= 13
    assert 1 <= len(rows) < 14, r.stdout
    sizes = [int(x.split()[0]) for x in rows] + [int(last.split()[0])]
    assert sizes == [0] + [2 ** k for k in range(len(sizes) - 1)], r.stdout
