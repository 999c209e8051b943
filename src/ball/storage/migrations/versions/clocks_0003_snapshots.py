"""clocks: a snapshot of each clock's fold, so a press replays only the events after it
(issue 15). A cache of the log: an empty table is valid, and downgrading loses nothing.

Revision ID: clocks_0003
Revises: clocks_0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "clocks_0003"
down_revision = "clocks_0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clock_snapshots",
        sa.Column(
            "clock_id",
            sa.Integer(),
            sa.ForeignKey("clock_clocks.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("clock_snapshots")
