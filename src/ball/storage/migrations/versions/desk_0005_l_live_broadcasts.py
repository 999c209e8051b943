"""desk: the rounds whose recorded games the desk published as a live broadcast (issue 35
§5). A row makes the round's live boards public; none existed before. A `desk_` table, so
publishing renews the event's revision token and the public pages show the link.

Revision ID: desk_0005_l
Revises: desk_0004_r
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "desk_0005_l"
down_revision = "desk_0004_r"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "desk_live_broadcasts",
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("published_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("desk_live_broadcasts")
