"""`ball standings --what-if ROUND:TABLE=RESULT` (issue 35 §3) against hand-computed
standings, several hypotheses at once, an appeal over a stored result, a score sheet file,
the refusals, and the proof that nothing is written; then "what I need" for a last round.

The event: a round robin of four (Berger tables, so the pairings are fixed), tie-breaks
Sonneborn-Berger then wins, rounds 1 and 2 entered, round 3 (the last) paired:

    round 1: Ann - Dan 1-0, Bob - Cid 1-0
    round 2: Dan - Cid 1-0, Ann - Bob 1-0
    round 3: Bob - Dan (table 1), Cid - Ann (table 2), no result yet
"""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from ball.cli import app as cli
from ball.tournament import TournamentError, TournamentService, whatif

runner = CliRunner()
NAMES = ["Ann", "Bob", "Cid", "Dan"]


def won_by(side: str) -> dict:
    """A BALL score sheet that coach `side` ("A" or "B") wins by one touchdown."""
    pb = {"A": {"atk": 3, "def": 2}, "B": {"atk": 2, "def": 3}}
    return {
        "coaches": ["A", "B"],
        "halves": [
            {"atk_first": "A", "td": side, "pb": pb},
            {"atk_first": "B", "td": None, "pb": pb},
        ],
        "forfeit": None,
    }


def club(db: str) -> TournamentService:
    svc = TournamentService(db)
    svc.events.create_event(
        name="Club", system="round-robin", tiebreaks=["sonneborn-berger", "wins"]
    )
    for name in NAMES:
        svc.entrants.add_player(name)
    for number in (1, 2, 3):
        tables = svc.rounds.pair_next_round()
        if number < 3:
            for t in tables:
                svc.results.enter_result(number, t["table"], sheet=won_by("A"))
    return svc


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("club") / "club.db")
    svc = club(path)
    # the pairings the hand computation in the docstring assumes
    assert [(t["a"], t["b"]) for t in svc.rounds.pairings(3)] == [("Bob", "Dan"), ("Cid", "Ann")]
    svc.engine.dispose()
    return path


def standings(db: str, *args: str) -> list[tuple[int, str, float, float, float]]:
    out = runner.invoke(cli, ["standings", "--db", db, "--json", *args])
    assert out.exit_code == 0, out.output
    return [
        (r["rank"], r["name"], r["points"], r["tiebreaks"]["sonneborn-berger"],
         r["tiebreaks"]["wins"])
        for r in json.loads(out.output)
    ]  # fmt: skip


def test_two_hypotheses_complete_the_last_round_as_computed_by_hand(db):
    # round 3: Dan beats Bob (0-1), Cid and Ann draw.
    # points: Ann 1+1+½ = 2.5, Dan 0+1+1 = 2, Bob 1+0+0 = 1, Cid 0+0+½ = 0.5
    # SB: Ann = Dan 2 + Bob 1 + ½·Cid 0.5 = 3.25; Dan = Cid 0.5 + Bob 1 = 1.5;
    #     Bob = Cid 0.5; Cid = ½·Ann 2.5 = 1.25
    assert standings(db, "--what-if", "3:1=0-1", "--what-if", "3:2=1/2") == [
        (1, "Ann", 2.5, 3.25, 2),
        (2, "Dan", 2.0, 1.5, 2),
        (3, "Bob", 1.0, 0.5, 1),
        (4, "Cid", 0.5, 1.25, 0),
    ]


def test_ties_on_points_are_split_by_the_hypothetical_tiebreaks(db):
    # round 3: Bob beats Dan, Cid beats Ann. Ann 2, Bob 2, Cid 1, Dan 1.
    # SB: Ann = Dan 1 + Bob 2 = 3; Bob = Cid 1 + Dan 1 = 2; Cid = Ann 2; Dan = Cid 1
    assert standings(db, "--what-if", "3:1=1-0", "--what-if", "3:2=1-0") == [
        (1, "Ann", 2.0, 3.0, 2),
        (2, "Bob", 2.0, 2.0, 2),
        (3, "Cid", 1.0, 2.0, 1),
        (4, "Dan", 1.0, 1.0, 1),
    ]
    text_out = runner.invoke(
        cli, ["standings", "--db", db, "--what-if", "3:1=1-0", "--what-if", "3:2=1-0"]
    ).output
    lines = text_out.splitlines()
    assert lines[0] == "what if round 3 table 1: Bob - Dan: Bob wins (not stored)"
    assert lines[1] == "what if round 3 table 2: Cid - Ann: Cid wins (not stored)"
    assert lines[2] == "Club after round 3"


def test_an_appeal_replaces_a_stored_result(db):
    # round 1 table 1 as if Dan had won: after round 2 (round 3 is still being played)
    # Dan 2 (Ann, Cid), Ann 1 (Bob), Bob 1 (Cid), Cid 0; SB Dan = Ann 1 + Cid 0 = 1,
    # Ann = Bob 1, Bob = Cid 0
    assert standings(db, "--what-if", "1:1=0-1") == [
        (1, "Dan", 2.0, 1.0, 2),
        (2, "Ann", 1.0, 1.0, 1),
        (3, "Bob", 1.0, 0.0, 1),
        (4, "Cid", 0.0, 0.0, 0),
    ]
    # the stored standings are untouched: Ann 2, Bob and Dan 1, Cid 0
    assert [(r[1], r[2]) for r in standings(db)] == [
        ("Ann", 2.0), ("Bob", 1.0), ("Dan", 1.0), ("Cid", 0.0)
    ]  # fmt: skip


