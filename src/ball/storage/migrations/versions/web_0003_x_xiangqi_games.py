"""web: stored Xiangqi games (start FEN + ICCS move list).

Revision ID: web_0003_x
Revises: web_0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0003_x"
down_revision = "web_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_xiangqi_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("title", sa.String(200), nullable=False, server_default=""),
        sa.Column("mode", sa.String(16), nullable=False, server_default="hotseat"),
        sa.Column("computer", sa.String(8), nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("start", sa.Text(), nullable=False),
        sa.Column("moves", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("ending", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_xiangqi_games")
