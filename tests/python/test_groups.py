"""Groups of independent launches (docs/statistics.md): the statistics against hand-computed
and textbook values, groups of runs written here from known values on SQLite and PostgreSQL,
`run --repeat` with a scripted command (its order, its failures) and with real launches of
IMB-MPI1 PingPong."""

from __future__ import annotations

import json
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from effbench.cli import main
from effbench.groupstats import (fewest_pair, mann_whitney, median_interval, median_rank,
                                 ratio_interval, runs_needed, u_counts, u_critical, verdict)
from effbench.repeat import launch_order, split_commands, wants_repeat
from effbench.store.db import MIGRATIONS, Store
from effbench.store.groups import list_groups, load_group, make_group

P95 = Fraction(95, 100)


# --- the statistics, by hand --------------------------------------------------------------------

def test_median_interval_from_order_statistics():
    """[x(l), x(n+1-l)] covers the median with probability 1 - 2 P(Binomial(n, 1/2) <= l-1):
    n = 10 gives [x(2), x(9)] at 1 - 2 * 11/1024 = 501/512; n = 20 gives [x(6), x(15)] at
    1 - 2 * 21700/2^20 (Le Boudec, Theorem 2.1)."""
    iv = median_interval([float(v) for v in range(19, 9, -1)], P95)  # 10..19, any order
    assert (iv.n, iv.median, iv.low, iv.high, iv.rank) == (10, 14.5, 11.0, 18.0, 2)
    assert iv.coverage == Fraction(501, 512)
    assert median_rank(20, P95) == (6, 1 - Fraction(2 * 21700, 2 ** 20))
    six = median_interval([3.0, 1.0, 2.0, 6.0, 5.0, 4.0], P95)
    assert (six.low, six.high, six.coverage) == (1.0, 6.0, Fraction(31, 32))


def test_too_few_runs_give_no_interval():
    """Five runs: even [min, max] covers the median only with 1 - 2/32 = 93.75 % < 95 %."""
    iv = median_interval([1.0, 2.0, 3.0, 4.0, 5.0], P95)
    assert (iv.median, iv.low, iv.high, iv.coverage, iv.needed) == (3.0, None, None, None, 6)
    assert runs_needed(P95) == 6 and runs_needed(Fraction(99, 100)) == 8
    assert runs_needed(Fraction(90, 100)) == 5
    assert median_interval([1.0, 2.0, 3.0, 4.0, 5.0], Fraction(90, 100)).coverage == \
        Fraction(15, 16)


def test_u_distribution_is_the_gaussian_binomial():
    """The arrangements of 4 + 4 values by U: partitions of u into at most 4 parts of at most
    4 (70 in all); of 5 + 4 values, 126."""
    assert u_counts(4, 4) == [1, 1, 2, 3, 5, 5, 7, 7, 8, 7, 7, 5, 5, 3, 2, 1, 1]
    assert u_counts(3, 3) == [1, 1, 2, 3, 3, 3, 3, 2, 1, 1]
    assert sum(u_counts(5, 4)) == math.comb(9, 4) == 126
    assert u_counts(1, 3) == [1, 1, 1, 1]


def test_mann_whitney_exact_textbook_example():
    """Ages of 4 female and 5 male subjects (the example of scipy's mannwhitneyu): U = 17 for
    the males, P(U >= 17) = P(U <= 3) = 7/126, two-sided p = 14/126 = 1/9."""
    females, males = [20.0, 11.0, 17.0, 12.0], [19.0, 22.0, 16.0, 29.0, 24.0]
    test = mann_whitney(females, males)
    assert (test.u, test.p, test.method) == (17.0, 1 / 9, "exact")
    assert mann_whitney(males, females).u == 3.0 and mann_whitney(males, females).p == 1 / 9


