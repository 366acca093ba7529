"""initial schema: machine, mpi_library, run, benchmark, measurement, summary

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "machine",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("nodename", sa.String(255), nullable=False),
        sa.Column("sysname", sa.String(255), nullable=False),
        sa.Column("release", sa.String(255), nullable=False),
        sa.Column("version", sa.String(255), nullable=False),
        sa.Column("arch", sa.String(255), nullable=False),
        sa.UniqueConstraint("nodename", "sysname", "release", "version", "arch",
                            name="uq_machine"),
    )
    op.create_table(
        "mpi_library",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("mpi_version", sa.String(32), nullable=False),
        sa.UniqueConstraint("name", "mpi_version", name="uq_mpi_library"),
    )
    op.create_table(
        "run",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("content_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("tool", sa.String(64), nullable=False),
        sa.Column("tool_version", sa.String(64)),
        sa.Column("component", sa.String(16), nullable=False, index=True),
        sa.Column("start", sa.String(64)),
        sa.Column("procs", sa.Integer, nullable=False),
        sa.Column("check", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16)),
        sa.Column("source", sa.Text),
        sa.Column("source_format", sa.String(16), nullable=False),
        sa.Column("imported_at", sa.DateTime, nullable=False),
        sa.Column("machine_id", sa.Integer, sa.ForeignKey("machine.id")),
        sa.Column("mpi_library_id", sa.Integer, sa.ForeignKey("mpi_library.id")),
        sa.Column("run_record", sa.JSON, nullable=False),
        sa.Column("end_record", sa.JSON),
    )
    op.create_table(
        "benchmark",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("component", sa.String(16), nullable=False),
        sa.Column("name", sa.String(255), nullable=False),
        sa.UniqueConstraint("component", "name", name="uq_benchmark"),
    )
    op.create_table(
        "measurement",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("benchmark_id", sa.Integer, sa.ForeignKey("benchmark.id"), nullable=False,
                  index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("group_index", sa.Integer),
        sa.Column("mode", sa.String(32)),
        sa.Column("procs", sa.Integer, nullable=False),
        sa.Column("bytes", sa.BigInteger, nullable=False),
        sa.Column("repetitions", sa.BigInteger),
        sa.Column("t_min_us", sa.Double),
        sa.Column("t_max_us", sa.Double),
        sa.Column("t_avg_us", sa.Double),
        sa.Column("mbytes_per_s", sa.Double),
        sa.Column("defects", sa.BigInteger),
        sa.Column("extra", sa.JSON, nullable=False),
    )
    op.create_table(
        "summary",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    for table in ("summary", "measurement", "benchmark", "run", "mpi_library", "machine"):
        op.drop_table(table)
