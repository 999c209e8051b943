"""Issue 17 end to end through `ball`: a 13-entrant knockout paired each round by the
drawing of lots of seed 004 section 9, ties played as best-of-3 mini-matches (article 6),
one tie decided by extra games and one by lots; the audit log replays every draw."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament.lots import replay, toss

runner = CliRunner()


def ball(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def ok(*args: str):
    r = ball(*args)
    assert r.exit_code == 0, r.output
    return r.output


def draw_sheet():
    half = {"td": None, "pb": {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}}
    return {
        "coaches": ["A", "B"],
        "halves": [dict(half, atk_first="A"), dict(half, atk_first="B")],
        "forfeit": None,
    }


class Desk:
    def __init__(self, tmp_path):
        self.db = str(tmp_path / "ko.db")
        self.draw = tmp_path / "draw.json"
        self.draw.write_text(json.dumps(draw_sheet()))

    def __call__(self, *args):
        return ok(*args, "--db", self.db)

    def game(self, rnd, table, game, result):
        """Side A (the red card) or B wins game `game`, or D: a drawn game. Coach A of a
        game is the side with the first colour: A in odd games, B in even ones."""
        if result == "D":
            how = ["--sheet", str(self.draw)]
        else:
            first = "A" if game % 2 else "B"
            loser = "B" if result == "A" else "A"
            how = ["--forfeit", "A" if loser == first else "B"]
        return self("result", "enter", "--round", rnd, "--table", table, "--game", game, *how)

    def tables(self, rnd):
        return json.loads(self("round", "show", "--round", rnd, "--json"))


@pytest.mark.slow
def test_thirteen_entrants_to_the_final_by_the_drawing_of_lots(tmp_path):
    desk = Desk(tmp_path)
    out = desk("event", "create", "--name", "Cup", "--system", "knockout",
               "--games-per-tie", "3", "--extra-games", "2", "--tie-break", "lots")  # fmt: skip
    assert out.startswith("event 1: Cup (knockout)")
    names = [f"P{i:02d}" for i in range(1, 14)]
    for i, name in enumerate(names):
        desk("event", "add-player", name, "--rating", 2000 - i)

    # Round 1: two sets of 1-6 and a K for 13 players, drawn here from seed 2026.
    r1 = json.loads(desk("round", "draw", "Cup", "--seed", "2026", "--json"))
    assert r1["round"] == 1 and r1["seed"] == 2026
    assert sorted(r1["cards"].values()) == sorted(
        [f"{i}{s}" for s in "RB" for i in range(1, 7)] + ["K"]
    )
    games = [t for t in r1["tables"] if t["b"] is not None]
    byes = [t for t in r1["tables"] if t["b"] is None]
    assert len(games) == 6 and len(byes) == 1
    assert r1["cards"][byes[0]["a"]] == "K"
    for t in games:  # the red card's holder has the first colour in game 1
        assert r1["cards"][t["a"]].endswith("R") and r1["cards"][t["b"]].endswith("B")
        assert r1["cards"][t["a"]][:-1] == r1["cards"][t["b"]][:-1]
        assert t["tie"]["next_game"] == 1 and t["tie"]["next_first"] == t["a"]

    # Table 1: 1-1 after a drawn third game, then side A wins both extra games.
    for g, res in enumerate(["A", "B", "D", "A"], start=1):
        desk.game(1, 1, g, res)
    out = desk.game(1, 1, 5, "A")
    assert out.strip() == (
        f"table 1 game 5: {games[0]['a']} - {games[0]['b']} 1.5-1.5, extra games 2-0: "
        f"{games[0]['a']} goes through (extra games)"
    )
    # Table 2: level after the games and the extra games: a drawing of lots decides.
    for g, res in enumerate(["B", "A", "D", "A"], start=1):
        desk.game(1, 2, g, res)
    out = desk.game(1, 2, 5, "B")
    assert "a drawing of lots decides" in out
    r = ball("result", "enter", "--db", desk.db, "--round", "1", "--table", "2", "--game", "6",
             "--forfeit", "A")  # fmt: skip
    assert r.exit_code == 2 and "a drawing of lots is due" in r.output
    out = desk("result", "lots", "--round", "1", "--table", "2", "--seed", "7")
    lots_winner = toss([games[1]["a"], games[1]["b"]], 7)
    assert out.strip() == f"table 2: {lots_winner} wins the drawing of lots (seed 7)"
    # The other ties: side B wins 2-0 (the first game's loser had the first colour).
    for t in games[2:]:
        desk.game(1, t["table"], 1, "B")
        out = desk.game(1, t["table"], 2, "B")
        assert out.strip().endswith(f"0-2: {t['b']} goes through (games)")
        r = ball("result", "enter", "--db", desk.db, "--round", "1", "--table", t["table"],
                 "--game", "3", "--forfeit", "A")  # fmt: skip
        assert r.exit_code == 2 and "game 3 is not played, the tie is decided" in r.output

    shown = desk.tables(1)
    assert [t["tie"]["how"] for t in shown if t["b"]] == ["extra games", "lots"] + ["games"] * 4
    winners = [t["tie"]["winner"] for t in shown if t["b"]]
    assert winners == [games[0]["a"], lots_winner] + [t["b"] for t in games[2:]]

    # Round 2: the six winners and the bye holder redraw, cards entered as drawn (1-3, K).
    field2 = sorted(winners + [byes[0]["a"]])
    cards2 = dict(zip(field2, ["1R", "2R", "3R", "1B", "2B", "3B", "K"], strict=True))
    out = desk("round", "draw", "--json", *[f"--card={n}={c}" for n, c in cards2.items()])
    r2 = json.loads(out)
    assert r2["seed"] is None and r2["cards"] == cards2
    assert [(t["a"], t["b"]) for t in r2["tables"]] == [
        (field2[0], field2[3]), (field2[1], field2[4]), (field2[2], field2[5]), (field2[6], None)
    ]  # fmt: skip
    for table in (1, 2, 3):  # side A 2-0 at every table
        desk.game(2, table, 1, "A")
        desk.game(2, table, 2, "A")

    # Round 3 (semi-finals): the three winners and the bye holder, cards from a CSV file.
    field3 = [field2[0], field2[1], field2[2], field2[6]]
    csv_file = tmp_path / "r3.csv"
    csv_file.write_text(
        "".join(f"{n},{c}\n" for n, c in zip(field3, ["2B", "1R", "1B", "2R"], strict=True))
    )
    r3 = json.loads(desk("round", "draw", "--cards", str(csv_file), "--json"))
    pairs3 = [(t["a"], t["b"]) for t in r3["tables"]]
    assert pairs3 == [(field3[1], field3[2]), (field3[3], field3[0])]
    for table in (1, 2):
        desk.game(3, table, 1, "A")
        desk.game(3, table, 2, "B")
        desk.game(3, table, 3, "A")

    # The final, drawn from a seed; then the knockout is complete.
    final = json.loads(desk("round", "draw", "--seed", "11", "--json"))
    (table,) = final["tables"]
    assert {table["a"], table["b"]} == {field3[1], field3[3]}
    desk.game(4, 1, 1, "B")
    desk.game(4, 1, 2, "B")
    r = ball("round", "draw", "--db", desk.db, "--seed", "1")
    assert r.exit_code == 2 and r.output.strip() == "error: the knockout is complete"

    standings = json.loads(desk("standings", "--json"))
    assert standings[0]["name"] == table["b"] and standings[0]["rank"] == 1
    assert standings[1]["name"] == table["a"] and standings[1]["rank"] == 2
    champion_ties = standings[0]["ties"]
    played = [r for r in (1, 2, 3, 4) if any(table["b"] in (t["a"], t["b"]) and t["b"]
                                             for t in desk.tables(r))]  # fmt: skip
    assert [t["round"] for t in champion_ties] == played and played[-2:] == [3, 4]
    assert all(t["won"] for t in champion_ties)
    by_name = {s["name"]: s for s in standings}
    assert by_name[games[0]["a"]]["ties"][0]["how"] == "extra games"
    assert by_name[games[0]["a"]]["ties"][0]["extra_points"] == 2.0

    # The audit log: one entry per drawing of lots; each replays to the round's tables.
    log = json.loads(desk("event", "log", "--json"))
    draws = [e for e in log if e["kind"] == "draw"]
    assert [e["round"] for e in draws] == [1, 2, 3, 4]
    for entry in draws:
        record = json.loads(entry["detail"])
        again = replay(record)
        tables = desk.tables(entry["round"])
        assert [(t["a"], t["b"]) for t in tables if t["b"]] == again.pairs()
        assert [t["a"] for t in tables if t["b"] is None] == ([again.bye()] if again.bye() else [])
    (tie_lots,) = [e for e in log if e["kind"] == "lots"]
    record = json.loads(tie_lots["detail"])
    assert toss(record["sides"], record["seed"]) == record["winner"] == lots_winner
    text = desk("event", "log")
    assert "draw (round 1): " in text and "lots (round 1 table 2): " in text
