"""`ball.games.ball.match.why_not` (issue 36 item 4): the reasons a tap does nothing never
contradict the engine's legal list, and each situation gets its own sentence."""

from __future__ import annotations

import random

from ball.games.ball.engine import Game
from ball.games.ball.engine.actions import DODGE, HANDOFF, LONG, MOVE, SHORT, SPLIT, TDODGE, UP
from ball.games.ball.engine.board import NAMES
from ball.games.ball.match import why_not
from ball.games.ball.web.rulebook import diagrams

FROM_SQUARE = (MOVE, DODGE, TDODGE, HANDOFF, SHORT, LONG, UP, SPLIT)


def _check(game: Game) -> None:
    legal = game.legal_tuples()
    why = why_not.reasons(game.peek, legal)
    firsts: dict[str, set[str]] = {}
    for a in legal:
        if a[0] in FROM_SQUARE:
            firsts.setdefault(NAMES[a[1]], set()).add(NAMES[a[2]])
    # a piece that can act is never said to be idle; an idle one is on the board
    assert not set(why["pieces"]) & set(firsts)
    occupied = {NAMES[sq] for sq, i in enumerate(game.peek.occ) if i >= 0}
    assert set(why["pieces"]) <= occupied
    # a square given a reason is never a target of that piece
    for origin, squares in why["targets"].items():
        assert origin in firsts
        assert not set(squares) & firsts[origin], origin


def test_reasons_agree_with_the_legal_list_along_random_games():
    rng = random.Random(36)
    for name in ("formation", "block-steal", "release", "handoff", "long-pass", "free-ball"):
        game = Game.from_json(diagrams()[name]["position"])
        for _ in range(60):
            _check(game)
            actions = game.legal_tuples()
            if game.is_over or not actions:
                break
            game.apply(rng.choice(actions))


def test_each_situation_has_its_sentence():
    game = Game.from_json(diagrams()["block-steal"]["position"])  # N to move
    why = why_not.reasons(game.peek, game.legal_tuples())
    assert why["pieces"]["D8"] == (why_not.OPPONENT, {"piece": ["S", "X1"], "side": "N"})
    # N's X5 on H10 cannot jump S's carrier on G9 to F8 (a tactical dodge needs it empty)
    assert why["targets"]["H10"]["F8"][0] == why_not.OPPONENT_IN_WAY
    for action in ("D10-F8/E7", "H10-G9"):
        game.apply(action)
    steal = why_not.reasons(game.peek, game.legal_tuples())
    assert set(msgid for msgid, _ in steal["pieces"].values()) >= {why_not.STEAL_FIRST}
    game.apply("continue")  # S to move; its O2 on F8 was knocked down by the dodge
    why = why_not.reasons(game.peek, game.legal_tuples())
    assert why["pieces"]["F8"] == (why_not.KNOCKED_DOWN, {"piece": ["S", "O2"]})
    # the stack on G9 has N's X5 on top: an opponent's for S
    assert why["pieces"]["G9"][0] == why_not.OPPONENT


def test_rendered_in_the_readers_language():
    game = Game.from_json(diagrams()["block-steal"]["position"])
    why = why_not.reasons(game.peek, game.legal_tuples())
    text = why_not.render_reasons(why, lambda s: s, viewer="S")["pieces"]["D8"]
    assert text == "Your X1 belongs to the other side: North is to move."
