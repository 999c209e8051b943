"""web: the rounds whose recorded games the desk published as a live broadcast (issue 35
§5). A row makes the round's live boards public; none existed before.

Revision ID: web_0009_b
Revises: web_0008_o
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0009_b"
down_revision = "web_0008_o"
branch_labels = None
depends_on = "tournament_0001"


def upgrade() -> None:
    op.create_table(
        "web_live_broadcasts",
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
    op.drop_table("web_live_broadcasts")
