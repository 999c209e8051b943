"""desk: wrong PINs per client address (and per event), so a PIN guesser locks out only its
own address and a restart does not reset the counts (issue 11 item 5).

Revision ID: desk_0002_b
Revises: desk_0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "desk_0002_b"
down_revision = "desk_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "desk_pin_throttle",
        sa.Column("scope", sa.String(10), primary_key=True),
        sa.Column("target_id", sa.Integer(), primary_key=True),
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("streak", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("locked_until", sa.Float(), nullable=False, server_default="0"),
        sa.Column("window_start", sa.Float(), nullable=False, server_default="0"),
        sa.Column("window_failures", sa.Integer(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("desk_pin_throttle")
