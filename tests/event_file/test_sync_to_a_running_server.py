"""The venue-to-federation sync as it runs (issue 34): `ball event import` (the real command,
its own process) into the database of a running `ball serve` (another process). The event's
public standings appear, and after a later export with a late entrant the server shows it
without a restart: the import renews the event's revision token, which every process's page
cache reads."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from ball.tournament import TournamentService

from .events import export

BALL = Path(sys.executable).with_name("ball")


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def ball_import(path: Path, db: str) -> str:
    done = subprocess.run([str(BALL), "event", "import", str(path), "--db", db],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def shows(url: str, text: str, within: float = 15.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        status, body = get(url)
        if status == 200 and text in body:
            return True
        time.sleep(0.2)
    return False


def test_an_imported_event_is_served_and_a_later_import_refreshes_it(server_process, tmp_path):
    venue = str(tmp_path / "venue.sqlite")
    svc = TournamentService(venue)
    svc.events.create_event(name="Summer Open", system="swiss", rounds=3, draw_lots=2)
    for name in ("Ann Alpha", "Bob Beta", "Cid Gamma", "Dan Delta"):
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    svc.results.enter_result(1, 1, forfeit="B")
    federation = str(tmp_path / "federation.sqlite")
    server = server_process(federation)
    page = f"{server.url}/public/1/standings"
    assert get(page)[0] == 404

    export(venue, 1, tmp_path / "v1.json")
    assert ball_import(tmp_path / "v1.json", federation) == "event 1: Summer Open: created\n"
    assert shows(page, "Ann Alpha")
    assert "Late Lena" not in get(page)[1]

    svc.results.enter_result(1, 2, forfeit="A")
    svc.entrants.add_player("Late Lena")
    export(venue, 1, tmp_path / "v2.json")
    assert ball_import(tmp_path / "v2.json", federation) == "event 1: Summer Open: replaced\n"
    assert shows(page, "Late Lena")
