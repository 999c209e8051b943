"""web: a stored simulator game may be a learn game, kept apart from free play (issue 13).

Revision ID: web_0006_u3
Revises: web_0005_y
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0006_u3"
down_revision = "web_0005_y"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL for every game stored so far: they were free-play (or computer) games, and a
    # learn game stored before this column is indistinguishable from one, so it stays one.
    with op.batch_alter_table("web_games") as batch:
        batch.add_column(sa.Column("lesson", sa.String(length=40), nullable=True))
        batch.create_index("ix_web_games_lesson", ["lesson"])


def downgrade() -> None:
    with op.batch_alter_table("web_games") as batch:
        batch.drop_index("ix_web_games_lesson")
        batch.drop_column("lesson")
