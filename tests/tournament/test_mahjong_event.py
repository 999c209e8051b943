"""Issue 18: a Mahjong event of tables of four through the CLI — 16 players, 4 sessions,
session sheets with a false win (WC 6, 8), a dead hand (LS 3-4) and a time penalty (TL 2,
5), table points with ties, standings by table points then score (M-04) checked by hand,
and the refusals (one line, exit 2, nothing written)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from ball.cli import app

runner = CliRunner()
WINDS = ("E", "S", "W", "N")


def ball(*args: str):
    return runner.invoke(app, list(args))


def ok(*args: str) -> str:
    r = ball(*args)
    assert r.exit_code == 0, r.output
    return r.output


def refused(*args: str) -> str:
    r = ball(*args)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
    return lines[0]


def make_event(db: str, players: int = 16, sessions: int = 4, *extra: str) -> None:
    ok("event", "create", "--db", db, "--name", "MJ Open", "--game", "mahjong",
       "--sessions", str(sessions), "--draw-lots", "11", *extra)  # fmt: skip
    for i in range(1, players + 1):
        ok("event", "add-player", "--db", db, f"P{i}", "--club", f"T{(i - 1) % 4}")


# --- the test's own scoring (MCR as the WMC plays it), independent of ball.games.mahjong.engine
# -------


def hand_points(winner: str, discarder: str | None, fan: int) -> dict[str, int]:
    """Discard: the discarder pays 8 + fan, the other two 8; self-drawn: all pay 8 + fan."""
    out = dict.fromkeys(WINDS, 0)
    for seat in WINDS:
        if seat == winner:
            continue
        pays = 8 + fan if discarder is None or seat == discarder else 8
        out[seat] -= pays
        out[winner] += pays
    return out


def places(scores: dict[str, int]) -> dict[str, Fraction]:
    """4/2/1/0 by score, tied seats sharing the points of the places they span."""
    ladder = (4, 2, 1, 0)
    order = sorted(WINDS, key=lambda w: -scores[w])
    out = {}
    for w in WINDS:
        first = order.index(next(x for x in order if scores[x] == scores[w]))
        n = sum(1 for x in WINDS if scores[x] == scores[w])
        out[w] = Fraction(sum(ladder[first:first + n]), n)
    return out


def write(tmp_path, name: str, doc: dict) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


TEMPLATE = "session,table,E,S,W,N\n1,1,1,2,3,4\n1,2,5,6,7,8\n1,3,9,10,11,12\n1,4,13,14,15,16\n"


def session_one_sheets() -> list[dict]:
    """Four tables of session 1 (players P1..P16 from the template, E S W N)."""
    seats = [{w: f"P{4 * t + i + 1}" for i, w in enumerate(WINDS)} for t in range(4)]
    return [
        {  # a false win by N in hand 2: -30, +10 to each other (WC 6, 8)
            "table": 1, "seats": seats[0],
            "hands": [{"winner": "E", "discarder": "S", "fan": 8},
                      {"winner": "W", "discarder": None, "fan": 10},
                      {"draw": True}],
            "penalties": [{"hand": 2, "seat": "N", "kind": "false-win", "at": "10:42"}],
            "totals": {"E": 14, "S": -34, "W": 46, "N": -26},
        },
        {  # W's hand is dead in hand 3 (long hand, LS 4); S and N tie for first
            "table": 2, "seats": seats[1],
            "hands": [{"winner": "E", "discarder": "W", "fan": 8},
                      {"winner": "S", "discarder": "N", "fan": 8},
                      {"winner": "N", "discarder": "E", "fan": 16}],
            "penalties": [{"hand": 3, "seat": "W", "kind": "long-hand", "at": "11:15"}],
        },
        {  # S is 20 s over the turn limit: two started 15 s, 10 points (TL 2, 5)
            "table": 3, "seats": seats[2],
            "hands": [{"winner": "E", "discarder": None, "fan": 8}],
            "time_penalties": [{"hand": 1, "seat": "S", "at": "10:05", "over_seconds": 20,
                                "limit": "turn"}],
        },
        {"table": 4, "seats": seats[3], "hands": [{"winner": "N", "discarder": "E", "fan": 24}]},
    ]  # fmt: skip


def expected_session_one() -> dict[str, tuple[Fraction, int]]:
    """Session 1 worked by hand (the comments give the sums)."""
    t1 = {"E": 32 + 10 - 18, "S": -16 + 10 - 18, "W": -8 + 10 + 54, "N": -8 - 30 - 18}
    t2 = {"E": 32 - 8 - 24, "S": -8 + 32 - 8, "W": -16 - 8 - 8, "N": -8 - 16 + 40}
    t3 = {"E": 48, "S": -16 - 10, "W": -16, "N": -16}
    t4 = {"E": -32, "S": -8, "W": -8, "N": 48}
    assert t1 == {"E": 24, "S": -24, "W": 56, "N": -56}
    assert t2 == {"E": 0, "S": 16, "W": -32, "N": 16}
    tp = {  # 4/2/1/0; S and N of table 2 share 4+2; the ties for third share 1+0 ... by hand
        1: {"W": 4, "E": 2, "S": 1, "N": 0},
        2: {"S": 3, "N": 3, "E": 1, "W": 0},
        3: {"E": 4, "W": Fraction(3, 2), "N": Fraction(3, 2), "S": 0},
        4: {"N": 4, "S": Fraction(3, 2), "W": Fraction(3, 2), "E": 0},
    }
    out = {}
    for t, scores in enumerate((t1, t2, t3, t4), 1):
        for i, w in enumerate(WINDS):
            out[f"P{4 * (t - 1) + i + 1}"] = (Fraction(tp[t][w]), scores[w])
    return out


def later_sheet(table: dict, session: int) -> dict:
    """A later session's sheet: two hands that vary with the session."""
    seats = table["seats"]
    return {
        "table": table["table"], "seats": seats,
        "hands": [{"winner": "E", "discarder": "S", "fan": 8 + session},
                  {"winner": WINDS[session % 4], "discarder": None, "fan": 8 + table["table"]}],
    }  # fmt: skip


