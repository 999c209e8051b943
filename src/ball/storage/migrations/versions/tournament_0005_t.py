"""tournament: team events (seed 004 articles 12-15, issue 17).

`tournament_team_events` marks an event as a team event (boards per match, ranking system);
`tournament_teams` and `tournament_team_members` hold each team and its players (entrants of
the event); `tournament_team_lineups` the line-up declared for a round (12.3);
`tournament_team_matches` which teams meet in a round, the first-named first (13.2).

Revision ID: tournament_0005_t
Revises: tournament_0004_mj
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "tournament_0005_t"
down_revision = "tournament_0004_mj"
branch_labels = None
depends_on = None


def _event_fk() -> sa.ForeignKey:
    return sa.ForeignKey("tournament_events.id", ondelete="CASCADE")


TEAM = "tournament_teams.id"
ENTRANT = "tournament_entrants.id"


def upgrade() -> None:
    op.create_table(
        "tournament_team_events",
        sa.Column("event_id", sa.Integer(), _event_fk(), primary_key=True),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("ranking", sa.String(8), nullable=False, server_default="15.3"),
    )
    op.create_table(
        "tournament_teams",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.Integer(), _event_fk(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("registered", sa.Integer(), nullable=False),
        sa.UniqueConstraint("event_id", "name", name="uq_tournament_team_name"),
    )
    op.create_table(
        "tournament_team_members",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("team_id", sa.Integer(), sa.ForeignKey(TEAM, ondelete="CASCADE"), nullable=False),
        sa.Column(
            "entrant_id",
            sa.Integer(),
            sa.ForeignKey(ENTRANT, ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("position", sa.Integer(), nullable=False),
    )
    op.create_table(
        "tournament_team_lineups",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("team_id", sa.Integer(), sa.ForeignKey(TEAM, ondelete="CASCADE"), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column(
            "entrant_id", sa.Integer(), sa.ForeignKey(ENTRANT, ondelete="CASCADE"), nullable=False
        ),
        sa.UniqueConstraint("team_id", "round_number", "board", name="uq_tournament_lineup"),
    )
    op.create_table(
        "tournament_team_matches",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.Integer(), _event_fk(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("match", sa.Integer(), nullable=False),
        sa.Column(
            "first_id", sa.Integer(), sa.ForeignKey(TEAM, ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "second_id", sa.Integer(), sa.ForeignKey(TEAM, ondelete="CASCADE"), nullable=True
        ),
        sa.UniqueConstraint("event_id", "round_number", "match", name="uq_tournament_match"),
    )


def downgrade() -> None:
    for table in (
        "tournament_team_matches",
        "tournament_team_lineups",
        "tournament_team_members",
        "tournament_teams",
        "tournament_team_events",
    ):
        op.drop_table(table)