def test_a_forfeit_and_a_sheet_file_count_as_result_enter_would(db, tmp_path):
    sheet = tmp_path / "t2.json"
    sheet.write_text(json.dumps(won_by("B")), encoding="utf-8")  # Ann wins table 2
    # Bob forfeits to Dan (-+): Dan 2, Ann 3, Bob 1, Cid 0. In a round robin a forfeited
    # game still counts against its opponent (pre-determined pairings, C.07):
    # SB Dan = Cid 0 + Bob 1 = 1, Ann = Dan 2 + Bob 1 + Cid 0 = 3
    got = standings(db, "--what-if", "3:1=-+", "--what-if", f"3:2={sheet}")
    assert got == [
        (1, "Ann", 3.0, 3.0, 3),
        (2, "Dan", 2.0, 1.0, 2),
        (3, "Bob", 1.0, 0.0, 1),
        (4, "Cid", 0.0, 0.0, 0),
    ]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("3x1=1-0", "write ROUND:TABLE=RESULT"),
        ("3:1", "write ROUND:TABLE=RESULT"),
        ("0:1=1-0", "numbered from 1"),
        ("\u0663:1=1-0", "write ROUND:TABLE=RESULT"),  # an Arabic-Indic 3 is no round number
        ("9:1=1-0", "round 9 is not paired"),
        ("3:7=1-0", "round 3 has no table 7"),
        ("3:1=2-2", "is neither a result"),
        ("3:1=nothing.json", "is neither a result"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(db, spec, says):
    out = runner.invoke(cli, ["standings", "--db", db, "--what-if", spec])
    assert out.exit_code == 2
    assert says in out.output
    assert out.output.startswith("error: ") and len(out.output.strip().splitlines()) == 1


def test_the_same_table_twice_and_an_illegal_sheet_are_refused(db, tmp_path):
    twice = runner.invoke(
        cli, ["standings", "--db", db, "--what-if", "3:1=1-0", "--what-if", "3:1=0-1"]
    )
    assert twice.exit_code == 2 and "given twice" in twice.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"coaches": ["A", "B"], "halves": "x"}', encoding="utf-8")
    out = runner.invoke(cli, ["standings", "--db", db, "--what-if", f"3:1={bad}"])
    assert out.exit_code == 2 and out.output.startswith("error: what-if 3:1: ")
    not_json = tmp_path / "not.json"
    not_json.write_text("1-0?", encoding="utf-8")
    out = runner.invoke(cli, ["standings", "--db", db, "--what-if", f"3:1={not_json}"])
    assert out.exit_code == 2 and "is not JSON" in out.output


def test_a_mahjong_event_has_no_what_if(tmp_path):
    db = str(tmp_path / "mj.db")
    made = runner.invoke(
        cli, ["event", "create", "--db", db, "--name", "MJ", "--game", "mahjong", "--sessions", "2"]
    )
    assert made.exit_code == 0, made.output
    out = runner.invoke(cli, ["standings", "--db", db, "--what-if", "1:1=1-0"])
    assert out.exit_code == 2 and "Mahjong standings are by table points" in out.output


def test_a_bye_takes_no_hypothesis(tmp_path):
    svc = TournamentService(str(tmp_path / "odd.db"))
    svc.events.create_event(name="Odd", system="swiss", rounds=2)
    for name in ("Ann", "Bob", "Cid"):
        svc.entrants.add_player(name)
    bye = next(t["table"] for t in svc.rounds.pair_next_round() if t["b"] is None)
    with pytest.raises(TournamentError, match=f"round 1 table {bye} is a bye"):
        svc.what_if.what_if_standings([whatif.Hypothesis(1, bye, short="1-0")])
    svc.engine.dispose()


def digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_what_if_writes_nothing(tmp_path):
    path = str(tmp_path / "club.db")
    club(path).engine.dispose()
    before = digest(path)
    for args in (["--what-if", "3:1=1-0", "--what-if", "3:2=1/2"], ["--what-if", "1:2=--"],
                 ["--what-if", "9:9=1-0"]):  # fmt: skip
        runner.invoke(cli, ["standings", "--db", path, "--json", *args])
    svc = TournamentService(path)
    svc.what_if.what_i_need(NAMES)
    assert svc.rounds.pairings(3)[0].result is None  # round 3 still has no result
    svc.engine.dispose()
    assert digest(path) == before


def test_the_read_only_transaction_refuses_a_write(tmp_path):
    """The database itself keeps the what-if read from writing (PRAGMA query_only)."""
    svc = club(str(tmp_path / "club.db"))
    with pytest.raises(OperationalError, match="readonly"), svc.store.read_only() as s:
        s.execute(text("UPDATE tournament_events SET name = 'Gone'"))
    # and the connection it used goes back to the pool able to write again
    svc.events.create_event(name="Next", system="swiss", rounds=1)
    assert [e["name"] for e in svc.events.list_events()] == ["Club", "Next"]
    svc.engine.dispose()


