"""Corruption detection (issue 12): a PMPI library (tests/pmpi/corrupt.c)
flips one byte of one received message, reduction result, one-sided
transfer or file read; every benchmark under -check reports it in that row,
and none reports a defect without it.

Which row:
- IMB components: the flipped buffer is the last one rank 0 counts, which
  falls in the untimed checked pass of the last row.  One-sided transfers
  count at the origin (rank 0 is an origin in every IMB-EXT / IMB-RMA
  benchmark); a put's flipped byte lands in the target's window, so the
  target's check reports it.  IMB-IO counts file reads; its write benchmarks
  read their data back in the checked pass, so the last read is that check's.
- b_eff and b_eff_io: their repetition counts follow measured times, so the
  count of a clean run does not carry over to a second run; the first
  counted buffer is flipped instead: b_eff's first message (the checked pass
  of the first record), b_eff_io's first read (the first `read` type
  record; its errors are reported per pattern type, not per pattern).
SKaMPI has no verification mode (its `defects` are always null): not covered.
"""
import re

import pytest

from effb import BUILD, read_jsonl, run

LIB = BUILD / "libeb_corrupt.so"
# Benchmarks whose data carry nothing to verify, by component.
NO_DATA = {"Barrier", "Ibarrier", "Ibarrier_pure"}
IMB_ARGS = ["-msglog", "2:3", "-iter", "6,off", "-check", "-npmin", "2"]


def benchmarks(program):
    r = run(1, program, "-h")
    assert r.returncode == 0, r
    part = r.stdout.split("Benchmarks of", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  (\S+)", part, re.M) if m.group(1) not in NO_DATA]


def available(program):
    return (BUILD / program).exists() and run(1, program, "-h").returncode == 0


CASES = [(p, b) for p in ("IMB-MPI1", "IMB-NBC", "IMB-EXT", "IMB-RMA", "IMB-IO")
         if available(p) for b in benchmarks(p)]


def under_library(tmp_path, tag, program, *args, at=None):
    """Run program on 2 ranks with the library preloaded; flip the at-th
    counted buffer, or count them (the count is returned).  Returns
    (Result, JSON records, count or None)."""
    js = tmp_path / f"{tag}.jsonl"
    env = {"LD_PRELOAD": str(LIB)}
    count = tmp_path / f"{tag}.count"
    if at is None:
        env["EFFBENCH_CORRUPT_COUNT_FILE"] = str(count)
    else:
        env["EFFBENCH_CORRUPT_AT"] = str(at)
    r = run(2, program, *args, "--json", js, extra_env=env, timeout=120)
    recs = read_jsonl(js) if js.exists() else []
    return r, recs, int(count.read_text()) if at is None else None


def results(recs):
    return [x for x in recs if x["type"] == "result"]


def extra_args(program, tmp_path):
    if program == "IMB-IO":
        # a short CPU exploit: the nonblocking flavours run it per transfer
        return ["-filename", tmp_path / "IMB_out", "--target-cpu-secs", "0.001"]
    return []


@pytest.mark.parametrize("program,bench", CASES)
def test_one_flipped_byte_is_reported(tmp_path, program, bench):
    args = [bench, *IMB_ARGS, *extra_args(program, tmp_path)]
    r, recs, n = under_library(tmp_path, "clean", program, *args)
    assert r.returncode == 0, r
    clean = results(recs)
    assert clean and all(x["defects"] == 0 for x in clean), clean
    assert n > 0

    r, recs, _ = under_library(tmp_path, "corrupt", program, *args, at=n)
    assert r.returncode == 0, r
    rows = results(recs)
    assert len(rows) == len(clean)
    assert [x["defects"] for x in rows[:-1]] == [0] * (len(rows) - 1)
    assert rows[-1]["defects"] >= 1, rows[-1]


def first_flip_placement(tmp_path, program, args, field, ok_rc):
    """The clean run reports 0 in `field` of every result record; flipping
    the first counted buffer reports it in the first record only.  Returns
    the records of the flipped run."""
    r, recs, n = under_library(tmp_path, "clean", program, *args)
    assert r.returncode == 0, r
    clean = results(recs)
    assert clean and all(x[field] == 0 for x in clean), clean
    assert n > 0

    r, recs, _ = under_library(tmp_path, "corrupt", program, *args, at=1)
    assert r.returncode == ok_rc, r
    rows = results(recs)
    assert rows[0][field] >= 1, rows[0]
    assert [x[field] for x in rows[1:]] == [0] * (len(rows) - 1)
    return recs


def test_beff_reports_the_first_flipped_message(tmp_path):
    args = ["--mem-per-proc", "4", "--random-patterns", "2", "--loop-ms", "0.05", "-check"]
    # b_eff fails a run whose received data failed a check
    recs = first_flip_placement(tmp_path, "b_eff", args, "defects", ok_rc=1)
    assert recs[-1]["type"] == "end" and recs[-1]["status"] == "error"


def test_beff_io_reports_the_first_flipped_read(tmp_path):
    d = tmp_path / "io"
    d.mkdir()
    args = ["-T", "1", "--partitions", "2", "--mem-per-proc", "8", "--path", d, "--check"]
    # errors are counted per pattern type: the `type` records
    r, recs, n = under_library(tmp_path, "clean", "b_eff_io", *args)
    assert r.returncode == 0, r
    types = [x for x in results(recs) if x["level"] == "type"]
    assert types and all(x["errors"] == 0 for x in types), types
    assert n > 0

    r, recs, _ = under_library(tmp_path, "corrupt", "b_eff_io", *args, at=1)
    assert r.returncode == 0, r
    types = [x for x in results(recs) if x["level"] == "type"]
    first_read = next(i for i, x in enumerate(types) if x["access"] == "read")
    assert types[first_read]["errors"] >= 1, types[first_read]
    assert [x["errors"] for i, x in enumerate(types) if i != first_read] == [0] * (len(types) - 1)
    summary = [x for x in recs if x["type"] == "summary"]
    assert summary[0]["errors"] >= 1 and not summary[0]["valid"]
