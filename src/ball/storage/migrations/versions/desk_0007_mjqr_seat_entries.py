"""desk: the players of a Mahjong table enter its session by their seats' links (issue 35
§1): each table's entry by one seat, confirmed or disputed by another.

Revision ID: desk_0007_mjqr
Revises: desk_0006_q
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "desk_0007_mjqr"
down_revision = "desk_0006_q"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "desk_mahjong_seat_entries",
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("answered_by", sa.String(10), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("desk_mahjong_seat_entries")
