"""Stored games per client address: a quota, a creation rate, pruning and a fair cap.

Issue 30 item 8: one address filled the server's cap of stored games in a minute, and from
then on every other address was refused. Anyone on the venue network may store simulator
and Xiangqi games (`ball.games.ball.web.api`, `ball.games.xiangqi.web.api`), so before a game
is stored:

1. its address may not have created more than `game_creations` games in the last
   `game_creation_window` seconds (429 with Retry-After, `ball.web.core.limits`);
2. its address may hold at most `max_games_per_address` stored games; at the quota its
   abandoned games are pruned first (see 4), and if it is still at the quota: 409 naming
   the limit;
3. the server holds at most `max_games`; at the cap abandoned games are pruned first, then
   the least recently used game of the address holding the most games is deleted to make
   room, as long as that address holds more than the one asking. So an address filling
   its own quota never blocks another address: it loses its own oldest game instead. When
   no address holds more than the asker (or no game has an owner): 409 naming the cap.
4. abandoned: a game with no action at all untouched for `EMPTY_IDLE` seconds, or any web
   game untouched for `IDLE` seconds. Desk tables' games and lessons are never pruned here.

The browser stores a game at its first action (`POST /api/games` with `action`), not at the
visit, so opening the simulator stores nothing. Counting then inserting is not one step, so
racing requests may pass a limit by a few rows, bounded by the simultaneous requests.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import HTTPException, Request
from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from ball.play.models import WebGame
from ball.web.core.limits import ENVIRONMENT, check_creation_rate, limits_of
from ball.web.core.models import XiangqiGameRow
from ball.web.core.security import client_address

EMPTY_IDLE = 3600.0  # seconds: a game nobody made a move in for an hour is abandoned
IDLE = 30 * 24 * 3600.0  # seconds: any web game untouched for 30 days is abandoned


def _public(model: Any) -> Any:
    """The rows of `model` that web visitors made: not lessons, not desk tables' games."""
    if model is WebGame:
        return WebGame.lesson.is_(None) & WebGame.desk_event.is_(None)
    return XiangqiGameRow.desk_event.is_(None)


def _count(session: Session, owner: str | None = None) -> int:
    total = 0
    for model in (WebGame, XiangqiGameRow):
        query = select(func.count()).select_from(model).where(_public(model))
        if owner is not None:
            query = query.where(model.owner == owner)
        total += session.scalar(query) or 0
    return total


def prune(session: Session, owner: str | None = None, now: datetime | None = None) -> int:
    """Delete abandoned games (of `owner`, or of everyone); returns how many."""
    now = now or datetime.now(UTC)
    empty_before = now - timedelta(seconds=EMPTY_IDLE)
    idle_before = now - timedelta(seconds=IDLE)
    gone = 0
    for model in (WebGame, XiangqiGameRow):
        query = delete(model).where(
            _public(model),
            or_(
                (model.version == 0) & (model.updated_at < empty_before),
                model.updated_at < idle_before,
            ),
        )
        if owner is not None:
            query = query.where(model.owner == owner)
        gone += session.execute(query).rowcount or 0  # type: ignore[attr-defined]
    return gone


def _heaviest(session: Session) -> tuple[str, int] | None:
    """The address holding the most stored games, and how many (None: no owned game)."""
    held: dict[str, int] = {}
    for model in (WebGame, XiangqiGameRow):
        rows = session.execute(
            select(model.owner, func.count())
            .where(_public(model), model.owner.is_not(None))
            .group_by(model.owner)
        )
        for owner, count in rows:
            if owner is not None:  # excluded by the query; this tells the type checker
                held[owner] = held.get(owner, 0) + count
    if not held:
        return None
    owner = max(held, key=lambda o: (held[o], o))
    return owner, held[owner]


def _evict_oldest(session: Session, owner: str) -> None:
    """Delete `owner`'s least recently used game (of either kind)."""
    oldest = []
    for model in (WebGame, XiangqiGameRow):
        row = session.execute(
            select(model.id, model.updated_at)
            .where(_public(model), model.owner == owner)
            .order_by(model.updated_at)
            .limit(1)
        ).first()
        if row is not None:
            oldest.append((row.updated_at, model, row.id))
    if oldest:
        _, model, game_id = min(oldest, key=lambda found: found[0])
        session.execute(delete(model).where(model.id == game_id))


def admit_game(request: Request) -> str:
    """Make room for one more game stored by this request's address, or refuse (429/409,
    naming the limit); returns the address to store as the game's owner."""
    limits = limits_of(request)
    owner = client_address(request)
    check_creation_rate(request, "games", (limits.game_creations, limits.game_creation_window))
    with request.app.state.sessions() as session:
        mine = _count(session, owner)
        if mine >= limits.max_games_per_address:
            prune(session, owner)
            mine = _count(session, owner)
            if mine >= limits.max_games_per_address:
                session.commit()
                raise HTTPException(
                    409,
                    f"limit reached: this address holds {mine} stored games, the most one "
                    f"address may keep ({ENVIRONMENT['max_games_per_address']}); games "
                    f"without a move are deleted after {int(EMPTY_IDLE // 60)} minutes",
                )
        if _count(session) >= limits.max_games:
            prune(session)
            if _count(session) >= limits.max_games:
                heaviest = _heaviest(session)
                if heaviest is None or heaviest[1] <= mine:
                    session.commit()
                    raise HTTPException(
                        409,
                        f"limit reached: this server holds {limits.max_games} games, the "
                        f"most it accepts (the organiser can raise {ENVIRONMENT['max_games']})",
                    )
                _evict_oldest(session, heaviest[0])
        session.commit()
    return owner
