"""Events of every kind in one database, each with something in every table it can fill:
the three games (BALL, Xiangqi, Mahjong) and every system (Swiss, round robin, knockout with
mini-match ties and a drawing of lots, teams, groups, Mahjong sessions), with sanctions,
signals, half ends, steals, lateness, corrections, requested byes, a withdrawal, a late
entry, log notes, a recorded Xiangqi game of a desk table and a table clock with presses."""

from __future__ import annotations

import json
import random
from pathlib import Path

from sqlalchemy import MetaData, select
from typer.testing import CliRunner

from ball.cli import app
from ball.clocks.store import ClockStore
from ball.event_file.write import content_hash
from ball.games.xiangqi.web.game_store import XiangqiStore
from ball.storage import make_engine, open_database
from ball.tournament import TournamentService
from tournament.generator import random_sheet

T0 = 1_790_000_000.0  # an instant for what the service lets the caller date


def swiss(svc: TournamentService, rng: random.Random) -> int:
    info = svc.events.create_event(name="Spring Swiss", system="swiss", rounds=3, draw_lots=5,
                            place="Sofia", arbiter="A. Arbiter", default_time=15)  # fmt: skip
    for i in range(1, 8):
        svc.entrants.add_player(
            f"Swiss{i}", rating=2000 - 17 * i, club=f"C{i % 3}", federation="BUL"
        )
    svc.entrants.request_bye("Swiss7", 1, "half")
    tables = svc.rounds.pair_next_round()
    played = [t for t in tables if t["b"] is not None]
    first, second, third = played[0]["table"], played[1]["table"], played[2]["table"]
    svc.arbiter.give_signal(1, 1, at=T0)
    svc.arbiter.record_half_end(1, first, at=T0 + 900)
    svc.results.record_table_result(
        1, first, sheet=random_sheet(rng), at=T0 + 1000,
        steals=[{"half": 1, "side": "B", "choice": "reset"}],
        sanctions=[{"side": "A", "step": "warning", "reason": "late to the table"}],
    )  # fmt: skip
    svc.results.record_table_result(1, second, at=T0 + 1100, late={"B": None})
    svc.results.enter_result(1, third, double_forfeit=True)
    svc.results.correct_result(1, third, reason="the arbiter misread the sheet", forfeit="A")
    svc.arbiter.give_sanction(
        "warning", "phone rang", player=played[0]["a"], round_number=1, table=first
    )
    svc.arbiter.record("note", "the hall's heating failed for ten minutes", round_number=1)
    svc.entrants.withdraw("Swiss5", reason="ill")
    svc.entrants.add_player("Swiss Late", rating=1500)
    for t in svc.rounds.pair_next_round():
        if t["b"] is not None:
            svc.results.enter_result(2, t["table"], sheet=random_sheet(rng))
    return info.id


def round_robin_teams(svc: TournamentService, rng: random.Random) -> int:
    info = svc.events.create_event(name="Team Cup", system="round-robin", teams=2)
    for t in range(1, 5):
        svc.teams.add_team(f"Team{t}", [f"T{t}p{i}={1900 - i}" for i in range(1, 4)])
    svc.teams.set_lineup("Team2", 1, ["T2p1", "T2p3"])
    for t in svc.rounds.pair_next_round():
        svc.results.enter_result(1, t["table"], sheet=random_sheet(rng))
    return info.id


def knockout_ties(svc: TournamentService, rng: random.Random) -> int:
    info = svc.events.create_event(
        name="KO Cup", system="knockout", games_per_tie=2, tie_break="lots", draw_lots=3
    )
    for i in range(1, 7):
        svc.entrants.add_player(f"KO{i}", rating=1800 - i)
    tables = [t for t in svc.rounds.pair_next_round() if t["b"] is not None]
    one, two = tables[0]["table"], tables[1]["table"]
    svc.knockout.record_tie_game(1, one, 1, forfeit="B")
    svc.knockout.record_tie_game(1, one, 2, forfeit="B")  # game 2: B has the first colour
    svc.knockout.draw_tie_lots(1, one, seed=11)
    svc.knockout.record_tie_game(1, two, 1, forfeit="B")
    svc.knockout.record_tie_game(1, two, 2, sheet=random_sheet(rng))
    return info.id


def groups(svc: TournamentService, rng: random.Random) -> int:
    from ball.tournament.groups import Setup

    info = svc.events.create_event(
        name="Group Open", system="groups", groups=Setup(2, 1, "knockout", 2, False)
    )
    for i in range(1, 9):
        svc.entrants.add_player(f"G{i}", rating=2100 - 11 * i)
    for t in svc.rounds.pair_next_round():
        if t["b"] is not None:
            svc.results.enter_result(1, t["table"], sheet=random_sheet(rng))
    return info.id


