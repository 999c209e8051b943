"""Issue 30, items 1-3, as the campaign ran them: a stranger on 127.0.0.2 against a live
`ball serve` (the arbiter's desk on 127.0.0.1) tries to write what the desk trusts.

- Table clocks bound to an event: the stranger reads their faces, but no press, start or
  period end of theirs is taken, so the desk's "half ends from clocks" finds nothing of
  theirs; the tablet the desk gave the key to (also a LAN address) presses them.
- The Xiangqi game the desk opened for a table: not in the public list, and no move or
  ending of the stranger's is taken, so the desk's result form offers nothing.
- The round's printed forms: the stranger's copy has no sanction reason; the desk's has it.
"""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import parse_qs, urlsplit

import httpx

PIN = "97531"
REASON = "Moved a piece during the release phase of the opponent"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _from(address: str, base: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(transport=transport, base_url=base, timeout=60)


class Desk:
    """The arbiter's browser on 127.0.0.1: creates an event and posts its forms."""

    def __init__(self, client: httpx.Client, name: str, game: str) -> None:
        self.client = client
        form = {"name": name, "system": "round-robin", "pin": PIN, "pin2": PIN, "game": game}
        made = client.post("/desk/events", data=form)
        assert made.status_code == 303, made.text
        self.event = int(made.headers["location"].rsplit("/", 1)[1])
        page = client.get(f"/desk/{self.event}").text
        self.csrf = CSRF.search(page).group(1)

    def post(self, path: str, data: dict | None = None) -> httpx.Response:
        return self.client.post(
            f"/desk/{self.event}{path}", data={"csrf": self.csrf, **(data or {})}
        )

    def seat(self, names: tuple[str, ...]) -> None:
        for name in names:
            assert self.post("/entrants", {"name": name}).status_code == 303
        assert self.post("/rounds").status_code == 303


def test_a_stranger_writes_nothing_the_desk_trusts(server_process):
    server = server_process()
    with _from("127.0.0.1", server.url) as arbiter, _from("127.0.0.2", server.url) as stranger:
        ball = Desk(arbiter, "Venue Open", "ball")
        ball.seat(("Ana", "Boris", "Chen", "Dana"))
        assert ball.post("/rounds/1/signals/1").status_code == 303
        made = ball.post("/rounds/1/clocks")
        assert made.status_code == 303
        label = parse_qs(urlsplit(made.headers["location"]).query)["round"][0]

        # --- item 1: the table clocks -------------------------------------------------
        query = {"round": label, "event": ball.event}
        seen = stranger.get("/clock/api/clocks", params=query).json()
        assert len(seen) == 2 and all("device_key" not in c for c in seen)  # faces only
        for clock in seen:
            events = f"/clock/api/clocks/{clock['id']}/events"
            for kind in ("start", "next_period", "press", "pause", "end_period"):
                refused = stranger.post(events, json={"kind": kind})
                assert refused.status_code == 403, (kind, refused.text)
            assert stranger.get(f"/clock/api/clocks/{clock['id']}/history").json() == []
        assert ball.post("/rounds/1/half-ends/from-clocks").status_code == 303
        assert _half_ends_from_clocks(server.db) == 0
        # The tablet the desk handed table 1's link to starts that clock, and only that one.
        keys = arbiter.get("/clock/api/clocks", params=query).json()
        device = {"X-Table-Key": keys[0]["device_key"]}
        started = stranger.post(
            f"/clock/api/clocks/{keys[0]['id']}/events", json={"kind": "start"}, headers=device
        )
        assert started.status_code == 200, started.text
        crossed = stranger.post(
            f"/clock/api/clocks/{keys[1]['id']}/events", json={"kind": "start"}, headers=device
        )
        assert crossed.status_code == 403

        # --- item 2: the desk-linked Xiangqi game ---------------------------------------
        xq = Desk(arbiter, "Venue Xiangqi", "xiangqi")
        xq.seat(("Wang", "Li", "Zhao", "Qian"))
        opened = xq.post("/rounds/1/tables/1/record")
        assert opened.status_code == 303
        game = opened.headers["location"].split("#", 1)[0].rsplit("/", 1)[1]
        listed = stranger.get("/api/xiangqi/games").json()
        assert all(g["id"] != int(game) for g in listed)
        assert not any("Wang" in g["title"] for g in listed)
        base = f"/api/xiangqi/games/{game}"
        for path, body in (
            ("/moves", {"move": "h2e2"}),
            ("/computer", {}),
            ("/ending", {"ending": "resign-red"}),
        ):
            assert stranger.post(base + path, json=body).status_code == 403, path
        assert stranger.get(base).json()["moves"] == []
        form = arbiter.get(f"/desk/{xq.event}/rounds/1/tables/1").text
        assert 'id="recorded-ending"' not in form and 'value="0-1" checked' not in form

        # --- item 3: the printed forms ---------------------------------------------------
        page = arbiter.get(f"/desk/{ball.event}/sanctions").text
        entrant = re.search(r'name="entrant" value="(\d+)"', page).group(1)
        given = ball.post(
            "/sanctions", {"entrant": entrant, "step": "warning", "round": "1", "reason": REASON}
        )
        assert given.status_code == 303
        params = {"event": ball.event, "round": 1}
        public = stranger.get("/print/forms", params=params)
        assert public.status_code == 200 and "Ana" in public.text
        assert REASON not in public.text
        assert REASON in arbiter.get("/print/forms", params=params).text


def _half_ends_from_clocks(db: str) -> int:
    """First-half ends the desk took from table clocks (source "table"), read from the live
    database by another process, as a second desk machine would."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        return connection.execute(
            "SELECT count(*) FROM desk_half_ends WHERE source = 'table'"
        ).fetchone()[0]
