"""web: a simulator game the desk opened to record a BALL table's match (issue 35 §5): the
table it records (half 1 carries the unique event/round/table triple; half 2, made by
`next-half`, carries the event and the key only) and the table device key that alone, with
the desk session, writes it. Games stored before are no table's: NULLs and "".

Revision ID: web_0009_t
Revises: web_0008_o
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0009_t"
down_revision = "web_0008_o"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("web_games") as batch:
        batch.add_column(sa.Column("desk_event", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("desk_round", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("desk_table", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("device_key", sa.String(length=64), nullable=False, server_default="")
        )
        batch.create_unique_constraint(
            "uq_web_games_desk_table", ["desk_event", "desk_round", "desk_table"]
        )


def downgrade() -> None:
    with op.batch_alter_table("web_games") as batch:
        batch.drop_constraint("uq_web_games_desk_table", type_="unique")
        batch.drop_column("device_key")
        batch.drop_column("desk_table")
        batch.drop_column("desk_round")
        batch.drop_column("desk_event")
