"""Snapshot of what a user sees of one scripted event per game: the OpenAPI document, the
desk's, public and printed pages of a BALL, a Xiangqi and a Mahjong event, and the CLI's JSON
and TRF of each, each written to a file of OUT. Run it before and after a change and
`diff -r` the two folders: a change that claims "behaviour unchanged" shows an empty diff.

    .venv/bin/python scripts/game_pages.py OUT

Tokens that differ run to run (CSRF, device keys, table links) are masked.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import warnings
from pathlib import Path

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from typer.testing import CliRunner

from ball.cli import app as cli_app
from ball.web.app import create_app
from ball.web.core.deps import service_for

T0 = 1_800_000_000.0
PIN = "2468"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="([^"]*)"')
MASKS = [
    (re.compile(r'(name="csrf" value=")[^"]+'), r"\1CSRF"),
    (re.compile(r'("csrf":\s*")[^"]+'), r"\1CSRF"),
    (re.compile(r"(/t/)[A-Za-z0-9_\-]{8,}"), r"\1TOKEN"),
    (re.compile(r"(#key=|key=)[A-Za-z0-9_\-]{8,}"), r"\1KEY"),
    (re.compile(r'(nonce=")[^"]+'), r"\1NONCE"),
    (re.compile(r"(data:image/png;base64,)[A-Za-z0-9+/=]+"), r"\1PNG"),
    (re.compile(r'(data:image/svg\+xml;)[^"]+'), r"\1QR"),
    (re.compile(r'(class="recovery-code"><code>)[^<]+'), r"\1CODE"),
]


def masked(text: str) -> str:
    for pattern, repl in MASKS:
        text = pattern.sub(repl, text)
    return text


def create(client: TestClient, name: str, **extra: str) -> int:
    data = {"name": name, "pin": PIN, "pin2": PIN, **extra}
    answer = client.post("/desk/events", data=data, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return int(answer.headers["location"].rsplit("/", 1)[1])


def post(
    client: TestClient, event_id: int, path: str, data: dict[str, str] | None = None
) -> int:
    token = CSRF.search(client.get(f"/desk/{event_id}").text)
    assert token is not None
    form = {"csrf": token.group(1), **(data or {})}
    answer = client.post(f"/desk/{event_id}{path}", data=form, follow_redirects=False)
    return answer.status_code


def two_player_event(client: TestClient, game: str, result: dict[str, str]) -> int:
    event_id = create(client, f"{game} open", system="round-robin", game=game)
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert post(client, event_id, "/entrants", {"name": name}) == 303
    assert post(client, event_id, "/rounds") == 303
    for table, form in ((1, result), (2, {"kind": "forfeit-B"})):
        page = client.get(f"/desk/{event_id}/rounds/1/tables/{table}").text
        version = VERSION.search(page)
        assert version is not None
        path = f"/rounds/1/tables/{table}"
        assert post(client, event_id, path, {**form, "version": version.group(1)}) == 303
    return event_id


PAGES_2 = [
    "/desk/{e}", "/desk/{e}/rounds/1", "/desk/{e}/rounds/1/tables/1",
    "/desk/{e}/rounds/1/tables/2", "/desk/{e}/rounds/1/tables/1/quick", "/desk/{e}/sanctions",
    "/desk/{e}/standings", "/public/{e}", "/public/{e}/standings", "/public/{e}/pairings",
    "/public/{e}/results", "/public/{e}/crosstable", "/public/{e}/projector",
    "/print/forms?round=1&event={e}",
]  # fmt: skip
CLI_2 = [["event", "show", "--json"], ["round", "show", "--round", "1", "--json"],
         ["standings", "--json"], ["export", "trf"]]  # fmt: skip
CLI_4 = [["event", "show", "--json"], ["standings", "--json"]]
PAGES_4 = ["/desk/{e}", "/desk/{e}/sessions/1", "/public/{e}", "/public/{e}/standings",
           "/public/{e}/pairings", "/print/forms?round=1&event={e}"]  # fmt: skip


def snapshot(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "pages.sqlite")
        app = create_app(db)
        app.state.clock_time = lambda: T0
        app.state.warm_up = None
        with TestClient(app) as client:
            (out / "openapi.json").write_text(json.dumps(app.openapi(), indent=1, sort_keys=True))
            xiangqi = {"kind": "sheet", "xq_result": "1-0", "xq_reason": "resignation",
                       "xq_fouls_A": "0", "xq_fouls_B": "1", "xq_moves": "31"}  # fmt: skip
            ball = {"kind": "sheet", "h1_td": "A", "h1_A_atk": "2", "h1_A_def": "3",
                    "h1_B_atk": "3", "h1_B_def": "2", "h2_td": "", "h2_B_atk": "2",
                    "h2_B_def": "3", "h2_A_atk": "3", "h2_A_def": "2"}  # fmt: skip
            events = {
                "ball": (two_player_event(client, "ball", ball), PAGES_2),
                "xiangqi": (two_player_event(client, "xiangqi", xiangqi), PAGES_2),
            }
            mahjong = create(client, "mahjong open", game="mahjong", rounds="2")
            for name in ("Ann", "Bo", "Cy", "Di"):
                post(client, mahjong, "/entrants", {"name": name})
            post(client, mahjong, "/sessions", {})
            events["mahjong"] = (mahjong, PAGES_4)
            service_for(app)  # the same service the pages read
            for game, (event_id, pages) in events.items():
                for page in pages:
                    path = page.format(e=event_id)
                    answer = client.get(path)
                    name = re.sub(r"[^A-Za-z0-9]+", "_", page.format(e="E")).strip("_")
                    pdf = "pdf" in answer.headers.get("content-type", "")
                    body = "" if pdf else masked(answer.text)
                    (out / f"{game}__{name}.txt").write_text(f"{answer.status_code}\n{body}")
                for args in CLI_2 if pages is PAGES_2 else CLI_4:
                    ran = CliRunner().invoke(cli_app, [*args, "--db", db, "--event", str(event_id)])
                    name = "_".join(a.strip("-") for a in args)
                    (out / f"{game}__cli_{name}.txt").write_text(f"{ran.exit_code}\n{ran.output}")


if __name__ == "__main__":
    snapshot(Path(sys.argv[1]))