# ------------------------------------------------------------------ what I need


def test_what_i_need_in_the_last_round_once_the_other_table_is_in(tmp_path):
    svc = club(str(tmp_path / "club.db"))
    svc.results.enter_result(3, 1, sheet=won_by("A"))  # Bob beats Dan: Ann 2, Bob 2, Dan 1, Cid 0
    needs = {n.name: n for n in svc.what_if.what_i_need(NAMES)}
    # Bob and Dan have played; Ann and Cid's table is the last one of the event
    assert set(needs) == {"Ann", "Cid"}
    cid = needs["Cid"]
    assert (cid.round, cid.table, cid.opponent, cid.exact) == (3, 2, "Ann", True)
    # Cid wins: Ann 2, Bob 2, Cid 1, Dan 1; SB Cid = Ann 2 > Dan = Cid 1: Cid 3rd.
    # Cid draws: Cid ½ < Dan 1: 4th. Cid loses: 0 points, 4th.
    assert cid.ranks == (("win", 3, 3), ("draw", 4, 4), ("loss", 4, 4))
    # Ann: a win (3) or a draw (2.5) is clear first; a loss leaves Ann and Bob on 2,
    # SB Ann = Dan 1 + Bob 2 = 3 > Bob = Cid 1 + Dan 1 = 2: first still
    assert needs["Ann"].ranks == (("win", 1, 1), ("draw", 1, 1), ("loss", 1, 1))
    svc.engine.dispose()


def test_what_i_need_while_other_tables_are_open_is_a_range_by_points(db):
    svc = TournamentService(db)
    needs = {n.name: n for n in svc.what_if.what_i_need(["Ann", "Cid", "Nobody"])}
    assert set(needs) == {"Ann", "Cid"} and not needs["Ann"].exact
    # Ann has 2, Bob and Dan 1 (they play each other), Cid 0.
    # win 3 / draw 2.5: nobody can reach it. Loss 2: the winner of Bob - Dan reaches 2 too,
    # not both of them.
    assert needs["Ann"].ranks == (("win", 1, 1), ("draw", 1, 1), ("loss", 1, 2))
    # Cid win 1: Ann (2) stays above; Bob and Dan end on 1 or more, both on 1 after a
    # double forfeit (nobody above Cid on points), both on 1.5 after a draw. Draw ½ or loss
    # 0: last.
    assert needs["Cid"].ranks == (("win", 2, 4), ("draw", 4, 4), ("loss", 4, 4))
    svc.engine.dispose()


def test_no_need_when_no_round_is_being_played(tmp_path):
    svc = club(str(tmp_path / "club.db"))
    svc.results.enter_result(3, 1, sheet=won_by("A"))
    svc.results.enter_result(3, 2, sheet=won_by("A"))
    assert svc.what_if.what_i_need(NAMES) == []
    svc.engine.dispose()


def drawn() -> dict:
    """A BALL score sheet of a draw (no touchdown)."""
    sheet = won_by("A")
    sheet["halves"][0]["td"] = None
    return sheet


@pytest.mark.parametrize("system", ["round-robin", "swiss"])
def test_every_way_the_round_can_end_falls_inside_each_players_range(tmp_path, system):
    """Six entrants, two rounds played (wins and draws), round 3 open at every table: for
    each of the 27 ways its three tables can end, every player's rank in the what-if
    standings lies in the range "what I need" gave for their own result."""
    svc = TournamentService(str(tmp_path / "six.db"))
    svc.events.create_event(name="Six", system=system, rounds=5)
    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
    for name in names:
        svc.entrants.add_player(name)
    for number, results in ((1, ("A", "D", "B")), (2, ("D", "A", "A"))):
        for t, how in zip(svc.rounds.pair_next_round(), results, strict=True):
            svc.results.enter_result(
                number, t["table"], sheet=drawn() if how == "D" else won_by(how)
            )
    tables = svc.rounds.pair_next_round()
    needs = {n.name: n for n in svc.what_if.what_i_need(names)}
    assert set(needs) == set(names) and not any(n.exact for n in needs.values())
    own = {"1-0": ("win", "loss"), "1/2": ("draw", "draw"), "0-1": ("loss", "win")}
    checked = 0
    for ending in itertools.product(own, repeat=len(tables)):
        hypotheses = [whatif.Hypothesis(3, t["table"], short=r)
                      for t, r in zip(tables, ending, strict=True)]  # fmt: skip
        ranked = {s.name: s.rank for s in svc.what_if.what_if_standings(hypotheses)[0].standings}
        for t, r in zip(tables, ending, strict=True):
            for name, result in zip((t["a"], t["b"]), own[r], strict=True):
                _, best, worst = next(x for x in needs[name].ranks if x[0] == result)
                assert best <= ranked[name] <= worst, (name, ending)
                checked += 1
    assert checked == 27 * 6
    svc.engine.dispose()
