"""IMB-NBC under 1..4 ranks: the overlap flavours by default (exact IMB
columns, the Mflop/s header, overlap recomputable from the row, figures
from the rank with the largest t_ovrl), the _pure flavours only by name or
-include, zero defects under -check, one JSON record per row."""
import re


import pytest

from effb import busy_mpich, imb_procs, listed, np_params, parse_imb, read_jsonl, run

# MPICH (ch4:ucx) busy-polls: with more ranks than cores every collective
# takes tens of milliseconds, so those sweeps are left to Open MPI there.


# Names and kinds from the listing (`effbench --list-json`), not from a list here.
NBC = listed("IMB-NBC")
OPS = [b["name"] for b in NBC if b["default"]]
PURE = [n + "_pure" for n in OPS]
REDUCTIONS = {b["name"] for b in NBC if b["reduction"]}
NO_BYTES = {b["name"] for b in NBC if "NO_BYTES" in b["flags"]}  # Ibarrier(_pure)
UNCHECKED = {b["name"] for b in NBC if not b["checked"]}      # no data: "not checked"

HEAD_OVRL = "       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]"
HEAD_OVRL_BARRIER = " #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]"
HEAD_PURE = "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
HEAD_PURE_BARRIER = " #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]"
CHECK = "      defects"
ITER = ["-iter", "20", "-iter_policy", "off", "-time", "0.05"]
BYTE_SIZES = [0] + [1 << k for k in range(0, 6)]
FLOAT_SIZES = [0] + [1 << k for k in range(2, 6)]


def overlap(t_pure, t_cpu, t_ovrl):
    lo = min(t_pure, t_cpu)
    if lo <= 0:
        return 0.0
    return 100.0 * max(0.0, min(1.0, (t_pure + t_cpu - t_ovrl) / lo))


def base(name):
    return name[:-5] if name.endswith("_pure") else name


def check_blocks(blocks, results, checked):
    it = iter(results)
    for b in blocks:
        op = base(b["name"])
        pure = b["name"].endswith("_pure")
        if b["name"] in NO_BYTES:
            head = HEAD_PURE_BARRIER if pure else HEAD_OVRL_BARRIER
            assert len(b["rows"]) == 1
        else:
            head = HEAD_PURE if pure else HEAD_OVRL
            sizes = FLOAT_SIZES if op in REDUCTIONS else BYTE_SIZES
            assert [int(row[0]) for row in b["rows"]] == sizes, b["name"]
        assert b["header_line"] == head + (CHECK if checked else "")
        for row in b["rows"]:
            assert len(row) == len(b["header"])
            verified = checked and b["name"] not in UNCHECKED
            if checked:
                assert row[-1] == ("0.00" if verified else "not checked"), \
                    (b["name"], b["procs"], row)
                row = row[:-1]
            rec = next(it)
            assert rec["component"] == "nbc" and rec["benchmark"] == b["name"]
            assert rec["procs"] == b["procs"]
            assert rec["defects"] == (0 if verified else None)
            assert rec.get("checked") == (verified if checked else None)
            assert rec["repetitions"] == int(row[-4 if pure else -5]) == 20
            assert rec["t_min_us"] <= rec["t_avg_us"] <= rec["t_max_us"]
            if b["name"] not in NO_BYTES:
                assert rec["bytes"] == int(row[0])
            if pure:
                assert "t_ovrl_us" not in rec
                assert row[-3:] == [f"{rec['t_min_us']:.2f}", f"{rec['t_max_us']:.2f}",
                                    f"{rec['t_avg_us']:.2f}"]
                continue
            o, p, c, pct = (rec["t_ovrl_us"], rec["t_pure_us"], rec["t_cpu_us"],
                            rec["overlap_pct"])
            assert row[-4:] == [f"{o:.2f}", f"{p:.2f}", f"{c:.2f}", f"{pct:.2f}"], (row, rec)
            # the figures come from the process with the largest t_ovrl
            assert o == rec["t_max_us"]
            assert p > 0 and c > 0 and 0.0 <= pct <= 100.0
            assert pct == pytest.approx(overlap(p, c, o), abs=1e-9)
    assert next(it, None) is None