def later_points(sheet: dict) -> dict[str, tuple[Fraction, int]]:
    total = dict.fromkeys(WINDS, 0)
    for h in sheet["hands"]:
        for w, p in hand_points(h["winner"], h["discarder"], h["fan"]).items():
            total[w] += p
    tp = places(total)
    return {sheet["seats"][w]: (tp[w], total[w]) for w in WINDS}


@pytest.mark.slow  # many CLI calls, each opening the database
def test_sixteen_players_four_sessions(tmp_path):
    db = str(tmp_path / "mj.db")
    make_event(db)
    template = tmp_path / "seating.csv"
    template.write_text(TEMPLATE)
    data = json.loads(ok("round", "pair", "--db", db, "--seating", str(template), "--json"))
    assert data["session"] == 1 and data["method"] == "template (imported)"
    assert data["tables"][1]["seats"] == {"E": "P5", "S": "P6", "W": "P7", "N": "P8"}
    # club T0..T3 by (i-1)%4: the template seats one of each team per table
    assert data["report"]["team_clashes"] == [] and data["report"]["repeats"] == 0

    sheets = session_one_sheets()
    # a dead hand cannot win: W of table 2 is dead in hand 3 (LS 4)
    dead = dict(sheets[1], hands=sheets[1]["hands"][:2] + [{"winner": "W", "discarder": "E",
                                                            "fan": 8}])
    line = refused("result", "enter", "--db", db, "--sheet", write(tmp_path, "dead.json", dead))
    assert "hands[2].winner" in line and "dead" in line
    for t, sheet in enumerate(sheets, 1):
        ok("result", "enter", "--db", db, "--sheet", write(tmp_path, f"s1t{t}.json", sheet))

    expected = expected_session_one()
    rows = json.loads(ok("standings", "--db", db, "--json"))["standings"]
    got = {r["name"]: (Fraction(r["table_points_exact"]), r["score"]) for r in rows}
    assert got == expected
    order = [r["name"] for r in rows]
    # table points, then score, then player number (M-04), worked by hand:
    assert order == ["P3", "P9", "P16", "P6", "P8", "P1", "P14", "P15", "P11", "P12", "P5",
                     "P2", "P10", "P7", "P13", "P4"]  # fmt: skip
    assert sum(v[0] for v in expected.values()) == 28  # 7 a table

    totals = dict(expected)
    for session, method in ((2, "ranking"), (3, "balanced"), (4, None)):
        args = ["round", "pair", "--db", db, "--json"] + (["--method", method] if method else [])
        data = json.loads(ok(*args))
        assert data["session"] == session
        if method == "ranking":  # the top four together, and so on (no team-mates meet here)
            tables = [set(t["seats"].values()) for t in data["tables"]]
            assert tables == [set(order[i:i + 4]) for i in range(0, 16, 4)]
            assert data["report"]["team_clashes"] == []
        assert len(data["report"]["repeats_per_session"]) == session
        for table in data["tables"]:
            sheet = later_sheet(table, session)
            ok("result", "enter", "--db", db, "--sheet",
               write(tmp_path, f"s{session}t{table['table']}.json", sheet))  # fmt: skip
            for name, (tp, score) in later_points(sheet).items():
                totals[name] = (totals[name][0] + tp, totals[name][1] + score)

    result = json.loads(ok("standings", "--db", db, "--json"))
    assert result["sessions"] == 4
    rows = result["standings"]
    assert {r["name"]: (Fraction(r["table_points_exact"]), r["score"]) for r in rows} == totals
    assert all(r["sessions"] == 4 for r in rows)
    want = sorted(totals, key=lambda n: (-totals[n][0], -totals[n][1], int(n[1:])))
    assert [r["name"] for r in rows] == want
    teams = {t["team"]: t for t in result["teams"]}
    for k in range(4):
        members = [f"P{i}" for i in range(1, 17) if (i - 1) % 4 == k]
        assert Fraction(teams[f"T{k}"]["table_points_exact"]) == sum(totals[m][0] for m in members)
        assert teams[f"T{k}"]["score"] == sum(totals[m][1] for m in members)

    # the whole seating exports as the CSV it imports from
    csv = ok("export", "seating", "--db", db)
    assert csv.splitlines()[0] == "session,table,E,S,W,N" and csv.startswith(TEMPLATE)
    assert len(csv.splitlines()) == 1 + 16
    assert ok("export", "seating", "--db", db, "--round", "2").splitlines()[1].startswith("2,1,")
    refused("round", "pair", "--db", db)  # every session is seated


