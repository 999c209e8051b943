"""A cold `ball standings` or `ball result enter` on a two-player event imports only what it
uses (issue 15, target 1): not the clocks, Mahjong, Xiangqi, the rules engine, printing, the
web, nor the PostgreSQL dialect on a SQLite file. Behaviour, not time: each command runs in a
fresh interpreter exactly as `ball` runs it in-process, prints its usual answer, and then
lists the modules it loaded. The names the packages now load on first use still resolve."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ball.tournament import TournamentService

# What neither command uses on a BALL event (each was imported before issue 15's cuts).
NOT_LOADED = (
    "ball.clocks",
    "ball.games.mahjong.engine",
    "ball.games.xiangqi.engine",
    "ball.games.ball.engine",
    "ball.games.ball.match.flow",
    "ball.printing",
    "ball.web",
    "sqlalchemy.dialects.postgresql",
)

RUN = """
import json, sys
from ball.cli import run_in_process
try:
    run_in_process(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
else:
    status = 0
print(json.dumps({"status": status, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def _loaded(args: list[str]) -> tuple[str, int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return done.stdout, report["status"], report["modules"]


# The seats' names (a tuple, no code): the tournament core names a session's seats with
# Mahjong's one definition of the winds.
ALLOWED = frozenset({"ball.games.mahjong.engine", "ball.games.mahjong.engine.winds"})


def _offending(modules: list[str]) -> list[str]:
    return [
        m for m in modules
        if m not in ALLOWED and any(m == p or m.startswith(p + ".") for p in NOT_LOADED)
    ]


@pytest.fixture
def event_db(tmp_path):
    db = str(tmp_path / "event.db")
    svc = TournamentService(db)
    svc.events.create_event(name="Cold", system="swiss", rounds=3)
    for i, name in enumerate(("Ann", "Bob", "Cid", "Dan")):
        svc.entrants.add_player(name, rating=2000 - i)
    svc.rounds.pair_next_round()
    return db


@pytest.mark.process
def test_standings_loads_no_other_subsystem(event_db):
    out, status, modules = _loaded(["standings", "--db", event_db])
    # round 1 is paired without a result: the standings are after round 0 (issue 36)
    assert status in (0, None) and "Cold after round 0" in out
    assert "ball.tournament.service" in modules  # it did run the real command
    assert _offending(modules) == []


@pytest.mark.process
def test_result_enter_loads_no_other_subsystem(event_db):
    args = ["result", "enter", "--db", event_db, "--round", "1", "--table", "1", "--forfeit", "B"]
    out, status, modules = _loaded(args)
    assert status in (0, None) and out.startswith("table 1: ") and "forfeit by" in out
    assert "ball.games.ball.match.result" in modules
    assert _offending(modules) == []


def test_the_check_names_what_a_command_loaded():
    # The filter itself: a loaded subsystem module is reported, a look-alike name is not.
    loaded = ["ball.clocks.store", "ball.games.mahjong.engines", "ball.web", "sqlalchemy.orm"]
    assert _offending(loaded) == ["ball.clocks.store", "ball.web"]
    # the winds alone may come; the rest of the game may not
    rules = "ball.games.mahjong.engine"
    seats = [rules, f"{rules}.winds", f"{rules}.tiles"]
    assert _offending(seats) == ["ball.games.mahjong.engine.tiles"]


def test_the_match_package_still_offers_its_names():
    from ball.games.ball import match
    from ball.games.ball.match import flow, record, replay, result, timing

    assert match.Match is flow.Match and match.MatchError is flow.MatchError
    assert match.decide is result.decide and match.SheetError is result.SheetError
    assert match.parse is record.parse and match.replay_record is replay.replay
    assert match.load_timing is timing.load_timing
    assert set(match.__all__) <= set(dir(match))
    with pytest.raises(AttributeError):
        match.nothing  # noqa: B018


@pytest.mark.process
@pytest.mark.parametrize("rules", ["ball.games.ball.engine", "ball.games.xiangqi.engine",
                                   "ball.games.mahjong.engine"])  # fmt: skip
def test_one_games_rules_load_no_other_game(rules):
    # The registry names its games and makes them on its first read: importing one game's
    # rules runs `ball.games`' __init__, which must not import every game with it.
    code = f"import sys, {rules}; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    folder = rules.rsplit(".", 1)[0]
    games = [m for m in done.stdout.split() if m.startswith("ball.games.")]
    others = [m for m in games if m != folder and not m.startswith(folder + ".")]
    assert set(others) <= {"ball.games.errors", "ball.games.protocol"}, others
    # no game's `Game` was made (`ball.games.NAME.game`; an engine may have a `game` of its own)
    assert not [m for m in games if m.count(".") == 3 and m.endswith(".game")]
