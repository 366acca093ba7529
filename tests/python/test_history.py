"""History of a series and regression alerts (effbench.history): a run outside the robust band of
its baseline fails `check` (exit 1), one inside passes, runs of another series are no baseline."""
import json

from effbench.cli import main
from effbench.history import MIN_BAND, ROBUST_Z
from web_helpers import run_records


def store_run(db, tmp_path, name, scale, machine="alpha", day=1, options=None):
    recs = run_records(machine=machine, scale=scale, start=f"2026-11-{day:02d}T08:00:00Z")
    recs[0]["options"] = options or {"iter_policy": "dynamic"}
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert main(["import", "--db", db, str(path)]) == 0


def test_check_against_the_baseline(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'h.sqlite'}"
    # a baseline of five runs with 1 % noise, then a run 2 % slower (inside the band) and one
    # 30 % slower (outside it: times are scaled, so every row is worse)
    for day, scale in enumerate([1.00, 1.01, 0.99, 1.00, 1.01], start=1):
        store_run(db, tmp_path, f"b{day}", scale, day=day)
    store_run(db, tmp_path, "other-machine", 5.0, machine="beta", day=6)
    store_run(db, tmp_path, "other-options", 5.0, day=7, options={"iter_policy": "off"})
    store_run(db, tmp_path, "ok", 1.02, day=8)
    store_run(db, tmp_path, "bad", 1.30, day=9)
    capsys.readouterr()
    assert main(["check", "--db", db, "8", "--baseline", "last:10"]) == 0
    out = capsys.readouterr().out
    assert "run 8 against the 5 runs before it: 0 values worse" in out  # 6, 7: other series
    assert main(["check", "--db", db, "9", "--baseline", "last:5"]) == 1
    out = capsys.readouterr().out
    lines = [l for l in out.splitlines() if l.startswith("REGRESSION: ")]
    assert len(lines) == 16 and all(" us, baseline median " in l for l in lines)
    assert f"robust z {ROBUST_Z:g} x 1.4826 MAD, at least {MIN_BAND:.0%}" in out
    # too short a baseline says so and passes
    assert main(["check", "--db", db, "2", "--baseline", "last:10"]) == 0
    assert "1 earlier runs of its series, fewer than 3" in capsys.readouterr().out
    assert main(["check", "--db", db, "9", "--baseline", "first:3"]) == 2


def test_history_prints_the_series(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'h.sqlite'}"
    for day, scale in enumerate([1.0, 1.1, 1.2], start=1):
        store_run(db, tmp_path, f"r{day}", scale, day=day)
    capsys.readouterr()
    assert main(["history", "--db", db, "3", "--benchmark", "PingPong", "--bytes", "1024"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("history of run 3's series (3 runs: machine alpha")
    assert out[1].split("\t") == ["value", "#1 2026-11-01", "#2 2026-11-02", "#3 2026-11-03"]
    row = out[2].split("\t")
    assert row[0] == "PingPong 1024 B [us]" and len(row) == 4
    values = [float(v) for v in row[1:]]
    assert values[1] / values[0] == values[2] / values[0] / 1.2 * 1.1 or \
        abs(values[1] / values[0] - 1.1) < 1e-3 and abs(values[2] / values[0] - 1.2) < 1e-3
    assert main(["history", "--db", db, "3"]) == 2  # nothing to follow: say how to pick rows
