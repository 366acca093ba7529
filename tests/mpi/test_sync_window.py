"""-sync window (issue 12): repetitions start at agreed global times; times
are per-repetition maxima over ranks, late starts are invalid and counted."""
import pytest

from effb import parse_imb, read_jsonl, run


@pytest.mark.asan
def test_window_sync_rows(tmp_path):
    js = tmp_path / "w.jsonl"
    r = run(4, "IMB-MPI1", "Sendrecv", "-msglog", "0:6", "-sync", "window", "-iter", "60,off",
            "-time", "2", "--json", js)
    assert r.returncode == 0, r
    assert "# -sync window: repetitions start at agreed global times" in r.stdout
    blocks = parse_imb(r.stdout)
    for b in blocks:
        assert b["header_line"] == ("       #bytes #repetitions  t_min[usec]  t_max[usec]"
                                    "  t_avg[usec]   Mbytes/sec        valid")
    recs = read_jsonl(js)
    assert recs[0]["options"]["sync"] == "window"
    rows = [x for x in recs if x["type"] == "result"]
    assert len(rows) == 2 * 8  # Q = 2 and 4, lengths 0,1,...,64
    for x in rows:
        assert x["sync"] == "window"
        assert 0 < x["valid_fraction"] <= 1
        assert x["invalid_repetitions"] == round((1 - x["valid_fraction"]) * x["repetitions"])
        assert x["t_min_us"] <= x["t_avg_us"] <= x["t_max_us"]
        assert x["window_us"] > 0
        assert 1 <= x["repetitions"] <= 60
    printed = [row for b in blocks for row in b["rows"]]
    assert [row[-1] for row in printed] == [f"{x['valid_fraction']:.2f}" for x in rows]


@pytest.mark.asan
def test_window_is_barrier_for_single_transfer_and_errors():
    r = run(2, "IMB-MPI1", "PingPong", "-msglog", "2", "-sync", "window", "-iter", "10,off")
    assert r.returncode == 0, r
    assert parse_imb(r.stdout)[0]["header"] == ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"]
    r = run(2, "IMB-MPI1", "-sync", "window", "-repeat", "3")
    assert r.returncode == 2
    assert "effbench: error: -sync window and -repeat exclude each other" in r.stderr
    r = run(2, "IMB-MPI1", "-sync", "clock")
    assert r.returncode == 2
    assert "effbench: error: -sync clock: expected barrier or window" in r.stderr
