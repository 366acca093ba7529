"""groups of independent launches (`run --repeat`, `group`): run_group and group_member

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "run_group",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("label", sa.Text, nullable=False),
        sa.Column("command", sa.JSON),
        sa.Column("batch", sa.String(32), index=True),
        sa.Column("position", sa.Integer),
        sa.Column("repeat", sa.Integer),
        sa.Column("shuffled", sa.Boolean, nullable=False),
        sa.Column("seed", sa.BigInteger),
        sa.Column("directory", sa.Text),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "group_member",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("run_group.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("repetition", sa.Integer, nullable=False),
        sa.Column("launch_order", sa.Integer),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("exit_code", sa.Integer),
        sa.Column("message", sa.Text),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("run.id", ondelete="SET NULL"),
                  index=True),
        sa.Column("json_path", sa.Text),
        sa.Column("seconds", sa.Double),
        sa.UniqueConstraint("group_id", "repetition", name="uq_group_member"),
    )


def downgrade() -> None:
    op.drop_table("group_member")
    op.drop_table("run_group")
