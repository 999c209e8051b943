"""tournament: event name keys take the look-alike skeleton (Unicode TR 39) too, so "BALL
Demо Open" with a Cyrillic о is the name of "BALL Demo Open" (issue 30 item 11).

Every key is computed again. Events an old database holds that are now one name keep the
rule of tournament_0002_b: the oldest keeps the key, the later ones get NULL, and the
service refuses that name as ambiguous, listing the ids.

Revision ID: tournament_0007_n
Revises: tournament_0006_g
Create Date: 2026-12-02
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

from ball.storage.confusables import skeleton

revision = "tournament_0007_n"
down_revision = "tournament_0006_g"
branch_labels = None
depends_on = None


def _fold(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return unicodedata.normalize("NFKC", folded)


def _key(name: str) -> str:
    # A copy of ball.tournament.names.name_key as it is today: a migration must not change
    # when the application's code does.
    text = name.translate(dict.fromkeys(map(ord, "\u200c\u200d")))
    # skeleton first (it maps capitals and small letters apart: В to B, I to l, m to rn),
    # then the capitals' skeleton, so that "SPRING" (I to l) and "Spring" meet; then folding.
    shape = skeleton(unicodedata.normalize("NFKC", text))
    key = _fold(skeleton(shape.upper()))
    return " ".join(unicodedata.normalize("NFC", key).split())


def _old_key(name: str) -> str:
    return " ".join(_fold(name).split())  # tournament_0002_b's


def _rekey(key) -> None:  # noqa: ANN001 - a function of a name
    events = sa.table(
        "tournament_events", sa.column("id", sa.Integer), sa.column("name", sa.String),
        sa.column("name_key", sa.Text),
    )  # fmt: skip
    bind = op.get_bind()
    rows = list(bind.execute(sa.select(events.c.id, events.c.name).order_by(events.c.id)))
    bind.execute(events.update().values(name_key=None))  # no clash while keys change
    taken: set[str] = set()
    for event_id, name in rows:
        value = key(name or "")
        if value in taken:
            continue
        taken.add(value)
        bind.execute(events.update().where(events.c.id == event_id).values(name_key=value))


def upgrade() -> None:
    _rekey(_key)


def downgrade() -> None:
    _rekey(_old_key)