@pytest.mark.slow  # many CLI calls, each opening the database
def test_refusals_write_nothing(tmp_path):
    db = str(tmp_path / "mj.db")
    make_event(db, sessions=2)
    template = tmp_path / "seating.csv"
    template.write_text(TEMPLATE)
    ok("round", "pair", "--db", db, "--seating", str(template))
    sheet = session_one_sheets()[3]
    cases = {
        "seats.E": dict(sheet, seats={"E": "P14", "S": "P13", "W": "P15", "N": "P16"}),
        "not a player": dict(sheet, seats={"E": "Zed", "S": "P14", "W": "P15", "N": "P16"}),
        "totals: sum to 8, not zero": dict(sheet, totals={"E": -32, "S": -8, "W": 0, "N": 48}),
        "totals.S": dict(sheet, totals={"E": -32, "S": -16, "W": 0, "N": 48}),
        "hands[0].fan": dict(sheet, hands=[{"winner": "N", "discarder": "E", "fan": 7}]),
        "hands[0].discarder": dict(sheet, hands=[{"winner": "N", "discarder": "X", "fan": 8}]),
        "penalties[0].kind": dict(sheet, penalties=[{"seat": "E", "kind": "rude"}]),
        "penalties[0].at": dict(sheet, penalties=[{"seat": "E", "kind": "false-win",
                                                   "at": "25:99"}]),
        "no table 9": dict(sheet, table=9),
    }  # fmt: skip
    for needle, doc in cases.items():
        line = refused("result", "enter", "--db", db, "--sheet", write(tmp_path, "x.json", doc))
        assert needle in line, (needle, line)
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    refused("result", "enter", "--db", db, "--sheet", str(bad))
    refused("result", "enter", "--db", db, "--round", "1", "--table", "4", "--forfeit", "A")
    assert "without a sheet" in refused("round", "pair", "--db", db)
    path = write(tmp_path, "t4.json", sheet)
    ok("result", "enter", "--db", db, "--sheet", path)
    assert "correct it instead" in refused("result", "enter", "--db", db, "--sheet", path)
    # Issue 32 item 7: the help says what an identical repeat does (exit 2, nothing stored)
    help_text = " ".join(ok("result", "enter", "--help").replace("│", " ").split())
    assert "second entry for the same table is refused with exit 2" in help_text
    assert "changes nothing" not in help_text
    fixed = dict(sheet, hands=[{"winner": "N", "discarder": None, "fan": 8}])
    refused("result", "correct", "--db", db, "--reason", " ", "--sheet", path)
    out = ok("result", "correct", "--db", db, "--reason", "self-drawn, not a discard",
             "--sheet", write(tmp_path, "fix.json", fixed))  # fmt: skip
    assert "N P16 +48 (4)" in out
    shown = json.loads(ok("round", "show", "--db", db, "--json"))["tables"][3]
    assert shown["scores"] == {"E": -16, "S": -16, "W": -16, "N": 48}
    from ball.tournament import TournamentService

    svc = TournamentService(db)
    corrections = svc.results.corrections()
    assert len(corrections) == 1 and corrections[0]["reason"] == "self-drawn, not a discard"
    # the two-player paths refuse a Mahjong event, and a Mahjong event needs --sessions
    for call in (svc.rounds.pair_next_round, svc.ranking.standings, svc.trf.export_trf):
        try:
            call()
        except Exception as exc:  # TournamentError
            assert "Mahjong" in str(exc)
        else:
            raise AssertionError(call)
    refused("event", "create", "--db", db, "--name", "Other", "--game", "mahjong")
    refused("event", "create", "--db", db, "--name", "Other", "--system", "swiss",
            "--sessions", "3")  # fmt: skip
    refused("event", "create", "--db", db, "--name", "Other")


