"""The table links' tokens and states in the service (issue 35 §1,
`ball.tournament.table_links`), on a real SQLite file: a token opens one side of one table
of one round; changing any part of it, or the table's entrants, opens nothing; the states
follow the entries; the desk's save settles the players' entry."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentService, table_links
from ball.tournament.errors import TournamentError


@pytest.fixture
def svc(tmp_path) -> TournamentService:
    service = TournamentService(str(tmp_path / "links.sqlite"))
    service.events.create_event(name="Links", system="round-robin")
    for name in ("Ann", "Bo", "Cy", "Di"):
        service.entrants.add_player(name)
    service.rounds.pair_next_round()
    return service


def _sheet(svc: TournamentService, table: int, scorer: str | None) -> dict:
    t = svc.desk.table(1, 1, table)
    a, b = t.a.name, t.b.name
    td = {"A": a, "B": b}.get(scorer or "")
    return {
        "coaches": [a, b],
        "halves": [
            {"atk_first": a, "td": td, "pb": {a: {"atk": 3, "def": 2}, b: {"atk": 2, "def": 3}}},
            {"atk_first": b, "td": None, "pb": {a: {"atk": 1, "def": 4}, b: {"atk": 4, "def": 1}}},
        ],
    }


def test_a_token_opens_one_side_of_one_table_and_nothing_else(svc):
    tokens = svc.table_links.table_link_tokens(1, 1)
    assert set(tokens) == {1, 2}
    every = [tokens[t][s] for t in (1, 2) for s in "AB"]
    assert len(set(every)) == 4
    assert svc.table_links.table_link_tokens(1, 1) == tokens  # printed again: the same links
    opened = svc.table_links.open_table_link(tokens[2]["B"])
    assert (opened.round, opened.table, opened.side, opened.closed) == (1, 2, "B", "")
    head, mac = tokens[1]["A"].rsplit("-", 1)
    for forged in (
        f"{head}-{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}",  # one character of the MAC
        tokens[1]["A"].replace("-1a-", "-1b-"),  # the other side with this side's MAC
        tokens[1]["A"].replace("-1a-", "-2a-"),  # another table
        tokens[1]["A"].replace("1-1-", "1-2-", 1),  # another round
        tokens[1]["A"].replace("1-", "2-", 1),  # another event
        "1-1-1a-" + "A" * 22,
        "",
        "../../etc/passwd",
        f"1-1-{2**70}a-{mac}",
    ):
        with pytest.raises(table_links.BadLink):
            svc.table_links.open_table_link(forged)


def test_swapping_a_tables_entrants_kills_its_old_links(svc):
    old = svc.table_links.table_link_tokens(1, 1)
    t1, t2 = svc.desk.table(1, 1, 1), svc.desk.table(1, 1, 2)
    svc.rounds.set_pairing(1, [(t1.a.name, t2.b.name), (t2.a.name, t1.b.name)], reason="swap")
    new = svc.table_links.table_link_tokens(1, 1)
    for table in (1, 2):
        for side in "AB":
            assert new[table][side] != old[table][side]
            with pytest.raises(table_links.BadLink):
                svc.table_links.open_table_link(old[table][side])


def test_the_states_from_entry_to_the_desks_result(svc):
    links = svc.table_links.table_link_tokens(1, 1)[1]
    with pytest.raises(TournamentError, match="no entry of the other side"):
        svc.table_links.answer_by_link(links["B"], True, 1.0)
    svc.table_links.enter_by_link(links["A"], _sheet(svc, 1, "A"), {}, 1.0)
    with pytest.raises(TournamentError, match="no entry of the other side"):
        svc.table_links.answer_by_link(links["A"], True, 2.0)  # one side cannot confirm itself
    svc.table_links.enter_by_link(links["A"], _sheet(svc, 1, None), {}, 2.0)  # changed its mind
    assert svc.table_links.player_entries(1, 1)[1].document["sheet"]["halves"][0]["td"] is None
    svc.table_links.answer_by_link(links["B"], False, 3.0)
    assert svc.table_links.player_entries(1, 1)[1].state == "disputed"
    # after a dispute: anyone
    svc.table_links.enter_by_link(links["B"], _sheet(svc, 1, "B"), {}, 4.0)
    entry = svc.table_links.player_entries(1, 1)[1]
    assert (entry.side, entry.state) == ("B", "entered")
    svc.table_links.answer_by_link(links["A"], True, 5.0)
    assert svc.table_links.player_entries(1, 1)[1].state == "confirmed"
    assert svc.table_links.open_table_link(links["A"]).closed == table_links.AGREED
    with pytest.raises(table_links.LinkClosed):
        svc.table_links.enter_by_link(links["A"], _sheet(svc, 1, "A"), {}, 6.0)
    svc.table_links.approve_player_entry(1, 1, 1, 7.0)
    assert svc.desk.table(1, 1, 1).result["outcome"] == "B"
    assert svc.table_links.player_entries(1, 1)[1].state == "accepted"
    with pytest.raises(TournamentError, match="only a result both players confirmed"):
        svc.table_links.approve_player_entry(1, 1, 1, 8.0)


def test_an_illegal_sheet_is_refused_and_nothing_is_stored(svc):
    links = svc.table_links.table_link_tokens(1, 1)[1]
    bad = _sheet(svc, 1, "A")
    bad["halves"][0]["pb"][bad["coaches"][0]]["atk"] = 9  # dual entry broken
    with pytest.raises(TournamentError):
        svc.table_links.enter_by_link(links["A"], bad, {}, 1.0)
    assert svc.table_links.player_entries(1, 1) == {}


def test_a_desk_result_over_an_entry_replaces_it_and_closes_the_links(svc):
    links = svc.table_links.table_link_tokens(1, 1)[2]
    svc.table_links.enter_by_link(links["B"], _sheet(svc, 2, "B"), {}, 1.0)
    svc.results.record_table_result(1, 2, forfeit="B", event=1)
    assert svc.table_links.player_entries(1, 1)[2].state == "replaced"
    for side in "AB":
        assert svc.table_links.open_table_link(links[side]).closed == table_links.RESULT_IN