def test_mann_whitney_normal_approximation_with_ties():
    """A = 1 2 2 3, B = 2 3 3 4 5: U = 5 + 2 * 4.5 + 3 = 17, mean 10; two groups of three tied
    values, variance 20/12 * (10 - 48/72) = 140/9; z = (7 - 1/2) / sqrt(140/9)."""
    test = mann_whitney([1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0, 5.0])
    z = 6.5 / math.sqrt(140 / 9)
    assert (test.u, test.method) == (17.0, "normal")
    assert test.p == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-12)
    assert test.p == pytest.approx(0.09934, abs=5e-5)
    assert mann_whitney([2.0, 2.0], [2.0, 2.0]).p == 1.0  # nothing tells them apart


def test_ratio_interval_hodges_lehmann_moses():
    """A = 10..13, B = 14..17: P(U = 0) = 1/70 <= 2.5 % < P(U <= 1) = 2/70, so k = 1 and the
    interval is [min b/a, max b/a] = [14/13, 17/10], coverage 68/70; every b beats every a:
    U = 16, p = 2/70; B slower by 15.5/11.5 - 1 = 35 % > 10 %: a regression."""
    a, b = [10.0, 11.0, 12.0, 13.0], [14.0, 15.0, 16.0, 17.0]
    iv = ratio_interval(a, b, P95)
    assert (iv.ratio, iv.low, iv.high, iv.rank) == (15.5 / 11.5, 14 / 13, 17 / 10, 1)
    assert iv.coverage == float(Fraction(68, 70)) and iv.exact
    test = mann_whitney(a, b)
    assert (test.u, test.p) == (16.0, 2 / 70)
    assert verdict(iv, "time", 0.10) == "REGRESSION"
    assert verdict(iv, "time", 0.50) == "B slower"
    assert verdict(iv, "bandwidth", 0.10) == "B faster"
    overlap = ratio_interval(a, [11.5, 12.5, 13.5, 9.5], P95)
    assert overlap.low < 1 < overlap.high
    assert verdict(overlap, "time", 0.10) == "no difference shown"


def test_ratio_interval_critical_values():
    """6 + 6 runs: the cumulative counts 1 2 4 7 12 19 30 of 924 put P(U <= 5) = 19/924 <= 2.5 %
    < 30/924: k = 6, [D(6), D(31)] at 1 - 38/924 (Hollander and Wolfe's table: C = 6). 3 + 3
    runs: P(U = 0) = 1/20 > 2.5 %, no 95 % interval; at 90 % k = 1 with coverage 18/20."""
    assert u_critical(6, 6, P95) == (6, 1 - Fraction(38, 924))
    a = [1.0, 1.3, 1.7, 2.2, 2.9, 3.1]
    b = [1.1, 1.9, 2.5, 2.6, 3.7, 4.3]
    ratios = sorted(y / x for x in a for y in b)
    iv = ratio_interval(a, b, P95)
    assert (iv.low, iv.high) == (ratios[5], ratios[30])
    assert u_critical(3, 3, P95) is None and fewest_pair(P95) == 4
    assert ratio_interval([1.0, 2.0, 3.0], [2.0, 3.0, 4.0], P95).low is None
    assert u_critical(3, 3, Fraction(90, 100)) == (1, Fraction(18, 20))
    # beyond 50 runs a group: k = floor(mn/2 - z sqrt(mn(m+n+1)/12)) = floor(1800 - 1.959964
    # * 190.526), nominal coverage
    assert u_critical(60, 60, P95) == (1426, 0.95)


def test_against_scipy():
    """Our exact and normal p-values equal scipy's mannwhitneyu (method exact / asymptotic
    with continuity correction) on random samples, with and without ties."""
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(41)
    for _ in range(40):
        m, n = rng.randint(1, 12), rng.randint(1, 12)
        a = [rng.random() for _ in range(m)]
        b = [rng.random() for _ in range(n)]
        ours, theirs = mann_whitney(a, b), stats.mannwhitneyu(b, a, method="exact")
        assert ours.method == "exact" and ours.u == theirs.statistic
        assert ours.p == pytest.approx(theirs.pvalue, rel=1e-12, abs=1e-15)
        a = [float(rng.randint(0, 5)) for _ in range(m + 3)]
        b = [float(rng.randint(0, 5)) for _ in range(n + 3)]
        ours, theirs = mann_whitney(a, b), stats.mannwhitneyu(b, a, method="asymptotic")
        assert ours.method == "normal"
        assert ours.p == pytest.approx(theirs.pvalue, rel=1e-12, abs=1e-15)
    a, b = [rng.random() for _ in range(60)], [rng.random() + 0.1 for _ in range(55)]
    ours, theirs = mann_whitney(a, b), stats.mannwhitneyu(b, a, method="asymptotic")
    assert ours.method == "normal" and ours.p == pytest.approx(theirs.pvalue, rel=1e-12)


