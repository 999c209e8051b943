"""desk: arbiter PINs and sessions, result versions, start signals, half ends, sanctions.

Revision ID: desk_0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "desk_0001"
down_revision = None
branch_labels = ("desk",)
depends_on = "tournament_0001"


def _event_fk() -> sa.Column:
    return sa.Column(
        "event_id",
        sa.Integer(),
        sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "desk_access",
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("tournament_events.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("pin_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "desk_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        _event_fk(),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "desk_result_state",
        sa.Column(
            "pairing_id",
            sa.Integer(),
            sa.ForeignKey("tournament_pairings.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("steals", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("updated_at", sa.Float(), nullable=False, server_default="0"),
    )
    op.create_table(
        "desk_signals",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _event_fk(),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("signal", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.UniqueConstraint("event_id", "round_number", "signal", name="uq_desk_signal"),
    )
    op.create_table(
        "desk_half_ends",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _event_fk(),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.UniqueConstraint("event_id", "round_number", "table", name="uq_desk_half_end"),
    )
    op.create_table(
        "desk_sanctions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _event_fk(),
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey("tournament_entrants.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round_number", sa.Integer(), nullable=True),
        sa.Column("table", sa.Integer(), nullable=True),
        sa.Column("step", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_desk_sanctions_entrant", "desk_sanctions", ["event_id", "entrant_id"])


def downgrade() -> None:
    op.drop_index("ix_desk_sanctions_entrant", "desk_sanctions")
    for table in (
        "desk_sanctions",
        "desk_half_ends",
        "desk_signals",
        "desk_result_state",
        "desk_sessions",
        "desk_access",
    ):
        op.drop_table(table)
