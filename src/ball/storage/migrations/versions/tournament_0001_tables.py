"""tournament: events, entrants, rounds, pairings, results, corrections, bye requests, log.

Revision ID: tournament_0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "tournament_0001"
down_revision = None
branch_labels = ("tournament",)
depends_on = None


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True)


def _event_fk() -> sa.Column:
    return sa.Column(
        "event_id",
        sa.Integer(),
        sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "tournament_events",
        _id(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("date_start", sa.String(10), nullable=False, server_default=""),
        sa.Column("date_end", sa.String(10), nullable=False, server_default=""),
        sa.Column("place", sa.String(200), nullable=False, server_default=""),
        sa.Column("game", sa.String(40), nullable=False, server_default="ball"),
        sa.Column("ruleset", sa.String(80), nullable=False, server_default="standard"),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("scoring", sa.Text(), nullable=False),
        sa.Column("tiebreaks", sa.Text(), nullable=False),
        sa.Column("tiebreak_rules", sa.String(40), nullable=False, server_default="fide-2024"),
        sa.Column("arbiter", sa.String(200), nullable=False, server_default=""),
        sa.Column("draw_lots_seed", sa.Integer(), nullable=True),
        sa.Column("lots", sa.Text(), nullable=False, server_default=""),
        sa.Column("initial_colour", sa.String(6), nullable=False, server_default="white1"),
        sa.Column("knockout_replays", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("late_entry_bye", sa.String(8), nullable=False, server_default="zero"),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_entrants",
        _id(),
        _event_fk(),
        sa.Column("registered", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("club", sa.String(200), nullable=False, server_default=""),
        sa.Column("federation", sa.String(3), nullable=False, server_default=""),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(12), nullable=False, server_default="active"),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.Column("first_round", sa.Integer(), nullable=False, server_default="1"),
        sa.UniqueConstraint("event_id", "name", name="uq_tournament_entrant_name"),
        sa.UniqueConstraint("event_id", "registered", name="uq_tournament_entrant_registered"),
    )
    op.create_table(
        "tournament_rounds",
        _id(),
        _event_fk(),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(200), nullable=False, server_default=""),
        sa.Column("paired_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("event_id", "number", name="uq_tournament_round"),
    )
    op.create_table(
        "tournament_pairings",
        _id(),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("a_id", sa.Integer(), sa.ForeignKey("tournament_entrants.id"), nullable=False),
        sa.Column("b_id", sa.Integer(), sa.ForeignKey("tournament_entrants.id"), nullable=True),
        sa.Column("bye", sa.String(8), nullable=True),
        sa.Column("manual", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("round_id", "table", name="uq_tournament_pairing_table"),
        sa.UniqueConstraint("round_id", "a_id", name="uq_tournament_pairing_a"),
    )
    op.create_table(
        "tournament_results",
        _id(),
        sa.Column(
            "pairing_id",
            sa.Integer(),
            sa.ForeignKey("tournament_pairings.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("forfeit_by", sa.String(1), nullable=True),
        sa.Column("sheet", sa.Text(), nullable=False, server_default=""),
        sa.Column("decision", sa.Text(), nullable=False, server_default=""),
        sa.Column("outcome", sa.String(1), nullable=False),
        sa.Column("entered_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_corrections",
        _id(),
        _event_fk(),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_bye_requests",
        _id(),
        _event_fk(),
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey("tournament_entrants.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.UniqueConstraint("entrant_id", "round_number", name="uq_tournament_bye_request"),
    )
    op.create_table(
        "tournament_log",
        _id(),
        _event_fk(),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey("tournament_entrants.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("round_number", sa.Integer(), nullable=True),
        sa.Column("table", sa.Integer(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False, server_default=""),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    for name in (
        "tournament_log",
        "tournament_bye_requests",
        "tournament_corrections",
        "tournament_results",
        "tournament_pairings",
        "tournament_rounds",
        "tournament_entrants",
        "tournament_events",
    ):
        op.drop_table(name)
