"""Article 13.4: in a bracket knockout the first colour of each match goes by toss, logged
and replayable like the draw, not to the upper slot of the bracket (issue 32, 12)."""

from __future__ import annotations

import json

from ball.tournament import TournamentService, lots
from ball.tournament.knockout import first_round


def _bracket_event(db, entrants: int = 8, **options) -> TournamentService:
    svc = TournamentService(db)
    svc.events.create_event(name="KO", system="knockout", **options)
    for i in range(entrants):
        svc.entrants.add_player(f"K{i + 1}", rating=2400 - 10 * i)  # pairing number = i + 1
    return svc


def _tosses(svc: TournamentService) -> list[dict]:
    return [json.loads(x["detail"]) for x in svc.arbiter.log() if x["kind"] == "toss"]


def test_round_1_colours_follow_a_logged_toss_that_replays(tmp_path):
    upper_first = []
    for n in range(6):
        svc = _bracket_event(tmp_path / f"k{n}.db")
        tables = svc.rounds.pair_next_round()
        (toss,) = _tosses(svc)
        assert toss["round"] == 1
        # The bracket's slots: the toss is between them, in bracket order.
        slots = [(f"K{a}", f"K{b}") for a, b in first_round(list(range(1, 9)))]
        assert [tuple(m[:2]) for m in toss["matches"]] == slots
        # The seed logged replays the toss, and coach A (the first colour) is its winner.
        replayed = lots.colour_toss(slots, toss["seed"])
        expected = [up if keep else low for (up, low), keep in zip(slots, replayed, strict=True)]
        assert [m[2] for m in toss["matches"]] == expected
        assert [t["a"] for t in tables] == expected
        assert {frozenset((t["a"], t["b"])) for t in tables} == {frozenset(x) for x in slots}
        upper_first += replayed
    # Six brackets of four matches: the upper slot did not get the first colour every time.
    assert not all(upper_first) and any(upper_first)


def test_a_later_stage_is_tossed_and_a_replay_keeps_its_swap(tmp_path):
    svc = _bracket_event(tmp_path / "k.db", entrants=4)
    r1 = svc.rounds.pair_next_round()
    svc.results.enter_result(1, r1[0]["table"], forfeit="B")  # coach A goes through
    pb = {"A": {"atk": 1, "def": 1}, "B": {"atk": 1, "def": 1}}
    halves = [{"atk_first": first, "td": None, "pb": pb} for first in "AB"]
    sheet = {"coaches": ["A", "B"], "forfeit": None, "halves": halves}
    svc.results.enter_result(1, r1[1]["table"], sheet=sheet)  # drawn: replayed with colours swapped
    replay = svc.rounds.pair_next_round()
    assert [(t["a"], t["b"]) for t in replay] == [(r1[1]["b"], r1[1]["a"])]
    assert [x["round"] for x in _tosses(svc)] == [1]  # a replay is not tossed
    svc.results.enter_result(2, replay[0]["table"], forfeit="B")
    final = svc.rounds.pair_next_round()
    toss = _tosses(svc)[-1]
    assert toss["round"] == 3 and [t["a"] for t in final] == [toss["matches"][0][2]]
    assert set(toss["matches"][0][:2]) == {r1[0]["a"], r1[1]["b"]}
