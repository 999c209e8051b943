"""searches: the queue of computer searches (issue 34), read by every server process.

A branch of its own: the search queue evolves apart from the games' tables, and a job names
its game by kind and id (a simulator game's id), not by a foreign key.

Revision ID: searches_0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "searches_0001"
down_revision = None
branch_labels = ("searches",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_search_jobs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("state", sa.String(8), nullable=False, server_default="queued"),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=False, server_default="0"),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("kind", "game_id", "version", name="uq_web_search_jobs_game_version"),
    )
    op.create_index("ix_web_search_jobs_state", "web_search_jobs", ["state"])


def downgrade() -> None:
    op.drop_index("ix_web_search_jobs_state", table_name="web_search_jobs")
    op.drop_table("web_search_jobs")
