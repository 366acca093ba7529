"""One name a component (docs/architecture.md, "Component names"): a file written before the
rule, whose IMB-P2P records say "imb-p2p", is read, validated, stored and compared as `p2p`;
a store holding such a run is migrated to `p2p` and still finds the file stored."""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import text

from effbench.compare import compare_runs
from effbench.component_names import COMPONENTS, OLD_SPELLINGS, current_name
from effbench.importers import parse_file
from effbench.records import methodology
from effbench.store.db import Store
from effbench.validate import validate_file
from test_migrations import upgrade_to

# The shape of a record `effbench imb-p2p PingPong --json` wrote before the rule (shortened).
RUN = {"type": "run", "schema": 1, "tool": "effbench", "version": "0.1.0",
       "component": "imb-p2p", "start": "2026-11-27T18:34:02Z", "procs": 2,
       "uname": {"sysname": "Linux", "nodename": "vm", "release": "6.1", "version": "#1",
                 "machine": "x86_64"},
       "mpi_library": "Open MPI v4.1.4", "mpi_version": "3.1",
       "thread_level": "MPI_THREAD_SINGLE",
       "command_line": ["effbench", "imb-p2p", "PingPong", "--json", "old.jsonl"],
       "check": False, "options": {"program": "IMB-P2P", "methodology": "imb-p2p-2021.11"}}


def result(nbytes: int, t_avg: float) -> dict:
    return {"type": "result", "schema": 1, "component": "imb-p2p", "benchmark": "PingPong",
            "group": None, "mode": None, "procs": 2, "bytes": nbytes, "repetitions": 1000,
            "t_min_us": None, "t_max_us": None, "t_avg_us": t_avg, "mbytes_per_s": None,
            "defects": None, "methodology": "imb-p2p-2021.11", "t_usec": t_avg,
            "mb_per_s": nbytes / t_avg, "messages_per_s": 1e6 / t_avg, "warm_up": 100,
            "messages": 2000, "time_max_s": 2000 * t_avg * 1e-6,
            "time_sum_s": 4000 * t_avg * 1e-6, "checked": False}


END = {"type": "end", "schema": 1, "status": "ok", "message": None, "elapsed_s": 1.5,
       "rows": 2, "planned_rows": 2}
OLD_RECORDS = [RUN, result(0, 1.5), result(8, 1.75), END]


def write_old(path):
    path.write_text("".join(json.dumps(r) + "\n" for r in OLD_RECORDS))
    return path


def old_hash() -> str:
    """The content hash effbench gave this file before the rule (records as written)."""
    canonical = json.dumps(OLD_RECORDS, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def test_names_are_identifiers_and_old_spellings_map_to_them():
    assert all(c.isidentifier() and c == c.lower() and c[0].isalpha() for c in COMPONENTS)
    assert OLD_SPELLINGS == {"imb-p2p": "p2p", "beff-io": "beff_io"}
    assert [current_name(x) for x in ("imb-p2p", "beff-io", "p2p", "mpi1", None)] == \
        ["p2p", "beff_io", "p2p", "mpi1", None]


def test_old_file_is_read_validated_and_stored_as_p2p(tmp_path, sqlite_url):
    path = write_old(tmp_path / "old.jsonl")
    assert validate_file(path) == []
    parsed = parse_file(path)
    assert {r["component"] for r in parsed.records() if "component" in r} == {"p2p"}
    assert methodology(parsed.results[0]) == "imb-p2p-2021.11"
    with Store(sqlite_url) as store:
        run_id, created = store.import_run(parsed)
        assert created
        assert store.list_runs()[0]["component"] == "p2p"
        loaded = store.load(run_id)
        assert [r.get("component") for r in loaded.records()] == ["p2p", "p2p", "p2p", None]
        assert [(r["benchmark"], r["bytes"], r["t_avg_us"]) for r in loaded.results] == \
            [("PingPong", 0, 1.5), ("PingPong", 8, 1.75)]
        # the same file again, and the same run written with the new name, are the run stored
        assert store.import_run(parse_file(path)) == (run_id, False)
        new = tmp_path / "new.jsonl"
        new.write_text(path.read_text().replace('"component": "imb-p2p"', '"component": "p2p"'))
        assert store.import_run(parse_file(new)) == (run_id, False)
        assert store.counts()["run"] == 1 and store.counts()["benchmark"] == 1


def test_old_and_new_files_compare_row_by_row(tmp_path):
    """compare meets an old file's rows and a new one's: same component, benchmark, length."""
    old = parse_file(write_old(tmp_path / "old.jsonl"))
    new = tmp_path / "new.jsonl"
    new.write_text((tmp_path / "old.jsonl").read_text()
                   .replace('"component": "imb-p2p"', '"component": "p2p"').replace("1.75", "3.5"))
    cmp = compare_runs(old, parse_file(new))
    assert [(r.key[0], r.a, r.b, r.flag) for r in cmp.rows] == \
        [("p2p", 1.5, 1.5, ""), ("p2p", 1.75, 3.5, "REGRESSION")]
    assert cmp.only_a == cmp.only_b == 0


def test_migration_0004_renames_stored_imb_p2p(db_url, tmp_path):
    """A store of schema 0003 with a run stored as imb-p2p (columns and JSON records): after
    the upgrade it is p2p everywhere, and its file imported again is found stored."""
    run_json = json.dumps(RUN).replace("'", "''")
    summ = json.dumps({"type": "summary", "schema": 1, "component": "imb-p2p"})
    upgrade_to(
        db_url, "0003",
        "INSERT INTO run (id, content_hash, tool, component, procs, \"check\", source_format, "
        f"imported_at, run_record, end_record) VALUES (5, '{old_hash()}', 'effbench', "
        f"'imb-p2p', 2, false, 'jsonl', '2026-01-01 00:00:00', '{run_json}', "
        f"'{json.dumps(END)}')",
        "INSERT INTO benchmark (id, component, name) VALUES (4, 'imb-p2p', 'PingPong')",
        "INSERT INTO benchmark (id, component, name) VALUES (6, 'mpi1', 'PingPong')",
        "INSERT INTO measurement (run_id, benchmark_id, seq, procs, bytes, t_avg_us, extra) "
        "VALUES (5, 4, 0, 2, 0, 1.5, '{}')",
        f"INSERT INTO summary (run_id, seq, record) VALUES (5, 0, '{summ}')")
    with Store(db_url) as store:
        with store.engine.connect() as conn:
            assert sorted(conn.execute(text("SELECT component, name FROM benchmark")).all()) \
                == [("mpi1", "PingPong"), ("p2p", "PingPong")]
            assert conn.execute(text("SELECT component FROM run")).scalar() == "p2p"
        loaded = store.load(5)
        assert loaded.run["component"] == "p2p" and loaded.run["procs"] == 2
        assert loaded.results[0]["component"] == "p2p"
        assert loaded.summaries[0]["component"] == "p2p"
        assert store.import_run(parse_file(write_old(tmp_path / "old.jsonl"))) == (5, False)
