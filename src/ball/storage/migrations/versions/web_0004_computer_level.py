"""web: the computer opponent's level of a simulator game (issue 14).

Revision ID: web_0004
Revises: web_0003_x
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0004"
down_revision = "web_0003_x"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL is the greedy player every computer game had before levels existed
    with op.batch_alter_table("web_games") as batch:
        batch.add_column(sa.Column("computer_level", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("web_games") as batch:
        batch.drop_column("computer_level")
