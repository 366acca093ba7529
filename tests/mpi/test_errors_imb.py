"""Bad input to the IMB components: one message from rank 0 naming the
problem, exit status 2 on every rank, no hang, nothing half-written."""
import pytest

from effb import read_jsonl, run


def assert_user_error(r, message):
    assert r.returncode == 2, r
    lines = [l for l in r.stderr.splitlines() if l.startswith("effbench: error:")]
    assert lines == [f"effbench: error: {message}"], r
    assert "MPI_ABORT" not in r.stderr and "Abort" not in r.stdout


@pytest.mark.parametrize("np", [1, 3])
def test_unknown_benchmark_is_an_error_not_run_everything(np):
    r = run(np, "IMB-MPI1", "PingPog")
    assert r.returncode == 2, r
    errors = [l for l in r.stderr.splitlines() if l.startswith("effbench: error:")]
    assert len(errors) == 1, r
    assert errors[0].startswith("effbench: error: unknown benchmark 'PingPog' for IMB-MPI1; "
                                "known: PingPong PingPongSpecificSource PingPongAnySource "
                                "PingPing "), r
    assert "Benchmarking" not in r.stdout


def test_unknown_benchmark_names_the_name():
    r = run(2, "IMB-MPI1", "PingPong", "-exclude", "Sendrecvv")
    assert r.returncode == 2, r
    assert r.stderr.startswith("effbench: error: unknown benchmark 'Sendrecvv' for IMB-MPI1; known:")


# The single-option errors are in test_bad_inputs.py's table (all components).


@pytest.mark.asan
def test_malformed_files_name_file_and_line(tmp_path):
    lengths = tmp_path / "lengths"
    lengths.write_text("0\n1024\n4k\n")
    assert_user_error(run(2, "IMB-MPI1", "-msglen", lengths),
                      f"{lengths}:3: '4k' is not a non-negative message length in bytes")
    select = tmp_path / "select"
    select.write_text("# my selection\nPingPong\nPing Pong\n")
    assert_user_error(run(2, "IMB-MPI1", "-input", select),
                      f"{select}:3: 'Ping Pong': a line holds exactly one benchmark name or a # comment")
    select.write_text("PingPong\nPangPang\n")
    r = run(2, "IMB-MPI1", "-input", select)
    assert r.returncode == 2 and "unknown benchmark 'PangPang'" in r.stderr, r


def test_unknown_component():
    r = run(2, "effbench", "mpi2", "PingPong")
    assert_user_error(r, "unknown component 'mpi2' (run `effbench --help` for the list)")


def test_help_exits_zero_and_lists_benchmarks():
    r = run(2, "IMB-MPI1", "-h")
    assert r.returncode == 0, r
    assert "Usage: mpirun -np P IMB-MPI1" in r.stdout
    assert "  PingPongSpecificSource *" in r.stdout
    assert r.stdout.count("Usage:") == 1  # rank 0 only


def test_msglen_and_input_files_are_used(tmp_path):
    lengths = tmp_path / "lengths"
    lengths.write_text("# lengths\n0\n3\n1000\n")
    select = tmp_path / "select"
    select.write_text("#\n# selection\n#PingPong\nSendrecv\n")
    js = tmp_path / "r.jsonl"
    r = run(2, "IMB-MPI1", "-input", select, "-msglen", lengths, "-iter", "10,off",
            "--json", js)
    assert r.returncode == 0, r
    assert "# Message lengths were user-defined" in r.stdout
    rows = [x for x in read_jsonl(js) if x["type"] == "result"]
    assert [(x["benchmark"], x["bytes"], x["repetitions"]) for x in rows] == [
        ("Sendrecv", 0, 10), ("Sendrecv", 3, 10), ("Sendrecv", 1000, 10)]


def test_mem_limit_skips_lengths_with_a_note(tmp_path):
    r = run(2, "IMB-MPI1", "PingPong", "-msglog", "18:22", "-mem", "0.001", "-iter", "5,off")
    assert r.returncode == 0, r
    assert ("# #bytes = 1048576 and longer skipped: buffers need 0.002 GB per process, "
            "-mem allows 0.001 GB (raise -mem to run them)") in r.stdout
    assert "       524288" in r.stdout and "      1048576" not in r.stdout
