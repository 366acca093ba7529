"""-repeat N (issue 12): each row timed N times, medians in the IMB columns,
the loops' min/max/spread after them, every loop's value in the JSON."""
import statistics

import pytest

from effb import parse_imb, read_jsonl, run


def test_repeat_reports_medians_and_spread(tmp_path):
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-MPI1", "PingPong", "Sendrecv", "-msglog", "4:6", "-repeat", "5",
            "-iter", "40,off", "--json", js)
    assert r.returncode == 0, r
    blocks = parse_imb(r.stdout)
    assert blocks[0]["header_line"] == ("       #bytes #repetitions      t[usec]   Mbytes/sec"
                                        "     loop_min     loop_max       spread")
    assert blocks[1]["header"][-3:] == ["loop_min", "loop_max", "spread"]
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert len(rows) == 8
    for rec in rows:
        loops = rec["loop_t_max_us"]
        assert rec["loops"] == 5 and len(loops) == 5
        assert rec["t_max_us"] == pytest.approx(statistics.median(loops), rel=1e-12)
        assert rec["loop_t_max_min_us"] == min(loops)
        assert rec["loop_t_max_max_us"] == max(loops)
        assert rec["spread"] == pytest.approx(max(loops) / min(loops), rel=1e-12)
    printed = [row for b in blocks for row in b["rows"]]
    for rec, row in zip(rows, printed):
        assert row[-3:] == [f"{rec['loop_t_max_min_us']:.2f}", f"{rec['loop_t_max_max_us']:.2f}",
                            f"{rec['spread']:.2f}"]


def test_repeat_one_is_exactly_imb(tmp_path):
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-MPI1", "PingPong", "-msglog", "2", "-iter", "10,off", "--json", js)
    assert r.returncode == 0, r
    assert parse_imb(r.stdout)[0]["header_line"] == (
        "       #bytes #repetitions      t[usec]   Mbytes/sec")
    assert "-repeat" not in r.stdout
    assert all("loops" not in x for x in read_jsonl(js) if x["type"] == "result")


def test_repeat_rejects_zero():
    r = run(2, "IMB-MPI1", "-repeat", "0")
    assert r.returncode == 2
    assert "effbench: error: -repeat 0: expected a positive number of timed loops" in r.stderr
