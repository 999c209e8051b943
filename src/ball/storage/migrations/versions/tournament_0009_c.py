"""tournament: every round keeps its pairing check and whether it is published (issue 35 §2).

`check_ok` is the verdict of the round's pairing check (true: the pairing is the reference
system's; false: it is not; NULL: not checked, or nothing to check it against), `check_by`
names what checked it (or why nothing could), `check_detail` the checker's message.
`published` says whether players see the round: every round stored before this revision
stays public (the server default), as it was.

Revision ID: tournament_0009_c
Revises: tournament_0008_uid
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "tournament_0009_c"
down_revision = "tournament_0008_uid"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_rounds") as batch:
        batch.add_column(sa.Column("check_ok", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("check_by", sa.String(200), nullable=False, server_default=""))
        batch.add_column(sa.Column("check_detail", sa.Text(), nullable=False, server_default=""))
        batch.add_column(
            sa.Column("published", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_rounds") as batch:
        batch.drop_column("published")
        batch.drop_column("check_detail")
        batch.drop_column("check_by")
        batch.drop_column("check_ok")
