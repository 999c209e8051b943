"""An entrant of a round robin (or a knockout) who withdraws before round 1 is paired leaves
the table: the others play the Berger tables (or the bracket) of their own number, and no
opponent is handed a forfeit win (issue 11, item 20)."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentError, TournamentService


def event_with_withdrawal(tmp_path, system: str, players: int, leaver: str = "P2"):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="E", system=system, date_start="2025-06-01")
    for i in range(players):
        svc.entrants.add_player(f"P{i + 1}", rating=2000 - i)
    svc.entrants.withdraw(leaver, reason="ill")
    return svc


def play_out(svc: TournamentService) -> list[list[dict]]:
    rounds = []
    while True:
        try:
            tables = svc.rounds.pair_next_round()
        except TournamentError as exc:
            assert "rounds are paired" in str(exc) or "complete" in str(exc)
            return rounds
        number = len(rounds) + 1
        rounds.append(tables)
        for t in tables:
            if t["b"] is not None and "result" not in t:
                svc.results.enter_result(number, t["table"], forfeit="B")


@pytest.mark.parametrize(("system", "cycles"), [("round-robin", 1), ("double-round-robin", 2)])
def test_round_robin_without_the_entrant_who_left_before_round_1(tmp_path, system, cycles):
    svc = event_with_withdrawal(tmp_path, system, players=5)
    rounds = play_out(svc)
    assert len(rounds) == 3 * cycles  # the Berger tables of 4, not of 5
    for tables in rounds:
        assert all(t["b"] is not None for t in tables)  # four entrants: no bye
        names = {t["a"] for t in tables} | {t["b"] for t in tables}
        assert names == {"P1", "P3", "P4", "P5"}
        # Every result was entered over the board (here: as a forfeit by the table), none
        # was handed out because an entrant had left.
    table = svc.ranking.standings()["standings"]
    assert sorted(x["name"] for x in table) == ["P1", "P3", "P4", "P5"]
    assert sum(x["points"] for x in table) == 6 * cycles
    trf = svc.trf.export_trf()
    assert "062 4" in trf and "P2" not in trf
    assert svc.events.event_info()["entrants"][-1]["name"] == "P2"  # still registered, as withdrawn


def test_a_withdrawal_after_round_1_still_forfeits_the_remaining_games(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="E", system="round-robin")
    for i in range(4):
        svc.entrants.add_player(f"P{i + 1}")
    svc.rounds.pair_next_round()
    for t in (1, 2):
        svc.results.enter_result(1, t, forfeit="B")
    svc.entrants.withdraw("P2")
    tables = svc.rounds.pair_next_round()
    forfeited = [t for t in tables if "P2" in (t["a"], t["b"])]
    assert len(forfeited) == 1 and forfeited[0]["result"]["kind"] == "forfeit"
    # None of P2's 3 games was played over the board (round 1 was a forfeit): fewer than
    # half, so article 20.3 cancels all P2's results and P2 leaves the ranking.
    assert [x["name"] for x in svc.ranking.standings()["standings"]] != [] and "P2" not in [
        x["name"] for x in svc.ranking.standings()["standings"]
    ]
    assert len(svc.ranking.standings()["standings"]) == 3


def test_knockout_bracket_without_the_entrant_who_left_before_round_1(tmp_path):
    svc = event_with_withdrawal(tmp_path, "knockout", players=5)
    first = svc.rounds.pair_next_round()
    # Four seeds: two matches, no byes and no walkover against the leaver.
    assert [{t["a"], t["b"]} for t in first] == [{"P1", "P5"}, {"P3", "P4"}]  # colours by toss
    assert all("result" not in t for t in first)
