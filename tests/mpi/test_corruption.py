"""Corruption detection (issue 12): a PMPI library (tests/pmpi/corrupt.c)
flips one byte of one received message or reduction result; every benchmark
under -check reports it in that row, and none reports a defect without it.

The flipped message is the last one rank 0 receives as benchmark data, which
falls in the untimed checked pass of the last row."""
import re

import pytest

from effb import BUILD, read_jsonl, run

LIB = BUILD / "libeb_corrupt.so"
NO_DATA = {"Barrier", "Ibarrier", "Ibarrier_pure"}


def benchmarks(program):
    r = run(1, program, "-h")
    assert r.returncode == 0, r
    part = r.stdout.split("Benchmarks of", 1)[1]
    return [m.group(1) for m in re.finditer(r"^  (\S+)", part, re.M) if m.group(1) not in NO_DATA]


CASES = [("IMB-MPI1", b) for b in benchmarks("IMB-MPI1")]
if (BUILD / "IMB-NBC").exists() and run(1, "IMB-NBC", "-h").returncode == 0:
    CASES += [("IMB-NBC", b) for b in benchmarks("IMB-NBC")]


@pytest.mark.parametrize("program,bench", CASES)
def test_one_flipped_byte_is_reported(tmp_path, program, bench):
    count = tmp_path / "count"
    js = tmp_path / "clean.jsonl"
    args = [bench, "-msglog", "2:3", "-iter", "6,off", "-check", "-npmin", "2"]
    r = run(2, program, *args, "--json", js,
            extra_env={"LD_PRELOAD": str(LIB), "EFFBENCH_CORRUPT_COUNT_FILE": str(count)})
    assert r.returncode == 0, r
    clean = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert clean and all(x["defects"] == 0 for x in clean), clean
    n = int(count.read_text())
    assert n > 0

    js = tmp_path / "corrupt.jsonl"
    r = run(2, program, *args, "--json", js,
            extra_env={"LD_PRELOAD": str(LIB), "EFFBENCH_CORRUPT_AT": str(n)})
    assert r.returncode == 0, r
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [x["defects"] for x in rows[:-1]] == [0] * (len(rows) - 1)
    assert rows[-1]["defects"] >= 1, rows[-1]
