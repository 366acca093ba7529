"""The planned-row count equals the rows written: the run record's `options.planned_rows`, the
`end` record's `planned_rows` and `rows`, the `result` records and the text table's rows agree,
whatever the plan leaves out (process sets below min_procs or odd for Uniband, benchmarks for
more processes, lengths -mem does not allow, one mode of two) or multiplies (modes, -multi 1
groups)."""
import pytest

from effb import busy_mpich, listed, np_params, parse_imb, read_jsonl, run

ITER = ["-iter", "10", "-iter_policy", "off", "-time", "0.05"]

CASES = {
    # the case of issue 30: One_put_all needs 2 processes, -npmin 1 offers 1 and 2
    "rma-npmin1": (2, "IMB-RMA", ["One_put_all", "-npmin", "1", "-msglog", "2:3"], 3),
    # every one-sided benchmark: fixed_procs, min_procs, modes, the single 4-byte atomics
    "rma-all-npmin1": (3, "IMB-RMA", ["-npmin", "1", "-msglog", "2:3", "-exclude",
                                       "Truly_passive_put"], None),
    # fixed 2 processes, even counts only, no length (Barrier), reductions in floats
    "mpi1-odd": (3, "IMB-MPI1", ["PingPong", "Uniband", "Biband", "Barrier", "Allreduce",
                                 "-npmin", "1", "-msglog", "0:3"], None),
    # a row per group and length
    "mpi1-multi1": (4, "IMB-MPI1", ["Multi-PingPong", "Multi-Allreduce", "Multi-Barrier",
                                    "-multi", "1", "-msglog", "2"], None),
    "mpi1-multi0": (4, "IMB-MPI1", ["Multi-Sendrecv", "-multi", "0", "-msglog", "2"], None),
    # Alltoall's 1 MiB length needs more than -mem allows: skipped with a note
    "mpi1-mem": (2, "IMB-MPI1", ["Alltoall", "Bcast", "-msglog", "19:20", "-mem", "0.003"], 5),
    # one mode of two; a benchmark of its own process count
    "ext-aggregate": (2, "IMB-EXT", ["Unidir_Put", "Accumulate", "Window", "-aggregate_mode",
                                     "aggregate", "-msglog", "2"], None),
    # -zero_size off drops the 0-byte length, not Ibarrier's one row
    "nbc-zero-size": (2, "IMB-NBC", ["Ibcast", "Ibarrier", "-zero_size", "off",
                                     "-msglog", "1:2"], 3),
    # one process: PingPong is not run (a skip record), Bcast on 1
    "mpi1-one-proc": (1, "IMB-MPI1", ["PingPong", "Bcast", "-msglog", "1"], 3),
}


def io_args(tmp_path):
    return ["S_Write_Indv", "P_IRead_Shared", "C_Write_Expl", "Open_Close", "-npmin", "1",
            "-msglog", "2", "-filename", tmp_path / "f", "--target-cpu-secs", "0.001"]


def check_counts(r, js, rows_expected):
    assert r.returncode == 0, r
    recs = read_jsonl(js)
    results = [x for x in recs if x["type"] == "result"]
    run_rec, end = recs[0], recs[-1]
    assert (run_rec["type"], end["type"], end["status"]) == ("run", "end", "ok"), end
    planned = run_rec["options"]["planned_rows"]
    assert end["planned_rows"] == planned
    assert end["rows"] == len(results) == planned
    text_rows = sum(len(b["rows"]) for b in parse_imb(r.stdout))
    assert text_rows == planned
    if rows_expected is not None:
        assert planned == rows_expected
    return recs


@pytest.mark.parametrize("case", [pytest.param(c, marks=busy_mpich(CASES[c][0])) for c in CASES])
def test_planned_rows_are_the_rows_written(tmp_path, case):
    np, program, args, rows = CASES[case]
    js = tmp_path / "p.jsonl"
    r = run(np, program, *args, *ITER, "--json", js)
    recs = check_counts(r, js, rows)
    if case == "mpi1-mem":
        assert "# #bytes = 1048576 and longer skipped" in r.stdout
    if case == "mpi1-one-proc":
        assert [x["benchmark"] for x in recs if x["type"] == "skip"] == ["PingPong"]


@pytest.mark.parametrize("np", np_params([1, 2, 3]))
def test_planned_rows_io(tmp_path, np):
    js = tmp_path / "p.jsonl"
    r = run(np, "IMB-IO", *io_args(tmp_path), *ITER, "--json", js)
    check_counts(r, js, None)


def test_planned_rows_of_every_default_benchmark(tmp_path):
    """IMB-MPI1 without names and with -include of the rest, on 3 processes."""
    js = tmp_path / "p.jsonl"
    rest = [b["name"] for b in listed("IMB-MPI1", default=False)]
    r = run(3, "IMB-MPI1", "-include", *rest, "-npmin", "1", "-msglog", "0:1", *ITER,
            "--json", js)
    check_counts(r, js, None)
