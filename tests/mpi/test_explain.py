"""effbench explain (docs/methods.md): its table's lines in their exact format, and the
relations the table and the records must hold whatever the machine: every method present, the
reference's difference 0, the factors' shares plus the unexplained remainder equal to the
difference, the invalid counts whole numbers within the regions measured. No timing is
asserted, except in the matrix cases that compare a method with its own program."""
import math
import re

import pytest

from effb import matrix_beyond_first, parse_imb, read_jsonl, run

METHODS = ["reprompi-window", "reprompi-barrier", "imb-4.0", "imb-4.0-off_cache", "imb-2021",
           "osu-7.4", "skampi"]
FACTORS = ["sync", "form", "statistic", "order", "region", "warm-up", "buffers", "root", "unit",
           "in-flight", "calls"]
# b_eff's chain from the reference: its barrier-started loops, the maximum over processes, the
# fastest of three loops, the warm-up before each, its buffers; then the ping-pong pair's half
# round trip, or a ring's three MPI methods
BEFF_PAIR = ["sync", "form", "statistic", "region", "warm-up", "buffers", "unit"]
BEFF_RING = ["sync", "form", "statistic", "region", "warm-up", "buffers", "calls"]


def methods_of(op, procs):
    """The methods of op on procs processes (docs/methods.md): OSU has no PingPing, Sendrecv
    or Exchange; b_eff's traffic is the ping-pong pair's (PingPong, bw) or a ring's, of 2
    (PingPing, Sendrecv on 2) or of P >= 3 with its ping and pong steps (Exchange on 3 or
    more); it measures no collective."""
    ring = op in ("PingPing", "Sendrecv", "Exchange")
    out = [m for m in METHODS if not (ring and m == "osu-7.4")]
    if op in ("PingPong", "bw", "PingPing") or (op, procs == 2) == ("Sendrecv", True) or (
            op == "Exchange" and procs >= 3):
        out.append("b_eff")
    return out


NUM = r"-?\d+\.\d\d"
CELL = rf"(?:{NUM}|n/a|-)"
ROW = re.compile(rf"^([a-z0-9._-]+) +({NUM}|n/a) +({NUM}|n/a) +({NUM}|n/a) +(\d+)/(\d+) +"
                 rf"({NUM}|n/a) +({NUM}|n/a)((?: +{CELL}){{{len(FACTORS)}}}) +({NUM}|n/a)$")
HEADER = ("%-18s %10s %10s %10s %11s %10s %10s" % ("#method", "value", "min", "max", "invalid",
                                                   "reference", "difference")
          + "".join(" %10s" % f for f in FACTORS) + " %11s" % "unexplained")
CHAIN = re.compile(r"^# ([a-z0-9._-]+) \(([^)]+)\): (.+)$")
STEP = re.compile(r"^([a-z-]+) ([a-z0-9._-]+)->([a-z0-9._-]+)$")


def parse(text, op, size, procs, reps, rounds, methods=None):
    """The table of one size: {method: row}, every line checked against its format."""
    methods = methods or methods_of(op, procs)
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


def regions_per_round(name, chain, reps):
    """A call timed alone is a region, a loop timed as a whole one; b_eff: its three loops,
    each once per MPI method on a ring."""
    if name == "b_eff":
        return 3 * (3 if "calls" in chain else 1)
    return 1 if "region" in chain else reps


def check_relations(rows, chains, reps, rounds):
    ref = rows["reprompi-window"]
    assert ref["diff"] in (0.0, None) and ref["rest"] in (0.0, None)
    assert all(c == "-" for c in ref["cells"])
    for name, row in rows.items():
        assert 0 <= row["invalid"] <= row["regions"]
        per_round = regions_per_round(name, chains.get(name, []), reps)
        assert row["regions"] == rounds * per_round, (name, row)
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


def check_records(path, op, size, procs, methods):
    recs = read_jsonl(path)
    assert recs[0]["type"] == "run" and recs[0]["component"] == "explain"
    assert recs[0]["methodology"] == "explain"
    opts = recs[0]["options"]
    assert opts["operation"] == op and opts["reference"] == "reprompi-window"
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    res = [r for r in recs if r["type"] == "result"]
    assert [r["method"] for r in res] == methods
    for r in res:
        assert (r["component"], r["benchmark"], r["bytes"], r["procs"]) == (
            "explain", op, size, procs)
        assert r["methodology"] == "explain" and r["reference"] == "reprompi-window"
        assert isinstance(r["invalid"], int) and 0 <= r["invalid"] <= r["regions"]
        assert set(r["config"]) == set(FACTORS)
        assert [f["factor"] for f in r["factors"]] == [
            f for f in FACTORS if r["config"][f] != res[0]["config"][f]]
        if r["method"] == "b_eff":
            assert (r["config"]["statistic"], r["config"]["region"], r["config"]["buffers"]) \
                == ("min", "loops-3", "b_eff-6lmax")
            assert r["regions"] == 3 * r["rounds"] * (3 if r["config"]["calls"] == "b_eff-3"
                                                       else 1)
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
    methods = methods_of(op, np)
    assert ("b_eff" in methods) == pair  # b_eff measures no collective
    rows, chains = parse(r.stdout, op, size, 2 if pair else np, reps, 3, methods)
    check_relations(rows, chains, reps, 3)
    check_records(path, op, size, 2 if pair else np, methods)
    if op == "bw":
        assert chains["osu-7.4"][-1] == "in-flight"
    if pair:  # b_eff's ping-pong pair: its own chain of one-factor rows
        assert chains["b_eff"] == BEFF_PAIR


