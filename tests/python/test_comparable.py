"""compare: the headline numbers of the summaries meet (b_eff's, b_eff_io's), and two runs are
checked for what differs before any ratio; a difference that changes what is measured refuses
the comparison unless --allow-different (effbench.comparable, effbench.compare)."""
import json

from effbench.cli import main
from effbench.comparable import differences
from effbench.compare import compare_runs
from effbench.importers import parse_file
from effbench.records import ParsedRun
from web_helpers import run_records

SAMPLES_BEFF = "beff/b_eff_np4"


def test_beff_headlines_compare(samples, tmp_path, capsys):
    sum_file, short = samples / f"{SAMPLES_BEFF}.sum", samples / f"{SAMPLES_BEFF}.short"
    cmp = compare_runs(parse_file(sum_file), parse_file(short))
    rows = {r.label: r for r in cmp.headlines}
    assert {"b_eff", "b_eff per process", "ping-pong latency",
            "ping-pong bandwidth at L_max"} <= set(rows)
    assert all(abs(r.ratio - 1) < 1e-3 and r.flag == "" for r in rows.values())  # print digits
    # a b_eff 20 % lower is a regression, and the exit status says so
    text = sum_file.read_text()
    value = parse_file(sum_file).summaries[0]["b_eff_mb_per_s"]
    worse = tmp_path / "worse.sum"
    worse.write_text(text.replace(f"{value:.3f}", f"{value * 0.8:.3f}"))
    cmp = compare_runs(parse_file(sum_file), parse_file(worse))
    assert {r.label: r.flag for r in cmp.headlines}["b_eff"] == "REGRESSION"
    assert main(["compare", str(sum_file), str(worse)]) == 1


def _run_file(path, **options):
    recs = run_records()
    recs[0]["options"] = {"off_cache_mb": None, "iter_policy": "dynamic", **options}
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def test_a_difference_in_what_is_measured_is_refused(tmp_path, capsys):
    a = _run_file(tmp_path / "a.jsonl")
    b = _run_file(tmp_path / "b.jsonl", off_cache_mb=4, planned_rows=99)
    diffs = differences(parse_file(a), parse_file(b))
    assert [(d.what, d.a, d.b, d.changes_measurement) for d in diffs] == [
        ("options.off_cache_mb", None, 4, True)]  # planned_rows says nothing of the values
    assert main(["compare", str(a), str(b)]) == 2
    out = capsys.readouterr()
    assert "  options.off_cache_mb: none (A) vs 4 (B)  [changes what is measured]" in out.out
    assert (f"effbench-results: error: {a} and {b} do not measure the same thing "
            "(options.off_cache_mb); --allow-different compares them anyway") in out.err
    assert main(["compare", "--allow-different", str(a), str(b)]) == 0
    assert "rows compared" in capsys.readouterr().out


def test_other_machines_and_libraries_are_said_not_refused(tmp_path, capsys):
    a = tmp_path / "a.jsonl"
    a.write_text("".join(json.dumps(r) + "\n" for r in run_records(machine="alpha")))
    b = tmp_path / "b.jsonl"
    b.write_text("".join(json.dumps(r) + "\n" for r in run_records(
        machine="beta", library="MPICH Version: 4.0.2")))
    diffs = differences(parse_file(a), parse_file(b))
    assert {d.what for d in diffs} == {"hosts", "mpi_library"}
    assert not any(d.changes_measurement for d in diffs)
    assert main(["compare", str(a), str(b)]) in (0, 1)
    assert "hosts: alpha (A) vs beta (B)" in capsys.readouterr().out


def test_another_mpi_standard_version_is_said(tmp_path, capsys):
    """Open MPI 5.0 says MPI 3.1, Intel MPI 2021.16 4.1 (docs/mpi-libraries.md)."""
    recs = [run_records(library="Open MPI v5.0.11"),
            run_records(library="Intel(R) MPI Library 2021.16")]
    recs[1][0]["mpi_version"] = "4.1"
    paths = []
    for name, rr in zip("ab", recs):
        paths.append(tmp_path / f"{name}.jsonl")
        paths[-1].write_text("".join(json.dumps(r) + "\n" for r in rr))
    diffs = differences(parse_file(paths[0]), parse_file(paths[1]))
    assert [(d.what, d.a, d.b, d.changes_measurement) for d in diffs] == [
        ("mpi_library", "Open MPI v5.0.11", "Intel(R) MPI Library 2021.16", False),
        ("mpi_version", "3.1", "4.1", False)]
    assert main(["compare", *map(str, paths)]) in (0, 1)
    assert "  mpi_version: 3.1 (A) vs 4.1 (B)\n" in capsys.readouterr().out


def test_beff_repeat_before_the_option_existed_was_three():
    """A b_eff run stored before --repeat had 3 repetitions: it compares with a new default
    run, and a --repeat 1 run differs from both in what is measured."""
    def beff(**options):
        return ParsedRun(run={"component": "beff", "options": {"loop_ms": 2.5, **options}})
    old, new, one = beff(), beff(repeat=3), beff(repeat=1)
    assert differences(old, new) == differences(new, old) == []
    for a in (old, new):
        assert [(d.what, d.a, d.b, d.changes_measurement) for d in differences(a, one)] == [
            ("options.repeat", 3, 1, True)]
    # only b_eff had 3 before: another component's missing option stays a difference
    imb = ParsedRun(run={"component": "mpi1", "options": {"repeat": 3}})
    assert [d.what for d in differences(imb, ParsedRun(run={"component": "mpi1",
                                                            "options": {"x": 1}}))] == [
        "options.repeat", "options.x"]
