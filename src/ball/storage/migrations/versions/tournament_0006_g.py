"""tournament: seeded groups then a final stage, and lateness (seed 004 §11.3, §21-22).

`tournament_group_stages` marks an event run as groups then a final (groups, cycles, the
final's system, qualifiers per group, carried results; the seating and the final's seats
once drawn); `tournament_default_times` the event's default time (21.1);
`tournament_lateness` who came late to a table, by how much, and the ruling.

Revision ID: tournament_0006_g
Revises: tournament_0005_t
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "tournament_0006_g"
down_revision = "tournament_0005_t"
branch_labels = None
depends_on = None


def _event_fk() -> sa.ForeignKey:
    return sa.ForeignKey("tournament_events.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "tournament_group_stages",
        sa.Column("event_id", sa.Integer(), _event_fk(), primary_key=True),
        sa.Column("groups", sa.Integer(), nullable=False),
        sa.Column("cycles", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("final", sa.String(16), nullable=False, server_default="knockout"),
        sa.Column("qualifiers", sa.Integer(), nullable=False, server_default="2"),
        sa.Column("carry", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("seating", sa.Text(), nullable=False, server_default=""),
        sa.Column("group_rounds", sa.Integer(), nullable=True),
        sa.Column("final_seats", sa.Text(), nullable=False, server_default=""),
        sa.Column("final_start", sa.Integer(), nullable=True),
    )
    op.create_table(
        "tournament_default_times",
        sa.Column("event_id", sa.Integer(), _event_fk(), primary_key=True),
        sa.Column("minutes", sa.Integer(), nullable=False),
    )
    op.create_table(
        "tournament_lateness",
        sa.Column(
            "pairing_id",
            sa.Integer(),
            sa.ForeignKey("tournament_pairings.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("a_minutes", sa.Integer(), nullable=True),
        sa.Column("b_minutes", sa.Integer(), nullable=True),
        sa.Column("ruling", sa.Text(), nullable=False, server_default=""),
    )


def downgrade() -> None:
    for table in ("tournament_lateness", "tournament_default_times", "tournament_group_stages"):
        op.drop_table(table)
