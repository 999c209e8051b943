"""The backup and restore of docs/deploy.md, run as written (issue 34): the `pg_dump` and
`pg_restore` lines are read from the document's "Backup and restore" block and run against
the throwaway PostgreSQL server. The restored database holds the same events (the same event
file when exported, the same standings) and takes new writes (its id sequences came along)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from ball.tournament import TournamentService
from event_file.events import T0, export, ok, without_time
from event_file.events import mahjong as mahjong_event
from event_file.events import swiss as swiss_event

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def documented_commands() -> list[str]:
    """The shell lines of the block that follows the "Backup and restore" heading."""
    text = DEPLOY.read_text(encoding="utf-8")
    section = text.split("## Backup and restore", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "docs/deploy.md: no ```sh block under 'Backup and restore'"
    return [
        line for line in block.group(1).splitlines() if line.startswith(("pg_dump", "pg_restore"))
    ]


def libpq(url: str) -> str:
    """The libpq URL of a SQLAlchemy one (the driver's name dropped), as the doc says."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def test_the_documented_backup_restores_every_event(postgres_server, tmp_path):
    import random

    commands = documented_commands()
    assert [c.split()[0] for c in commands] == ["pg_dump", "pg_restore"]
    live = postgres_server.create_database()
    svc = TournamentService(live)
    swiss = swiss_event(svc, random.Random(7))
    mj = mahjong_event(svc)
    files = {e: export(live, e, tmp_path / f"{e}.json") for e in (swiss, mj)}
    standings = ok("standings", "--db", live, "--event", str(swiss), "--json")

    restored = postgres_server.create_database()
    env = {
        **os.environ,
        "PATH": f"{postgres_server.bin_dir}{os.pathsep}{os.environ['PATH']}",
        "BALL_PG": libpq(live),
        "BALL_PG_NEW": libpq(restored),
        "BACKUP": str(tmp_path / "ball.dump"),
    }
    for command in commands:
        done = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True,
                              timeout=120)  # fmt: skip
        assert done.returncode == 0, f"{command}: {done.stderr}"

    for event, doc in files.items():
        again = export(restored, event, tmp_path / f"{event}-restored.json")
        assert without_time(again) == without_time(doc)
    assert ok("standings", "--db", restored, "--event", str(swiss), "--json") == standings
    after = TournamentService(restored)
    added = after.entrants.add_player("After Restore", event=swiss)
    made = after.events.create_event(name="Next Week", system="swiss")
    assert made.id > mj and added.name == "After Restore"
    after.arbiter.record("note", f"restored at {T0}", event=swiss)
