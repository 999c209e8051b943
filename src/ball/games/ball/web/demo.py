"""Demo data for `ball serve --demo`: a short game anyone can open, replay and continue."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from ball.games.ball.ai import choose_text
from ball.games.ball.play.store import GameStore
from ball.play.models import WebGame

DEMO_TITLE = "Demo game"
DEMO_PLIES = 12


def seed_demo_game(sessions: sessionmaker) -> str:
    """Store one demo game (a few plies chosen by the built-in opponent); idempotent."""
    with sessions() as session:
        existing = session.scalars(select(WebGame.id).where(WebGame.title == DEMO_TITLE)).first()
        if existing:
            return existing
    store = GameStore(sessions)
    state = store.create(mode="free", title=DEMO_TITLE)
    from ball.games.ball.engine import Game

    game = Game.from_json(state["position"])
    for ply in range(DEMO_PLIES):
        if game.is_over:
            break
        action = choose_text(game, seed=ply)
        game.apply(action)
        store.apply(state["id"], action)
    return state["id"]
