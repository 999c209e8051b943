"""Helpers of the `ball publish` tests: a Swiss event built through the service, the links
of a published folder checked against its files, a snapshot of its bytes, and a loopback
static file server (what a web host does, nothing more)."""

from __future__ import annotations

import contextlib
import functools
import random
import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from unittest import mock
from urllib.parse import unquote, urlsplit

from ball.tournament import berger, pairing_check
from ball.tournament.service import TournamentService

URL = re.compile(r'\b(?:href|src|data-next|action)="([^"]*)"|content="\d+;url=([^"]*)"')
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")
JS_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']""")


def sheet(rng: random.Random) -> dict:
    """A legal BALL score sheet (coach A ATK in the first half, PB on both coaches)."""
    halves = []
    for atk in ("A", "B"):
        a_atk, b_atk = rng.randint(0, 9), rng.randint(0, 9)
        scorers = [c for c, pb in (("A", a_atk), ("B", b_atk)) if pb > 0]
        halves.append(
            {
                "atk_first": atk,
                "td": rng.choice([None, None, *scorers]),
                "pb": {"A": {"atk": a_atk, "def": b_atk}, "B": {"atk": b_atk, "def": a_atk}},
            }
        )
    return {"coaches": ["A", "B"], "halves": halves, "forfeit": None}


def swiss_event(db: str, entrants: int, rounds: int, seed: int = 1) -> tuple[int, list[int]]:
    """A Swiss of `entrants` over `rounds` rounds set by the arbiter (Berger rounds: no pair
    twice, and no pairing engine to wait for), every table with a score sheet except the
    even tables of the last round; returns the event's id and those open tables."""
    rng = random.Random(seed)
    svc = TournamentService(db)
    event_id = svc.events.create_event(name="Publish Open", system="swiss", rounds=rounds + 1).id
    names = [f"Coach {i:04d}" for i in range(1, entrants + 1)]
    for i, name in enumerate(names):
        svc.entrants.add_player(name, rating=2400 - i, event=event_id)
    open_tables: list[int] = []
    # The arbiter's Berger rounds are no Dutch pairing: checked, they would be held back from
    # the public pages (tests/tournament/test_pairing_check.py); these pages are the subject
    # here, so the rounds are stored unchecked, as a round imported from a TRF is.
    unchecked = pairing_check.Verdict(None, pairing_check.NOT_CHECKABLE, "a test's own rounds")
    for number in range(1, rounds + 1):
        pairs = berger.round_robin_round(entrants, number, 1)
        tables = [(names[w - 1], names[b - 1] if b else None) for w, b in pairs]
        with mock.patch.object(pairing_check, "check", return_value=unchecked):
            svc.rounds.set_pairing(number, tables, event=event_id)
        for t, (_, b) in enumerate(tables, start=1):
            if b is None:
                continue
            if number == rounds and t % 2 == 0:
                open_tables.append(t)
            else:
                svc.results.enter_result(number, t, sheet=sheet(rng), event=event_id)
    svc.engine.dispose()
    return event_id, open_tables


def broken_links(out: Path) -> list[str]:
    """Every internal address of the folder's pages, style sheets and scripts that names no
    file in it, as "file: address"; an address from the host's root (`/...`) is broken too,
    since the folder need not be the host's root."""
    broken = []
    for path in sorted(out.rglob("*")):
        if path.suffix not in (".html", ".css", ".js"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".html":
            found = [a or b for a, b in URL.findall(text)]
        else:
            found = (CSS_URL if path.suffix == ".css" else JS_IMPORT).findall(text)
        for address in found:
            address = address.replace("&amp;", "&")
            parts = urlsplit(address)
            if not address or address.startswith("#") or parts.scheme in ("http", "https"):
                continue
            target = (path.parent / unquote(parts.path)).resolve()
            if address.startswith("/") or parts.query or not target.is_file():
                broken.append(f"{path.relative_to(out)}: {address}")
            elif not target.is_relative_to(out.resolve()):
                broken.append(f"{path.relative_to(out)}: {address} (outside the folder)")
    return broken


def snapshot(out: Path) -> dict[str, tuple[bytes, int]]:
    """Each file's bytes and modification time (ns), by its path relative to `out`."""
    return {
        str(p.relative_to(out)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in out.rglob("*")
        if p.is_file()
    }


@contextlib.contextmanager
def static_server(out: Path) -> Iterator[str]:
    """`out` served as plain files on a free loopback port (what a web host does); yields
    the base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base's name
            pass

    handler = functools.partial(Quiet, directory=str(out))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()
            thread.join(timeout=10)
