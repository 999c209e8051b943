"""web: stored simulator games (initial position + action list).

Revision ID: web_0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0001"
down_revision = None
branch_labels = ("web",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(200), nullable=False, server_default=""),
        sa.Column("mode", sa.String(16), nullable=False, server_default="free"),
        sa.Column("computer_side", sa.String(1), nullable=True),
        sa.Column("initial", sa.Text(), nullable=False),
        sa.Column("actions", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("redo", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_games")
