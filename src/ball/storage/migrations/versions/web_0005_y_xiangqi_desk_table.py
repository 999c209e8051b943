"""web: a stored Xiangqi game recorded for one table of an event at the desk (issue 16).

Revision ID: web_0005_y
Revises: web_0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0005_y"
down_revision = "web_0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL for games started at /xiangqi; the unique triple is what makes "Record the game"
    # reopen the same game instead of starting a second one for the table.
    with op.batch_alter_table("web_xiangqi_games") as batch:
        batch.add_column(sa.Column("desk_event", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("desk_round", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("desk_table", sa.Integer(), nullable=True))
        batch.create_unique_constraint(
            "uq_web_xiangqi_games_desk_table", ["desk_event", "desk_round", "desk_table"]
        )


def downgrade() -> None:
    with op.batch_alter_table("web_xiangqi_games") as batch:
        batch.drop_constraint("uq_web_xiangqi_games_desk_table", type_="unique")
        batch.drop_column("desk_table")
        batch.drop_column("desk_round")
        batch.drop_column("desk_event")