def xiangqi(svc: TournamentService, sessions) -> int:
    info = svc.events.create_event(name="Xiangqi Open", system="round-robin", game_name="xiangqi")
    for name in ("Red One", "Black Two", "Red Three", "Black Four"):
        svc.entrants.add_player(name)
    tables = svc.rounds.pair_next_round()
    svc.arbiter.give_sanction(
        "warning", "spoke to a spectator", player=tables[0]["a"], round_number=1,
        table=tables[0]["table"],
    )  # fmt: skip
    games = XiangqiStore(sessions)
    game = games.for_table(info.id, 1, tables[0]["table"], "Xiangqi Open R1 T1")
    for move in ("h2e2", "h9g7", "h0g2"):
        games.play(str(game), move)
    clocks = ClockStore(sessions, lambda: T0)
    clock = clocks.create("1", "xiangqi-6.5", None, ["Red One", "Black Two"],
                          round="Xiangqi Open R1", event_id=info.id)  # fmt: skip
    clocks.record(clock.id, "start", arbiter=True)
    clocks.record(clock.id, "press", {"by": "red"}, arbiter=True)
    return info.id


def mahjong(svc: TournamentService) -> int:
    made = svc.sessions.create_mahjong_event(name="MJ Open", sessions=2, seed=3)
    for i in range(1, 9):
        svc.entrants.add_player(f"MJ{i}", club=f"T{i % 2}")
    seated = svc.sessions.seat_session()
    first, second = seated["tables"]
    svc.sessions.enter_session_sheet({"table": first["table"], "seats": first["seats"],
                             "hands": [{"winner": "S", "discarder": "N", "fan": 9}]})  # fmt: skip
    hand = {"winner": "E", "discarder": "W", "fan": 8}
    svc.mahjong_desk.edit_mahjong_table(
        made["id"], 1, second["table"], "hand", hand, expected_version=0
    )
    return int(made["id"])


def build_all(db: str) -> dict[str, int]:
    """Every kind of event in database `db`; their ids by kind."""
    rng = random.Random(34)
    svc = TournamentService(db)
    return {
        "swiss": swiss(svc, rng),
        "teams": round_robin_teams(svc, rng),
        "knockout": knockout_ties(svc, rng),
        "groups": groups(svc, rng),
        "xiangqi": xiangqi(svc, open_database(db)[1]),
        "mahjong": mahjong(svc),
    }


# ------------------------------------------------------------ export, import, compare

runner = CliRunner()


def ok(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, done.output
    return done.output


def export(db: str, event: int, path: Path) -> dict:
    ok("event", "export", "--db", db, "--event", str(event), "-o", str(path))
    return json.loads(path.read_text(encoding="utf-8"))


def without_time(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "exported_at"}


def every_row(db: str) -> dict[str, list]:
    """Every row of every table of the database, in key order: what "nothing changed" means."""
    engine = make_engine(db)
    meta = MetaData()
    meta.reflect(engine)
    with engine.connect() as connection:
        rows = {
            name: [tuple(r) for r in connection.execute(
                select(t).order_by(*(t.primary_key.columns or t.columns))
            )]
            for name, t in meta.tables.items()
        }  # fmt: skip
    engine.dispose()
    return rows


Source = tuple[str, dict[str, int], dict[str, Path]]


def build_source(folder: Path) -> Source:
    """Every kind of event in a SQLite file of `folder`, each exported to its own file."""
    db = str(folder / "venue.sqlite")
    ids = build_all(db)
    files = {kind: folder / f"{kind}.json" for kind in ids}
    for kind, event in ids.items():
        export(db, event, files[kind])
    return db, ids, files


def round_trip(target: str, source) -> None:
    db, ids, files = source
    TournamentService(target).events.create_event(name="Already here", system="swiss")
    for kind, path in files.items():
        out = ok("event", "import", str(path), "--db", target)
        assert out.endswith(": created\n"), out
        new_id = int(out.split()[1].rstrip(":"))
        assert new_id != ids[kind]  # another database ("Already here" is 1): other ids
        again = export(target, new_id, path.with_suffix(".again.json"))
        assert without_time(again) == without_time(json.loads(path.read_text()))
        before = ok("standings", "--db", db, "--event", str(ids[kind]), "--json")
        assert ok("standings", "--db", target, "--event", str(new_id), "--json") == before
    rows = every_row(target)
    for path in files.values():
        assert ok("event", "import", str(path), "--db", target).endswith(": unchanged\n")
    assert every_row(target) == rows
    # A changed file replaces every row of its event (composite keys, clocks and games too).
    for path in files.values():
        doc = json.loads(path.read_text())
        doc["tables"]["tournament_events"][0]["place"] = "moved to the town hall"
        doc["sha256"] = content_hash(doc["event_uid"], doc["tables"])
        changed = path.with_suffix(".changed.json")
        changed.write_text(json.dumps(doc))
        out = ok("event", "import", str(changed), "--db", target)
        assert out.endswith(": replaced\n"), out
        new_id = int(out.split()[1].rstrip(":"))
        back = export(target, new_id, path.with_suffix(".3.json"))
        assert without_time(back) == without_time(doc)
