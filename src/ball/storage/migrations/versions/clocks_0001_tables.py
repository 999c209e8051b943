"""clocks: table clocks and their append-only event logs.

Revision ID: clocks_0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "clocks_0001"
down_revision = None
branch_labels = ("clocks",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clock_clocks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_label", sa.String(80), nullable=False),
        sa.Column("round_label", sa.String(80), nullable=False, server_default=""),
        sa.Column("control_name", sa.String(80), nullable=False),
        sa.Column("control", sa.Text(), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("pin_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_clock_clocks_round", "clock_clocks", ["round_label"])
    op.create_table(
        "clock_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "clock_id",
            sa.Integer(),
            sa.ForeignKey("clock_clocks.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False, server_default="{}"),
        sa.UniqueConstraint("clock_id", "seq", name="uq_clock_events_seq"),
    )


def downgrade() -> None:
    op.drop_table("clock_events")
    op.drop_index("ix_clock_clocks_round", "clock_clocks")
    op.drop_table("clock_clocks")
