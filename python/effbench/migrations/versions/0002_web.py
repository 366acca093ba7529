"""web application: upload tokens, and who uploaded a run (with its network and notes)

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_token",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(255), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("admin", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("revoked_at", sa.DateTime),
    )
    # Plain ADD COLUMN, never a batch copy of `run`: on SQLite the copy drops the old table,
    # and with foreign keys on that deletes every measurement and summary (ON DELETE CASCADE).
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE run ADD COLUMN uploader_id INTEGER REFERENCES api_token (id)")
    else:
        op.add_column("run", sa.Column("uploader_id", sa.Integer, nullable=True))
        op.create_foreign_key("fk_run_uploader", "run", "api_token", ["uploader_id"], ["id"])
    op.add_column("run", sa.Column("network", sa.String(255), nullable=True))
    op.add_column("run", sa.Column("notes", sa.Text, nullable=True))
    op.create_index("ix_run_uploader_id", "run", ["uploader_id"])
    # The comparison plot reads the rows of a few runs and benchmarks out of millions.
    op.create_index("ix_measurement_run_benchmark", "measurement", ["run_id", "benchmark_id"])


def downgrade() -> None:
    # effbench only upgrades. On SQLite this batch copy of `run` must run with
    # PRAGMA foreign_keys=OFF, or dropping the old table deletes the measurements.
    op.drop_index("ix_measurement_run_benchmark", "measurement")
    op.drop_index("ix_run_uploader_id", "run")
    with op.batch_alter_table("run") as batch:
        if op.get_bind().dialect.name != "sqlite":
            batch.drop_constraint("fk_run_uploader", type_="foreignkey")
        batch.drop_column("notes")
        batch.drop_column("network")
        batch.drop_column("uploader_id")
    op.drop_table("api_token")
