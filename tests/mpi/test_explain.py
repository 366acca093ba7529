"""effbench explain (docs/methods.md): its table's lines in their exact format, and the
relations the table and the records must hold whatever the machine: every method present, the
reference's difference 0, the factors' shares plus the unexplained remainder equal to the
difference, the invalid counts whole numbers within the regions measured. No timing is
asserted, except in the matrix case that compares a method with its own program."""
import math
import re

import pytest

from effb import parse_imb, read_jsonl, run

METHODS = ["reprompi-window", "reprompi-barrier", "imb-4.0", "imb-4.0-off_cache", "imb-2021",
           "osu-7.4", "skampi"]
FACTORS = ["sync", "form", "statistic", "order", "region", "warm-up", "buffers", "root", "unit",
           "in-flight"]
NUM = r"-?\d+\.\d\d"
CELL = rf"(?:{NUM}|n/a|-)"
ROW = re.compile(rf"^([a-z0-9._-]+) +({NUM}|n/a) +({NUM}|n/a) +({NUM}|n/a) +(\d+)/(\d+) +"
                 rf"({NUM}|n/a) +({NUM}|n/a)((?: +{CELL}){{10}}) +({NUM}|n/a)$")
HEADER = ("%-18s %10s %10s %10s %11s %10s %10s" % ("#method", "value", "min", "max", "invalid",
                                                   "reference", "difference")
          + "".join(" %10s" % f for f in FACTORS) + " %11s" % "unexplained")
CHAIN = re.compile(r"^# ([a-z0-9._-]+) \(([^)]+)\): (.+)$")
STEP = re.compile(r"^([a-z-]+) ([a-z0-9.-]+)->([a-z0-9.-]+)$")


def parse(text, op, size, procs, reps, rounds, methods=METHODS):
    """The table of one size: {method: row}, every line checked against its format."""
    lines = [l for l in text.splitlines() if not l.startswith("effbench: warning")]
    assert lines[0] == "#" + "-" * 64
    assert lines[1] == (f"# explain {op}: {size} bytes, {procs} processes, {reps} calls per row "
                        f"and round, {rounds} rounds, seed 1")
    assert re.match(r"^# reference: reprompi-window; window \d+\.\d us per call; times in us$",
                    lines[2]), lines[2]
    assert lines[3] == lines[0]
    assert lines[4] == HEADER
    rows = {}
    for line in lines[5:5 + len(methods)]:
        m = ROW.match(line)
        assert m, line
        cells = m.group(9).split()
        num = lambda s: None if s in ("n/a", "-") else float(s)
        rows[m.group(1)] = {
            "value": num(m.group(2)), "min": num(m.group(3)), "max": num(m.group(4)),
            "invalid": int(m.group(5)), "regions": int(m.group(6)), "ref": num(m.group(7)),
            "diff": num(m.group(8)), "cells": cells, "rest": num(m.group(10))}
    assert list(rows) == methods
    chains = {}
    for line in lines[5 + len(methods):]:
        m = CHAIN.match(line)
        assert m, line
        steps = [STEP.match(s.strip()) for s in m.group(3).split(",")]
        assert all(steps), line
        chains[m.group(1)] = [s.group(1) for s in steps]
    assert list(chains) == methods[1:]
    return rows, chains


def check_relations(rows, chains, reps, rounds):
    ref = rows["reprompi-window"]
    assert ref["diff"] in (0.0, None) and ref["rest"] in (0.0, None)
    assert all(c == "-" for c in ref["cells"])
    for name, row in rows.items():
        assert 0 <= row["invalid"] <= row["regions"]
        # a loop timed as a whole is one region per round, a call timed alone one per call
        loop = "region" in chains.get(name, [])
        assert row["regions"] == (rounds if loop else rounds * reps), (name, row)
        present = [FACTORS[k] for k, c in enumerate(row["cells"]) if c != "-"]
        if name != "reprompi-window":
            assert present == chains[name], (name, row)
        vals = [row["diff"], row["rest"]] + [float(c) for c in row["cells"] if c != "-"
                                             and c != "n/a"]
        if None in vals or "n/a" in row["cells"]:
            continue
        shares = sum(float(c) for c in row["cells"] if c != "-")
        assert abs(shares + row["rest"] - row["diff"]) <= 0.01 * (len(present) + 2), (name, row)
        if row["min"] is not None:
            assert row["min"] <= row["value"] <= row["max"]


