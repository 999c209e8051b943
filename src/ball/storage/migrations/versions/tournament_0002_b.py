"""tournament: a unique normalised event name (`ball.tournament.names.name_key`), so two
events cannot share a name even when created at the same instant (issue 11 item 3).

A database may already hold events with the same name: the oldest keeps the key, the later
ones get NULL (allowed any number of times by a unique index), and the service refuses that
name as ambiguous, listing the ids.

Revision ID: tournament_0002_b
Revises: tournament_0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "tournament_0002_b"
down_revision = "tournament_0001"
branch_labels = None
depends_on = None


def _key(name: str) -> str:
    # A copy of ball.tournament.names.name_key as it is today: a migration must not change
    # when the application's code does.
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def upgrade() -> None:
    with op.batch_alter_table("tournament_events") as batch:
        batch.add_column(sa.Column("name_key", sa.Text(), nullable=True))
    events = sa.table(
        "tournament_events", sa.column("id", sa.Integer), sa.column("name", sa.String),
        sa.column("name_key", sa.Text),
    )
    bind = op.get_bind()
    taken: set[str] = set()
    for event_id, name in bind.execute(sa.select(events.c.id, events.c.name).order_by(events.c.id)):
        key = _key(name or "")
        if key in taken:
            continue
        taken.add(key)
        bind.execute(events.update().where(events.c.id == event_id).values(name_key=key))
    with op.batch_alter_table("tournament_events") as batch:
        batch.create_unique_constraint("uq_tournament_events_name_key", ["name_key"])


def downgrade() -> None:
    with op.batch_alter_table("tournament_events") as batch:
        batch.drop_constraint("uq_tournament_events_name_key", type_="unique")
        batch.drop_column("name_key")
