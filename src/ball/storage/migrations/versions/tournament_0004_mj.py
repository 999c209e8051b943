"""tournament: Mahjong tables of four (issue 18).

`tournament_session_rules` holds a Mahjong event's settings, `tournament_seats` the four
seats of each table in a session (a round), `tournament_session_sheets` each table's
session sheet and the scores and table points decided from it.

Revision ID: tournament_0004_mj
Revises: tournament_0003_e
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "tournament_0004_mj"
down_revision = "tournament_0003_e"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_session_rules",
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("hands_per_session", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(12), nullable=False),
    )
    op.create_table(
        "tournament_seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey("tournament_entrants.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.UniqueConstraint("round_id", "table", "seat", name="uq_tournament_seat"),
        sa.UniqueConstraint("round_id", "entrant_id", name="uq_tournament_seat_entrant"),
    )
    op.create_table(
        "tournament_session_sheets",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("sheet", sa.Text(), nullable=False),
        sa.Column("scores", sa.Text(), nullable=False),
        sa.Column("table_points", sa.Text(), nullable=False),
        sa.Column("entered_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("round_id", "table", name="uq_tournament_session_sheet"),
    )


def downgrade() -> None:
    op.drop_table("tournament_session_sheets")
    op.drop_table("tournament_seats")
    op.drop_table("tournament_session_rules")