# --- groups of runs written here ----------------------------------------------------------------

def write_run(path: Path, values: dict[int, float], start: str, **options) -> Path:
    """An IMB-MPI1 PingPong run of 2 processes whose time at each size is the given value
    (t_min = t_max = t_avg) and whose bandwidth is bytes / time."""
    recs = [{"type": "run", "schema": 1, "tool": "effbench", "component": "mpi1",
             "start": start, "procs": 2, "options": {"benchmarks": ["PingPong"], **options}}]
    for nbytes, t in values.items():
        recs.append({"type": "result", "schema": 1, "component": "mpi1",
                     "benchmark": "PingPong", "procs": 2, "bytes": nbytes, "repetitions": 10,
                     "t_min_us": t, "t_max_us": t, "t_avg_us": t,
                     "mbytes_per_s": nbytes / t})
    recs.append({"type": "end", "schema": 1, "status": "ok"})
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def stored_group(db: str, tmp: Path, name: str, times: list[float], day: int, **options
                 ) -> int:
    """A group of runs, one per time: PingPong 0 bytes at the time, 1 MiB at 100 times it."""
    ids = []
    with Store(db) as store:
        for i, t in enumerate(times):
            path = write_run(tmp / f"{name}{i}.jsonl", {0: t, 1048576: 100 * t},
                             f"2026-03-{day:02d}T00:{i:02d}:00Z", **options)
            from effbench.importers import parse_file
            ids.append(store.import_run(parse_file(path))[0])
        return make_group(store, ids, name)


A_TIMES = [10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0]
B_TIMES = [14.0, 15.0, 16.0, 17.0]


