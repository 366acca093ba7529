"""-repeat N (issue 12): each row timed N times, medians in the IMB columns,
the loops' min/max/spread after them, every loop's value in the JSON."""
import os
import statistics

import pytest

from effb import parse_imb, read_jsonl, run


@pytest.mark.asan
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


@pytest.mark.asan
def test_repeat_one_is_exactly_imb(tmp_path):
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-MPI1", "PingPong", "-msglog", "2", "-iter", "10,off", "--json", js)
    assert r.returncode == 0, r
    assert parse_imb(r.stdout)[0]["header_line"] == (
        "       #bytes #repetitions      t[usec]   Mbytes/sec")
    assert "-repeat" not in r.stdout
    assert all("loops" not in x for x in read_jsonl(js) if x["type"] == "result")


@pytest.mark.asan
def test_repeat_rejects_zero():
    r = run(2, "IMB-MPI1", "-repeat", "0")
    assert r.returncode == 2
    assert "effbench: error: -repeat 0: expected a positive number of timed loops" in r.stderr


# One benchmark of each IMB component, with the table class it stands for.
EVERY_COMPONENT = [
    ("IMB-MPI1", ["Allreduce"]),          # collective
    ("IMB-NBC", ["Ibcast"]),              # own columns: t_ovrl, t_pure, t_CPU, overlap
    ("IMB-NBC", ["Iallreduce_pure"]),     # bare times
    ("IMB-EXT", ["Unidir_Put"]),          # aggregate and non-aggregate tables
    ("IMB-RMA", ["Unidir_put", "Truly_passive_put"]),  # own measurement, own columns
    ("IMB-IO", ["S_Write_indv", "P_IRead_priv",         # files; overlap columns (a CPU
                "--target-cpu-secs", "0.001"]),         # exploit of 1 ms, not 0.1 s)
]


@pytest.mark.asan
@pytest.mark.parametrize("program,names", EVERY_COMPONENT, ids=lambda v: str(v))
def test_repeat_in_every_component(program, names, tmp_path):
    js = tmp_path / "r.jsonl"
    r = run(2, program, *names, "-msglog", "2:3", "-repeat", "3", "-iter", "20,off",
            "-time", "0.2", "--json", js, cwd=tmp_path)
    assert r.returncode == 0, r
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert rows, r
    for rec in rows:
        loops = rec["loop_t_max_us"]
        assert rec["loops"] == 3 and len(loops) == 3, rec
        assert rec["t_max_us"] == pytest.approx(statistics.median(loops), rel=1e-12), rec
        assert len(rec["loop_t_min_us"]) == 3 and len(rec["loop_t_avg_us"]) == 3, rec
        assert rec["t_min_us"] == pytest.approx(statistics.median(rec["loop_t_min_us"]), rel=1e-12)
        assert rec["t_avg_us"] == pytest.approx(statistics.median(rec["loop_t_avg_us"]), rel=1e-12)
        for k in range(3):
            assert rec["loop_t_min_us"][k] <= rec["loop_t_avg_us"][k] <= loops[k] * (1 + 1e-12)


@pytest.mark.asan
def test_repeat_own_columns_come_from_the_median_loop(tmp_path):
    """IMB-NBC's t_ovrl, t_pure, t_CPU and overlap belong together: with
    -repeat they are the median loop's (by t_ovrl), not the last loop's."""
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-NBC", "Ibcast", "Iallreduce", "-msglog", "2:5", "-repeat", "5",
            "-iter", "30,off", "--json", js)
    assert r.returncode == 0, r
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert len(rows) == 2 * 5
    for rec in rows:
        med = statistics.median(rec["loop_t_max_us"])
        assert rec["t_ovrl_us"] == pytest.approx(med, rel=1e-12), rec
        # the overlap formula (docs/imb-nbc.md) on that same loop's figures
        t_pure, t_cpu, t_ovrl = rec["t_pure_us"], rec["t_cpu_us"], rec["t_ovrl_us"]
        want = 100 * max(0.0, min(1.0, (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu)))
        assert rec["overlap_pct"] == pytest.approx(want, rel=1e-9, abs=1e-9), rec


@pytest.mark.asan
def test_oversubscription_warning_names_the_fix():
    cores = os.cpu_count()
    if cores is None or cores + 1 > 4:
        pytest.skip(f"{cores} cores: oversubscribing would need more than 4 ranks")
    warning = (f"effbench: warning: {cores + 1} ranks share a node with {cores} cores: ranks are "
               "time-sliced, so timings include waiting for a core and vary from run to run. "
               f"Run at most {cores} ranks per node for numbers to publish.")
    over = run(cores + 1, "IMB-MPI1", "Barrier", "-time", "0.1")
    assert over.returncode == 0, over
    assert [l for l in over.stderr.splitlines() if "warning" in l] == [warning], over
    fits = run(1, "IMB-MPI1", "Barrier", "-time", "0.1")
    assert fits.returncode == 0 and "warning" not in fits.stderr, fits
