"""desk: an event's recovery code, stored only as its hash, so the arbiter can always sign
in and lift the PIN throttle of their own address (issue 30 item 4).

Revision ID: desk_0004_r
Revises: desk_0003_mj
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "desk_0004_r"
down_revision = "desk_0003_mj"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "desk_recovery",
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("code_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("desk_recovery")
