"""compare's verdicts and exit codes (effbench.compare, `effbench-results compare`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from effbench.cli import main
from effbench.compare import compare_runs
from effbench.importers import parse_file
from effbench.records import ParsedRun, new_result, new_run, write_jsonl

def scaled_copy(src: Path, dst: Path, factor: float, bench: str | None = None,
                min_bytes: int = 0) -> Path:
    """SRC with the times of BENCH (all benchmarks if None) from MIN_BYTES on multiplied."""
    parsed = parse_file(src)
    for r in parsed.results:
        if (bench is None or r["benchmark"] == bench) and r["bytes"] >= min_bytes:
            for k in ("t_min_us", "t_max_us", "t_avg_us"):
                r[k] *= factor
            if r["mbytes_per_s"]:
                r["mbytes_per_s"] /= factor
    write_jsonl(parsed.records(), dst)
    return dst


# --- compare -------------------------------------------------------------------------------------

def test_compare_identical_runs(c_output, capsys):
    jsonl = str(c_output["p2p"][0])
    assert main(["compare", jsonl, jsonl]) == 0
    out = capsys.readouterr().out
    assert "40 rows compared" in out and "0 regressions beyond 10%" in out


def test_compare_regression_exit_code(c_output, tmp_path, capsys):
    a = c_output["p2p"][0]
    b = scaled_copy(a, tmp_path / "b.jsonl", 1.5, "Sendrecv", min_bytes=64)
    assert main(["compare", str(a), str(b), "--only-changes"]) == 1
    out = capsys.readouterr().out
    assert "3 regressions beyond 10%" in out  # 64, 128 and 256 bytes
    cmp = compare_runs(parse_file(a), parse_file(b))
    flagged = sorted((r.label, r.key[5]) for r in cmp.regressions)
    assert flagged == [("Sendrecv", 64), ("Sendrecv", 128), ("Sendrecv", 256)]
    assert all(abs(r.ratio - 1.5) < 1e-9 for r in cmp.regressions)
    # a higher threshold lets it pass, still flagged as slower
    assert main(["compare", str(a), str(b), "--threshold", "60"]) == 0
    assert "3 worse beyond the noise" in capsys.readouterr().out


def noise_run(factors: dict[str, float]) -> ParsedRun:
    """A run of two rows: Wide, whose processes spread by 6% ((t_max - t_min) / t_avg: 6% noise,
    above the 2% floor), and Tight, whose processes agree (noise: the floor); the times of
    each multiplied by FACTORS."""
    run = new_run("mpi1", "effbench", 2)
    results = []
    for bench, (t_min, t_max) in (("Wide", (0.97, 1.03)), ("Tight", (1.0, 1.0))):
        f = factors.get(bench, 1.0)
        results.append(new_result("mpi1", bench, 2, 1024, repetitions=1000, t_min_us=t_min * f,
                                  t_avg_us=f, t_max_us=t_max * f))
    return ParsedRun(run=run, results=results)


@pytest.mark.parametrize("wide,tight,flags", [
    # 8% slower: within the wide row's measured noise (6% in each run: B/A may be 1 up to
    # 1.06 / 0.94 = 1.128), beyond the tight one's (2% each: up to 1.041)
    (1.08, 1.08, {"Wide": "", "Tight": "slower"}),
    # 11%: still within the wide row's noise, so not a regression although beyond 10%
    (1.11, 1.03, {"Wide": "", "Tight": ""}),
    # 13%: beyond the measured noise and the 10% threshold; 5% faster beyond the tight noise
    (1.13, 0.95, {"Wide": "REGRESSION", "Tight": "faster"}),
])
def test_compare_flags_changes_beyond_the_measured_noise(wide, tight, flags):
    cmp = compare_runs(noise_run({}), noise_run({"Wide": wide, "Tight": tight}))
    rows = {r.label: r for r in cmp.rows}
    assert rows["Wide"].noise == pytest.approx(0.12) and rows["Tight"].noise == 0.04
    assert {label: r.flag for label, r in rows.items()} == flags
    assert (rows["Wide"].ratio, rows["Tight"].ratio) == (pytest.approx(wide),
                                                         pytest.approx(tight))


def test_compare_rounded_text_value_is_not_a_change():
    """0.0156 us measured, 0.02 printed by the text (2 decimals): the print resolution,
    relative to the smaller value, covers the 28% difference."""
    exact = ParsedRun(run=new_run("mpi1", "effbench", 2), results=[new_result(
        "mpi1", "Allreduce", 2, 0, repetitions=1000, t_min_us=0.0156, t_max_us=0.0156,
        t_avg_us=0.0156)])
    printed = ParsedRun(run=new_run("mpi1", "effbench", 2), source_format="imb",
                        results=[new_result("mpi1", "Allreduce", 2, 0, repetitions=1000,
                                            t_min_us=0.02, t_max_us=0.02, t_avg_us=0.02)])
    for a, b in ((exact, printed), (printed, exact)):
        (row,) = compare_runs(a, b).rows
        assert row.noise == pytest.approx(0.02 + 0.005 / 0.02)
        assert row.flag == "" and abs(row.change) > 0.2


def test_compare_within_noise_and_faster(c_output, tmp_path, capsys):
    a = c_output["p2p"][0]
    small = scaled_copy(a, tmp_path / "small.jsonl", 1.03)
    cmp = compare_runs(parse_file(a), parse_file(small))
    # 3% is inside every row's noise (at least the 2% + 2% floor of the two runs)
    assert [r for r in cmp.rows if r.flag] == [] and all(r.noise >= 0.04 for r in cmp.rows)
    assert main(["compare", str(a), str(small)]) == 0
    fast = scaled_copy(a, tmp_path / "fast.jsonl", 0.5)
    cmp = compare_runs(parse_file(a), parse_file(fast))
    # B/A = 0.5 stays below 1 for every value within the noise when 0.5 (1 + n_b) / (1 - n_a)
    # < 1: surely so when the comparison's noise n_a + n_b is below 1/4; a row measured on a
    # busy machine may be noisier, and is then rightly no change
    assert len(cmp.rows) == 40 and [r.ratio for r in cmp.rows] == pytest.approx([0.5] * 40)
    assert all(r.flag == "faster" for r in cmp.rows if r.noise < 0.25)
    assert all(r.flag in ("faster", "") for r in cmp.rows)
    better = sum(r.flag == "faster" for r in cmp.rows)
    assert better >= 20, [r.noise for r in cmp.rows]
    assert main(["compare", str(a), str(fast)]) == 0
    assert f"{better} better and 0 worse" in capsys.readouterr().out


def test_compare_bandwidth_rows_and_errors(samples, tmp_path, capsys):
    beff = samples / "beff/b_eff_np4.short"
    parsed = parse_file(beff)
    for r in parsed.results:
        if r["benchmark"] == "log_avg of all rings":
            r["b_mb_per_s"] *= 0.5  # half the bandwidth: worse
    worse = tmp_path / "worse.jsonl"
    write_jsonl(parsed.records(), worse)
    cmp = compare_runs(parse_file(beff), parse_file(worse))
    assert len(cmp.regressions) == 21 and all(r.metric == "bandwidth" for r in cmp.regressions)
    assert main(["compare", str(beff), str(worse)]) == 1
    # nothing in common, and an unknown run: usage errors
    assert main(["compare", str(beff), str(samples / "skampi/pt2pt_np2.sko")]) == 2
    db = f"sqlite:///{tmp_path / 'x.sqlite'}"
    assert main(["compare", "--db", db, "1", "2"]) == 2
    assert "no run '1'" in capsys.readouterr().err


def test_compare_stored_runs(sqlite_url, samples, capsys):
    assert main(["import", "--db", sqlite_url, str(samples / "imb/mpi1_np2_p2p.txt"),
                 str(samples / "imb/mpi1_np2_full_default.txt")]) == 0
    code = main(["compare", "--db", sqlite_url, "1", "2"])
    out = capsys.readouterr().out
    assert "96 rows compared" in out and "327 rows only in B" in out
    assert code == 1  # the two real runs differ by more than 10% at some sizes