@pytest.mark.parametrize("np,op", matrix_beyond_first(
    [(3, "Exchange"), (2, "Sendrecv"), (3, "Sendrecv"), (2, "Exchange")], lambda np, op: 0))
def test_ring_operations(np, op, tmp_path):
    """IMB's Exchange on a ring of 3: OSU 7.4 has no such benchmark, so no OSU row; b_eff's
    ring of 3 (ping and pong steps) is its traffic, measured by b_eff's three MPI methods.
    Sendrecv is b_eff's ring of 2 only, Exchange on 2 (two messages to the one partner) not."""
    path = tmp_path / "e.jsonl"
    r = run(np, "effbench", "explain", op, 64, "--rounds", 2, "--reps", 6,
            "--window-us", 3000, "--json", path, timeout=240)
    assert r.returncode == 0, r
    methods = methods_of(op, np)
    assert ("b_eff" in methods) == ((op, np) in (("Exchange", 3), ("Sendrecv", 2)))
    rows, chains = parse(r.stdout, op, 64, np, 6, 2, methods)
    check_relations(rows, chains, 6, 2)
    check_records(path, op, 64, np, methods)
    if "b_eff" in methods:
        assert chains["b_eff"] == BEFF_RING


# explain's spread of a method's row and the spread of its own program's values, over the
# interleaved runs, widened by this factor on either side, must overlap (docs/methods.md,
# "Against the tools' own programs").
WIDEN = 2.0
COMPARE_SIZE = 65536  # 64 KiB: the transfer's time; loops of a few calls, shorter than a time slice
COMPARE_PAIRS = 4
COMPARE_ROUNDS = 4


def _spreads_interleaved(op, method, reps, program, args, value, tmp_path):
    """COMPARE_PAIRS times: explain (4 rounds of `reps` calls at 64 KiB), then the tool's own
    program with as many calls per loop. explain's spread (the fastest and slowest round of
    the method's row over all its runs) and the program's (its fastest and slowest run) must
    overlap once each is widened by WIDEN: on a quiet machine both are narrow and the check is
    strict, on a loaded one both widen with the noise. The runs are interleaved so that both
    sides see the machine alike."""
    ex_lo, ex_hi, own = float("inf"), 0.0, []
    for i in range(COMPARE_PAIRS):
        e = run(2, "effbench", "explain", op, COMPARE_SIZE, "--rounds", COMPARE_ROUNDS,
                "--reps", reps, "--window-us", 3000, timeout=240)
        assert e.returncode == 0, e
        row = parse(e.stdout, op, COMPARE_SIZE, 2, reps, COMPARE_ROUNDS)[0][method]
        ex_lo, ex_hi = min(ex_lo, row["min"]), max(ex_hi, row["max"])
        o = run(2, program, *[str(a).format(tmp=tmp_path, i=i) for a in args], timeout=240)
        assert o.returncode == 0, o
        own.append(value(o.stdout, tmp_path / f"own{i}.jsonl"))
    lo, hi = min(own), max(own)
    print(f"{method}: explain {ex_lo}..{ex_hi} us, {program} {lo:.2f}..{hi:.2f} us "
          f"(fastest over fastest {ex_lo / lo:.2f})")
    assert ex_lo / WIDEN <= hi * WIDEN and lo / WIDEN <= ex_hi * WIDEN, (ex_lo, ex_hi, own)


def _imb_t(text, _):
    return [float(r[2]) for r in parse_imb(text)[0]["rows"] if r[0] == str(COMPARE_SIZE)][0]


def _osu_last(text, _):
    return float(text.strip().splitlines()[-1].split()[1])


def _beff_pingpong(_, path):
    """b_eff's ping-pong bandwidth at L_max (64 KiB with 8 MiB per process) as the time per
    message: L_max bytes / (MB/s, 10^6 bytes/s) = microseconds."""
    summary = [r for r in read_jsonl(path) if r["type"] == "summary"]
    return COMPARE_SIZE / summary[-1]["pingpong_bw_mb_per_s"]


# calls per loop as the programs' (IMB -iter, OSU -i): loops of well under a millisecond
# (osu_bw: 2 windows of 64 messages); b_eff: three loops of 6 calls against its own loops of
# a few iterations (--loop-ms 0.05 at L_max = 64 KiB)
@pytest.mark.matrix
@pytest.mark.parametrize("op,method,reps,program,args,value", [
    ("PingPong", "imb-4.0", 5, "IMB-MPI1", ["PingPong", "-msglog", "16:16", "-iter", 5],
     _imb_t),
    ("PingPong", "osu-7.4", 5, "osu_latency", ["-m", "65536:65536", "-i", 5, "-x", 10],
     _osu_last),
    ("bw", "osu-7.4", 2, "osu_bw", ["-m", "65536:65536", "-i", 2, "-x", 2],
     lambda text, _: COMPARE_SIZE / _osu_last(text, _)),  # MB/s -> us per message
    ("PingPong", "b_eff", 18, "b_eff", ["--mem-per-proc", 8, "--random-patterns", 1,
                                        "--loop-ms", 0.05, "--json", "{tmp}/own{i}.jsonl"],
     _beff_pingpong),
], ids=["IMB-MPI1 PingPong", "osu_latency", "osu_bw", "b_eff ping-pong"])
def test_method_agrees_with_its_program(op, method, reps, program, args, value, tmp_path):
    """A method's row of explain against the same method run by its own program."""
    _spreads_interleaved(op, method, reps, program, args, value, tmp_path)
