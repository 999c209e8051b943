"""Knockout: byes up to the next power of two, seeds kept apart, replays of drawn matches."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentError, TournamentService
from ball.tournament.knockout import first_round, seed_positions


def test_seed_positions_keep_top_seeds_apart():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert first_round([1, 2, 3, 4, 5, 6]) == [(1, None), (4, 5), (2, None), (3, 6)]


def matches(tables):
    """The round's matches, each as the set of its entrants (colours go by toss, 13.4)."""
    return [{t["a"], t["b"]} - {None} for t in tables]


def win(svc, rnd, tables, name):
    """`name` wins their table of round `rnd` (by the opponent's forfeit)."""
    t = next(t for t in tables if name in (t["a"], t["b"]))
    svc.results.enter_result(rnd, t["table"], forfeit="B" if t["a"] == name else "A")


def draw(svc, rnd, tables, name):
    t = next(t for t in tables if name in (t["a"], t["b"]))
    svc.results.enter_result(rnd, t["table"], sheet=draw_sheet())


def draw_sheet():
    half = {"td": None, "pb": {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}}
    return {
        "coaches": ["A", "B"],
        "halves": [dict(half, atk_first="A"), dict(half, atk_first="B")],
        "forfeit": None,
    }


def test_knockout_runs_to_a_winner_with_a_replay(tmp_path):
    svc = TournamentService(tmp_path / "ko.db")
    svc.events.create_event(name="KO", system="knockout", knockout_replays=1)
    for i in range(6):
        svc.entrants.add_player(f"S{i + 1}")
    r1 = svc.rounds.pair_next_round()
    assert matches(r1) == [{"S1"}, {"S4", "S5"}, {"S2"}, {"S3", "S6"}]
    draw(svc, 1, r1, "S4")  # S4-S5 drawn: replayed
    win(svc, 1, r1, "S3")  # S3 beats S6
    replay = svc.rounds.pair_next_round()
    first = next(t for t in r1 if t["a"] in ("S4", "S5"))
    assert [(t["a"], t["b"]) for t in replay] == [(first["b"], first["a"])]  # colours swapped
    win(svc, 2, replay, "S5")  # S5 wins the replay
    semis = svc.rounds.pair_next_round()
    assert matches(semis) == [{"S1", "S5"}, {"S2", "S3"}]
    win(svc, 3, semis, "S1")
    win(svc, 3, semis, "S3")
    final = svc.rounds.pair_next_round()
    assert matches(final) == [{"S1", "S3"}]
    win(svc, 4, final, "S1")
    with pytest.raises(TournamentError, match="complete"):
        svc.rounds.pair_next_round()


def long_replays_knockout(tmp_path):
    """Four seeds, four replays allowed: S1-S4 is drawn five times (S1 goes through by the
    drawing of lots, article 6, with 2.5 points, S4 is out with 2.5), S2 beats S3, and S1
    beats S2 in the final."""
    svc = TournamentService(tmp_path / "ko.db")
    svc.events.create_event(name="KO", system="knockout", knockout_replays=4)
    for i in range(4):
        svc.entrants.add_player(f"S{i + 1}")
    first = svc.rounds.pair_next_round()
    assert matches(first) == [{"S1", "S4"}, {"S2", "S3"}]
    draw(svc, 1, first, "S1")
    win(svc, 1, first, "S2")
    for number in range(2, 6):
        assert len(svc.rounds.pair_next_round()) == 1  # the replay
        svc.results.enter_result(number, 1, sheet=draw_sheet())
    svc.knockout.draw_tie_lots(5, 1, winner="S1")  # drawn at the venue
    final = svc.rounds.pair_next_round()
    assert matches(final) == [{"S1", "S2"}]
    win(svc, 6, final, "S1")
    return svc


def ranks(svc, **kw) -> dict[str, int]:
    return {x["name"]: x["rank"] for x in svc.ranking.standings(**kw)["standings"]}


def test_knockout_ranks_by_the_stage_reached(tmp_path):
    svc = long_replays_knockout(tmp_path)
    table = svc.ranking.standings()["standings"]
    points = {x["name"]: x["points"] for x in table}
    assert points["S4"] > points["S2"]  # the first-round loser drew many replays...
    # ...yet the runner-up is second, and the two losers of the semi-finals share third.
    assert ranks(svc) == {"S1": 1, "S2": 2, "S3": 3, "S4": 3}
    # After round 1: S2 is through, S1-S4 still undecided (a replay to come).
    assert ranks(svc, upto=1) == {"S2": 1, "S1": 2, "S3": 2, "S4": 2}


def test_knockout_trf_declares_the_rounds_it_holds_and_leaves_waiting_entrants_unpaired(
    tmp_path,
):
    from ball.tournament import trf

    svc = long_replays_knockout(tmp_path)
    text = svc.trf.export_trf()
    assert "XXR 6" in text.splitlines() and "142 6" in text.splitlines()
    parsed = trf.read(text)
    cells = {p.name: p.cells for p in parsed.players}
    assert all(len(c) == 6 for c in cells.values())
    # S2 waits through the four replays: not paired (blank), not a zero-point bye (Z).
    assert cells["S2"][1:5] == [(0, "-", " ")] * 4
    assert cells["S3"][1:] == [(0, "-", " ")] * 5  # out after round 1
    assert not any(code == "Z" for row in cells.values() for _o, _c, code in row)
    imported = TournamentService(tmp_path / "again.db")
    imported.trf.import_trf(text)

    def records(t):
        return [x[:85] + x[89:] for x in t.splitlines() if x.startswith("001")]

    assert records(imported.trf.export_trf()) == records(text)


def test_a_knockout_in_progress_declares_the_stages_still_to_play(tmp_path):
    svc = TournamentService(tmp_path / "ko.db")
    svc.events.create_event(name="KO", system="knockout", knockout_replays=1)
    for i in range(8):
        svc.entrants.add_player(f"S{i + 1}")
    svc.rounds.pair_next_round()
    svc.results.enter_result(1, 1, sheet=draw_sheet())
    for table in (2, 3, 4):
        svc.results.enter_result(1, table, forfeit="B")
    assert "XXR 3" in svc.trf.export_trf().splitlines()  # 1 round written, 2 stages to come
    svc.rounds.pair_next_round()  # the replay
    svc.results.enter_result(2, 1, forfeit="B")
    assert "XXR 4" in svc.trf.export_trf().splitlines()  # 2 rounds written, 2 stages to come
