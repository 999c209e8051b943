"""public: a revision token per event, renewed by every write to the event's rows.

`tournament_revisions` holds it (`ball.tournament.revisions`); the public display's cache
keys on it. Its own branch, so it is independent of the tournament branch's next revisions.
Events stored before get a token here.

Revision ID: public_0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "public_0001"
down_revision = None
branch_labels = ("public",)
depends_on = "tournament_0001"


def upgrade() -> None:
    table = op.create_table(
        "tournament_revisions",
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("token", sa.String(32), nullable=False),
    )
    events = op.get_bind().execute(sa.text("SELECT id FROM tournament_events")).scalars().all()
    if events:
        op.bulk_insert(table, [{"event_id": i, "token": secrets.token_hex(8)} for i in events])


def downgrade() -> None:
    op.drop_table("tournament_revisions")