@pytest.mark.asan
@pytest.mark.parametrize("np", np_params([1, 2, 3, 4]))
def test_overlap_default_checked(tmp_path, np):
    js = tmp_path / "nbc.jsonl"
    r = run(np, "IMB-NBC", "-msglog", "5", *ITER, "-check", "--json", js)
    assert r.returncode == 0, r
    # nothing on stderr but the core's warning about time-sliced ranks
    assert all("ranks share a node with" in ln for ln in r.stderr.splitlines()), r
    assert "MPI-NBC part" in r.stdout.splitlines()[1]
    m = re.search(r"\n# For nonblocking benchmarks:\n\n# Function CPU_Exploit obtains an "
                  r"undisturbed\n# performance of +(\d+\.\d\d) MFlops\n", r.stdout)
    assert m and float(m.group(1)) > 0, r.stdout[:2000]
    head = r.stdout.split("# List of Benchmarks to run:\n\n", 1)[1].split("\n\n", 1)[0]
    assert head.splitlines() == ["# " + n for n in OPS]
    blocks = parse_imb(r.stdout)
    qs = imb_procs(np)
    assert [b["name"] for b in blocks] == [n for n in OPS for _ in qs]
    assert [b["procs"] for b in blocks] == qs * len(OPS)
    recs = read_jsonl(js)
    assert recs[0]["type"] == "run" and recs[0]["component"] == "nbc"
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "ok"
    check_blocks(blocks, [x for x in recs if x["type"] == "result"], checked=True)


@pytest.mark.asan
@pytest.mark.parametrize("np", np_params([1, 2, 3, 4]))
def test_pure_by_include_checked(tmp_path, np):
    js = tmp_path / "pure.jsonl"
    r = run(np, "effbench", "nbc", "-include", ",".join(PURE), "-exclude", ",".join(OPS),
            "-msglog", "5", *ITER, "-check", "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    qs = imb_procs(np)
    assert [b["name"] for b in blocks] == [n for n in PURE for _ in qs]
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    check_blocks(blocks, results, checked=True)


def test_pure_only_by_name(tmp_path):
    js = tmp_path / "named.jsonl"
    r = run(2, "IMB-NBC", "Ialltoall_pure", "Iallreduce", "Ibarrier_pure", "-msglog", "5",
            *ITER, "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    # in the order named, as IMB runs them
    assert [b["name"] for b in blocks] == ["Ialltoall_pure", "Iallreduce", "Ibarrier_pure"]
    results = [x for x in read_jsonl(js) if x["type"] == "result"]
    check_blocks(blocks, results, checked=False)
    # -help lists the _pure flavours as explicit-only
    h = run(1, "IMB-NBC", "-help")
    assert h.returncode == 0, h
    assert "  Iallgather_pure *\n" in h.stdout and "  Iallgather\n" in h.stdout


@pytest.mark.asan
@busy_mpich(4)
def test_multi_checked(tmp_path):
    r = run(4, "IMB-NBC", "Multi-Iallreduce", "Multi-Ialltoall", "Multi-Ibcast_pure",
            "-multi", "1", "-msglog", "4", *ITER, "-check")
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    # in the order named, as IMB runs them
    assert [b["name"] for b in blocks] == ["Multi-Iallreduce"] * 2 + ["Multi-Ialltoall"] * 2 \
        + ["Multi-Ibcast_pure"] * 2
    for b in blocks:
        assert len(b["groups"]) == 4 // b["procs"]
        assert b["header_line"].startswith("       #group       #bytes #repetitions")
        for row in b["rows"]:
            assert row[-1] == "0.00", (b["name"], row)


def test_listing_knows_the_nbc_operations():
    """The listing the names above come from: IMB-NBC's list, each with its _pure form."""
    assert OPS == ["Ibcast", "Iallgather", "Iallgatherv", "Igather", "Igatherv", "Iscatter",
                   "Iscatterv", "Ialltoall", "Ialltoallv", "Ireduce", "Ireduce_scatter",
                   "Iallreduce", "Ibarrier"]
    assert [b["name"] for b in NBC if not b["default"]] == PURE
    assert REDUCTIONS == {"Ireduce", "Ireduce_scatter", "Iallreduce", "Ireduce_pure",
                          "Ireduce_scatter_pure", "Iallreduce_pure"}
    assert NO_BYTES == UNCHECKED == {"Ibarrier", "Ibarrier_pure"}


def test_unknown_name():
    r = run(2, "IMB-NBC", "Iallreduce_purest")
    assert r.returncode == 2, r
    assert r.stderr.startswith("effbench: error: unknown benchmark 'Iallreduce_purest' "
                               "for IMB-NBC; known: Ibcast Iallgather"), r


@pytest.mark.parametrize("name", ["Ireduce_scatter_block", "Ireduce_local"])
def test_no_counterpart_of_imb_2021_additions(name):
    """IMB-NBC 2021.11 has no nonblocking form of IMB-MPI1 2021's
    Reduce_scatter_block or Reduce_local: the usual unknown-name error, with
    the same 26 names as before."""
    r = run(1, "IMB-NBC", name)
    assert r.returncode == 2, r
    (err,) = [ln for ln in r.stderr.splitlines() if ln.startswith("effbench: error:")]
    known = err.split("; known: ", 1)[1].split()
    assert err.startswith(f"effbench: error: unknown benchmark '{name}' for IMB-NBC; known: ")
    assert known == OPS + PURE
