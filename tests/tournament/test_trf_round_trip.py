"""TRF round trips (issue 32, item 14): for every system and game, export -> import ->
export gives the same text, and the imported event ranks exactly as the original
(individual standings, a team event's team ranking, the tie-break chain and its values)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.games import game
from ball.tournament import TournamentError, TournamentService
from ball.tournament.outcomes import plain
from ball.tournament.standings import known_tiebreaks

from .generator import random_sheet

SYSTEMS = ["swiss", "round-robin", "double-round-robin", "knockout", "team-rr", "team-swiss"]


def xiangqi_sheet(rng: random.Random, a: str, b: str) -> dict:
    """A Xiangqi result document (Red = a) with fouls and either colour winning."""
    result = rng.choice(["1-0", "0-1", "1/2-1/2"])
    reason = "agreement" if result == "1/2-1/2" else "checkmate"
    fouls = {a: rng.randint(0, 2), b: rng.randint(0, 2)}
    return {"players": [a, b], "result": result, "reason": reason, "fouls": fouls, "moves": 40}


def pair_next(svc: TournamentService, rng: random.Random) -> list[dict] | None:
    """The next round's tables, after drawing lots (article 6) for every match drawn after
    its last replay, one refusal at a time; None when no round follows."""
    while True:
        try:
            return svc.rounds.pair_next_round()
        except TournamentError as exc:
            due = re.search(r"round (\d+) table (\d+) was drawn after its last replay", str(exc))
            if due is None:
                return None  # a knockout decided early, or a round robin's last round
            svc.knockout.draw_tie_lots(int(due[1]), int(due[2]), seed=rng.randrange(1000))


def play(svc: TournamentService, rng: random.Random, game_name: str, rounds: int) -> None:
    for number in range(1, rounds + 1):
        tables = pair_next(svc, rng)
        if tables is None:
            return
        for t in tables:
            if t["b"] is None:
                continue
            x = rng.random()
            if x < 0.03:
                svc.results.enter_result(number, t["table"], double_forfeit=True)
            elif x < 0.1:
                svc.results.enter_result(number, t["table"], forfeit=rng.choice("AB"))
            elif game_name == "xiangqi":
                svc.results.enter_result(
                    number, t["table"], sheet=xiangqi_sheet(rng, t["a"], t["b"])
                )
            else:
                svc.results.enter_result(number, t["table"], sheet=random_sheet(rng))


def make_event(db: Path, system: str, game_name: str, chain: list[str], seed: int) -> None:
    rng = random.Random(seed)
    svc = TournamentService(db)
    team = system.startswith("team-")
    base = {"team-rr": "round-robin", "team-swiss": "swiss"}.get(system, system)
    options: dict = {"teams": 2} if team else {}
    if base == "swiss":
        options["rounds"] = 4
    svc.events.create_event(name="Trip", system=base, game_name=game_name, tiebreaks=chain,
                     date_start="2026-05-01", **options)  # fmt: skip
    players = rng.randint(5, 9) if not team else 0
    for i in range(players):
        svc.entrants.add_player(f"P{i + 1}", rating=2000 - 10 * i)
    if team:
        for t in range(rng.choice([3, 4, 5])):
            svc.teams.add_team(
                f"Team {t + 1}", [f"T{t + 1}-{k}={1900 - 10 * k - t}" for k in range(3)]
            )
    if base == "swiss" and not team and players > 5:
        svc.entrants.request_bye("P3", 2, rng.choice(["half", "zero"]))
    play(svc, rng, game_name, 4 if base != "double-round-robin" else 5)


def standings(svc: TournamentService) -> dict:
    table = plain(svc.ranking.standings())
    table.pop("event", None)
    return table


@st.composite
def events(draw: st.DrawFn) -> tuple[str, str, list[str], int]:
    system = draw(st.sampled_from(SYSTEMS))
    game_name = draw(st.sampled_from(["ball", "xiangqi"]))
    known = sorted(known_tiebreaks(game(game_name)))
    chain = draw(st.lists(st.sampled_from(known), unique=True, max_size=5))
    return system, game_name, chain, draw(st.integers(0, 10_000))


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_export_import_export_is_identical_and_ranks_the_same(case):
    system, game_name, chain, seed = case
    with TemporaryDirectory() as tmp:
        original_db = Path(tmp) / "a.db"
        make_event(original_db, system, game_name, chain, seed)
        original = TournamentService(original_db)
        text = original.trf.export_trf()
        imported = TournamentService(Path(tmp) / "b.db")
        imported.trf.import_trf(text)
        assert imported.trf.export_trf() == text
        assert standings(imported) == standings(original)
        info = imported.events.event_info()
        assert info["game"] == game_name and info["tiebreaks"] == chain


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("game_name", ["ball", "xiangqi"])
def test_each_system_and_game_round_trips(tmp_path, system, game_name):
    """One fixed event per system and game, in the quick lane."""
    chain = list(reversed(sorted(known_tiebreaks(game(game_name)))))[:4]
    make_event(tmp_path / "a.db", system, game_name, chain, 7)
    original = TournamentService(tmp_path / "a.db")
    text = original.trf.export_trf()
    imported = TournamentService(tmp_path / "b.db")
    imported.trf.import_trf(text)
    assert imported.trf.export_trf() == text
    assert standings(imported) == standings(original)


def test_the_cli_import_sets_the_organisers_chain(tmp_path):
    from typer.testing import CliRunner

    from ball.cli import app

    make_event(tmp_path / "a.db", "swiss", "xiangqi", ["fouls", "buchholz"], 3)
    path = tmp_path / "in.trf"
    path.write_text(TournamentService(tmp_path / "a.db").trf.export_trf(), encoding="utf-8")
    runner = CliRunner()
    db = str(tmp_path / "b.db")
    # The file's XXT chain by default ...
    r = runner.invoke(app, ["event", "import", "trf", str(path), "--db", db])
    assert r.exit_code == 0, r.output
    assert TournamentService(db).events.event_info()["tiebreaks"] == ["fouls", "buchholz"]
    # ... or the one given, checked against the game's tie-breaks.
    r = runner.invoke(app, ["event", "import", "trf", str(path), "--db", db, "--name", "Two",
                            "--tiebreaks", "wins,black-games"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert TournamentService(db).events.event_info(
        event="Two"
    )["tiebreaks"] == ["wins", "black-games"]
    r = runner.invoke(app, ["event", "import", "trf", str(path), "--db", db, "--name", "Three",
                            "--tiebreaks", "wins,td-differense"])  # fmt: skip
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert "unknown tie-break 'td-differense'" in r.output


@pytest.mark.parametrize(
    ("record", "needle"),
    [
        ('XXF   1    1 {"A": {"fouls": "x"}}', "figure fouls must be a number"),
        ('XXF   1    1 {"A": {"fouls": 1e999}}', "figure fouls must be within"),
        ("XXF   1    1 [1]", "figures must be"),
        ("XXF   9    1 {}", "player 1 has no game with White in round 9"),
        ("XXF   0    1 {}", "round must be a whole number from 1 to 999"),
        ("XXT fide-2026 Bad!", "is not a name"),
        ("XXB 0 15.3", "boards per match must be a whole number"),
        ("013 Team A                          99", "no player has number 99"),
    ],
)
def test_bad_ball_records_are_one_line_errors(tmp_path, record, needle):
    make_event(tmp_path / "a.db", "swiss", "xiangqi", [], 5)
    text = TournamentService(tmp_path / "a.db").trf.export_trf()
    bad = text.replace("XXG xiangqi\n", f"XXG xiangqi\n{record}\n")
    with pytest.raises(TournamentError) as caught:
        TournamentService(tmp_path / "b.db").trf.import_trf(bad)
    assert needle in str(caught.value) and "\n" not in str(caught.value)
