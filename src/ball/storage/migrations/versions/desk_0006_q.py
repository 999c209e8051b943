"""desk: players enter their table's result by its link (issue 35 §1): each event's link
secret and its "accept confirmed results" setting, and each table's entry by its players.

Revision ID: desk_0006_q
Revises: desk_0005_l
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "desk_0006_q"
down_revision = "desk_0005_l"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "desk_table_links",
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("auto_accept", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "desk_player_entries",
        sa.Column(
            "pairing_id",
            sa.Integer(),
            sa.ForeignKey("tournament_pairings.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("side", sa.String(1), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("answered_by", sa.String(10), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("desk_player_entries")
    op.drop_table("desk_table_links")
