"""`ball mahjong fan` and `ball mahjong seat` contracts (issue 18): exact JSON shapes, exit 2
with one line on standard error for every bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ball.cli import app

from .published_hands import HANDS, doc

runner = CliRunner()


def ball(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["mahjong", *args], input=stdin)


def one_line_error(result, text: str) -> None:
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], result.stderr


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_fan_output_shape(tmp_path):
    big = next(h for h in HANDS if "Big Three Dragons" in h.name)
    r = ball("fan", write(tmp_path, "h.json", doc(big)))
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert list(out) == ["fan", "valid", "fans"]
    assert out == {"fan": 95, "valid": True,
                   "fans": [["Big Three Dragons", 88], ["Half Flush", 6], ["Melded Kong", 1]]}


def test_fan_defaults_absent_fields_and_reads_stdin():
    # Only hand and win_tile: not self-drawn, east seat and round, no flowers.
    orphans = {"hand": ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1",
                        "J2", "J3"], "win_tile": "W1"}
    r = ball("fan", "-", stdin=json.dumps(orphans))
    assert json.loads(r.stdout) == {"fan": 88, "valid": True, "fans": [["Thirteen Orphans", 88]]}


def test_under_minimum_is_not_valid_and_minimum_overrides(tmp_path):
    single = write(tmp_path, "s.json", doc(HANDS[1]))
    assert json.loads(ball("fan", single).stdout)["valid"] is False
    assert json.loads(ball("fan", single, "--minimum", "1").stdout)["valid"] is True
    chicken = write(tmp_path, "c.json", doc(HANDS[0]))
    assert json.loads(ball("fan", chicken, "--minimum", "9").stdout) == {
        "fan": 8, "valid": False, "fans": [["Chicken Hand", 8]]}


@pytest.mark.parametrize(
    ("content", "text"),
    [
        ({"hand": ["W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2",
                   "J2"], "win_tile": "W5"}, "not a winning hand"),
        ({"hand": ["W1"], "win_tile": "W5"}, "hand: 1 concealed tiles"),
        ({"hand": [], "win_tile": "Z9"}, "win_tile"),
        ({"hand": ["W1"] * 13, "win_tile": "W1", "melds": [["KAN", "W2"]]}, "melds[0]"),
        ([1, 2], "must be a JSON object"),
        ("{not json", "not valid JSON"),
    ],
)
def test_fan_bad_input_is_one_line(tmp_path, content, text):
    one_line_error(ball("fan", write(tmp_path, "bad.json", content)), text)


def test_fan_missing_file_and_bad_minimum(tmp_path):
    one_line_error(ball("fan", str(tmp_path / "none.json")), "no such file")
    ok = write(tmp_path, "ok.json", doc(HANDS[0]))
    one_line_error(ball("fan", ok, "--minimum", "eight"), "--minimum")


def test_seat_output_shape_and_players_numbered_from_one():
    r = ball("seat", "--players", "16", "--sessions", "7", "--seed", "3", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert list(out) == ["sessions"] and len(out["sessions"]) == 7
    for session in out["sessions"]:
        assert len(session) == 4 and all(len(table) == 4 for table in session)
        assert sorted(p for table in session for p in table) == list(range(1, 17))
    again = ball("seat", "--players", "16", "--sessions", "7", "--seed", "3", "--json")
    assert again.stdout == r.stdout


def test_seat_with_teams_file(tmp_path):
    teams = write(tmp_path, "teams.csv",
                  "player,team\n" + "".join(f"{p},T{(p - 1) // 4}\n" for p in range(1, 33)))
    r = ball("seat", "--players", "32", "--sessions", "3", "--teams", teams, "--json")
    assert r.exit_code == 0, r.output
    for session in json.loads(r.stdout)["sessions"]:
        for table in session:
            assert len({(p - 1) // 4 for p in table}) == 4


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["--players", "18", "--sessions", "7", "--json"], "not a multiple of 4"),
        (["--players", "x", "--sessions", "7", "--json"], "--players"),
        (["--players", "16", "--sessions", "0", "--json"], "--sessions"),
        (["--sessions", "7", "--json"], "--players is required"),
        (["--players", "16", "--sessions", "2", "--seed", "-1", "--json"], "--seed"),
        (["--players", "16", "--sessions", "2", "--teams", "/no/such.csv"], "no such file"),
    ],
)
def test_seat_bad_input_is_one_line(args, text):
    one_line_error(ball("seat", *args), text)


def test_seat_bad_teams_file(tmp_path):
    teams = write(tmp_path, "t.csv", "1,A\n99,B\n")
    one_line_error(ball("seat", "--players", "16", "--sessions", "2", "--teams", teams),
                   "player 99 is not one of 1..16")


def test_seat_csv_then_check(tmp_path):
    r = ball("seat", "--players", "16", "--sessions", "7", "--seed", "1")
    assert r.stdout.startswith("session,table,E,S,W,N\n")
    path = write(tmp_path, "s.csv", r.stdout)
    found = json.loads(ball("check", path, "--json").stdout)
    assert (found["repeats"], found["repeat_bound"], found["wind_spread"]) == (48, 48, [1, 2])
    text = ball("check", path).stdout
    assert "repeat meetings 48 (least possible 48)" in text
    one_line_error(ball("check", write(tmp_path, "b.csv", "1,1,1,2,3,3\n")), "seated twice")


# Issue 32 item 3: the sizes a no-repeat design is known for, through the command line.
@pytest.mark.parametrize(("players", "sessions"), [(32, 10), (24, 6), (24, 7)])
def test_seat_reaches_zero_repeats_with_exact_winds(players, sessions):
    r = ball("seat", "--players", str(players), "--sessions", str(sessions), "--json")
    assert r.exit_code == 0, r.output
    met: set[tuple[int, int]] = set()
    winds = {p: [0, 0, 0, 0] for p in range(1, players + 1)}
    for session in json.loads(r.stdout)["sessions"]:
        for table in session:
            for seat, p in enumerate(table):
                winds[p][seat] += 1
                for q in table[seat + 1:]:
                    pair = (min(p, q), max(p, q))
                    assert pair not in met, f"{pair} meet twice"
                    met.add(pair)
    assert len(met) == players * 3 * sessions // 2
    lo, hi = sessions // 4, -(-sessions // 4)
    assert all(lo <= n <= hi for counts in winds.values() for n in counts)
