"""desk: a Mahjong table's sheet entered hand by hand at the desk (issue 18), with the
version that refuses two simultaneous saves.

Revision ID: desk_0003_mj
Revises: desk_0002_b
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "desk_0003_mj"
down_revision = "desk_0002_b"
branch_labels = None
depends_on = "tournament_0004_mj"


def upgrade() -> None:
    op.create_table(
        "desk_mahjong_drafts",
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("table", sa.Integer(), primary_key=True),
        sa.Column("sheet", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("last_edit", sa.Text(), nullable=False, server_default=""),
        sa.Column("updated_at", sa.Float(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("desk_mahjong_drafts")
