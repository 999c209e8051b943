"""Snapshot of what a user sees of one scripted event per game: the OpenAPI document, the
desk's, public and printed pages of a BALL, a Xiangqi and a Mahjong event, and the CLI's JSON
and TRF of each, each written to a file of OUT. Run it before and after a change and
`diff -r` the two folders: a change that claims "behaviour unchanged" shows an empty diff.

    .venv/bin/python scripts/game_pages.py OUT

Tokens that differ run to run (CSRF, device keys, table links) are masked.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
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


def two_player_event(
    client: TestClient, game: str, result: dict[str, str], name: str = "open"
) -> int:
    event_id = create(client, f"{game} {name}", system="round-robin", game=game)
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
           "/public/{e}/pairings", "/public/{e}/projector",
           "/print/forms?round=1&event={e}"]  # fmt: skip
# A two-player event's round once the desk records table 1's game and publishes the round's
# live boards: the broadcast page, the live board and its record.
PAGES_LIVE = ["/desk/{e}/rounds/1", "/public/{e}/live/1", "/public/{e}/live/1/1",
              "/public/{e}/live/1/1/record"]  # fmt: skip
PAGES_TEAM = ["/desk/{e}/teams", "/desk/{e}/rounds/1/matches/1", "/public/{e}/teams"]
PAGES_TIE = ["/desk/{e}/bracket", "/desk/{e}/rounds/1/ties/1", "/public/{e}/bracket"]


def live_event(client: TestClient, game: str, result: dict[str, str]) -> int:
    """A two-player event whose table 1 records its game on a board, the round published."""
    event_id = two_player_event(client, game, result, name="live")
    assert post(client, event_id, "/rounds/1/tables/1/record") == 303
    assert post(client, event_id, "/rounds/1/broadcast", {"publish": "1"}) == 303
    return event_id


def link_pages(client: TestClient, game: str, out: Path, bad: dict[str, str]) -> None:
    """A player's phone page of an unplayed table (`/t/TOKEN`), and the page refusing a
    form the players may not send."""
    event_id = create(client, f"{game} links", system="round-robin", game=game)
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert post(client, event_id, "/entrants", {"name": name}) == 303
    assert post(client, event_id, "/rounds") == 303
    token = service_for(client.app).table_links.table_link_tokens(event_id, 1)[1]["A"]
    for name, answer in (("page", client.get(f"/t/{token}")),
                         ("refused", client.post(f"/t/{token}", data=bad))):  # fmt: skip
        text = f"{answer.status_code}\n{masked(answer.text)}"
        (out / f"{game}-link__{name}.txt").write_text(text)


def team_event(client: TestClient, game: str) -> int:
    """A team round robin of two teams of three, two boards, paired: its match card."""
    event_id = create(client, f"{game} teams", system="round-robin", game=game, teams="2")
    for name, players in (("Reds", "a1=2000\na2=1900\na3"), ("Blues", "b1=2100\nb2\nb3")):
        assert post(client, event_id, "/teams", {"name": name, "players": players}) == 303
    assert post(client, event_id, "/rounds") == 303
    return event_id


def tie_event(client: TestClient, game: str) -> int:
    """A knockout of two, drawn by cards: the tie's page before any game."""
    event_id = create(client, f"{game} KO", system="knockout", game=game, games_per_tie="2",
                      extra_games="0")  # fmt: skip
    for name in ("Ann", "Bo"):
        assert post(client, event_id, "/entrants", {"name": name}) == 303
    cards = {"how": "cards", "name_1": "Ann", "card_1": "1R", "name_2": "Bo", "card_2": "1B"}
    assert post(client, event_id, "/draw", cards) == 303
    return event_id


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
            for game, result in (("ball", ball), ("xiangqi", xiangqi)):
                events[f"{game}-live"] = (live_event(client, game, result), PAGES_LIVE)
                events[f"{game}-team"] = (team_event(client, game), PAGES_TEAM)
                events[f"{game}-tie"] = (tie_event(client, game), PAGES_TIE)
            service_for(app)  # the same service the pages read
            # another address: the events created so far reached the per-address limit
            other = TestClient(app, client=("testclient-2", 50000))
            link_pages(other, "ball", out, {"h1_td": "A", "h1_A_atk": "x"})
            link_pages(other, "xiangqi", out, {"xq_result": "1-0", "xq_reason": "forfeit"})
            for game, (event_id, pages) in events.items():
                for page in pages:
                    path = page.format(e=event_id)
                    answer = client.get(path)
                    name = re.sub(r"[^A-Za-z0-9]+", "_", page.format(e="E")).strip("_")
                    pdf = "pdf" in answer.headers.get("content-type", "")
                    body = "" if pdf else masked(answer.text)
                    (out / f"{game}__{name}.txt").write_text(f"{answer.status_code}\n{body}")
                cli = {id(PAGES_2): CLI_2, id(PAGES_4): CLI_4}.get(id(pages), [])
                for args in cli:
                    ran = CliRunner().invoke(cli_app, [*args, "--db", db, "--event", str(event_id)])
                    name = "_".join(a.strip("-") for a in args)
                    (out / f"{game}__cli_{name}.txt").write_text(f"{ran.exit_code}\n{ran.output}")
    help_pages(out)


# `ball --help` and the help of every command and group, as Typer prints it (the front door
# draws the top-level help without Typer: its own file).
HELP = [[], ["xiangqi"], ["mahjong"], ["event"], ["round"], ["result"], ["standings"],
        ["pdf"], ["export"], ["team"]]  # fmt: skip


def help_pages(out: Path) -> None:
    for args in HELP:
        ran = CliRunner().invoke(cli_app, [*args, "--help"], terminal_width=100)
        name = "_".join(args) or "ball"
        (out / f"help__{name}.txt").write_text(f"{ran.exit_code}\n{ran.output}")
        for sub in _subcommands(ran.output) if args else []:
            again = CliRunner().invoke(cli_app, [*args, sub, "--help"], terminal_width=100)
            (out / f"help__{name}_{sub}.txt").write_text(f"{again.exit_code}\n{again.output}")
    front = subprocess.run([sys.executable, "-m", "ball.cli", "--help"], capture_output=True,
                           text=True, env={**os.environ, "COLUMNS": "100",
                                           "BALL_AGENT": "0"})  # fmt: skip
    (out / "help__front_door.txt").write_text(f"{front.returncode}\n{front.stdout}")


def _subcommands(help_text: str) -> list[str]:
    """The commands a group's help lists (its "Commands" panel: a name at the panel's edge;
    a wrapped help line starts further in)."""
    panel = help_text.split("Commands", 1)[1] if "Commands" in help_text else ""
    return re.findall(r"^│ ([a-z][a-z0-9-]*) ", panel, re.MULTILINE)


if __name__ == "__main__":
    snapshot(Path(sys.argv[1]))
