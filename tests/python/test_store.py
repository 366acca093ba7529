"""The store on SQLite and on a real PostgreSQL server: round trip (with skip and resume
records), idempotent import, atomic import, malformed files and values the columns cannot hold
rejected with nothing stored, database errors in one line, two imports creating the same row."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from web_helpers import run_records

from effbench.cli import main
from effbench.importers import parse_file
from effbench.importers.jsonl import parse_jsonl_text
from effbench.store.db import Store

EMPTY = {"machine": 0, "mpi_library": 0, "run": 0, "benchmark": 0, "measurement": 0,
         "summary": 0, "event": 0}


def read_lines(path):
    return [json.loads(line) for line in open(path)]


@pytest.mark.parametrize("run,benchmarks,rows", [
    ("p2p", 4, 40),
    # 1 process: PingPong and PingPing skipped; cut after 3 rows and finished with --resume
    # (rows: Sendrecv and Exchange at 0, 1, 2, 4 bytes, Barrier)
    ("resumed", 3, 9)])
def test_round_trip_c_json(db_url, c_output, tmp_path, capsys, run, benchmarks, rows):
    jsonl, _ = c_output[run]
    types = [r["type"] for r in read_lines(jsonl)]
    events = types.count("skip") + types.count("resume")
    if run == "resumed":
        # skip, skip, 3 rows, where the resumed run starts: resume, skip, skip, 6 rows
        assert types == ["run", "skip", "skip", *["result"] * 3, "resume", "skip", "skip",
                         *["result"] * 6, "end"]
    assert main(["import", "--db", db_url, str(jsonl)]) == 0
    assert "imported as run 1" in capsys.readouterr().out
    out = tmp_path / "export.jsonl"
    assert main(["export", "--db", db_url, "1", "-o", str(out)]) == 0
    # every record, every field, every digit, in the file's order
    assert read_lines(out) == read_lines(jsonl)
    with Store(db_url) as store:
        counts = store.counts()
        # the notes are part of the run's identity: the run without them is another run
        parsed = parse_file(jsonl)
        assert store.resolve(parsed.content_hash()[:12]) == 1
        if events:
            parsed.events, parsed.event_at = [], []
            assert store.import_run(parsed) == (2, True)
    assert counts == {"machine": 1, "mpi_library": 1, "run": 1, "benchmark": benchmarks,
                      "measurement": rows, "summary": 0, "event": events}


@pytest.mark.parametrize("sample", ["imb/mpi1_np2_full_default.txt", "beff/b_eff_np4.short",
                                    "beff_io/b_eff_io_np2.prot", "skampi/coll_np2.sko"])
def test_round_trip_imported_formats(db_url, samples, sample):
    parsed = parse_file(samples / sample)
    with Store(db_url) as store:
        run_id, created = store.import_run(parsed)
        assert created
        back = store.load(run_id)
    assert back.records() == parsed.records()


def test_idempotent_import(db_url, c_output, samples, capsys):
    files = [str(c_output["p2p"][0]), str(samples / "imb/mpi1_np2_p2p.txt"),
             str(samples / "skampi/pt2pt_np2.sko")]
    assert main(["import", "--db", db_url, *files]) == 0
    with Store(db_url) as store:
        first = store.counts()
    capsys.readouterr()
    assert main(["import", "--db", db_url, *files]) == 0
    out = capsys.readouterr().out
    assert out.count("already stored as run") == 3
    with Store(db_url) as store:
        assert store.counts() == first
        assert first["run"] == 3 and first["measurement"] == 40 + 96 + 218
        # the same data from a copy of the file is the same run
        assert store.import_run(parse_file(files[1])) == (2, False)


def test_interrupted_import_leaves_database_unchanged(db_url, samples):
    parsed = parse_file(samples / "imb/mpi1_np2_full_default.txt")
    with Store(db_url) as store:
        store.import_run(parse_file(samples / "imb/mpi1_np2_p2p.txt"))
        before = store.counts()
        inserted = []

        # Measurements go in with one bulk INSERT, after the run, machine, library and
        # benchmark rows of the same transaction: interrupt that statement.
        def fail_midway(conn, cursor, statement, parameters, context, executemany):
            inserted.append(statement)
            if statement.lstrip().upper().startswith("INSERT INTO MEASUREMENT"):
                raise KeyboardInterrupt("interrupted")

        event.listen(store.engine, "before_cursor_execute", fail_midway)
        try:
            with pytest.raises(KeyboardInterrupt):
                store.import_run(parsed)
        finally:
            event.remove(store.engine, "before_cursor_execute", fail_midway)
        assert any(s.lstrip().upper().startswith("INSERT INTO RUN") for s in inserted)
        assert store.counts() == before
        # and the same file imports cleanly afterwards
        run_id, created = store.import_run(parsed)
        assert created and store.counts()["measurement"] == before["measurement"] + 423


def test_malformed_file_imports_nothing(db_url, samples, tmp_path, capsys):
    lines = (samples / "imb/mpi1_np2_p2p.txt").read_text().splitlines()
    # an impossible number (the average below the minimum) refuses the whole file
    lines[120] = "        65536          640        5.48        5.49        3.17     11397.74"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["import", "--db", db_url, str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"effbench-results: error: {bad}:121: result record: t_min_us 5.48 > t_avg_us 3.17" \
        in err
    with Store(db_url) as store:
        assert store.counts() == EMPTY


def test_default_store_location(tmp_path, monkeypatch, samples, capsys):
    monkeypatch.delenv("EFFBENCH_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert main(["import", str(samples / "beff/b_eff_np2.sum")]) == 0
    assert (tmp_path / "xdg" / "effbench" / "results.sqlite").is_file()
    monkeypatch.setenv("EFFBENCH_DB", str(tmp_path / "env.sqlite"))
    assert main(["import", str(samples / "beff/b_eff_np2.sum")]) == 0
    assert (tmp_path / "env.sqlite").is_file()


def test_resolve_by_hash_and_unknown_run(sqlite_url, samples, capsys):
    with Store(sqlite_url) as store:
        parsed = parse_file(samples / "beff/b_eff_np2.sum")
        run_id, _ = store.import_run(parsed)
        assert store.resolve(parsed.content_hash()[:8]) == run_id
    assert main(["export", "--db", sqlite_url, "99"]) == 2
    assert "no run '99'" in capsys.readouterr().err


def test_resolve_a_hash_prefix_of_digits_only(db_url, samples):
    """A content hash may begin with twelve decimal digits: such a prefix is no run id (one
    in some hundred imports; PostgreSQL refused it as out of the id column's range)."""
    from sqlalchemy import update
    from effbench.store.models import Run
    with Store(db_url) as store:
        run_id, _ = store.import_run(parse_file(samples / "beff/b_eff_np2.sum"))
        with store.sessions() as session:
            session.execute(update(Run).where(Run.id == run_id).values(
                content_hash="404078009624" + "a" * 52))
            session.commit()
        assert store.resolve("404078009624") == run_id
        assert store.resolve(str(run_id)) == run_id


# --- what the columns hold -----------------------------------------------------------------

def jsonl_file(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.parametrize("line,change,message", [
    (1, lambda r: r["uname"].update(nodename="n" * 256),
     "run field 'uname.nodename' is 256 characters long; the store keeps at most 255"),
    (1, lambda r: r.update(mpi_version="3." + "1" * 31),
     "run field 'mpi_version' is 33 characters long; the store keeps at most 32"),
    (1, lambda r: r.update(tool="t" * 65),
     "run field 'tool' is 65 characters long; the store keeps at most 64"),
    (1, lambda r: r["uname"].update(machine=64),
     "run field 'uname.machine' must be a string, not 64"),
    (3, lambda r: r.update(benchmark="B" * 300),
     "result field 'benchmark' is 300 characters long; the store keeps at most 255"),
    (3, lambda r: r.update(mode="m" * 33),
     "result field 'mode' is 33 characters long; the store keeps at most 32"),
    (3, lambda r: r.update(procs=2**31),
     "result field 'procs' is 2147483648, more than the store keeps (2147483647 at most)"),
    (3, lambda r: r.update(bytes=2**63),
     "result field 'bytes' is 9223372036854775808, more than the store keeps "
     "(9223372036854775807 at most)"),
])
def test_values_the_columns_cannot_hold_are_rejected(db_url, tmp_path, capsys, line, change,
                                                     message):
    """Checked before the import, on every backend alike (SQLite would store an over-long
    string, PostgreSQL refuse it): the file, the line and the field."""
    records = run_records()
    change(records[line - 1])
    bad = jsonl_file(tmp_path / "bad.jsonl", records)
    assert main(["import", "--db", db_url, str(bad)]) == 2
    assert capsys.readouterr().err == f"effbench-results: error: {bad}:{line}: {message}\n"
    with Store(db_url) as store:
        assert store.counts() == EMPTY


def test_over_long_value_in_a_text_format(sqlite_url, samples, tmp_path, capsys):
    """Text formats name the line the value stands on."""
    lines = (samples / "imb/mpi1_np2_p2p.txt").read_text().splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("# Benchmarking PingPing"))
    lines[at] = "# Benchmarking " + "PingPing" * 40
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["import", "--db", sqlite_url, str(bad)]) == 2
    assert capsys.readouterr().err == (
        f"effbench-results: error: {bad}:{at + 1}: result field 'benchmark' is 320 characters "
        "long; the store keeps at most 255\n")


