"""Several server processes over one database (issue 34): what each worker is made from.

`ball serve --workers N` prepares the database once (migrations, `--demo`) in its own
process, then hands the listening socket to N worker processes under uvicorn's supervisor,
which starts a new worker when one dies. Every worker builds its app with `app_from_env`
from the environment the command set; another ASGI server's workers use the same factory:

    BALL_DB=postgresql+psycopg://... BALL_WORKERS=4 \\
        uvicorn --factory ball.web.workers:app_from_env --workers 4

What must hold across the processes lives in the database (docs/web.md, "Several
processes"): game versions (compare-and-set, and a row lock on PostgreSQL), PIN throttles,
result versions, the event lock of a pairing, revision tokens. A write in one process
makes the others' pages fresh through PostgreSQL's `LISTEN/NOTIFY` (`ball.web.revision_feed`).

SQLite has one writer at a time and this module refuses more than one process on it: the
processes would queue on its file lock with busy-retry sleeps, and the simulator's append
path (`ball.games.ball.play.heads`) counts on one process writing its games.
"""

from __future__ import annotations

import json
import os

from fastapi import FastAPI

WORKERS_ENV = "BALL_WORKERS"  # also read by `Limits.from_env` (each process's budget share)
HOSTS_ENV = "BALL_SERVE_HOSTS"  # JSON list of the Host names answered (`ball serve` sets it)
LINK_BASE_ENV = "BALL_LINK_BASE"  # the printed table links' address (`ball serve`)


def refusal(url: str, workers: int) -> str | None:
    """Why `workers` processes cannot serve the database at `url` (None: they can)."""
    if workers < 1:
        return f"--workers {workers}: give at least 1"
    if workers > 1 and url.startswith("sqlite"):
        return (
            f"--workers {workers} needs PostgreSQL (--db postgresql+psycopg://...): "
            "SQLite takes one writer at a time, so serve it with one process"
        )
    return None


def app_from_env() -> FastAPI:
    """One worker's app: database from `BALL_DB`, Host names from `BALL_SERVE_HOSTS`
    (default: loopback), limits from the `BALL_*` variables (`BALL_WORKERS` among them).
    Refuses SQLite when `BALL_WORKERS` is above 1, with the same one line as the command."""
    from ball.storage import database_url
    from ball.web.app import create_app
    from ball.web.core.headers import LOOPBACK
    from ball.web.core.limits import Limits

    limits = Limits.from_env()
    url = database_url(None)
    why = refusal(url, limits.workers)
    if why is not None:
        raise SystemExit(why)
    hosts = os.environ.get(HOSTS_ENV)
    allowed = json.loads(hosts) if hosts else list(LOOPBACK)
    app = create_app(None, limits=limits, allowed_hosts=allowed)
    if os.environ.get(LINK_BASE_ENV):  # the QR codes of printed table links (issue 35 §1)
        app.state.link_base = os.environ[LINK_BASE_ENV]
    return app