def check_records(path, op, size, procs):
    recs = read_jsonl(path)
    assert recs[0]["type"] == "run" and recs[0]["component"] == "explain"
    assert recs[0]["methodology"] == "explain"
    opts = recs[0]["options"]
    assert opts["operation"] == op and opts["reference"] == "reprompi-window"
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    res = [r for r in recs if r["type"] == "result"]
    assert [r["method"] for r in res] == METHODS
    for r in res:
        assert (r["component"], r["benchmark"], r["bytes"], r["procs"]) == (
            "explain", op, size, procs)
        assert r["methodology"] == "explain" and r["reference"] == "reprompi-window"
        assert isinstance(r["invalid"], int) and 0 <= r["invalid"] <= r["regions"]
        assert set(r["config"]) == set(FACTORS)
        assert [f["factor"] for f in r["factors"]] == [
            f for f in FACTORS if r["config"][f] != res[0]["config"][f]]
        nums = [r["difference_us"], r["unexplained_us"]] + [f["share_us"] for f in r["factors"]]
        if any(v is None for v in nums):
            continue
        total = sum(f["share_us"] for f in r["factors"]) + r["unexplained_us"]
        assert math.isclose(total, r["difference_us"], rel_tol=1e-9, abs_tol=1e-6), r
        if r["factors"]:
            last = r["factors"][-1]["value_us"]
            assert math.isclose(r["value_us"] - last, r["unexplained_us"], rel_tol=1e-9,
                                abs_tol=1e-6)
    assert res[0]["difference_us"] in (0, None)


@pytest.mark.parametrize("np,op,size,reps", [(4, "Bcast", 1024, 20), (2, "PingPong", 1048576, 10),
                                             (3, "bw", 65536, 5)])
def test_explain_table_and_records(np, op, size, reps, tmp_path):
    path = tmp_path / "e.jsonl"
    r = run(np, "effbench", "explain", op, size, "--rounds", 3, "--reps", reps,
            "--window-us", 3000, "--json", path, timeout=240)
    assert r.returncode == 0, r
    pair = op in ("PingPong", "bw")  # ranks 0 and 1; the others wait
    rows, chains = parse(r.stdout, op, size, 2 if pair else np, reps, 3)
    check_relations(rows, chains, reps, 3)
    check_records(path, op, size, 2 if pair else np)
    if op == "bw":
        assert chains["osu-7.4"][-1] == "in-flight"


def test_exchange_has_no_osu_method():
    """IMB's Exchange on a ring of 3: OSU 7.4 has no such benchmark, so no OSU row."""
    r = run(3, "effbench", "explain", "Exchange", 64, "--rounds", 2, "--reps", 5,
            "--window-us", 3000, timeout=240)
    assert r.returncode == 0, r
    methods = [m for m in METHODS if m != "osu-7.4"]
    rows, chains = parse(r.stdout, "Exchange", 64, 3, 5, 2, methods)
    check_relations(rows, chains, 5, 2)


@pytest.mark.matrix
def test_imb_row_agrees_with_imb_mpi1():
    """explain's IMB 4.0 PingPong row against IMB-MPI1 PingPong, run right after: IMB-MPI1's
    t[usec] within explain's spread over rounds, widened by half on either side (this 2-core
    machine is shared; the runs are not interleaved)."""
    e = run(2, "effbench", "explain", "PingPong", 1048576, "--rounds", 5, "--reps", 20,
            "--window-us", 3000, timeout=240)
    assert e.returncode == 0, e
    rows, _ = parse(e.stdout, "PingPong", 1048576, 2, 20, 5)
    i = run(2, "IMB-MPI1", "PingPong", "-msglog", "20:20", "-iter", 20, timeout=240)
    assert i.returncode == 0, i
    block = parse_imb(i.stdout)[0]
    t = [float(row[2]) for row in block["rows"] if row[0] == "1048576"][0]
    lo, hi = rows["imb-4.0"]["min"], rows["imb-4.0"]["max"]
    assert lo / 1.5 <= t <= hi * 1.5, (t, rows["imb-4.0"])
