"""clocks: a table device key for every clock bound to an event (issue 30): only the device
the desk handed the key to (and the desk itself) may press such a clock. Clocks bound before
this revision get a fresh key, so they keep working from the link the desk shows.

Revision ID: clocks_0004
Revises: clocks_0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "clocks_0004"
down_revision = "clocks_0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("clock_clocks") as batch:
        batch.add_column(
            sa.Column("device_key", sa.String(length=64), nullable=False, server_default="")
        )
    clocks = sa.table("clock_clocks", sa.column("id", sa.Integer), sa.column("device_key"))
    bind = op.get_bind()
    bound = bind.execute(sa.text("SELECT id FROM clock_clocks WHERE event_id IS NOT NULL"))
    for (clock_id,) in bound.fetchall():
        bind.execute(
            clocks.update()
            .where(clocks.c.id == clock_id)
            .values(device_key=secrets.token_urlsafe(24))
        )


def downgrade() -> None:
    with op.batch_alter_table("clock_clocks") as batch:
        batch.drop_column("device_key")
