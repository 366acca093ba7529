"""skip and resume records (table event) and the place of summaries among a file's records

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (as in 0002): existing summaries keep a null position, which means
    # "after the results", where they were exported before.
    op.add_column("summary", sa.Column("position", sa.Integer, nullable=True))
    op.create_table(
        "event",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer),
        sa.Column("record", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    # effbench only upgrades; on SQLite, dropping a column copies `summary` (batch mode).
    op.drop_table("event")
    with op.batch_alter_table("summary") as batch:
        batch.drop_column("position")
