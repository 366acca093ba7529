"""`effbench quick` (issue 12): loops repeat until the relative standard
error of the kept loop times is below -epsilon or the row's budget is spent."""
import statistics

import pytest

from effb import BUILD, parse_imb, read_jsonl, run


def test_quick_rows(tmp_path):
    js = tmp_path / "q.jsonl"
    r = run(2, "effbench", "quick", "PingPong", "Sendrecv", "-msglog", "0:10", "-epsilon", "0.05",
            "-time", "0.2", "--json", js)
    assert r.returncode == 0, r
    assert "# quick mode: timed loops repeat until the standard error" in r.stdout
    blocks = parse_imb(r.stdout)
    assert [b["name"] for b in blocks] == ["PingPong", "Sendrecv"]
    assert blocks[0]["header_line"] == (
        "       #bytes #repetitions      t[usec]   Mbytes/sec        loops     loop_min"
        "     loop_max       spread   rel_err[%]")
    recs = read_jsonl(js)
    assert recs[0]["component"] == "mpi1" and recs[0]["options"]["quick"] is True
    # the command as typed, not the component's words (quick adds -quick)
    assert recs[0]["command_line"] == [str(BUILD / "effbench"), "quick", "PingPong", "Sendrecv",
                                       "-msglog", "0:10", "-epsilon", "0.05", "-time", "0.2",
                                       "--json", str(js)]
    assert recs[0]["options"]["epsilon"] == 0.05 and recs[0]["options"]["time_s"] == 0.2
    rows = [x for x in recs if x["type"] == "result"]
    assert len(rows) == 2 * 12
    for x in rows:
        loops = x.get("loop_t_max_us", [x["t_max_us"]])
        n = x.get("loops", 1)
        assert len(loops) == n
        assert x["t_max_us"] == pytest.approx(statistics.median(loops), rel=1e-12) or n == 1
        # it stops when converged, or when the budget is spent (with some slack
        # for the last loop), never without a reason
        spent = sum(loops) * x["repetitions"] * (2 if x["benchmark"] == "PingPong" else 1) / 1e6
        if x["converged"]:
            assert n >= 5 and x["rel_std_error"] < 0.05
        else:
            assert spent >= 0.2
    printed = [row for b in blocks for row in b["rows"]]
    assert [int(row[4 if i < 12 else 6]) for i, row in enumerate(printed)] == [
        x.get("loops", 1) for x in rows]


def test_quick_refuses_repeat():
    r = run(2, "effbench", "quick", "-repeat", "3")
    assert r.returncode == 2
    assert ("effbench: error: quick mode chooses its own loops: no -repeat or -sync window"
            in r.stderr)


def test_quick_help_is_its_own():
    """quick's help says what it does, its -epsilon and how a row stops, then the component's
    options; IMB-MPI1's help does not offer -epsilon."""
    r = run(1, "effbench", "quick", "-h")
    assert r.returncode == 0, r
    out = r.stdout
    assert out.startswith("Usage: mpirun -np P effbench quick [mpi1|nbc|ext|rma|io] "
                          "[benchmark ...] [options]\n")
    assert "  -epsilon E                relative standard error to reach (default 0.02)\n" in out
    assert "  -time SECONDS             budget per row (default 0.5 in quick mode)\n" in out
    assert "(after at least 5 loops), or when the budget -time is spent." in out
    assert out.index("-epsilon E") < out.index("Usage: mpirun -np P IMB-MPI1")
    r = run(1, "IMB-MPI1", "-h")
    assert r.returncode == 0 and "-epsilon" not in r.stdout and "quick" not in r.stdout, r


def test_quick_advises_nothing_it_already_does():
    """A noisy machine (4 ranks on 2 cores) draws the noise warning, but quick mode never
    recommends `effbench quick` or -repeat, which it is already doing."""
    r = run(4, "effbench", "quick", "Allreduce", "Alltoall", "-msglog", "0:12", "-time", "0.05")
    assert r.returncode == 0, r
    assert "effbench quick" not in r.stderr and "-repeat" not in r.stderr, r.stderr
    for line in r.stderr.splitlines():
        if "timed loops spread" in line:
            assert "look at rel_err[%]" in line, line