def test_postgresql_refuses_what_sqlite_keeps(postgres, tmp_path, capsys, monkeypatch):
    """Why the check is there: without it PostgreSQL refuses the over-long string (and the
    command says so in one line, storing nothing)."""
    import effbench.store.db
    monkeypatch.setattr(effbench.store.db, "check_store_limits", lambda parsed, path: None)
    db = postgres.new_database()
    records = run_records()
    records[0]["uname"]["nodename"] = "n" * 256
    bad = jsonl_file(tmp_path / "bad.jsonl", records)
    assert main(["import", "--db", db, str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == (f"effbench-results: error: {bad}: database error: value too long for type "
                   "character varying(255); nothing stored\n")
    with Store(db) as store:
        assert store.counts() == EMPTY


def test_database_errors_are_one_line(db_url, samples, capsys):
    """A database that fails (here: a table gone) gives a one-line error and status 2 from
    every command, never a traceback."""
    sample = str(samples / "imb/mpi1_np2_p2p.txt")
    assert main(["import", "--db", db_url, sample]) == 0
    capsys.readouterr()
    with Store(db_url) as store, store.engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE measurement")
    missing = ("no such table: measurement" if db_url.startswith("sqlite")
               else 'relation "measurement" does not exist')
    assert main(["import", "--db", db_url, str(samples / "skampi/pt2pt_np2.sko")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"effbench-results: error: {samples / 'skampi/pt2pt_np2.sko'}: "
                          "database error: ") and err.endswith("; nothing stored\n")
    assert missing in err and err.count("\n") == 1
    for command in (["list"], ["export", "1"]):
        assert main([*command, "--db", db_url]) == 2
        err = capsys.readouterr().err
        assert err.startswith("effbench-results: error: database error: ")
        assert missing in err and err.count("\n") == 1, command


@pytest.mark.parametrize("table", ["machine", "benchmark"])
def test_concurrent_imports_create_the_same_row(db_url, table):
    """Another import commits the machine (or benchmark) row this one is about to create,
    between its lookup and its insert: the unique constraint refuses the insert, and the
    import is tried again, finding the row."""
    first = parse_jsonl_text("".join(json.dumps(r) + "\n" for r in run_records(scale=1.0)))
    other = parse_jsonl_text("".join(json.dumps(r) + "\n" for r in run_records(scale=2.0)))
    with Store(db_url) as store, Store(db_url) as concurrent:
        if table == "benchmark":
            # machine and library stored already: the benchmark rows are the first inserts
            # (on SQLite a transaction that has written holds the lock the other one needs)
            concurrent.import_run(parse_jsonl_text("".join(
                json.dumps(r) + "\n" for r in run_records(benchmarks=("Barrier",)))))
        fired = []

        def meanwhile(conn, cursor, statement, parameters, context, executemany):
            if not fired and statement.lstrip().upper().startswith(f"INSERT INTO {table.upper()}"):
                fired.append(concurrent.import_run(other))

        refused = []

        def error(context):
            refused.append(context.sqlalchemy_exception)

        event.listen(store.engine, "before_cursor_execute", meanwhile)
        event.listen(store.engine, "handle_error", error)
        try:
            run_id, created = store.import_run(first)
        finally:
            event.remove(store.engine, "before_cursor_execute", meanwhile)
            event.remove(store.engine, "handle_error", error)
        assert created and len(fired) == 1 and fired[0][1] is True
        # the race happened: the insert was refused once, the second attempt found the row
        assert [type(e) for e in refused] == [IntegrityError]
        assert f"INSERT INTO {table}" in str(refused[0])
        assert store.load(run_id).records() == first.records()
        counts = store.counts()
        assert (counts["machine"], counts["run"]) == (1, 2 + (table == "benchmark"))
        assert counts["benchmark"] == 2 + (table == "benchmark")
