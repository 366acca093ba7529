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
  of the first record), b_eff_io's first read (its errors are reported per
  pattern type, not per pattern): without --check the read phase's first
  call (the first `read` type record), with --check the read-back of the
  first write (the first type record).  b_eff_io then exits with status 1
  and an `end` record of status "error", everything measured written.
SKaMPI's `--check` is shown to catch a flipped byte in
tests/mpi/test_skampi_datatypes.py (test_corrupted_byte_found).
"""
import pytest

from effb import BUILD, listed, matrix_beyond_first, read_jsonl, run

LIB = BUILD / "libeb_corrupt.so"
IMB_ARGS = ["-msglog", "2:3", "-iter", "6,off", "-check", "-npmin", "2"]
IMB_PROGRAMS = ("IMB-MPI1", "IMB-NBC", "IMB-EXT", "IMB-RMA", "IMB-IO")

# Every benchmark with a data check, as the listing says (`effbench --list-json`); those
# without one move no data (the barriers) and say "not checked" (tests/mpi/test_listing.py).
CASES = [(p, b["name"]) for p in IMB_PROGRAMS for b in listed(p, checked=True)]


def under_library(tmp_path, tag, program, *args, at=None, env=None):
    """Run program on 2 ranks with the library preloaded (and `env`); flip the
    at-th counted buffer, or count them (the count is returned).  Returns
    (Result, JSON records, count or None)."""
    js = tmp_path / f"{tag}.jsonl"
    env = {**(env or {}), "LD_PRELOAD": str(LIB)}
    if "Uniband" in args:
        env["EFFBENCH_CORRUPT_RANK"] = "1"  # Uniband's rank 0 only sends
    count = tmp_path / f"{tag}.count"
    if at is None:
        env["EFFBENCH_CORRUPT_COUNT_FILE"] = str(count)
    else:
        env["EFFBENCH_CORRUPT_AT"] = str(at)
    r = run(2, program, *args, "--json", js, extra_env=env, timeout=120)
    recs = read_jsonl(js) if js.exists() else []
    if at is None:
        # the library writes the count at MPI_Finalize: a run that did not get there says why
        assert count.exists(), r
        return r, recs, int(count.read_text())
    return r, recs, None


def results(recs):
    return [x for x in recs if x["type"] == "result"]


def flip_is_reported(tmp_path, program, args, flipped_row, rows_of=results, field="defects",
                     at=None, flipped_status=0, env=None):
    """A clean run has 0 in `field` of every row; flipping the at-th counted
    buffer (default: the last) gives >= 1 in rows[flipped_row(rows)] and 0
    in every other row.  The clean run must succeed, the flipped one exit
    with flipped_status; returns the flipped run's (Result, records)."""
    r, recs, n = under_library(tmp_path, "clean", program, *args, env=env)
    assert r.returncode == 0, r
    clean = rows_of(recs)
    assert clean and all(x[field] == 0 for x in clean), clean
    assert n > 0

    r, recs, _ = under_library(tmp_path, "corrupt", program, *args, at=at or n, env=env)
    assert r.returncode == flipped_status, r
    rows = rows_of(recs)
    assert len(rows) == len(clean)
    k = flipped_row(rows)
    assert rows[k][field] >= 1, rows[k]
    assert [x[field] for i, x in enumerate(rows) if i != k] == [0] * (len(rows) - 1)
    return r, recs


def extra_args(program, tmp_path):
    if program == "IMB-IO":
        # a short CPU exploit: the nonblocking flavours run it per transfer
        return ["-filename", tmp_path / "IMB_out", "--target-cpu-secs", "0.001"]
    return []


@pytest.mark.parametrize("program,bench", matrix_beyond_first(CASES, lambda p, b: p))
def test_one_flipped_byte_is_reported(tmp_path, program, bench):
    args = [bench, *IMB_ARGS, *extra_args(program, tmp_path)]
    flip_is_reported(tmp_path, program, args, lambda rows: len(rows) - 1)


@pytest.mark.parametrize("ct,bench,offset", [("resize", "PingPong", 1),
                                            ("resize_vec", "Allreduce", 4)])
def test_a_byte_in_a_contig_type_gap_is_reported(tmp_path, ct, bench, offset):
    """IMB-MPI1 -contig_type: the derived types' messages are counted, and a byte written into
    a gap of the resized layout (the byte after the first byte, or float, of data) - a call
    that wrote the message in another layout - is a defect of that row."""
    args = [bench, "-contig_type", ct, *IMB_ARGS]
    flip_is_reported(tmp_path, "IMB-MPI1", args, lambda rows: len(rows) - 1,
                     env={"EFFBENCH_CORRUPT_DERIVED": "1", "EFFBENCH_CORRUPT_OFFSET": str(offset)})


def test_beff_reports_the_first_flipped_message(tmp_path):
    args = ["--mem-per-proc", "1", "--random-patterns", "2", "--loop-ms", "0.05", "--repeat", "1",
            "-check"]
    # the flip lands in the checked pass, which reports defects but (unlike
    # the timed loops' first/last byte check) does not fail the run
    flip_is_reported(tmp_path, "b_eff", args, lambda rows: 0, at=1)


@pytest.mark.parametrize("check", [False, True])
def test_beff_io_reports_the_first_flipped_read(tmp_path, check):
    d = tmp_path / "io"
    d.mkdir()
    args = ["-T", "1", "--partitions", "2", "--mem-per-proc", "8", "--path", d]
    # without --check the first read is the read phase's (its first and last
    # word of each chunk are verified); with --check it is the read-back of
    # the first write, which verifies every word
    r, recs = flip_is_reported(
        tmp_path, "b_eff_io", args + (["--check"] if check else []),
        lambda rows: 0 if check else next(i for i, x in enumerate(rows) if x["access"] == "read"),
        rows_of=lambda recs: [x for x in results(recs) if x["level"] == "type"],
        field="errors", at=1, flipped_status=1)
    types = [x for x in results(recs) if x["level"] == "type"]
    assert (types[0]["access"], types[0]["pattern_type"]) == ("write", 0)
    summary = next(x for x in recs if x["type"] == "summary")
    assert summary["errors"] == 1 and not summary["valid"], summary
    assert "I/O errors" in summary["invalid_reason"]
    message = "I/O errors: 1 (failed or short calls, wrong data read or read back)"
    assert recs[-1] == {**recs[-1], "type": "end", "status": "error", "message": message}
    assert f"effbench: b_eff_io: {message}: the result is NOT VALID" in r.stderr.splitlines()
    assert r.stdout.rstrip("\n").splitlines()[-1].endswith(", NOT VALID (see above)")
