"""Learn games: the stored games the learn mode plays its lessons on (issue 13).

Owns what keeps them apart from free play: a learn game is a `WebGame` whose `lesson`
names its lesson. It is made from the lesson's own position (never one sent by the page),
it does not count against the game cap (`ball.web.core.limits`) nor appear in the free-play
list (`GameStore.recent`), and the store stays bounded because the oldest learn games are
deleted beyond a fixed number (a lesson is over in minutes; its game is throwaway).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import sessionmaker

from ball.games.ball.play.store import GameStore
from ball.play.models import WebGame


def create(sessions: sessionmaker, position: dict[str, Any], lesson_id: str) -> str:
    """Store a learn game at `position` for lesson `lesson_id`; its id."""
    state = GameStore(sessions).create(
        position, "free", title=f"lesson {lesson_id}", lesson=lesson_id
    )
    return str(state["id"])


def count(sessions: sessionmaker) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).where(WebGame.lesson.is_not(None))) or 0


def prune(sessions: sessionmaker, keep: int) -> int:
    """Delete the oldest learn games so that at most `keep` remain; how many went."""
    with sessions() as session:
        newest = (
            select(WebGame.id)
            .where(WebGame.lesson.is_not(None))
            .order_by(WebGame.updated_at.desc(), WebGame.id)
            .limit(max(keep, 0))
        )
        gone = session.execute(
            delete(WebGame)
            .where(WebGame.lesson.is_not(None), WebGame.id.not_in(newest))
            .execution_options(synchronize_session=False)
        )
        session.commit()
        return int(getattr(gone, "rowcount", 0) or 0)
