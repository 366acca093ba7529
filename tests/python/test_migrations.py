"""The Alembic migrations on SQLite and PostgreSQL: a store made by an older schema keeps its
data when it is upgraded, and the newest schema is exactly what the models declare."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from effbench.importers import parse_file
from effbench.store.db import MIGRATIONS, Store
from effbench.store.models import Base


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def upgrade_to(db_url: str, revision: str, *statements: str) -> None:
    """The schema of REVISION, then STATEMENTS run in the same transaction."""
    engine = create_engine(db_url)
    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA foreign_keys=ON")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        for statement in statements:
            conn.execute(text(statement))
    engine.dispose()


def test_migration_0003_keeps_existing_runs(db_url, c_output):
    """A store of schema 0002 with a run, its measurement and summary: upgrading adds the
    event table and the summaries' position and loses nothing; the old summary is exported
    after the results, where it was before."""
    upgrade_to(
        db_url, "0002",
        "INSERT INTO run (id, content_hash, tool, component, procs, \"check\", source_format, "
        "imported_at, run_record, network) VALUES (7, 'abc', 'effbench', 'mpi1', 2, false, "
        "'jsonl', '2026-01-01 00:00:00', '{\"type\": \"run\"}', 'eth')",
        "INSERT INTO benchmark (id, component, name) VALUES (3, 'mpi1', 'PingPong')",
        "INSERT INTO measurement (run_id, benchmark_id, seq, procs, bytes, t_avg_us, extra) "
        "VALUES (7, 3, 0, 2, 8, 1.25, '{}')",
        "INSERT INTO summary (run_id, seq, record) VALUES (7, 0, '{\"type\": \"summary\"}')")
    with Store(db_url) as store:
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() \
                == HEAD
        assert store.counts() == {"machine": 0, "mpi_library": 0, "run": 1, "benchmark": 1,
                                  "measurement": 1, "summary": 1, "event": 0}
        old = store.load(7)
        assert [r["type"] for r in old.records()] == ["run", "result", "summary"]
        assert old.results[0]["t_avg_us"] == 1.25 and old.summary_at is None
        # and a run with skip and resume records goes into the upgraded store
        parsed = parse_file(c_output["resumed"][0])
        run_id, created = store.import_run(parsed)
        assert created and store.load(run_id).records() == parsed.records()
        assert store.counts()["event"] == len(parsed.events) == 5


def test_migrated_schema_equals_the_models(db_url):
    """Alembic's autogenerate finds nothing to change between the migrated database and the
    models (an index or column declared in one place only would show)."""
    with Store(db_url) as store:
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


@pytest.mark.parametrize("index", ["ix_measurement_run_benchmark", "ix_run_uploader_id"])
def test_models_declare_the_migrations_indexes(index):
    declared = {ix.name for table in Base.metadata.tables.values() for ix in table.indexes}
    assert index in declared
