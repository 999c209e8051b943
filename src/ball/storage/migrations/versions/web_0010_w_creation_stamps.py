"""web: the creations each client address made lately (events, PIN clocks, games, PDF
renders), kept in the database so that every server process counts the same ones (issue 34,
`ball.web.core.limits.StoredCreationRate`; until now each process counted in its memory).

Revision ID: web_0010_w
Revises: web_0009_t
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web_0010_w"
down_revision = "web_0009_t"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_creation_stamps",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_web_creation_stamps_key", "web_creation_stamps", ["kind", "client", "at"])


def downgrade() -> None:
    op.drop_index("ix_web_creation_stamps_key", table_name="web_creation_stamps")
    op.drop_table("web_creation_stamps")
