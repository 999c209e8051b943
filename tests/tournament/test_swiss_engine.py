"""gacrux at arm's length (issue 12): the Swiss pairing engine runs in a process of its
own through its documented command line, so nothing of it is imported or patched in the
toolbox's process, and an engine that fails or hangs is one clear error that stores nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ball.tournament import TournamentError, TournamentService, swiss

from .test_cli import counts


def swiss_event(db, players: int = 7) -> TournamentService:
    svc = TournamentService(db)
    svc.events.create_event(name="Open", system="swiss", rounds=3)
    for i in range(players):
        svc.entrants.add_player(f"P{i + 1}", rating=2000 - 10 * i)
    return svc


@pytest.mark.process  # pairs in a child Python process
def test_pairing_imports_nothing_of_gacrux(tmp_path):
    script = textwrap.dedent(
        f"""
        import json, sys
        sys.path.insert(0, {str(Path(__file__).parents[1])!r})
        from tournament.test_swiss_engine import swiss_event
        tables = swiss_event({str(tmp_path / "e.db")!r}).rounds.pair_next_round()
        print(json.dumps({{"tables": len(tables),
                           "gacrux": sorted(m for m in sys.modules if m.startswith("gacrux"))}}))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.splitlines()[-1])
    assert seen == {"tables": 4, "gacrux": []}


def test_an_engine_that_hangs_is_stopped_and_nothing_is_stored(tmp_path, monkeypatch):
    db = tmp_path / "e.db"
    svc = swiss_event(db)
    monkeypatch.setattr(swiss, "TIMEOUT_SECONDS", 0.001)
    with pytest.raises(TournamentError, match="the pairing engine gave no answer"):
        svc.rounds.pair_next_round()
    assert counts(str(db)) == (0, 0)


def test_an_engine_refusal_is_one_line(tmp_path):
    with pytest.raises(TournamentError) as caught:
        swiss.pair_dutch("001 not a player record\n", 1, 3)
    message = str(caught.value)
    assert message.startswith("Swiss pairing failed: ") and "\n" not in message
    assert "line 1" in message


def round_one_trf(tmp_path, monkeypatch) -> tuple[str, int, int]:
    """The TRF the service hands the engine for round 1 of a seven-player event."""
    seen: list[tuple[str, int, int]] = []
    real = swiss.pair_dutch

    def catch(text: str, rnd: int, total: int):
        seen.append((text, rnd, total))
        return real(text, rnd, total)

    monkeypatch.setattr(swiss, "pair_dutch", catch)
    swiss_event(tmp_path / "e.db").rounds.pair_next_round()
    return seen[0]


@pytest.mark.process  # the yardstick is gacrux's command line in a plain child process
def test_the_pairing_server_answers_as_the_command_line_does(tmp_path, monkeypatch):
    text, rnd, total = round_one_trf(tmp_path, monkeypatch)
    argv = swiss.command(rnd, total)
    served = swiss._SERVER.run(argv[3:], text, swiss.TIMEOUT_SECONDS)
    child = swiss._run_child(text, argv)
    assert served is not None and served.returncode == child.returncode == 0
    assert json.loads(served.stdout)["pairingResult"] == json.loads(child.stdout)["pairingResult"]


def test_a_pairing_server_that_died_is_started_again(tmp_path):
    svc = swiss_event(tmp_path / "e.db")
    svc.rounds.pair_next_round()
    first = swiss._SERVER._proc
    assert first is not None
    first.kill()
    first.wait()
    svc2 = swiss_event(tmp_path / "f.db")
    assert len(svc2.rounds.pair_next_round()) == 4
    assert swiss._SERVER._proc is not None and swiss._SERVER._proc is not first
    assert swiss._SERVER._proc.poll() is None
