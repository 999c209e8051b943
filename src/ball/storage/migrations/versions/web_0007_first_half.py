"""web: a second half made by `next-half` names its first half, so the match result is found
from the server's record, not only from the browser tab that played half 1.

Revision ID: web_0007_h2
Revises: web_0006_u3
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0007_h2"
down_revision = "web_0006_u3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL for every game stored so far: a second half made before this column is found by
    # its first half's id, given with the result request, as before.
    with op.batch_alter_table("web_games") as batch:
        batch.add_column(sa.Column("first_half", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("web_games") as batch:
        batch.drop_column("first_half")
