"""An acknowledged result survives everything a stranger can send, a SIGKILL and a restart
(issue 11, item 2).

Reading the live SQLite file through a ruleset "name", or opening it a second time by URL for
the printed forms, dropped the server's POSIX locks, and the next process to open the file
(the arbiter's `ball standings --db`, say) deleted the live WAL under the running server:
what the server acknowledged afterwards went into a deleted file. Against a live
`ball serve`: enter a result on the desk (303), send the old attack requests and every print
request, let another process read the file, enter a second result (303), SIGKILL the server,
start it again on the same file, and both results are there.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx

from ball.tournament import TournamentService

PIN = "2468"
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _csrf(client: httpx.Client, event_id: int) -> str:
    page = client.get(f"/desk/{event_id}")
    assert page.status_code == 200, page.text[:300]
    match = _CSRF.search(page.text)
    assert match, "no CSRF field on the desk page"
    return match.group(1)


def _desk_post(client: httpx.Client, event_id: int, path: str, data: dict) -> httpx.Response:
    return client.post(f"/desk/{event_id}{path}", data={"csrf": _csrf(client, event_id), **data})


def _sheet(td1: str, pb: tuple[int, int, int, int]) -> dict:
    """A score sheet with A's touchdown in half 1 (PBDEF entered as the opponent's PBATK)."""
    a1, b1, b2, a2 = pb
    return {
        "kind": "sheet",
        "version": 0,
        "h1_td": td1,
        "h1_A_atk": a1,
        "h1_A_def": b1,
        "h1_B_atk": b1,
        "h1_B_def": a1,
        "h2_td": "",
        "h2_B_atk": b2,
        "h2_B_def": a2,
        "h2_A_atk": a2,
        "h2_A_def": b2,
    }


def _enter_a_result(client: httpx.Client) -> int:
    created = client.post(
        "/desk/events",
        data={"name": "Kill Cup", "system": "round-robin", "pin": PIN, "pin2": PIN},
    )
    assert created.status_code == 303, created.text[:300]
    event_id = int(created.headers["location"].rsplit("/", 1)[1])
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert _desk_post(client, event_id, "/entrants", {"name": name}).status_code == 303
    assert _desk_post(client, event_id, "/rounds", {}).status_code == 303
    saved = _desk_post(client, event_id, "/rounds/1/tables/1", _sheet("A", (3, 0, 4, 2)))
    assert saved.status_code == 303, saved.text[:300]
    return event_id


def _old_attacks(client: httpx.Client, db: Path, event_id: int) -> None:
    """The requests that used to open the live file: each must answer, none may touch it."""
    relative = os.path.relpath(db, Path.cwd())
    for name in (str(db), relative, f"/proc/self/cwd/{relative}", f"{db}-wal"):
        doc = {"format": "ball-position/1", "ruleset": name}
        assert client.post("/api/positions/check", json={"position": doc}).status_code == 422
        assert client.post("/api/games", json={"position": doc}).status_code == 422
        record = {"bgn": f'[Ruleset "{name}"]\n'}
        assert 400 <= client.post("/api/records/replay", json=record).status_code < 500
    for path in ("/print/forms", "/print/forms.pdf"):
        for params in ({"round": 1}, {"round": 1, "event": str(event_id)}, {"round": 2}):
            assert client.get(path, params=params).status_code in (200, 404), (path, params)


def _another_process_reads(db: Path, event_id: int) -> None:
    """The arbiter's `ball standings --db` while the server runs: a second process that
    opens and closes the file. If the server had lost its locks, this process would take the
    file for its own on closing and delete the live WAL under the running server."""
    done = subprocess.run(
        [sys.executable, "-m", "ball.cli", "standings", "--db", str(db), "--event", str(event_id)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-500:]


def _results(db: Path, event_id: int) -> list[dict | None]:
    return [t.get("result") for t in TournamentService(str(db)).rounds.pairings(1, event=event_id)]


def test_acknowledged_results_survive_attacks_prints_and_sigkill(server_process):
    server = server_process()
    db = Path(server.db).resolve()
    with httpx.Client(base_url=server.url, timeout=120) as client:
        event_id = _enter_a_result(client)
        _old_attacks(client, db, event_id)
        _another_process_reads(db, event_id)
        # acknowledged after the attacks and the other process's visit
        second = _desk_post(client, event_id, "/rounds/1/tables/2", _sheet("B", (0, 3, 2, 4)))
        assert second.status_code == 303, second.text[:300]
    server.kill()
    server.start()  # the next process to open the file
    with httpx.Client(base_url=server.url, timeout=120) as client:
        assert client.get(f"/public/{event_id}/results").status_code == 200
        _old_attacks(client, db, event_id)
        _another_process_reads(db, event_id)
    server.kill()
    first, second = _results(db, event_id)
    assert first is not None and (first["kind"], first["outcome"]) == ("sheet", "A")
    assert second is not None and (second["kind"], second["outcome"]) == ("sheet", "B")
