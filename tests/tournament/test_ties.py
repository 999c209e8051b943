"""Knockout ties as mini-matches and rounds drawn by lots, through the service: the rules of
seed 004 (section 9, articles 6 and 13.5) and the refusals that keep the data whole."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import TournamentError, TournamentService
from ball.tournament.lots import replay


def knockout(tmp_path, n=4, **policy):
    svc = TournamentService(tmp_path / "ko.db")
    svc.events.create_event(name="KO", system="knockout", **policy)
    for i in range(n):
        svc.entrants.add_player(f"S{i + 1}", rating=2000 - i)
    return svc


def sheet(a, b, winner):
    """A decided BALL sheet between coaches a (ATK first) and b: `winner` scores."""

    def half(atk, td):
        pb = {a: {"atk": 3, "def": 3}, b: {"atk": 3, "def": 3}}
        return {"atk_first": atk, "td": td, "pb": pb}

    return {"coaches": [a, b], "halves": [half(a, winner), half(b, None)], "forfeit": None}


def test_one_game_per_tie_keeps_the_bracket_and_its_results(tmp_path):
    svc = knockout(tmp_path)
    tables = svc.rounds.pair_next_round()
    assert all("tie" not in t for t in tables)
    assert "ties" not in svc.events.event_info()
    with pytest.raises(TournamentError, match="plays one game per tie"):
        svc.knockout.record_tie_game(1, 1, 1, forfeit="B")
    with pytest.raises(TournamentError, match="a drawing of lots pairs a knockout, not a swiss"):
        other = TournamentService(tmp_path / "sw.db")
        other.events.create_event(name="Sw", system="swiss")
        other.entrants.add_player("X")
        other.entrants.add_player("Y")
        other.knockout.draw_round(seed=1)


def test_a_bracket_tie_of_three_games_alternates_colours(tmp_path):
    # Article 13.5: colours change every game; in a bracket coach A opens game 1 (E-05).
    svc = knockout(tmp_path, games_per_tie=3)
    assert svc.events.event_info()["ties"] == {"games": 3, "extra_games": 0, "tie_break": "lots"}
    first = svc.rounds.pair_next_round()
    a, b = first[0]["a"], first[0]["b"]
    with pytest.raises(TournamentError, match="is a mini-match of 3 games: enter each game"):
        svc.results.record_table_result(1, 1, forfeit="B")
    with pytest.raises(TournamentError, match="the next game is game 1, not 2"):
        svc.knockout.record_tie_game(1, 1, 2, forfeit="B")
    t = svc.knockout.record_tie_game(1, 1, 1, sheet=sheet(a, b, a))
    assert t["tie"]["points"] == {"A": 1.0, "B": 0.0} and t["tie"]["next_first"] == b
    with pytest.raises(TournamentError, match=f"game 2: {b} has the first colour"):
        svc.knockout.record_tie_game(1, 1, 2, sheet=sheet(a, b, a))
    with pytest.raises(TournamentError, match="game 1 already has a result"):
        svc.knockout.record_tie_game(1, 1, 1, forfeit="B")
    with pytest.raises(TournamentError, match="round 1 has results"):
        svc.rounds.unpair_round()  # a game of a tie is a result: the round stays
    t = svc.knockout.record_tie_game(1, 1, 2, sheet=sheet(b, a, a))  # a wins as coach B
    assert (t["tie"]["winner"], t["tie"]["how"]) == (a, "games")
    assert t["result"]["outcome"] == "A"
    svc.knockout.record_tie_game(1, 2, 1, double_forfeit=True)
    with pytest.raises(TournamentError, match="knockout is complete"):
        svc.rounds.pair_next_round()  # nobody from table 2: a's opponent is nobody


def test_armageddon_gives_a_draw_to_the_second_colour(tmp_path):
    svc = knockout(tmp_path, n=2, games_per_tie=2, tie_break="armageddon")
    svc.knockout.draw_round(cards={"S1": "1B", "S2": "1R"})
    svc.knockout.record_tie_game(1, 1, 1, forfeit="B")  # S2 (red, first colour) wins game 1
    t = svc.knockout.record_tie_game(1, 1, 2, forfeit="B")  # S1 has the first colour in game 2
    assert t["tie"]["phase"] == "armageddon" and t["tie"]["next_first"] == "S2"
    with pytest.raises(TournamentError, match="no drawing of lots is due"):
        svc.knockout.draw_tie_lots(1, 1, seed=3)
    half = {"td": None, "pb": {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}}
    drawn = {"coaches": ["A", "B"], "forfeit": None,
             "halves": [dict(half, atk_first="A"), dict(half, atk_first="B")]}  # fmt: skip
    t = svc.knockout.record_tie_game(1, 1, 3, sheet=drawn)
    assert (t["tie"]["winner"], t["tie"]["how"]) == ("S1", "armageddon")


def test_drawn_rounds_refuse_the_bracket_and_bad_draws_write_nothing(tmp_path):
    svc = knockout(tmp_path, n=5, games_per_tie=3, tie_extra_games=2)
    with pytest.raises(TournamentError, match="card 1R drawn twice"):
        svc.knockout.draw_round(cards={"S1": "1R", "S2": "1R", "S3": "K", "S4": "2R", "S5": "2B"})
    with pytest.raises(TournamentError, match="either the cards drawn or a seed"):
        svc.knockout.draw_round(seed=1, cards={})
    assert svc.arbiter.log() == [] and svc.events.event_info()["rounds"] is None
    out = svc.knockout.draw_round(seed=99)
    assert svc.events.event_info()["rounds"] == 3  # 5 -> 3 -> 2 -> 1
    with pytest.raises(TournamentError, match="draws lots for each round: use 'ball round draw'"):
        svc.rounds.pair_next_round()
    (entry,) = svc.arbiter.log()
    assert (entry["kind"], entry["round"]) == ("draw", 1)
    again = replay(json.loads(entry["detail"]))
    assert [[t["a"], t["b"]] for t in out["tables"] if t["b"]] == [list(p) for p in again.pairs()]
    with pytest.raises(TournamentError, match="still has tables without a result"):
        svc.knockout.draw_round(seed=1)
    svc.rounds.unpair_round()  # no game played yet: the draw can be undone, the log keeps it
    assert [e["kind"] for e in svc.arbiter.log()] == ["draw", "unpair"]


def test_a_bracket_knockout_cannot_switch_to_drawing(tmp_path):
    svc = knockout(tmp_path)
    svc.rounds.pair_next_round()
    with pytest.raises(TournamentError, match="paired as a bracket"):
        svc.knockout.draw_round(seed=1)


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ({"system": "swiss", "games_per_tie": 3}, "for a knockout, not a swiss"),
        ({"system": "knockout", "games_per_tie": 0}, "games per tie must be 1 to 99"),
        ({"system": "knockout", "tie_break": "coin"}, "unknown tie-break 'coin'"),
        ({"system": "knockout", "tie_extra_games": 2}, "need a mini-match: --games-per-tie 2"),
    ],
)
def test_a_bad_tie_policy_is_refused(tmp_path, policy, message):
    svc = TournamentService(tmp_path / "e.db")
    with pytest.raises(TournamentError, match=message):
        svc.events.create_event(name="E", **policy)
    assert svc.events.list_events() == []


def test_lots_for_a_tie_by_name_and_their_refusals(tmp_path):
    svc = knockout(tmp_path, n=2, games_per_tie=2)
    svc.knockout.draw_round(cards={"S1": "1R", "S2": "1B"})
    with pytest.raises(TournamentError, match="no drawing of lots is due"):
        svc.knockout.draw_tie_lots(1, 1, winner="S1")
    svc.knockout.record_tie_game(1, 1, 1, forfeit="A")
    svc.knockout.record_tie_game(1, 1, 2, forfeit="A")
    with pytest.raises(TournamentError, match="'S9' does not play at round 1 table 1"):
        svc.knockout.draw_tie_lots(1, 1, winner="S9")
    t = svc.knockout.draw_tie_lots(1, 1, winner="S2")
    assert (t["tie"]["winner"], t["tie"]["how"], t["tie"]["lots"]) == (
        "S2", "lots", {"seed": None, "winner": "S2"}
    )  # fmt: skip
    assert svc.ranking.standings()["standings"][0]["name"] == "S2"


runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--card", "S1"], "--card 'S1': write NAME=CARD"),
        (["--card", "S1=1R", "--card", "S1=1B"], "'S1' is given twice"),
        (["--card", "S1=1R", "--seed", "3"], "not both"),
        (["--card", "S1=1R", "--card", "S2=1B"], "no card drawn by 'S3'"),
        (["KO", "--event", "Other"], "the event is given twice"),
        (["--seed", "-1"], "--seed must be 0 to"),
    ],
)
def test_round_draw_cli_errors_are_one_line(tmp_path, args, message):
    svc = knockout(tmp_path, n=3, games_per_tie=3)
    del svc
    r = runner.invoke(app, ["round", "draw", "--db", str(tmp_path / "ko.db"), *args])
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and message in r.output


def test_round_draw_reads_a_json_file_and_refuses_a_bad_one(tmp_path):
    knockout(tmp_path, n=2, games_per_tie=3)
    db = str(tmp_path / "ko.db")
    bad = tmp_path / "bad.csv"
    bad.write_text("S1,1R,extra\n")
    r = runner.invoke(app, ["round", "draw", "--db", db, "--cards", str(bad)])
    assert r.exit_code == 2 and "line 1: write NAME,CARD" in r.output
    good = tmp_path / "draw.json"
    good.write_text(json.dumps({"S1": "1B", "S2": "1R"}))
    r = runner.invoke(app, ["round", "draw", "--db", db, "--cards", str(good)])
    assert r.exit_code == 0, r.output
    assert "round 1 drawn (cards as drawn)" in r.output and "1  S2  -  S1" in r.output


def test_correcting_a_game_refolds_the_tie_and_keeps_the_old_result(tmp_path):
    svc = knockout(tmp_path, n=4, games_per_tie=3, tie_extra_games=2)
    svc.knockout.draw_round(cards={"S1": "1R", "S2": "1B", "S3": "2R", "S4": "2B"})
    svc.knockout.record_tie_game(1, 1, 1, forfeit="B")  # S1
    t = svc.knockout.record_tie_game(1, 1, 2, forfeit="A")  # S2, coach A of game 2, forfeits: 2-0
    assert t["tie"]["winner"] == "S1"
    with pytest.raises(TournamentError, match="needs a reason"):
        svc.knockout.correct_tie_game(1, 1, 2, reason=" ", forfeit="A")
    with pytest.raises(TournamentError, match="game 3 has no result to correct"):
        svc.knockout.correct_tie_game(1, 1, 3, reason="typo", forfeit="A")
    t = svc.knockout.correct_tie_game(1, 1, 2, reason="S2 won game 2", forfeit="B")
    assert t["tie"]["winner"] is None and t["tie"]["next_game"] == 3 and "result" not in t
    (kept,) = svc.results.corrections()
    assert kept["before"]["outcome"] == "A" and kept["after"]["outcome"] == "B"
    assert (kept["round"], kept["table"], kept["before"]["game"]) == (1, 1, 2)
    assert kept["reason"] == "S2 won game 2"
    svc.knockout.record_tie_game(1, 1, 3, forfeit="B")  # S1 wins game 3: 2-1
    with pytest.raises(TournamentError, match="game 3 is not played: the tie was decided"):
        svc.knockout.correct_tie_game(1, 1, 2, reason="back", forfeit="A")  # 2-0 after game 2 again
    assert len(svc.results.corrections()) == 1  # the refused correction wrote nothing
    svc.knockout.record_tie_game(1, 2, 1, forfeit="A")
    svc.knockout.record_tie_game(1, 2, 2, forfeit="B")  # S4 2-0
    svc.knockout.draw_round(seed=4)
    with pytest.raises(TournamentError, match="round 2 is already paired"):
        svc.knockout.correct_tie_game(1, 2, 2, reason="x", forfeit="A")
    # The same winner after the correction: allowed even with the next round paired.
    db = str(tmp_path / "ko.db")
    r = runner.invoke(app, ["result", "correct", "--db", db, "--round", "1", "--table", "1",
                            "--game", "3", "--forfeit", "B", "--reason", "checked"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert r.output.strip() == "table 1 game 3: S1 - S2 2-1: S1 goes through (games)"
    assert svc.rounds.pairings(1)[0]["result"]["outcome"] == "A"


def test_round_pair_json_shows_the_ties_only_for_mini_matches(tmp_path):
    for games, name in ((1, "one"), (3, "three")):
        db = str(tmp_path / f"{name}.db")
        svc = TournamentService(db)
        svc.events.create_event(name="KO", system="knockout", games_per_tie=games)
        for i in range(3):
            svc.entrants.add_player(f"S{i + 1}", rating=2000 - i)
        r = runner.invoke(app, ["round", "pair", "--db", db, "--json"])
        assert r.exit_code == 0, r.output
        tables = json.loads(r.output)
        if games == 1:  # today's shape (a bye adds its kind, issue 32 item 15)
            bye = {"bye", "requested"}
            assert [set(t) for t in tables] == [  # and the pairing check (issue 35 §2)
                {"table", "a", "b", "check"} | (bye if t["b"] is None else set()) for t in tables
            ]
        else:
            (tie,) = [t["tie"] for t in tables if t["b"] is not None]
            assert tie["next_game"] == 1 and tie["points"] == {"A": 0.0, "B": 0.0}
            assert [t for t in tables if t["b"] is None][0].keys() == {
                "table",
                "a",
                "b",
                "bye",
                "requested",
                "check",
            }
