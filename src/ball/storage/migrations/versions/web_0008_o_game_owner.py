"""web: a stored simulator or Xiangqi game names the address that made it through the web,
so the cap on stored games is kept per address (issue 30 item 8).

Revision ID: web_0008_o
Revises: web_0008_k
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0008_o"
down_revision = "web_0008_k"
branch_labels = None
depends_on = None

TABLES = ("web_games", "web_xiangqi_games")


def upgrade() -> None:
    # NULL for every game stored so far, as for games the CLI, the desk or a lesson makes:
    # no address's quota counts them.
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("owner", sa.String(length=64), nullable=True))
            batch.create_index(f"ix_{table}_owner", ["owner"])


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_index(f"ix_{table}_owner")
            batch.drop_column("owner")
