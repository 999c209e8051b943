"""tournament: knockout ties as mini-matches and the drawing of lots per round (issue 17).

Events gain the tie policy (games per tie, extra games, lots or Armageddon; defaults keep
one game per tie, today's behaviour); rounds gain the record of the drawing of lots that
paired them; `tournament_tie_games` holds the games of a tie (and the lots that decided it).

Revision ID: tournament_0003_e
Revises: tournament_0002_b
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "tournament_0003_e"
down_revision = "tournament_0002_b"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_events") as batch:
        batch.add_column(
            sa.Column("games_per_tie", sa.Integer(), nullable=False, server_default="1")
        )
        batch.add_column(
            sa.Column("tie_extra_games", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("tie_break", sa.String(12), nullable=False, server_default="lots")
        )
    with op.batch_alter_table("tournament_rounds") as batch:
        batch.add_column(sa.Column("lots", sa.Text(), nullable=False, server_default=""))
    op.create_table(
        "tournament_tie_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "pairing_id",
            sa.Integer(),
            sa.ForeignKey("tournament_pairings.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("forfeit_by", sa.String(1), nullable=True),
        sa.Column("sheet", sa.Text(), nullable=False, server_default=""),
        sa.Column("decision", sa.Text(), nullable=False, server_default=""),
        sa.Column("outcome", sa.String(1), nullable=False),
        sa.Column("entered_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("pairing_id", "game", name="uq_tournament_tie_game"),
    )


def downgrade() -> None:
    op.drop_table("tournament_tie_games")
    with op.batch_alter_table("tournament_rounds") as batch:
        batch.drop_column("lots")
    with op.batch_alter_table("tournament_events") as batch:
        batch.drop_column("tie_break")
        batch.drop_column("tie_extra_games")
        batch.drop_column("games_per_tie")
