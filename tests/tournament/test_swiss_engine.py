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
