"""tournament: every event gets a stable identity, `uid` (32 hex digits of a random UUID),
so an event exported from one database (`ball event export`) is recognised when the file is
imported again into another (`ball event import`): the same uid is the same event, whatever
its id there. Events an existing database holds get a fresh uid each.

Revision ID: tournament_0008_uid
Revises: tournament_0007_n
Create Date: 2026-12-02
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from alembic import op

revision = "tournament_0008_uid"
down_revision = "tournament_0007_n"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_events") as batch:
        batch.add_column(sa.Column("uid", sa.String(32), nullable=True))
    events = sa.table("tournament_events", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    bind = op.get_bind()
    for (event_id,) in bind.execute(sa.select(events.c.id).order_by(events.c.id)).all():
        bind.execute(events.update().where(events.c.id == event_id).values(uid=uuid.uuid4().hex))
    with op.batch_alter_table("tournament_events") as batch:
        batch.alter_column("uid", existing_type=sa.String(32), nullable=False)
        batch.create_unique_constraint("uq_tournament_events_uid", ["uid"])


def downgrade() -> None:
    with op.batch_alter_table("tournament_events") as batch:
        batch.drop_constraint("uq_tournament_events_uid", type_="unique")
        batch.drop_column("uid")
