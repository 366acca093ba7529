"""effbench's OSU programs against real OSU 7.4 output (tests/python/data/samples/osu, made by
bench/osu-samples from OSU's own source, docs/osu.md): the same command line gives the same
text, numbers masked; a command line OSU refuses is refused, naming what OSU names; a help
lists the options OSU's lists.  Samples of this test's MPI library only (the MPICH stage of
scripts/test-libraries runs the MPICH ones)."""
import json
import re

import pytest

from effb import MPI, SAMPLES, library_samples, listing, matrix_beyond_first, run
from osu_helpers import mask_numbers

OSU = SAMPLES / "osu"
INDEX = json.loads((OSU / "index.json").read_text())
OPTSTRINGS = {b["name"]: b["optstring"] for b in listing()["benchmarks"] if b["component"] == "osu"}


def mine(kind, exits=None):
    return library_samples(INDEX, kind, exits)


def masked(text):
    """Numbers masked, and the lines OSU prints without a fixed width reduced to their words:
    the neighbourhood programs' topology time, osu_init's "%ld ms" figures, and osu_mbw_mr -V's
    window tables, whose "%10.2f" overflows at 10^7 messages/s (so a row's width follows its
    values)."""
    text = re.sub(r"(Time took to create topology graph:)\s*[\d.]+( us\.)", r"\1 T\2", text)
    text = re.sub(r"^nprocs: \d+, min: \d+ ms, max: \d+ ms, avg: \d+ ms$",
                  "nprocs: N, min: N ms, max: N ms, avg: N ms", text, flags=re.M)
    text = re.sub(r"^\d+ *( +\d+\.\d\d){8}$", "S" + "  N.dd" * 8, text, flags=re.M)
    return mask_numbers(text)


def osu_err(s):
    return (OSU / s["stderr_file"]).read_text() if s["stderr_file"] else ""


def test_the_index_covers_every_program():
    """A sample for every OSU program effbench lists (and no program OSU lacks)."""
    from effb import listing
    listed = {b["name"] for b in listing()["benchmarks"] if b["component"] == "osu"}
    sampled = {s["program"] for s in INDEX}
    assert listed - sampled == set()
    assert sampled - listed == set()


# Command lines OSU runs and effbench refuses on purpose (docs/osu.md), with the words of the
# refusal: effbench never runs with a value it would have to ignore.
REFUSED_ON_PURPOSE = {
    "run/openmpi/osu_latency_z_space_np2.out": "unexpected argument '50,99'",
    "run/openmpi/osu_allreduce_t_mpi_double_np4.out": "Invalid data type",
    "run/openmpi/osu_alltoall_d_cont_np4.out": "-D",
}


def few_iterations(s):
    """A sample's command line with `-i 10 -x 1` in front where it has no iteration options
    of its own (OSU's defaults: 10,000 round trips a size, minutes on a loaded machine): the
    text does not depend on the counts, and OSU's getopt lets the sample's own options that
    follow win.  The counts themselves are test_osu_iterations.py's."""
    own = any(a.startswith(("-i", "-x", "--iterations", "--warmup")) for a in s["args"])
    letters = OPTSTRINGS.get(s["program"], "")
    if own or "i:" not in letters or "x:" not in letters:
        return list(s["args"])
    return ["-i", "10", "-x", "1", *s["args"]]


@pytest.mark.parametrize("s", matrix_beyond_first(mine("run", exits={0}), lambda s: s["program"]))
def test_same_text_as_osu(s):
    r = run(s["np"], s["program"], *few_iterations(s), timeout=240, cwd=OSU)
    if s["file"] in REFUSED_ON_PURPOSE:
        assert r.returncode == 2 and REFUSED_ON_PURPOSE[s["file"]] in r.stderr, r
        return
    assert r.returncode == 0, r
    want = (OSU / s["file"]).read_text()
    if osu_fail_rows(want):  # OSU's own check wrong (MPICH's small allocated windows)
        assert not osu_fail_rows(r.stdout), r.stdout
        return
    assert masked(r.stdout) == masked(want), (
        f"{s['program']} {' '.join(s['args'])}:\n--- OSU\n{want}\n--- effbench\n{r.stdout}")


def osu_fail_rows(text):
    return [line for line in text.splitlines() if re.search(r"\b(Fail|failed)\b", line)]


@pytest.mark.parametrize("s", mine("run", exits={1}))
def test_where_osu_fails_itself(s):
    """OSU 7.4's own -c fails on correct data (MPI_CHAR sums that overflow its expected
    values, MPICH's persistent collectives), and its fan-in/out refuse one node: effbench's
    check passes every row of the same command line, or refuses it with a reason."""
    r = run(s["np"], s["program"], *s["args"], timeout=240, cwd=OSU)
    if r.returncode == 2:
        assert "effbench: error:" in r.stderr, r
        return
    assert r.returncode == 0, r
    out = (OSU / s["file"]).read_text()
    assert osu_fail_rows(out) or "This test" in osu_err(s) or "node" in osu_err(s), s
    assert not osu_fail_rows(r.stdout), r.stdout


def problem_of(s):
    """OSU's words for what is wrong (the stderr line 'MESSAGE [-x ARG]') and the option."""
    for line in osu_err(s).splitlines():
        m = re.match(r"^(.*?) \[-(\S)", line)
        if m:
            return m.group(1).strip(), m.group(2)
    return None, None


@pytest.mark.parametrize("s", mine("bad"))
def test_bad_command_lines(s):
    # a command line OSU ran runs at few iterations too (osu_iallreduce -t 0 at OSU's
    # defaults on 4 ranks passed 240 s with a busy loop on one core)
    args = few_iterations(s) if s["exit"] == 0 else s["args"]
    r = run(s["np"], s["program"], *args, timeout=240, cwd=OSU)
    if s["exit"] == 0:
        # OSU ran (or printed an empty table): effbench runs it the same, or refuses it
        # with a message (it never runs with a malformed value)
        if r.returncode == 0:
            assert masked(r.stdout) == masked((OSU / s["file"]).read_text()), r
        else:
            assert r.returncode == 2 and "effbench: error:" in r.stderr, r
        return
    # OSU refused (or hung: effbench ends)
    assert r.returncode == 2, r
    assert r.stderr.count("effbench: error:") == 1, r
    words, opt = problem_of(s)
    if words:
        # OSU's words, or effbench's naming the option (OSU names some by a NUL byte)
        opts = [f"-{opt}"] if opt.isprintable() else [a for a in s["args"] if a.startswith("-")]
        assert words in r.stderr or any(o in r.stderr for o in opts), (words, opts, r.stderr)


def option_letters(text):
    return sorted(set(re.findall(r"^  -(\w), --", text, re.M)))


@pytest.mark.parametrize("s", [p for p in mine("help", exits={0})
                               if "Usage:" in (OSU / p.values[0]["file"]).read_text()])
def test_help_lists_osu_options(s):
    r = run(s["np"], s["program"], *s["args"], timeout=120, cwd=OSU)
    assert r.returncode == 0, r
    want = (OSU / s["file"]).read_text()
    assert option_letters(r.stdout) == option_letters(want), (r.stdout, want)
