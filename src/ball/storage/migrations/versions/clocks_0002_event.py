"""clocks: a clock may belong to a tournament event, whose desk PIN session then counts as
the arbiter's (no foreign key, so the clocks branch does not depend on the tournament one).

Revision ID: clocks_0002
Revises: clocks_0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "clocks_0002"
down_revision = "clocks_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("clock_clocks") as batch:
        batch.add_column(sa.Column("event_id", sa.Integer(), nullable=True))
        batch.create_index("ix_clock_clocks_event", ["event_id"])


def downgrade() -> None:
    with op.batch_alter_table("clock_clocks") as batch:
        batch.drop_index("ix_clock_clocks_event")
        batch.drop_column("event_id")