def test_players_not_a_multiple_of_four(tmp_path):
    db = str(tmp_path / "mj.db")
    make_event(db, players=14)
    assert "multiple of 4" in refused("round", "pair", "--db", db)
    assert "is not a Mahjong event" not in refused("round", "pair", "--db", db, "--method", "x")


@pytest.mark.slow  # many CLI calls, each opening the database
def test_random_first_session_is_seeded(tmp_path):
    tables = []
    for k in range(2):
        db = str(tmp_path / f"mj{k}.db")
        make_event(db)
        data = json.loads(ok("round", "pair", "--db", db, "--json"))
        assert data["method"] == "random (seed 11)"
        tables.append(data["tables"])
        names = [n for t in data["tables"] for n in t["seats"].values()]
        assert sorted(names) == sorted(f"P{i}" for i in range(1, 17))
    assert tables[0] == tables[1]


def test_a_sheet_with_a_waiver_and_the_80_point_line_through_the_cli(tmp_path):
    # TL 6: a waived overrun gives its points back; TL 7: the arbiter's confirmation at 80
    # time points in one hand is a ruling on the log; refused below the line (M-14, 3).
    db = str(tmp_path / "mj.db")
    make_event(db, sessions=1)
    template = tmp_path / "seating.csv"
    template.write_text(TEMPLATE)
    ok("round", "pair", "--db", db, "--seating", str(template))
    seats = {"E": "P1", "S": "P2", "W": "P3", "N": "P4"}
    times = [{"hand": 1, "seat": "W", "at": "10:00", "over_seconds": 240, "limit": "hand"},
             {"hand": 1, "seat": "S", "at": "10:01", "over_seconds": 20, "limit": "turn",
              "waived": "the clock was knocked over"}]  # fmt: skip
    early = {"table": 1, "seats": seats, "hands": [{"draw": True}], "time_penalties": times,
             "penalties": [{"hand": 1, "seat": "S", "kind": "unwilling"}]}  # fmt: skip
    line = refused("result", "enter", "--db", db, "--sheet", write(tmp_path, "a.json", early))
    assert "penalties[0]: seat 1: has not reached 80 time points" in line
    sheet = dict(early, penalties=[{"hand": 1, "seat": "W", "kind": "unwilling", "at": "10:02"}])
    out = ok("result", "enter", "--db", db, "--sheet", write(tmp_path, "b.json", sheet))
    assert "E P1 +0 (7/3)  S P2 +0 (7/3)  W P3 -80 (0)  N P4 +0 (7/3)" in out
    rows = json.loads(ok("standings", "--db", db, "--json"))["standings"]
    assert {r["name"]: r["score"] for r in rows if r["sessions"]} == {
        "P1": 0, "P2": 0, "P3": -80, "P4": 0}


