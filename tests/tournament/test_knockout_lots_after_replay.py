"""Article 6: a one-game knockout match still drawn after its last replay is decided by a
drawing of lots the arbiter enters (or draws here from a logged seed), never silently by
seed (issue 32, item 13)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import TournamentError, TournamentService, lots

from .test_knockout import draw_sheet, win

runner = CliRunner()


def _drawn_twice(db) -> tuple[TournamentService, list, list]:
    """S1-S4 drawn, its replay drawn too; S2 beats S3."""
    svc = TournamentService(db)
    svc.events.create_event(name="KO", system="knockout", knockout_replays=1)
    for i in range(4):
        svc.entrants.add_player(f"S{i + 1}", rating=2400 - 10 * i)
    r1 = svc.rounds.pair_next_round()
    top = next(t for t in r1 if "S1" in (t["a"], t["b"]))
    svc.results.enter_result(1, top["table"], sheet=draw_sheet())
    win(svc, 1, r1, "S2")
    replay = svc.rounds.pair_next_round()
    svc.results.enter_result(2, replay[0]["table"], sheet=draw_sheet())
    return svc, r1, replay


def _ranks(svc: TournamentService) -> dict[str, int]:
    return {x["name"]: x["rank"] for x in svc.ranking.standings()["standings"]}


def test_a_match_drawn_after_its_replay_waits_for_the_lots(tmp_path):
    svc, _r1, _replay = _drawn_twice(tmp_path / "k.db")
    with pytest.raises(TournamentError, match=r"round 2 table 1 .*decide it by lots"):
        svc.rounds.pair_next_round()
    # Nobody is through yet: the higher seed is not ahead of the lower one.
    ranks = _ranks(svc)
    assert ranks["S1"] == ranks["S4"] and ranks["S2"] < ranks["S1"]


def test_the_lots_drawn_at_the_venue_send_the_lower_seed_through(tmp_path):
    svc, _r1, _replay = _drawn_twice(tmp_path / "k.db")
    db = str(tmp_path / "k.db")
    r = runner.invoke(app, ["result", "lots", "--round", "2", "--table", "1", "--winner", "S4",
                            "--db", db])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "S4 wins the drawing of lots (drawn at the venue)" in r.output
    final = svc.rounds.pair_next_round()
    assert {final[0]["a"], final[0]["b"]} == {"S4", "S2"}
    ranks = _ranks(svc)
    assert ranks["S4"] < ranks["S1"]
    # The drawn games still score a draw each.
    points = {x["name"]: x["points"] for x in svc.ranking.standings()["standings"]}
    assert points["S1"] == points["S4"] == 1.0


def test_lots_from_a_seed_are_logged_and_replay(tmp_path):
    svc, _r1, replay = _drawn_twice(tmp_path / "k.db")
    out = svc.knockout.draw_tie_lots(2, 1, seed=12345)
    (entry,) = [json.loads(x["detail"]) for x in svc.arbiter.log() if x["kind"] == "lots"]
    sides = [replay[0]["a"], replay[0]["b"]]
    assert entry["sides"] == sides and entry["seed"] == 12345
    assert out["winner"] == entry["winner"] == lots.toss(sides, 12345)
    final = svc.rounds.pair_next_round()
    assert out["winner"] in (final[0]["a"], final[0]["b"])
    # Decided once: a second drawing is refused, as is one for a match not drawn.
    with pytest.raises(TournamentError, match="no drawing of lots is due"):
        svc.knockout.draw_tie_lots(2, 1, seed=1)
    with pytest.raises(TournamentError, match="no drawing of lots is due"):
        svc.knockout.draw_tie_lots(3, 1, seed=1)


def test_without_replays_a_drawn_match_goes_to_lots_at_once(tmp_path):
    svc = TournamentService(tmp_path / "k.db")
    svc.events.create_event(name="KO", system="knockout", knockout_replays=0)
    for i in range(2):
        svc.entrants.add_player(f"S{i + 1}", rating=2400 - 10 * i)
    (t,) = svc.rounds.pair_next_round()
    svc.results.enter_result(1, t["table"], sheet=draw_sheet())
    assert _ranks(svc) == {"S1": 1, "S2": 1}
    svc.knockout.draw_tie_lots(1, t["table"], winner="S2")
    assert _ranks(svc) == {"S2": 1, "S1": 2}
    with pytest.raises(TournamentError, match="complete"):
        svc.rounds.pair_next_round()


def test_a_group_final_stops_after_its_replays_and_takes_lots(tmp_path):
    """E-17: a knockout final of a groups event replays a drawn match as `--replays` says
    (it replayed it without end), then goes to lots like a bracket knockout."""
    from ball.tournament.groups import Setup

    svc = TournamentService(tmp_path / "g.db")
    setup = Setup(groups=2, final="knockout", qualifiers=1)
    svc.events.create_event(name="G", system="groups", groups=setup, knockout_replays=1)
    for i in range(4):
        svc.entrants.add_player(f"P{i + 1}", rating=2400 - 10 * i)
    for t in svc.rounds.pair_next_round():  # the groups: one round each
        svc.results.enter_result(1, t["table"], forfeit="B")
    final = svc.rounds.pair_next_round()
    assert {final[0]["a"], final[0]["b"]} == {"P1", "P2"}
    svc.results.enter_result(2, 1, sheet=draw_sheet())
    replay = svc.rounds.pair_next_round()
    assert [(t["a"], t["b"]) for t in replay] == [(final[0]["b"], final[0]["a"])]
    svc.results.enter_result(3, 1, sheet=draw_sheet())
    with pytest.raises(TournamentError, match="decide it by lots"):
        svc.rounds.pair_next_round()
    svc.knockout.draw_tie_lots(3, 1, winner="P2")
    with pytest.raises(TournamentError, match="complete"):
        svc.rounds.pair_next_round()
    final_table = svc.ranking.standings()["groups"]["final"]["standings"]
    assert [r["name"] for r in final_table if r["rank"] == 1] == ["P2"]
