"""web: a table device key for every Xiangqi game the desk opened for a table (issue 30):
only the desk session or the device holding the key writes such a game. Games recorded
before this revision get a fresh key; games not of a table keep "".

Revision ID: web_0008_k
Revises: web_0007_h2
Create Date: 2026-12-02
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "web_0008_k"
down_revision = "web_0007_h2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_xiangqi_games") as batch:
        batch.add_column(
            sa.Column("device_key", sa.String(length=64), nullable=False, server_default="")
        )
    games = sa.table("web_xiangqi_games", sa.column("id", sa.Integer), sa.column("device_key"))
    bind = op.get_bind()
    tables = bind.execute(sa.text("SELECT id FROM web_xiangqi_games WHERE desk_event IS NOT NULL"))
    for (game_id,) in tables.fetchall():
        bind.execute(
            games.update().where(games.c.id == game_id).values(device_key=secrets.token_urlsafe(24))
        )


def downgrade() -> None:
    with op.batch_alter_table("web_xiangqi_games") as batch:
        batch.drop_column("device_key")
