"""component names: IMB-P2P's runs and benchmarks stored as "imb-p2p" become "p2p"
(docs/architecture.md, "Component names"); the import path reads old files the same way

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# Written out, not imported: a migration keeps meaning what it meant when it was written.
# (beff-io was only a command-line word: no stored record spells it.)
OLD, NEW = "imb-p2p", "p2p"

run = sa.table("run", sa.column("id", sa.Integer), sa.column("component", sa.String),
               sa.column("run_record", sa.JSON))
benchmark = sa.table("benchmark", sa.column("id", sa.Integer), sa.column("component", sa.String),
                     sa.column("name", sa.String))
measurement = sa.table("measurement", sa.column("benchmark_id", sa.Integer))
records = [sa.table(name, sa.column("id", sa.Integer), sa.column("run_id", sa.Integer),
                    sa.column("record", sa.JSON)) for name in ("summary", "event")]


def _renamed(rec, old, new):
    if isinstance(rec, dict) and rec.get("component") == old:
        return {**rec, "component": new}
    return None


def upgrade() -> None:
    _rename(OLD, NEW)


def downgrade() -> None:
    _rename(NEW, OLD)


def _rename(OLD, NEW) -> None:  # noqa: N803 (the module's names, as parameters)
    bind = op.get_bind()
    run_ids = []
    for rid, rec in bind.execute(sa.select(run.c.id, run.c.run_record)
                                 .where(run.c.component == OLD)).all():
        run_ids.append(rid)
        new = _renamed(rec, OLD, NEW)
        bind.execute(run.update().where(run.c.id == rid).values(
            component=NEW, **({"run_record": new} if new is not None else {})))
    for table in records:
        for rid in run_ids:
            for sid, rec in bind.execute(sa.select(table.c.id, table.c.record)
                                         .where(table.c.run_id == rid)).all():
                new = _renamed(rec, OLD, NEW)
                if new is not None:
                    bind.execute(table.update().where(table.c.id == sid).values(record=new))
    for bid, name in bind.execute(sa.select(benchmark.c.id, benchmark.c.name)
                                  .where(benchmark.c.component == OLD)).all():
        # (component, name) is unique: a benchmark already stored under the new name takes
        # the old one's measurements
        same = bind.execute(sa.select(benchmark.c.id).where(
            benchmark.c.component == NEW, benchmark.c.name == name)).scalar()
        if same is None:
            bind.execute(benchmark.update().where(benchmark.c.id == bid).values(component=NEW))
        else:
            bind.execute(measurement.update().where(measurement.c.benchmark_id == bid)
                         .values(benchmark_id=same))
            bind.execute(benchmark.delete().where(benchmark.c.id == bid))
