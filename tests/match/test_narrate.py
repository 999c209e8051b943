"""Plain-language narration (issue 13): one sentence per action kind, in en and ko, from the
rulebook's diagram positions (spec §4–§9 and §12 for the steal)."""

from __future__ import annotations

import pytest

from ball.games.ball.engine import Game
from ball.games.ball.match.narrate import narrate, render
from ball.games.ball.web.rulebook import diagrams
from ball.i18n import gettext_for

EN, KO = gettext_for("en"), gettext_for("ko")


def told(game: Game, action: str, viewer: str | None = None, gettext=EN) -> str:
    a = game.parse(action)
    before = game.state.copy()
    events = game.apply(a)
    return render(narrate(before, a, events), gettext, viewer)


def diagram(name: str) -> Game:
    return Game.from_json(diagrams()[name]["position"])


def first(game: Game, form: str) -> str:
    """The first legal action of a notation form (e.g. a dodge has a '/')."""
    return next(a for a in game.legal_actions() if form in a)


def test_move_names_the_piece_and_both_squares():
    g = Game.new()
    # the piece's id as the position document lists it, not as narrate finds it
    piece = next(p["id"] for p in g.to_json()["pieces"] if p["at"] == "F10")
    assert told(g, "F10-E9") == f"North {piece} moves from F10 to E9"


def test_the_viewer_s_pieces_are_yours():
    assert told(Game.new(), "F10-E9", viewer="N").startswith("Your ")
    assert told(Game.new(), "F10-E9", viewer="S").startswith("North ")


@pytest.mark.parametrize(
    ("name", "form", "words"),
    [
        ("dodge", "/", "dodges past"),  # §6
        ("tactical-dodge", "x", "jumps over"),
        ("handoff", "=", "hands the ball to"),
        ("long-pass", "@", "the ball to"),
        ("protect", "-", ""),
    ],
)
def test_each_kind_has_its_sentence(name, form, words):
    g = diagram(name)
    action = diagrams()[name]["suggest"] or first(g, form)
    if isinstance(action, list):
        action = action[0]
    text = told(g, action)
    assert words in text
    assert "{" not in text  # every argument filled


def test_dodge_knocks_down_and_counts_pb_in_korean():
    g = diagram("dodge")
    action = first(g, "/")
    en = told(g.copy(), action)
    ko = told(g.copy(), action, gettext=KO)
    assert "knocks it down" in en
    assert "쓰러뜨립니다" in ko and "North" not in ko and "South" not in ko


def test_block_release_split_and_end():
    g = Game.new()
    # N X3 comes forward, S blocks it (a stack of two sides), then the release splits it
    seen = []
    for _ in range(40):
        acts = g.legal_actions()
        pick = next((a for a in acts if a.startswith(("split", "up "))), None)
        pick = pick or next((a for a in acts if "-" in a and "/" not in a), acts[0])
        seen.append(told(g, pick))
        if g.is_over:
            break
    text = " | ".join(seen)
    assert "The stack on" in text or "gets up" in text or "climbs on" in text


def test_touchdown_is_told_with_its_pb():
    g = diagram("touchdown")
    text = told(g, "G15-I17")
    assert "Touchdown by South" in text
    ko = told(diagram("touchdown"), "G15-I17", gettext=KO)
    assert "터치다운" in ko


def _steal_game() -> tuple[Game, list[str]]:
    """A position where a legal action steals the ball (a block of the carrier, §12)."""
    g = diagram("block-steal")
    for a in g.legal_actions():
        trial = g.copy()
        events = trial.apply(a)
        if any(e.kind == "steal" for e in events):
            return g, [a]
    pytest.fail("no steal reachable in one action from the diagram")


def test_steal_then_continue_or_reset():
    g, (steal,) = _steal_game()
    text = told(g.copy(), steal)
    after = g.copy()
    after.apply(steal)
    stealer = {"N": "North", "S": "South"}[after.actor]  # the stealer answers the steal
    assert f"{stealer} " in text.split(". ")[-1] and text.endswith("steals the ball!")
    for answer, words in (("continue", "plays on"), ("reset", "standard formation")):
        h = g.copy()
        h.apply(steal)
        assert answer in h.legal_actions()
        out = told(h.copy(), answer)
        assert words in out
        ko = told(Game.from_json(h.to_json()), answer, gettext=KO)
        assert "{" not in ko and ko != out


def test_a_steal_or_a_touchdown_is_a_sentence_of_its_own():
    # the log read "… to I17 (+1 PB) Touchdown by South X5!" in the full-match browser test
    text = told(diagram("touchdown"), "G15-I17")
    assert ". Touchdown by South" in text and ".." not in text
    g, (steal,) = _steal_game()
    text = told(g, steal)
    assert ". " in text and text.split(". ")[-1].endswith("steals the ball!")
    assert not text.startswith(".")