def test_summary_of_a_group(db_url, tmp_path, capsys):
    """Ten runs of 10..19 us: median 14.5 with [x(2), x(9)] = [11, 18] at 501/512 = 97.85 %;
    four runs: too few for 95 %, said so (6 needed), no interval."""
    ga = stored_group(db_url, tmp_path, "ten", A_TIMES, 1)
    gb = stored_group(db_url, tmp_path, "four", B_TIMES, 2)
    assert main(["summary", f"group:{ga}", "--db", db_url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [
        f"group {ga}: ten",
        "10 launches: 10 ok; runs 1, 2, 3, 4, 5, 6, 7, 8, 9, 10",
        "per row, the median of the runs' values and its 95 % confidence interval from order "
        "statistics (binomial, distribution-free)",
        "benchmark  procs    bytes                value  runs   median       95 % interval  "
        "coverage"]
    # the bandwidths' median: the mean of 2^20 / 1400 and 2^20 / 1500; the interval 2^20 / 1800
    # and 2^20 / 1100
    assert out[4:] == [
        "PingPong       2        0        t_avg_us [us]    10     14.5            [11, 18]   "
        "97.85 %",
        "PingPong       2  1048576        t_avg_us [us]    10     1450        [1100, 1800]   "
        "97.85 %",
        "PingPong       2  1048576  mbytes_per_s [MB/s]    10  724.017  [582.542, 953.251]   "
        "97.85 %"]
    assert main(["summary", str(gb), "--db", db_url, "--json"]) == 0
    recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert recs[0]["type"] == "group" and recs[0]["runs"] == [11, 12, 13, 14]
    first = recs[1]
    assert (first["values"], first["median"], first["low"], first["high"], first["coverage"],
            first["needed"], first["runs"]) == (B_TIMES, 15.5, None, None, None, 6, 4)
    assert main(["summary", str(gb), "--db", db_url]) == 0
    assert "PingPong       2        0        t_avg_us [us]     4     15.5  too few runs " \
        "(6 needed)         -" in capsys.readouterr().out


def test_compare_groups(db_url, tmp_path, capsys):
    """The four-run groups 10..13 and 14..17 us: B/A = 15.5/11.5, [14/13, 17/10] at 68/70,
    U = 16, exact p = 2/70: a regression, exit 1; the bandwidth, higher is better, the same
    in reverse."""
    ga = stored_group(db_url, tmp_path, "a", [10.0, 11.0, 12.0, 13.0], 1)
    gb = stored_group(db_url, tmp_path, "b", B_TIMES, 2)
    assert main(["compare", f"group:{ga}", f"group:{gb}", "--db", db_url, "--json"]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["bytes"], r["field"]) for r in rows] == [
        (0, "t_avg_us"), (1048576, "t_avg_us"), (1048576, "mbytes_per_s")]
    time0 = rows[0]
    assert (time0["median_a"], time0["median_b"], time0["ratio"]) == (11.5, 15.5, 15.5 / 11.5)
    assert (time0["low"], time0["high"], time0["coverage"]) == (14 / 13, 17 / 10, 68 / 70)
    assert (time0["u"], time0["p"], time0["test"], time0["verdict"]) == (
        16.0, 2 / 70, "exact", "REGRESSION")
    bw = rows[2]
    assert (bw["low"], bw["high"]) == pytest.approx((10 / 17, 13 / 14), rel=1e-12)
    assert (bw["u"], bw["p"], bw["verdict"]) == (0.0, 2 / 70, "REGRESSION")
    assert main(["compare", f"group:{ga}", f"group:{gb}", "--db", db_url]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[3].split() == ["benchmark", "procs", "bytes", "value", "runs", "A", "runs", "B",
                              "median", "A", "median", "B", "B/A", "95", "%", "interval",
                              "coverage", "U", "p", "verdict"]
    assert out[4].split() == ["PingPong", "2", "0", "t_avg_us", "[us]", "4", "4", "11.5",
                              "15.5", "1.3478", "[1.07692,", "1.7]", "97.14", "%", "16",
                              "0.02857", "(exact)", "REGRESSION"]
    assert out[-1] == ("3 values compared: 3 B slower (3 regressions beyond 10 %), 0 B faster, "
                       "0 no difference shown, 0 with too few runs for an interval; p-values "
                       "are per value, not corrected for the number of values")
    assert main(["compare", f"group:{ga}", f"group:{gb}", "--db", db_url, "--json",
                 "--min-bytes", "1"]) == 1
    assert [json.loads(line)["bytes"] for line in capsys.readouterr().out.splitlines()] == [
        1048576, 1048576]
    # the same group twice: every ratio 1, U = 8, p = 1: no difference shown, exit 0
    assert main(["compare", f"group:{ga}", f"group:{ga}", "--db", db_url, "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {(r["ratio"], r["u"], r["p"], r["verdict"]) for r in rows} == {
        (1.0, 8.0, 1.0, "no difference shown")}
    assert main(["compare", f"group:{ga}", f"group:{ga}", "--db", db_url,
                 "--only-changes"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[3].startswith("benchmark") and out[4].startswith("3 values compared: 0 B slower")


def test_groups_refused(sqlite_url, tmp_path, capsys):
    """Runs that measure different things make no group; a group and a run are not
    compared; a bad confidence and an unknown group are named (status 2)."""
    ga = stored_group(sqlite_url, tmp_path, "a", [10.0, 11.0], 1)
    stored_group(sqlite_url, tmp_path, "other", [10.0], 2, iter_policy="off")
    capsys.readouterr()
    assert main(["group", "1", "3", "--db", sqlite_url]) == 2
    assert "run 1 and run 3 do not measure the same thing (options.iter_policy)" in \
        capsys.readouterr().err
    with Store(sqlite_url) as store:
        assert [g.label for g in list_groups(store)] == ["a", "other"]
    assert main(["compare", f"group:{ga}", "1", "--db", sqlite_url]) == 2
    assert "compare takes two runs or two groups (group:N), not one of each" in \
        capsys.readouterr().err
    assert main(["summary", "1", "--confidence", "100", "--db", sqlite_url]) == 2
    assert "--confidence 100: expected a percentage between 0 and 100" in \
        capsys.readouterr().err
    assert main(["summary", "group:9", "--db", sqlite_url]) == 2
    assert "no group 9 in" in capsys.readouterr().err
    assert main(["compare", "1", "2", "--confidence", "90", "--db", sqlite_url]) == 2
    assert "--confidence and --json are for groups" in capsys.readouterr().err


def test_check_takes_a_group(sqlite_url, tmp_path, capsys):
    """Five earlier runs at 10 us (band: 10 +- 5 %) and a group of three at 10, 10.2 and
    12 us: its median 10.2 is inside, exit 0; a group of 11, 12, 13 (median 12) is worse."""
    stored_group(sqlite_url, tmp_path, "past", [10.0] * 5, 1)
    good = stored_group(sqlite_url, tmp_path, "good", [10.0, 12.0, 10.2], 2)
    capsys.readouterr()
    assert main(["check", f"group:{good}", "--db", sqlite_url]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(
        f"group {good} (3 runs) against the 5 runs before it: 0 values worse")
    bad = stored_group(sqlite_url, tmp_path, "bad", [11.0, 12.0, 13.0], 3)
    assert main(["check", f"group:{bad}", "--baseline", "last:5", "--db", sqlite_url]) == 1
    out = capsys.readouterr().out
    assert ("REGRESSION: PingPong: median of 3 runs 12 us, baseline median 10 us +- 0.5"
            in out)


def test_migration_0005_keeps_runs(db_url):
    """A store of schema 0004 with a run: upgraded, the run can join a group."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(db_url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004")
        conn.execute(text(
            "INSERT INTO run (id, content_hash, tool, component, procs, \"check\", "
            "source_format, imported_at, run_record) VALUES (7, 'abc', 'effbench', 'mpi1', "
            "2, false, 'jsonl', '2026-01-01 00:00:00', '{\"type\": \"run\"}')"))
    engine.dispose()
    with Store(db_url) as store:
        gid = make_group(store, [7], "old run")
        group = load_group(store, gid)
        assert (group.label, group.ok_runs, group.members[0].status) == ("old run", [7], "ok")
        # the web application deletes a run: its launch stays, without a run (SET NULL)
        from effbench.web.query import delete_run
        delete_run(store, 7)
        assert load_group(store, gid).members[0].run_id is None


# --- run --repeat -------------------------------------------------------------------------------

def test_command_line_words():
    assert wants_repeat(["run", "--repeat", "3", "--", "a"]) and \
        wants_repeat(["run", "--db", "x", "--repeat=2", "--", "a"])
    assert not wants_repeat(["run", "--np", "2", "mpi1", "--repeat", "3"])
    assert not wants_repeat(["run", "mpi1", "--", "--repeat"])
    assert split_commands(["a", "1", "--", "b", "--", "c", "2"]) == [["a", "1"], ["b"],
                                                                   ["c", "2"]]
    assert launch_order(2, 2, False, None) == [(0, 1), (1, 1), (0, 2), (1, 2)]
    order = [(0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    random.Random(1).shuffle(order)
    assert launch_order(2, 3, True, 1) == order


# A stand-in for effbench: a PingPong run whose 0-byte time is its argument at the launch's
# repetition ($EFFBENCH_REPETITION); "crash" writes one row and exits 3, "sleep" writes one row
# and hangs.
SCRIPTED = """import json, os, sys
path = sys.argv[sys.argv.index("--json") + 1]
value = sys.argv[int(os.environ["EFFBENCH_REPETITION"])]
with open(path, "w") as f:
    f.write(json.dumps({"type": "run", "schema": 1, "tool": "effbench", "component": "mpi1",
                        "procs": 2, "options": {"benchmarks": ["PingPong"]}}) + "\\n")
    cut = value in ("crash", "sleep")
    t = 7.0 if cut else float(value)
    for n in ((0,) if cut else (0, 1)):
        f.write(json.dumps({"type": "result", "schema": 1, "component": "mpi1",
                            "benchmark": "PingPong", "procs": 2, "bytes": n, "repetitions": 1,
                            "t_min_us": t + n, "t_max_us": t + n, "t_avg_us": t + n,
                            "launched_in": int(os.environ["EFFBENCH_GROUP"])}) + "\\n")
    if value == "crash":
        sys.stderr.write("effbench: error: simulated crash\\n")
        sys.exit(3)
    if value == "sleep":  # a hang
        f.flush()
        import time
        time.sleep(120)
    f.write(json.dumps({"type": "end", "schema": 1, "status": "ok"}) + "\\n")
"""


def test_repeat_records_every_launch(tmp_path, capsys):
    """Two commands, three launches each in seed 1's order; the crash of one launch is
    recorded (exit status, message, its one row stored as an incomplete run) and the others go
    on; the groups hold the values given, and exit status 1 says a launch failed."""
    script = tmp_path / "scripted.py"
    script.write_text(SCRIPTED)
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    code = main(["run", "--repeat", "3", "--shuffle", "--seed", "1", "--dir",
                 str(tmp_path / "runs"), "--db", db, "--", sys.executable, str(script), "10",
                 "12", "11", "--", sys.executable, str(script), "20", "crash", "21"])
    out, err = capsys.readouterr()
    assert code == 1, err
    order = launch_order(2, 3, True, 1)
    with Store(db) as store:
        g1, g2 = load_group(store, 1), load_group(store, 2)
        assert (g1.repeat, g1.shuffled, g1.seed, g1.batch == g2.batch) == (3, True, 1, True)
        assert [(m.repetition, m.launch_order, m.status) for m in g1.members] == [
            (r, order.index((0, r)) + 1, "ok") for r in (1, 2, 3)]
        assert [m.status for m in g2.members] == ["ok", "failed", "ok"]
        crashed = g2.members[1]
        assert crashed.exit_code == 3 and crashed.message == (
            "exit status 3, run status missing: effbench: error: simulated crash")
        assert store.load(crashed.run_id).end is None  # what it measured is kept
        assert [store.load(r).results[0]["t_avg_us"] for r in g1.ok_runs] == [10, 12, 11]
        assert [store.load(r).results[0]["launched_in"] for r in g2.ok_runs] == [2, 2]
    assert f"FAILED: exit status 3, run status missing: effbench: error: simulated crash; what " \
        f"it measured is stored as run {crashed.run_id}" in err
    assert out.splitlines()[1].startswith("group 2: 3 launches: 2 ok, 1 failed (repetition 2: "
                                          "exit status 3")
    assert main(["summary", "group:2", "--db", db, "--json"]) == 0
    rec = json.loads(capsys.readouterr().out.splitlines()[1])
    assert (rec["values"], rec["median"]) == ([20.0, 21.0], 20.5)
    # the directory of a batch is never reused
    assert main(["run", "--repeat", "1", "--dir", str(tmp_path / "runs"), "--db", db, "--",
                 "true"]) == 2
    assert "exists and is not an empty directory" in capsys.readouterr().err


def test_repeat_commands_file_and_timeout(tmp_path, capsys):
    """Commands from a file (comments, blank lines), round robin without --shuffle, and a
    launch that hangs stopped after --timeout, recorded as failed, the others going on."""
    script = tmp_path / "scripted.py"
    script.write_text(SCRIPTED)
    commands = tmp_path / "commands.txt"
    commands.write_text(f"# two commands\n\n{sys.executable} {script} 5 sleep  # hangs once\n"
                        f"'{sys.executable}' {script} 6 7\n")
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    code = main(["run", "--repeat", "2", "--commands", str(commands), "--timeout", "2",
                 "--dir", str(tmp_path / "runs"), "--db", db])
    err = capsys.readouterr().err
    assert code == 1, err
    with Store(db) as store:
        g1, g2 = load_group(store, 1), load_group(store, 2)
        assert (g1.command, g1.shuffled, g1.seed) == ([sys.executable, str(script), "5",
                                                       "sleep"], False, None)
        assert [(m.launch_order, m.status) for m in g1.members + g2.members] == [
            (1, "ok"), (3, "failed"), (2, "ok"), (4, "ok")]
        hung = g1.members[1]
        assert hung.message == "over its time limit of 2 s: stopped"
        assert 2 <= hung.seconds < 60 and store.load(hung.run_id).results[0]["t_avg_us"] == 7
    assert "[3/4] group 1, repetition 2: FAILED: over its time limit of 2 s: stopped" in err


@pytest.mark.parametrize("argv, message", [
    (["--repeat", "0", "--", "x"], "--repeat 0: expected at least 1 launch"),
    (["--repeat", "2", "--seed", "1", "--", "x"], "--seed 1 without --shuffle"),
    (["--repeat", "2"], "--repeat needs commands: after --, or in a --commands FILE"),
    (["--repeat", "2", "--", "x", "--"], "an empty command (two -- in a row, or -- at the end)"),
    (["--repeat", "2", "--commands", "nowhere.txt"], "--commands nowhere.txt: No such file"),
    (["--repeat", "2", "--timeout", "0", "--", "x"], "--timeout 0: expected a positive number"),
])
def test_repeat_bad_input(argv, message, tmp_path, capsys):
    """Named, status 2, nothing launched."""
    assert main(["run", "--db", str(tmp_path / "r.sqlite"), *argv]) == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.glob("effbench-group-*"))


def test_repeat_real_launches(effbench_bin, mpiexec, mpi_env, tmp_path, monkeypatch, capsys):
    """IMB-MPI1 PingPong (0, 1, 2, 4 bytes, 10 iterations) and the same as `effbench mpi1`,
    three launches each in seed 1's order: two groups of three runs. The summary says that
    three runs are too few for 95 %; compare at 90 % gives, per value, the interval [min b/a,
    max b/a] (k = 1: P(U = 0) = 1/20 <= 5 %) and the exact p of U from the 20 arrangements."""
    for key, value in mpi_env.items():
        monkeypatch.setenv(key, value)
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    cmds = (f"{' '.join(mpiexec)} -n 2 {effbench_bin.parent / 'IMB-MPI1'} PingPong -msglog "
            f"0:2 -iter 10 -- {' '.join(mpiexec)} -n 2 {effbench_bin} mpi1 PingPong -msglog "
            "0:2 -iter 10").split()
    code = main(["run", "--repeat", "3", "--shuffle", "--seed", "1", "--dir",
                 str(tmp_path / "runs"), "--db", db, "--", *cmds])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[0].startswith("group 1: 3 launches: 3 ok; runs ")
    assert main(["summary", "group:1", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 + 4 + 3  # 4 sizes' times and 3 bandwidths (none at 0 bytes)
    assert all(line.endswith("too few runs (6 needed)         -") for line in lines[4:])
    assert main(["compare", "group:1", "group:2", "--confidence", "90", "--json",
                 "--db", db]) in (0, 1)
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["bytes"], r["field"]) for r in rows] == [
        (0, "t_avg_us"), (1, "t_avg_us"), (1, "mbytes_per_s"), (2, "t_avg_us"),
        (2, "mbytes_per_s"), (4, "t_avg_us"), (4, "mbytes_per_s")]
    counts = u_counts(3, 3)
    for r in rows:
        a, b = r["values_a"], r["values_b"]
        assert len(a) == len(b) == 3 and r["coverage"] == 0.9 and r["rank"] == 1
        assert (r["low"], r["high"]) == (min(y / x for x in a for y in b),
                                         max(y / x for x in a for y in b))
        if len(set(a + b)) < 6:  # a tie (times printed to the nanosecond: hardly ever)
            assert r["test"] == "normal"
            continue
        u = sum(1 for x in a for y in b if y > x)
        assert r["u"] == u and r["test"] == "exact"
        assert r["p"] == min(1.0, 2 * min(sum(counts[:u + 1]), sum(counts[u:])) / 20)
        assert r["verdict"] == ("no difference shown" if r["low"] <= 1 <= r["high"] else
                                r["verdict"])
    assert main(["check", "group:2", "--db", db]) == 0
