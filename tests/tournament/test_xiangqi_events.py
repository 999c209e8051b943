"""A 9-player Xiangqi round robin and a 20-player Swiss run through the CLI (issue 16), the
standings checked against an independent computation of the seed's order (15.1 round robin:
small points = Sonneborn-Berger, wins, direct encounter, fouls; 15.2 Swiss: opponents'
points = Buchholz, wins, fouls; 18.4 sanctioned last among equals; then games and wins with
Black) and the colour balance of Red (= TRF White) and Black checked (13.1)."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict

import pytest

from .test_cli import ball

pytestmark = pytest.mark.slow

WIN = ("checkmate", "resignation", "time", "no-legal-move")
DRAW = ("agreement", "repetition", "natural-move-limit")


def ok(*args: str) -> str:
    r = ball(*args)
    assert r.exit_code == 0, r.output
    return r.output


class Played:
    """What the test itself entered: the independent record the standings are checked by."""

    def __init__(self) -> None:
        self.games: list[tuple[str, str, float]] = []  # red, black, red's points (1, ½, 0)
        self.fouls: dict[str, int] = defaultdict(int)
        self.sanctions: dict[str, list[str]] = defaultdict(list)
        self.colours: dict[str, str] = defaultdict(str)  # "w"/"b" per round, in order

    def points(self, name: str) -> float:
        return sum(
            p if r == name else 1 - p for r, b, p in self.games if name in (r, b)
        )  # fmt: skip

    def scored_against(self, name: str) -> list[tuple[str, float]]:
        out = []
        for r, b, p in self.games:
            if r == name:
                out.append((b, p))
            elif b == name:
                out.append((r, 1 - p))
        return out

    def wins(self, name: str) -> int:
        return sum(1 for _, p in self.scored_against(name) if p == 1)

    def black(self, name: str) -> tuple[int, int]:
        games = [p for r, b, p in self.games if b == name]
        return len(games), sum(1 for p in games if p == 0)

    def sanction_weight(self, name: str) -> float:
        steps = self.sanctions[name]
        return 1000.0 * steps.count("disqualification") + steps.count("warning")


def play_round(db: str, tmp_path, rnd: int, rng: random.Random, played: Played) -> None:
    tables = json.loads(ok("round", "pair", "--db", db, "--json"))
    assert len(tables) == len(json.loads(ok("round", "show", "--db", db, "--json")))
    for t in tables:
        if t["b"] is None:
            continue
        red, black = t["a"], t["b"]
        played.colours[red] += "w"
        played.colours[black] += "b"
        result = rng.choice(["1-0", "0-1", "1/2-1/2", "1/2-1/2"])
        fouls = {red: rng.choice([0, 0, 1, 2]), black: rng.choice([0, 0, 1])}
        reason = rng.choice(DRAW if result == "1/2-1/2" else WIN)
        sheet = tmp_path / f"r{rnd}t{t['table']}.json"
        sheet.write_text(
            json.dumps({"players": [red, black], "result": result, "reason": reason,
                        "fouls": fouls, "moves": rng.randint(20, 90)}),
            encoding="utf-8",
        )  # fmt: skip
        ok("result", "enter", "--db", db, "--round", str(rnd), "--table", str(t["table"]),
           "--sheet", str(sheet))  # fmt: skip
        played.games.append((red, black, {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]))
        for name, n in fouls.items():
            played.fouls[name] += n


def sanction(db: str, played: Played, name: str, step: str) -> None:
    ok("event", "log", "sanction", "arbiter's ruling", "--player", name, "--step", step,
       "--db", db)  # fmt: skip
    played.sanctions[name].append(step)


def check_order(table: list[dict], key) -> None:
    """The standings are sorted by `key` and share a rank exactly when the keys are equal."""
    keys = [key(row) for row in table]
    # The run is only a test of the tie-breaks if some entrants are equal on points.
    assert any(a["points"] == b["points"] for a, b in zip(table, table[1:], strict=False))
    assert keys == sorted(keys), [(r["name"], k) for r, k in zip(table, keys, strict=True)]
    for i in range(len(table) - 1):
        (a, ka), (b, kb) = (table[i], keys[i]), (table[i + 1], keys[i + 1])
        assert (a["rank"] == b["rank"]) == (ka == kb), (a, b)


def mini_points(played: Played, name: str, group: set[str]) -> float:
    return sum(p for opp, p in played.scored_against(name) if opp in group)


def test_a_9_player_round_robin_through_the_cli(tmp_path):
    db = str(tmp_path / "rr.db")
    ok("event", "create", "--db", db, "--name", "Xiangqi RR", "--system", "round-robin",
       "--game", "xiangqi", "--draw-lots", "7")  # fmt: skip
    names = [f"Player {c}" for c in "ABCDEFGHI"]
    for name in names:
        ok("event", "add-player", "--db", db, name)
    played, rng = Played(), random.Random(16)
    for rnd in range(1, 10):  # 9 entrants: 9 rounds, each entrant sits out once
        play_round(db, tmp_path, rnd, rng, played)
    sanction(db, played, "Player C", "warning")
    sanction(db, played, "Player F", "disqualification")
    table = json.loads(ok("standings", "--db", db, "--json"))
    assert len(table) == 9
    assert list(table[0]["tiebreaks"]) == ["sanctions", "sonneborn-berger", "wins",
        "direct-encounter", "fouls"]  # fmt: skip

    points = {n: played.points(n) for n in names}
    sb = {n: sum(points[o] * p for o, p in played.scored_against(n)) for n in names}

    def prior(n: str) -> tuple:
        return (-points[n], played.sanction_weight(n), -sb[n], -played.wins(n))

    groups: dict[tuple, set[str]] = defaultdict(set)
    for n in names:
        groups[prior(n)].add(n)

    def key(row: dict) -> tuple:
        n = row["name"]
        assert row["points"] == points[n]
        assert row["tiebreaks"]["sonneborn-berger"] == sb[n]
        assert row["tiebreaks"]["fouls"] == played.fouls[n]
        group = groups[prior(n)]
        return (*prior(n), -mini_points(played, n, group) if len(group) > 1 else 0,
                played.fouls[n])  # fmt: skip

    check_order(table, key)
    # 13.1 / Berger tables: with 9 entrants everyone plays 8 games, 4 with Red, 4 with Black.
    assert {n: (c.count("w"), c.count("b")) for n, c in played.colours.items()} == {
        n: (4, 4) for n in names
    }
    # The TRF writes Red as White: every entrant's colours there are the ones played.
    trf = ok("export", "trf", "--db", db)
    for line in trf.splitlines():
        if line.startswith("001"):
            name = line[14:47].strip()
            games = re.findall(r" (\d+) ([wb-]) ([10=+\-UHFZ])", line[80:])
            assert len(games) == 9, line
            colours = "".join(colour for _, colour, _ in games).replace("-", "")
            assert colours == played.colours[name], line


def test_a_20_player_swiss_through_the_cli(tmp_path):
    db = str(tmp_path / "sw.db")
    ok("event", "create", "--db", db, "--name", "Xiangqi Swiss", "--system", "swiss",
       "--rounds", "6", "--game", "xiangqi", "--scoring", "2-1-0", "--draw-lots", "3",
       # the organiser adds games and wins with Black after the seed's 15.2 chain
       "--tiebreaks", "sanctions,buchholz,wins,fouls,black-games,black-wins")  # fmt: skip
    names = [f"S{i:02d}" for i in range(1, 21)]
    for i, name in enumerate(names):
        ok("event", "add-player", "--db", db, name, "--rating", str(2400 - 10 * i))
    played, rng = Played(), random.Random(1616)
    for rnd in range(1, 7):
        play_round(db, tmp_path, rnd, rng, played)
        if rnd == 3:
            sanction(db, played, "S05", "warning")
            sanction(db, played, "S12", "warning")
            sanction(db, played, "S12", "warning")
    table = json.loads(ok("standings", "--db", db, "--json"))
    assert list(table[0]["tiebreaks"]) == ["sanctions", "buchholz", "wins", "fouls",
                                           "black-games", "black-wins"]  # fmt: skip
    # 2/1/0 (14.1 doubled): points are twice the games' points.
    points = {n: 2 * played.points(n) for n in names}
    buchholz = {n: sum(points[o] for o, _ in played.scored_against(n)) for n in names}

    def key(row: dict) -> tuple:
        n = row["name"]
        assert row["points"] == points[n]
        assert row["tiebreaks"]["buchholz"] == buchholz[n]
        assert row["tiebreaks"]["sanctions"] == played.sanction_weight(n)
        assert (row["tiebreaks"]["black-games"], row["tiebreaks"]["black-wins"]) == played.black(n)
        return (-points[n], played.sanction_weight(n), -buchholz[n], -played.wins(n),
                played.fouls[n], -played.black(n)[0], -played.black(n)[1])  # fmt: skip

    check_order(table, key)
    # Colour balance (FIDE Dutch, Red = White): every entrant played 6 games with a colour
    # difference of at most 2 and never the same colour three times running.
    for name in names:
        colours = played.colours[name]
        assert len(colours) == 6
        assert abs(colours.count("w") - colours.count("b")) <= 2, (name, colours)
        assert "www" not in colours and "bbb" not in colours, (name, colours)
    assert sum(c.count("w") for c in played.colours.values()) == 60
