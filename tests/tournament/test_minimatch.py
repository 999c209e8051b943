"""A tie as a mini-match (seed 004 articles 6 and 13.5): games, extra games, lots, Armageddon."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.tournament.minimatch import (
    MiniMatchError,
    Policy,
    first_colour,
    fold,
    max_games,
)

BEST_OF_3 = Policy(games=3, extra_games=2, tie_break="lots")


def test_best_of_three_ends_when_one_side_has_two_wins():
    # Article 6: best of three ("3 판 2 승제"); the third game is not played after 2-0.
    state = fold(BEST_OF_3, ["A", "A"])
    assert (state.decided, state.winner, state.how, state.played) == (True, "A", "games", 2)
    assert state.next_game is None and not state.level_after_games
    with pytest.raises(MiniMatchError, match="game 3 is not played: the tie was decided in game 2"):
        fold(BEST_OF_3, ["A", "A", "B"])


def test_a_lead_of_half_a_point_decides_the_last_game():
    state = fold(BEST_OF_3, ["A", "B", "D"])
    assert state.phase == "extra" and state.next_game == 4
    state = fold(BEST_OF_3, ["A", "D", "D"])
    assert (state.winner, state.how, state.points) == ("A", "games", {"A": 2.0, "B": 1.0})


def test_level_after_the_games_goes_to_extra_games_then_lots():
    # Article 6: a tied mini-match goes to extra games or a drawing of lots.
    state = fold(BEST_OF_3, ["A", "B", "D", "B", "B"])
    assert (state.winner, state.how, state.extra_points) == ("B", "extra games", {"A": 0, "B": 2})
    assert state.level_after_games
    state = fold(BEST_OF_3, ["A", "B", "D", "A", "B"])
    assert state.phase == "lots" and state.next_game is None
    with pytest.raises(MiniMatchError, match="game 6 is not played: the tie goes to a drawing"):
        fold(BEST_OF_3, ["A", "B", "D", "A", "B", "A"])
    decided = fold(BEST_OF_3, ["A", "B", "D", "A", "B"], lots_winner="B")
    assert (decided.winner, decided.how) == ("B", "lots")
    with pytest.raises(MiniMatchError, match="no drawing of lots is due"):
        fold(BEST_OF_3, ["A", "B"], lots_winner="A")


def test_without_extra_games_a_level_tie_goes_straight_to_its_tie_break():
    assert fold(Policy(games=2), ["A", "B"]).phase == "lots"
    arma = Policy(games=2, tie_break="armageddon")
    state = fold(arma, ["A", "B"])
    assert state.phase == "armageddon" and state.next_game == 3
    # Game 3: side A has the first colour, so a draw goes to B (the second colour).
    assert first_colour(3) == "A"
    assert fold(arma, ["A", "B", "D"]).winner == "B"
    assert fold(Policy(games=3, tie_break="armageddon"), ["A", "B", "D", "D"]).winner == "A"
    assert fold(arma, ["A", "B", "A"]).how == "armageddon"


def test_colours_alternate_from_game_one():
    # Article 13.5: the first game's colours by lot, then the colours change every game.
    assert [first_colour(g) for g in range(1, 6)] == ["A", "B", "A", "B", "A"]
    with pytest.raises(MiniMatchError):
        first_colour(0)


def test_a_double_forfeit_ends_the_tie_with_nobody_through():
    state = fold(BEST_OF_3, ["A", "N"])
    assert (state.decided, state.winner, state.how) == (True, None, "double forfeit")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games per tie must be 1 to 99"),
        ({"extra_games": -1}, "extra games must be 0 to 99"),
        ({"tie_break": "coin"}, "unknown tie-break 'coin'"),
    ],
)
def test_a_bad_policy_is_named(kwargs, message):
    with pytest.raises(MiniMatchError, match=message):
        Policy(**kwargs)


def test_a_bad_result_is_named():
    with pytest.raises(MiniMatchError, match="game 2: 'W' is not a result"):
        fold(BEST_OF_3, ["A", "W"])
    with pytest.raises(MiniMatchError, match="side A or B"):
        fold(Policy(games=2), ["A", "B"], lots_winner="C")


policies = st.builds(
    Policy,
    games=st.integers(1, 7),
    extra_games=st.integers(0, 4),
    tie_break=st.sampled_from(["lots", "armageddon"]),
)


@given(policies, st.lists(st.sampled_from(["A", "B", "D"]), min_size=30, max_size=30))
def test_a_mini_match_always_ends(policy, stream):
    """Feeding games until the tie is decided or lots are due takes at most `max_games`
    games; the winner of games or extra games leads in that block."""
    played: list[str] = []
    state = fold(policy, played)
    while state.next_game is not None:
        assert state.next_game == len(played) + 1
        played.append(stream[len(played)])
        state = fold(policy, played)
    assert len(played) <= max_games(policy)
    if state.phase == "lots":
        assert policy.tie_break == "lots"
        assert state.points["A"] == state.points["B"]
        assert state.extra_points["A"] == state.extra_points["B"]
        state = fold(policy, played, lots_winner="A")
    assert state.decided and state.winner in ("A", "B")
    loser = "B" if state.winner == "A" else "A"
    if state.how == "games":
        assert state.points[state.winner] > state.points[loser]
    if state.how == "extra games":
        assert state.points["A"] == state.points["B"]
        assert state.extra_points[state.winner] > state.extra_points[loser]


@given(st.integers(1, 200))
def test_colours_alternate(game):
    assert first_colour(game) != first_colour(game + 1)
