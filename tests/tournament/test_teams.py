"""Team events, seed 004 articles 12-15: board order, line-ups, colours, points, rankings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.tournament.errors import TournamentError
from ball.tournament.teams import (
    Played,
    Player,
    TeamRecord,
    board_order,
    first_colour_team,
    lineup,
    rank_by_individual_ranks,
    rank_round_robin,
    rank_swiss,
    team_match,
)


def test_boards_by_rating_and_the_unrated_last():
    # 12.1: the higher rating plays the higher board; unrated players come after the rated.
    team = [Player("U1"), Player("Lo", 1500), Player("Hi", 2100), Player("U2"), Player("Mid", 1800)]
    assert [p.name for p in board_order(team)] == ["Hi", "Mid", "Lo", "U1", "U2"]
    same = [Player("First", 1900), Player("Second", 1900)]
    assert [p.name for p in board_order(same)] == ["First", "Second"]
    with pytest.raises(TournamentError, match="listed twice"):
        board_order([Player("X"), Player("X", 1000)])


def test_substitutes_keep_the_order():
    # 12.2: four boards and two substitutes: 1-2-3-4 or 1-2-3-5, never a reversed order.
    order = ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert lineup(order, ["P1", "P2", "P3", "P4"], 4) == ["P1", "P2", "P3", "P4"]
    assert lineup(order, ["P1", "P3", "P5", "P6"], 4) == ["P1", "P3", "P5", "P6"]
    with pytest.raises(TournamentError, match="'P1' plays above 'P2'.*cannot be reversed"):
        lineup(order, ["P2", "P1", "P3", "P4"], 4)
    with pytest.raises(TournamentError, match="has 4 players, got 3"):
        lineup(order, ["P1", "P2", "P3"], 4)
    with pytest.raises(TournamentError, match="'Q' is not in the team"):
        lineup(order, ["P1", "P2", "P3", "Q"], 4)


def test_odd_boards_to_the_first_named_team():
    # 13.2, 13.3: odd boards of the first-named team take the first colour, even boards not.
    assert [first_colour_team(b) for b in range(1, 5)] == ["first", "second", "first", "second"]


def test_match_points_two_one_nothing_from_game_points():
    # 14.2: more game points wins the match (2), equal game points 1 each, a loss 0.
    assert team_match(["A", "A", "B", "D"]).match_points == (2, 0)
    assert team_match(["A", "A", "B", "D"]).game_points == (2.5, 1.5)
    assert team_match(["A", "B", "D", "D"]).match_points == (1, 1)
    assert team_match(["B", "D", "D", "D"]).match_points == (0, 2)
    with pytest.raises(TournamentError, match="board 2: 'W' is not a result"):
        team_match(["A", "W"])


def rr(name, *games, fouls=0):
    return TeamRecord(name, tuple(Played(o, gp, ogp) for o, gp, ogp in games), fouls)


def test_round_robin_ranking_criteria_in_order():
    # 15.3: match points, then total game points, then wins, direct encounter, fouls.
    teams = [
        rr("Alfa", ("Beta", 3, 1), ("Gama", 1, 3), ("Delta", 2, 2)),  # 3 mp, 6 gp
        rr("Beta", ("Alfa", 1, 3), ("Gama", 3, 1), ("Delta", 2.5, 1.5)),  # 4 mp, 6.5 gp
        rr("Gama", ("Alfa", 3, 1), ("Beta", 1, 3), ("Delta", 3, 1)),  # 4 mp, 7 gp
        rr("Delta", ("Alfa", 2, 2), ("Beta", 1.5, 2.5), ("Gama", 1, 3)),  # 1 mp
    ]
    assert rank_round_robin(teams) == [(1, "Gama"), (2, "Beta"), (3, "Alfa"), (4, "Delta")]


def test_direct_encounter_then_fouls_then_shared():
    level = [
        rr("X", ("Y", 3, 1), ("Z", 1, 3)),
        rr("Y", ("X", 1, 3), ("Z", 3, 1)),
        rr("Z", ("X", 3, 1), ("Y", 1, 3)),
    ]
    # A cycle: equal on points, game points, wins and among themselves; fouls decide.
    fouled = [level[0], TeamRecord("Y", level[1].matches, fouls=2), level[2]]
    assert rank_round_robin(fouled) == [(1, "X"), (1, "Z"), (3, "Y")]
    assert rank_round_robin(level) == [(1, "X"), (1, "Y"), (1, "Z")]  # 15.3: side by side
    # M and N: 4 match points, 6.5 game points and two wins each; M beat N.
    teams = [
        rr("N", ("M", 1.5, 2.5), ("O", 2.5, 1.5), ("Z", 2.5, 1.5)),
        rr("M", ("N", 2.5, 1.5), ("O", 1, 3), ("Z", 3, 1)),
        rr("O", ("M", 3, 1), ("N", 1.5, 2.5), ("Z", 2, 2)),
        rr("Z", ("M", 1, 3), ("N", 1.5, 2.5), ("O", 2, 2)),
    ]
    assert rank_round_robin(teams) == [(1, "M"), (2, "N"), (3, "O"), (4, "Z")]


def test_swiss_ranking_uses_opponents_points_before_game_points():
    # 15.4: match points, then the opponents' match points, then total game points.
    teams = [
        rr("A", ("C", 3, 1)),
        rr("B", ("D", 4, 0)),
        rr("C", ("A", 1, 3), ("E", 3, 1)),
        rr("D", ("B", 0, 4)),
        rr("E", ("C", 1, 3)),
    ]
    ranked = dict((n, r) for r, n in rank_swiss(teams))
    assert ranked["A"] < ranked["B"]  # A's opponent C has 2 mp, B's opponent D has 0


def test_sum_of_individual_ranks():
    # 15.5: the lowest sum wins; level: the best individual rank, then the second best.
    teams = [
        TeamRecord("T1", individual_ranks=(2, 5, 9)),  # 16
        TeamRecord("T2", individual_ranks=(1, 7, 8)),  # 16, best rank 1
        TeamRecord("T3", individual_ranks=(3, 4, 6)),  # 13
        TeamRecord("T4", individual_ranks=(2, 5, 9), fouls=1),  # as T1, one foul more
    ]
    assert rank_by_individual_ranks(teams) == [(1, "T3"), (2, "T2"), (3, "T1"), (4, "T4")]
    with pytest.raises(TournamentError, match="'T5' has 2 individual ranks, the others 3"):
        rank_by_individual_ranks(teams + [TeamRecord("T5", individual_ranks=(1, 2))])


@given(st.lists(st.sampled_from(["A", "B", "D"]), min_size=1, max_size=12))
def test_match_points_sum_to_two_and_follow_game_points(boards):
    m = team_match(boards)
    assert sum(m.match_points) == 2
    assert sum(m.game_points) == len(boards)
    assert (m.match_points[0] > m.match_points[1]) == (m.game_points[0] > m.game_points[1])
