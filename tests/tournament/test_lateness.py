"""Lateness, seed 004 articles 21-22: the ruling (`lateness`) and `ball result enter --late`
with the event's `--default-time`, for a BALL event, a Xiangqi event and a team event."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament import lateness, trf
from ball.tournament.errors import TournamentError

runner = CliRunner()


# ---------------------------------------------------------------------- the ruling


def test_21_1_late_within_the_default_time_plays_on_with_the_clock_run():
    r = lateness.rule({"A": 12}, 30)
    assert r.forfeit is None and r.articles == ("21.1", "21.2")
    assert "clock ran from the start" in r.text and "A 12 min late" in r.text


def test_21_1_past_the_default_time_loses_by_forfeit():
    r = lateness.rule({"B": 31}, 30)
    assert r.forfeit == "B" and "21.1" in r.articles and "22.1" in r.articles
    assert "+ / - (21.4)" in r.text


def test_e_3f_arriving_exactly_at_the_default_time_is_within_it():
    assert lateness.rule({"A": 30}, 30).forfeit is None


def test_a_player_who_never_came_forfeits_even_without_a_default_time():
    assert lateness.rule({"A": None}, None).forfeit == "A"


def test_21_3_both_late_within_the_time_both_delays_come_off():
    r = lateness.rule({"A": 5, "B": 25}, 30)
    assert r.forfeit is None and r.articles == ("21.3",)


def test_21_3_both_late_one_past_the_time_that_one_forfeits():
    r = lateness.rule({"A": 5, "B": 45}, 30)
    assert r.forfeit == "B" and r.articles[0] == "21.3"


def test_21_3_both_past_the_default_time_double_forfeit():
    r = lateness.rule({"A": 31, "B": None}, 30)
    assert r.forfeit == "both" and "double forfeit (21.3)" in r.text


def test_minutes_need_the_events_default_time():
    with pytest.raises(TournamentError, match="no default time"):
        lateness.rule({"A": 10}, None)


@pytest.mark.hypothesis
@given(
    st.dictionaries(st.sampled_from("AB"), st.none() | st.integers(0, 200), min_size=1),
    st.integers(0, 120),
)
def test_the_ruling_forfeits_exactly_the_sides_past_the_default_time(late, default):
    r = lateness.rule(late, default)
    over = {s for s, m in late.items() if m is None or m > default}
    expected = None if not over else ("both" if len(over) == 2 else over.pop())
    assert r.forfeit == expected
    assert all(a in ("21.1", "21.2", "21.3", "22.1") for a in r.articles)


def test_parse_reads_sides_and_minutes():
    assert lateness.parse(["A:12"]) == {"A": 12}
    assert lateness.parse(["A", "B:3"]) == {"A": None, "B": 3}
    assert lateness.parse(["both:40"]) == {"A": 40, "B": 40}
    for bad in (["C"], ["A:x"], ["A", "A:3"], ["A:-1"]):
        with pytest.raises(TournamentError):
            lateness.parse(bad)


# ---------------------------------------------------------------------- through `ball`


def ball(db, *args):
    return runner.invoke(app, [*(str(a) for a in args), "--db", db])


def ok(db, *args):
    r = ball(db, *args)
    assert r.exit_code == 0, r.output
    return r.output


def refused(db, *args):
    r = ball(db, *args)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1, r.output
    return lines[0]


def ball_sheet(tmp_path, winner):
    pb = {"A": {"atk": 3, "def": 3}, "B": {"atk": 3, "def": 3}}
    halves = [{"atk_first": "A", "td": winner, "pb": pb}, {"atk_first": "B", "td": None, "pb": pb}]
    path = tmp_path / f"sheet-{winner}.json"
    path.write_text(json.dumps({"coaches": ["A", "B"], "halves": halves, "forfeit": None}))
    return path


def trf_codes(db):
    """Pairing number -> the result codes of its rounds in the TRF."""
    return {p.number: [c[2] for c in p.cells] for p in trf.read(ok(db, "export", "trf")).players}


@pytest.mark.slow
def test_lateness_through_the_cli_per_article(tmp_path):
    db = str(tmp_path / "late.db")
    ok(db, "event", "create", "--name", "Late", "--system", "round-robin", "--default-time", "30")
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        ok(db, "event", "add-player", name, "--rating", 2000 - i)
    tables = json.loads(ok(db, "round", "pair", "--json"))
    first, second = tables[0]["table"], tables[1]["table"]

    # 21.1/21.2: A came 12 minutes late, within the default time: the game is played.
    refusal = refused(db, "result", "enter", "--round", 1, "--table", first, "--late", "A:12")
    assert "enter the game's sheet" in refusal
    out = ok(db, "result", "enter", "--round", 1, "--table", first, "--late", "A:12",
             "--sheet", ball_sheet(tmp_path, "A"))  # fmt: skip
    assert "wins" in out and "(21.1, 21.2)" in out
    # 21.1 / 22.1: B came 45 minutes late: lost by forfeit; a sheet is refused.
    refusal = refused(db, "result", "enter", "--round", 1, "--table", second, "--late", "B:45",
                      "--sheet", ball_sheet(tmp_path, "A"))  # fmt: skip
    assert "lost by forfeit, give no sheet" in refusal
    assert "forfeit by" in ok(db, "result", "enter", "--round", 1, "--table", second,
                              "--late", "B:45")  # fmt: skip
    log = json.loads(ok(db, "event", "log", "--json"))
    late = [x for x in log if x["kind"] == "lateness"]
    assert [x["table"] for x in late] == [first, second]
    assert "21.1" in late[0]["detail"] and "22.1" in late[1]["detail"]

    # 21.4: the record shows + for the player present and - for the one absent.
    b_side = tables[1]["b"]
    numbers = {e["name"]: e["number"] for e in json.loads(ok(db, "event", "show", "--json"))[
        "entrants"]}  # fmt: skip
    codes = trf_codes(db)
    assert codes[numbers[b_side]][0] == "-" and codes[numbers[tables[1]["a"]]][0] == "+"
    assert codes[numbers[tables[0]["a"]]][0] == "1"

    # 21.3: both past the default time: a double forfeit.
    r2 = json.loads(ok(db, "round", "pair", "--json"))
    out = ok(db, "result", "enter", "--round", 2, "--table", r2[0]["table"],
             "--late", "A:40", "--late", "B")  # fmt: skip
    assert "double forfeit" in out and "(21.3)" in out
    # 21.3: both late within it: the game is played, both delays off the clocks.
    out = ok(db, "result", "enter", "--round", 2, "--table", r2[1]["table"],
             "--late", "both:10", "--sheet", ball_sheet(tmp_path, None))  # fmt: skip
    assert "draw" in out and "both delays come off their clocks (21.3)" in out
    codes = trf_codes(db)
    assert codes[numbers[r2[0]["a"]]][1] == "-" and codes[numbers[r2[0]["b"]]][1] == "-"
    # a forfeit by --late and --forfeit together is refused; nothing is written
    r3 = json.loads(ok(db, "round", "pair", "--json"))
    where = ("result", "enter", "--round", 3, "--table", r3[0]["table"])
    assert "give no --forfeit" in refused(db, *where, "--late", "A", "--forfeit", "A")
    assert "write A, B or both" in refused(db, *where, "--late", "X:3")
    assert not [x for x in json.loads(ok(db, "event", "log", "--json")) if x["round"] == 3]
    assert "forfeit by" in ok(
        db, "result", "enter", "--round", 3, "--table", r3[0]["table"], "--late", "A"
    )  # nothing was written before: entered now


def test_minutes_late_need_a_default_time_and_a_bad_one_is_refused(tmp_path):
    db = str(tmp_path / "late.db")
    assert "--default-time is 0 to" in refused(
        db, "event", "create", "--name", "X", "--system", "swiss", "--default-time", "-5"
    )
    ok(db, "event", "create", "--name", "Late", "--system", "round-robin")
    for name in ("Ann", "Bob"):
        ok(db, "event", "add-player", name)
    ok(db, "round", "pair")
    sheet = ball_sheet(tmp_path, "A")
    where = ("result", "enter", "--round", 1, "--table", 1)
    assert "no default time" in refused(db, *where, "--late", "A:5", "--sheet", sheet)
    # who never came forfeits without a default time
    assert "forfeit by Ann" in ok(db, "result", "enter", "--round", 1, "--table", 1, "--late", "A")


def test_xiangqi_late_player_past_the_default_time_forfeits(tmp_path):
    db = str(tmp_path / "xq.db")
    ok(db, "event", "create", "--name", "XQ", "--system", "round-robin", "--game", "xiangqi",
       "--default-time", "15")  # fmt: skip
    for name in ("Red", "Blk"):
        ok(db, "event", "add-player", name)
    t = json.loads(ok(db, "round", "pair", "--json"))[0]
    assert f"forfeit by {t['a']}" in ok(db, "result", "enter", "--round", 1, "--table",
                                        t["table"], "--late", "A:16")  # fmt: skip
    table = json.loads(ok(db, "standings", "--json"))
    assert {r["name"]: r["points"] for r in table} == {t["b"]: 1.0, t["a"]: 0.0}


def test_21_4_a_team_that_does_not_come_loses_the_match_worth_2_match_points(tmp_path):
    # E-25: every board of the absent team is a forfeit (+ 1 game point each on the
    # boards) and the match is won by the team present: 2 match points (14.2).
    db = str(tmp_path / "team.db")
    ok(db, "event", "create", "--name", "Teams", "--system", "round-robin", "--teams", "2",
       "--default-time", "30")  # fmt: skip
    ok(db, "team", "add", "North", "--player", "N1=2000", "--player", "N2=1900")
    ok(db, "team", "add", "South", "--player", "S1=2000", "--player", "S2=1900")
    tables = json.loads(ok(db, "round", "pair", "--json"))
    for t in tables:
        side = "A" if t["a"].startswith("S") else "B"
        ok(db, "result", "enter", "--round", 1, "--table", t["table"], "--late", side)
    teams = json.loads(ok(db, "standings", "--json"))["teams"]["standings"]
    by_team = {t["team"]: t for t in teams}
    assert by_team["North"]["match_points"] == 2 and by_team["North"]["game_points"] == 2
    assert by_team["South"]["match_points"] == 0 and by_team["South"]["game_points"] == 0


def test_a_correction_rules_on_the_lateness_again(tmp_path):
    """`result correct --late`: the arbiter learns B came 20 minutes late, not 45 — the
    forfeit becomes the game played, and the new ruling is logged beside the first."""
    db = str(tmp_path / "late.db")
    ok(db, "event", "create", "--name", "Late", "--system", "round-robin", "--default-time", "30")
    for name in ("Ann", "Bob"):
        ok(db, "event", "add-player", name)
    t = json.loads(ok(db, "round", "pair", "--json"))[0]
    where = ("--round", 1, "--table", t["table"])
    assert f"forfeit by {t['b']}" in ok(db, "result", "enter", *where, "--late", "B:45")
    correct = ("result", "correct", *where, "--reason", "B signed in at 20 min")

    # refused, and nothing written: a forfeit beside --late, a sheet for a game lost by forfeit
    assert "give no --forfeit" in refused(db, *correct, "--late", "B:20", "--forfeit", "B")
    sheet = ball_sheet(tmp_path, "A")
    assert "give no sheet" in refused(db, *correct, "--late", "B:45", "--sheet", sheet)
    assert "enter the game's sheet" in refused(db, *correct, "--late", "B:20")
    rulings = [x for x in json.loads(ok(db, "event", "log", "--json")) if x["kind"] == "lateness"]
    assert len(rulings) == 1

    out = ok(db, *correct, "--late", "B:20", "--sheet", sheet)
    assert f"{t['a']} wins" in out and "lateness:" in out and "(21.1, 21.2)" in out
    log = json.loads(ok(db, "event", "log", "--json"))
    rulings = [x["detail"] for x in log if x["kind"] == "lateness"]
    assert len(rulings) == 2 and "22.1" in rulings[0] and "21.1" in rulings[1]
    numbers = {e["name"]: e["number"] for e in json.loads(ok(db, "event", "show", "--json"))[
        "entrants"]}  # fmt: skip
    codes = trf_codes(db)  # a game played and lost, no longer the forfeit's "-"
    assert codes[numbers[t["b"]]][0] == "0" and codes[numbers[t["a"]]][0] == "1"
