"""The board of a game the desk opened for a table, in Debian's Chromium (issue 30): the
desk's link (`/xiangqi/ID#key=...`) lets the table's tablet play by click; the board opened
without the link shows the game but its move is refused, and nothing is stored."""

from __future__ import annotations

import pytest

from ball.games.xiangqi.web.game_store import XiangqiStore
from ball.storage import open_database

from .test_xiangqi_browser import api_state, click

pytestmark = pytest.mark.browser


def table_game(db_path: str) -> tuple[str, str]:
    engine, sessions = open_database(db_path)
    try:
        store = XiangqiStore(sessions)
        game_id = store.for_table(1, 1, 1, "Open, round 1, table 1")
        access = store.table_access(str(game_id))
        assert access is not None
        return str(game_id), access[1]
    finally:
        engine.dispose()


def test_the_desks_link_plays_and_a_bare_board_cannot(browser, live_server, db_path) -> None:
    game_id, key = table_game(db_path)

    bare = browser.new_context().new_page()
    bare.goto(f"{live_server}/xiangqi/{game_id}")
    bare.wait_for_selector("#xq-board .xq-piece")
    click(bare, "h2")
    click(bare, "e2")
    bare.wait_for_function("document.querySelector('#xq-error')?.textContent.includes('key')")
    assert api_state(live_server, game_id)["moves"] == []

    tablet = browser.new_context().new_page()
    errors: list[str] = []
    tablet.on("pageerror", lambda exc: errors.append(str(exc)))
    tablet.goto(f"{live_server}/xiangqi/{game_id}#key={key}")
    tablet.wait_for_selector("#xq-board .xq-piece")
    assert key not in tablet.url
    click(tablet, "h2")
    click(tablet, "e2")
    tablet.wait_for_selector('#xq[data-version="1"]:not([aria-busy])')
    assert api_state(live_server, game_id)["last"] == "h2e2"
    assert errors == []
