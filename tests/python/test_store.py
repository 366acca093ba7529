"""The store on SQLite and on a real PostgreSQL server: round trip, idempotent import, atomic
import, malformed files rejected with nothing stored."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import event

from effbench.cli import main
from effbench.importers import parse_file
from effbench.store.db import Store
from effbench.store.models import Measurement

EMPTY = {"machine": 0, "mpi_library": 0, "run": 0, "benchmark": 0, "measurement": 0,
         "summary": 0}


def read_lines(path):
    return [json.loads(line) for line in open(path)]


def test_round_trip_c_json(db_url, c_output, tmp_path, capsys):
    jsonl, _ = c_output["p2p"]
    assert main(["import", "--db", db_url, str(jsonl)]) == 0
    assert "imported as run 1" in capsys.readouterr().out
    out = tmp_path / "export.jsonl"
    assert main(["export", "--db", db_url, "1", "-o", str(out)]) == 0
    # every record, every field, every digit
    assert read_lines(out) == read_lines(jsonl)
    with Store(db_url) as store:
        counts = store.counts()
    assert counts == {"machine": 1, "mpi_library": 1, "run": 1, "benchmark": 4,
                      "measurement": 40, "summary": 0}


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
    lines[120] = "        65536          640        5.48"  # a row missing its last column
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["import", "--db", db_url, str(bad)]) == 2
    err = capsys.readouterr().err
    assert (f"effbench-results: error: {bad}:121: expected 6 columns (bytes repetitions "
            "t_min_us t_max_us t_avg_us mbytes_per_s), found 3") in err
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
