"""Hypothesis against issue 17's desk forms (drawing of lots, a tie's game and lots, teams,
line-ups): any field values — odd numbers, odd digits, NUL bytes, long text, strangers'
names — give an answer below 500, a refusal stores nothing, and the event still serves its
pages. Also an invariant of the team match card: its game points add up to the boards
played and its match points are 14.2's from them, whatever the board results."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import create_event, post

pytestmark = pytest.mark.slow  # about 45 s: two hypothesis runs over the desk

NUMBERS = ["", "0", "1", "2", "-1", " 7 ", "1.5", "1e3", "²", "①", "٣", "9" * 40, str(2**31)]
WORDS = [
    "Ann",
    "Bo",
    "Cy",
    "1R",
    "1B",
    "2R",
    "K",
    "k",
    "0R",
    "99B",
    "R",
    "\x00",
    "seed",
    "cards",
    "winner",
    "sheet",
    "forfeit-A",
    "double-forfeit",
    "1-0",
    "1/2-1/2",
]
values = st.one_of(st.sampled_from(NUMBERS), st.sampled_from(WORDS), st.text(max_size=40))
FIELDS = {
    "/draw": ["how", "seed", "name_1", "card_1", "name_2", "card_2", "name_3", "card_3"],
    "/rounds/1/ties/1/games": ["game", "kind", "xq_result", "xq_reason", "xq_moves"],
    "/rounds/1/ties/1/lots": ["how", "seed", "winner"],
    "/teams": ["name", "players"],
    "/teams/lineup": ["team", "board_1", "board_2"],
}
forms = st.sampled_from(sorted(FIELDS)).flatmap(
    lambda path: st.tuples(
        st.just(path),
        st.fixed_dictionaries({}, optional={f: values for f in FIELDS[path]}),
    )
)


@pytest.fixture
def events(client):
    ko = create_event(client, "KO", "knockout", game="xiangqi", games_per_tie="3")
    for name in ("Ann", "Bo", "Cy"):
        assert post(client, ko, "/entrants", {"name": name}).status_code == 303
    teams = create_event(client, "Teams", "round-robin", game="xiangqi", teams="2")
    post(client, teams, "/teams", {"name": "Reds", "players": "Di\nEd"})
    return ko, teams


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(form=forms)
def test_any_form_is_answered_below_500(client, events, form):
    path, data = form
    for event_id in events:
        answer = post(client, event_id, path, data)
        assert answer.status_code < 500, (path, data, answer.text[:300])
        if answer.status_code >= 400:
            assert "Traceback" not in answer.text
        assert client.get(f"/desk/{event_id}").status_code == 200


@settings(max_examples=40, deadline=None)
@given(results=st.lists(st.sampled_from("ABN"), min_size=1, max_size=6))
def test_match_card_points_follow_the_boards(tmp_path_factory, results):
    from ball.tournament.service import TournamentService

    svc = TournamentService(tmp_path_factory.mktemp("card") / "t.sqlite")
    boards = len(results)
    ev = svc.events.create_event(name="T", system="round-robin", teams=boards).id
    svc.teams.add_team("One", [f"o{i}" for i in range(boards)], event=ev)
    svc.teams.add_team("Two", [f"t{i}" for i in range(boards)], event=ev)
    svc.rounds.pair_next_round(event=ev)
    for table, outcome in enumerate(results, start=1):
        if outcome == "N":
            svc.results.record_table_result(1, table, double_forfeit=True, event=ev)
        else:  # A: coach B forfeits, B: coach A forfeits
            svc.results.record_table_result(
                1, table, forfeit="B" if outcome != "B" else "A", event=ev
            )
    card = svc.formats.match_card(ev, 1, 1)
    first = []
    for board, outcome in zip(card.boards, results, strict=True):
        a_won = outcome != "B"  # forfeit by B unless B won
        first_won = a_won == board.first_has_first_colour
        first.append("0-0" if outcome == "N" else "1-0" if first_won else "0-1")
    assert [b.result for b in card.boards] == first
    gp = (first.count("1-0") * 1.0, first.count("0-1") * 1.0)
    assert card.game_points == gp
    assert sum(gp) == boards - results.count("N")
    mp = (2, 0) if gp[0] > gp[1] else (0, 2) if gp[1] > gp[0] else (1, 1)
    assert card.match_points == mp