def seat_every_session(db: str, sessions: int, *method: str) -> dict:
    """Seat each session (a drawn hand at every table in between); the last report."""
    data: dict = {}
    for number in range(1, sessions + 1):
        args = method if number > 1 else ()
        data = json.loads(ok("round", "pair", "--db", db, "--json", *args))
        for t in data["tables"]:
            sheet = {"table": t["table"], "seats": t["seats"], "hands": [{"draw": True}]}
            runner.invoke(app, ["result", "enter", "--db", db, "--sheet", "-"],
                          input=json.dumps(sheet))  # fmt: skip
    return data


@pytest.mark.slow  # many CLI calls, each opening the database
@pytest.mark.parametrize("method", [(), ("--method", "balanced")])
def test_an_events_seating_keeps_clubs_apart_like_the_standalone_one(tmp_path, method):
    # Issue 32 item 2: 16 players in clubs of 4 over 4 sessions. The event seated
    # club-mates together in its random first session and ended with repeats and clashes;
    # `ball mahjong seat --teams` gives 0 and 0, and so must the event.
    db = str(tmp_path / "mj.db")
    make_event(db)
    report = seat_every_session(db, 4, *method)["report"]
    assert report["repeats"] == 0 and report["team_clashes"] == []
    assert report["wind_spread"] == [1, 1]  # item 1: every wind once in 4 sessions
    teams = tmp_path / "teams.csv"
    teams.write_text("".join(f"{i},T{(i - 1) % 4}\n" for i in range(1, 17)))
    alone = ok("mahjong", "seat", "--players", "16", "--sessions", "4", "--seed", "11",
               "--teams", str(teams))  # fmt: skip
    checked = json.loads(ok("mahjong", "check", str(_csv(tmp_path, alone)), "--teams",
                            str(teams), "--json"))  # fmt: skip
    assert (report["repeats"], len(report["team_clashes"])) <= (
        checked["repeats"], len(checked["team_clashes"]))


def _csv(tmp_path, text: str):
    path = tmp_path / "alone.csv"
    path.write_text(text)
    return path


@pytest.mark.slow
def test_a_ranking_event_keeps_clubs_apart_from_the_first_session(tmp_path):
    # Issue 32 item 2: the random first session keeps club-mates apart too (M-07).
    db = str(tmp_path / "mj.db")
    make_event(db, 16, 4, "--method", "ranking")
    report = seat_every_session(db, 2)["report"]
    assert report["team_clashes"] == []


@pytest.mark.slow
def test_an_imported_template_is_relabelled_to_keep_clubs_apart(tmp_path):
    # Issue 32 item 2: a template that seats club-mates together keeps its tables (its
    # meetings) with the places given to the players so that club-mates never meet.
    db = str(tmp_path / "mj.db")
    make_event(db)
    together = "".join(f"1,{t + 1},{t + 1},{t + 5},{t + 9},{t + 13}\n" for t in range(4))
    template = tmp_path / "t.csv"
    template.write_text("session,table,E,S,W,N\n" + together)
    data = json.loads(ok("round", "pair", "--db", db, "--json", "--seating", str(template)))
    assert data["report"]["team_clashes"] == []
