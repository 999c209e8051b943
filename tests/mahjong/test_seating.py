"""Seating (issue 18): every player once a session, repeat meetings at the lower bound for
the stated sizes, winds balanced within floor(S/4)..ceil(S/4), team-mates apart."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ball.games.mahjong.engine.seating import (
    SeatingError,
    balanced,
    by_ranking,
    check_size,
    deal_winds,
    from_csv,
    random_session,
    repeat_bound,
    report,
    teams_from_csv,
    teams_separable,
    to_csv,
)


def test_lower_bound_arithmetic():
    # 16 players meet 3 others a session: 21 meetings over 7 sessions, only 15 others.
    assert repeat_bound(16, 7) == 16 * 21 // 2 - 120 == 48
    assert repeat_bound(32, 7) == repeat_bound(36, 7) == repeat_bound(64, 7) == 0
    assert repeat_bound(16, 5) == 0  # the affine plane of order 4: 5 rounds, all pairs once
    # 4 teams of 4 among 16: team-mates never meet, so 96 open pairs for 168 meetings.
    teams = {p: str((p - 1) // 4) for p in range(1, 17)}
    assert repeat_bound(16, 7, teams) == 168 - 96


@pytest.mark.parametrize("players", [16, 32, 36, 64])
def test_stated_sizes_reach_the_bound_over_seven_sessions(players):
    seating = balanced(players, 7, seed=1)
    found = report(seating)
    assert found.repeats == found.repeat_bound == repeat_bound(players, 7)
    assert all(n <= 2 for _, _, n in found.repeated_pairs)  # nobody meets three times
    assert found.wind_spread == (1, 2)  # floor(7/4) .. ceil(7/4)
    assert all(sum(c) == 7 for c in found.wind_counts.values())


def test_sixteen_players_five_sessions_meet_everyone_once():
    found = report(balanced(16, 5, seed=9))
    assert found.repeats == 0 and len(found.repeated_pairs) == 0


@pytest.mark.parametrize(
    ("players", "size"), [(16, 4), (32, 2), (64, 4)]
)
def test_team_mates_never_share_a_table(players, size):
    teams = {p: f"C{(p - 1) // size}" for p in range(1, players + 1)}
    assert teams_separable(players, teams)
    found = report(balanced(players, 7, teams=teams, seed=2), teams)
    assert found.team_clashes == ()
    assert found.repeats == found.repeat_bound == repeat_bound(players, 7, teams)
    assert found.wind_spread == (1, 2)


def test_a_team_larger_than_the_tables_clashes_as_little_as_possible():
    # 40 players, 10 tables, a country of 12: two of its tables hold two of them each session.
    teams = {p: "big" for p in range(1, 13)}
    assert not teams_separable(40, teams)
    found = report(balanced(40, 7, teams=teams, seed=3, budget=200_000), teams)
    assert len(found.team_clashes) == 7 * 2


def test_fixed_sessions_are_kept_and_the_rest_avoid_them():
    first = random_session(32, seed=4)
    seating = balanced(32, 4, fixed=[first], seed=4)
    assert seating[0] == first
    assert report(seating).repeats == 0


def test_same_seed_same_seating_other_seed_other():
    assert balanced(36, 3, seed=7) == balanced(36, 3, seed=7)
    assert balanced(36, 3, seed=7) != balanced(36, 3, seed=8)


def test_by_ranking_top_four_together():
    ranking = [5, 3, 8, 1, 2, 4, 7, 6]
    assert by_ranking(ranking) == ((5, 3, 8, 1), (2, 4, 7, 6))
    with pytest.raises(SeatingError, match="exactly once"):
        by_ranking([1, 2, 3, 3])


def test_by_ranking_moves_the_lower_ranked_team_mate_the_shortest_way():
    """M-24: players 1 and 2 (one team) would share the top table; 2 changes places with the
    player nearest in rank at the next table down (5), and the seats still follow the ranking."""
    assert by_ranking(range(1, 9), teams={1: "KOR", 2: "KOR"}) == ((1, 3, 4, 5), (2, 6, 7, 8))
    # At the bottom table the nearest table is the one above.
    assert by_ranking(range(1, 9), teams={7: "JPN", 8: "JPN"}) == ((1, 2, 3, 8), (4, 5, 6, 7))
    # Nobody moves when no team-mates meet.
    assert by_ranking(range(1, 9), teams={1: "KOR", 5: "KOR"}) == ((1, 2, 3, 4), (5, 6, 7, 8))


def test_by_ranking_reaches_past_a_table_where_the_exchange_would_clash():
    """The player nearest in rank at the next table is a team-mate of someone at the top one,
    so the exchange goes to the next player in rank who fits."""
    teams = {1: "A", 2: "A", 5: "B", 3: "B"}
    assert by_ranking(range(1, 9), teams=teams) == ((1, 3, 4, 6), (2, 5, 7, 8))


def test_by_ranking_with_a_team_larger_than_the_tables_leaves_the_fewest_clashes():
    """Three team-mates on two tables must meet once (M-07: then clashes are only kept few)."""
    teams = {1: "A", 2: "A", 3: "A"}
    found = report((by_ranking(range(1, 9), teams=teams),), teams)
    assert len(found.team_clashes) == 1


@st.composite
def ranked_teams(draw):
    """A ranking of 4..48 players and teams of at most one player per table (separable)."""
    tables = draw(st.integers(1, 12))
    ranking = draw(st.permutations(range(1, 4 * tables + 1)))
    team_of = draw(st.lists(st.integers(-1, 5), min_size=4 * tables, max_size=4 * tables))
    teams: dict[int, str] = {}
    sizes: dict[int, int] = {}
    for p, t in zip(range(1, 4 * tables + 1), team_of, strict=True):
        if t >= 0 and sizes.get(t, 0) < tables:
            sizes[t] = sizes.get(t, 0) + 1
            teams[p] = f"T{t}"
    return ranking, teams


@settings(max_examples=300, deadline=None)
@given(ranked_teams())
def test_by_ranking_keeps_separable_teams_apart(case):
    ranking, teams = case
    session = by_ranking(ranking, teams=teams)
    found = report((session,), teams)  # every player seated exactly once
    assert found.team_clashes == ()
    rank = {p: i for i, p in enumerate(ranking)}
    assert all(list(t) == sorted(t, key=rank.__getitem__) for t in session)
    plain = by_ranking(ranking)
    if not report((plain,), teams).team_clashes:
        assert session == plain  # only clashes move anybody


@pytest.mark.parametrize(
    ("players", "sessions", "message"),
    [(18, 2, "not a multiple of 4"), (0, 2, "from 4"), (16, 0, "sessions"), (16, 65, "sessions")],
)
def test_sizes_refused(players, sessions, message):
    with pytest.raises(SeatingError, match=message):
        check_size(players, sessions)


def test_csv_round_trip_and_errors():
    seating = balanced(16, 3, seed=5)
    text = to_csv(seating)
    assert text.splitlines()[0] == "session,table,E,S,W,N"
    assert from_csv(text) == seating
    assert from_csv("\n".join(text.splitlines()[1:])) == seating  # the header is optional
    bad = text.replace("\n1,2,", "\n1,1,", 1)
    with pytest.raises(SeatingError, match="listed twice"):
        from_csv(bad)
    with pytest.raises(SeatingError, match="line 2: expected 6 fields"):
        from_csv("session,table,E,S,W,N\n1,1,1,2,3\n")
    with pytest.raises(SeatingError, match="whole number"):
        from_csv("1,1,a,2,3,4\n")
    with pytest.raises(SeatingError, match="seated twice"):
        from_csv("1,1,1,2,3,3\n")
    with pytest.raises(SeatingError, match="without gaps"):
        from_csv("2,1,1,2,3,4\n")


def test_teams_csv():
    assert teams_from_csv("player,team\n1,KOR\n2, JPN \n", 8) == {1: "KOR", 2: "JPN"}
    for text, message in [("9,KOR\n", "not one of 1..8"), ("1,KOR\n1,JPN\n", "twice"),
                          ("x,KOR\n", "not a number"), ("1\n", "expected player,team")]:
        with pytest.raises(SeatingError, match=message):
            teams_from_csv(text, 8)


def test_deal_winds_keeps_tables_and_fixed_sessions():
    seating = balanced(20, 4, seed=1)
    dealt = deal_winds(seating, keep=1)
    assert dealt[0] == seating[0]
    assert [[set(t) for t in s] for s in dealt] == [[set(t) for t in s] for s in seating]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 10), st.integers(1, 6), st.integers(0, 2**32))
def test_any_size_every_player_once_per_session(tables, sessions, seed):
    players = 4 * tables
    seating = balanced(players, sessions, seed=seed, budget=20_000)
    found = report(seating)  # checks every player exactly once in each session
    assert found.repeats >= found.repeat_bound
    assert sum(found.repeats_per_session) == found.repeats
    assert all(sum(c) == sessions for c in found.wind_counts.values())
    assert from_csv(to_csv(seating)) == seating


@pytest.mark.slow
def test_256_players_seven_sessions_without_a_repeat():
    found = report(balanced(256, 7, seed=1))
    assert found.repeats == 0 and found.wind_spread == (1, 2)


def test_by_ranking_after_played_sessions_evens_the_winds():
    history = balanced(16, 3, seed=2)
    ranking = list(range(1, 17))
    session = by_ranking(ranking, history)
    assert [set(t) for t in session] == [set(ranking[i:i + 4]) for i in range(0, 16, 4)]
    before = report(history).wind_counts
    for table in session:
        # Each player lacks one wind after three sessions; the deal seats as many of the
        # table's players on a wind they lack as any order of the four could.
        def lacking(order):
            return sum(before[p][w] == 0 for w, p in enumerate(order))

        assert lacking(table) == max(lacking(o) for o in permutations(table))
