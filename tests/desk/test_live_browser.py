"""A live board followed by a second browser while the table's tablet records the moves
(issue 35 §5), in Debian's Chromium: the follower, a phone (390×844) under the page's real
Content-Security-Policy, sees each move as it is recorded without a reload, the game's end,
and its PGN download; the page passes axe."""

from __future__ import annotations

from pathlib import Path

import pytest

from ball.games.xiangqi.engine import pgn

from .test_live_stream import live  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "desk"
MOVES = (("h2", "e2"), ("h9", "g7"), ("h0", "g2"))


def click(page, square: str) -> None:
    """A tap on a point of the board, as a finger or a mouse gives it."""
    target = page.locator(f'#xq-board rect.xq-pt[data-square="{square}"]')
    target.evaluate("n => n.scrollIntoView({block: 'center', inline: 'center'})")
    box = target.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_second_browser_follows_a_live_board_while_moves_are_recorded(
    live,  # noqa: F811 - the fixture imported above
    browser,
    axe,
    tmp_path,
):
    app, base, desk, event_id, gid, device = live()
    key = device["X-Table-Key"]

    follower = browser.new_context(
        viewport={"width": 390, "height": 844}, bypass_csp=False, accept_downloads=True
    ).new_page()
    errors: list[str] = []
    follower.on("pageerror", lambda exc: errors.append(str(exc)))
    follower.goto(f"{base}/public/{event_id}/live/1")
    follower.click(f'a[href="/public/{event_id}/live/1/1"]')
    follower.wait_for_selector('#xq[data-moves="0"] #xq-board .xq-piece')
    # A mark that a reload would wipe: the board must change under it.
    follower.evaluate("window.liveMark = 'not reloaded'")
    # axe-core is injected as a script, which the page's policy refuses: a page of its own.
    checked = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    checked.goto(follower.url)
    checked.wait_for_selector("#xq-board .xq-piece")
    assert axe(checked) == []
    checked.context.close()  # its stream too

    tablet = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    tablet.goto(f"{base}/xiangqi/{gid}#key={key}")
    tablet.wait_for_selector("#xq-board .xq-piece")
    for n, (frm, to) in enumerate(MOVES, 1):
        click(tablet, frm)
        click(tablet, to)
        tablet.wait_for_selector(f'#xq[data-version="{n}"]:not([aria-busy])')
        follower.wait_for_selector(f'#xq[data-moves="{n}"]', timeout=20_000)
        piece = follower.locator(f'#xq-board .xq-piece[data-square="{to}"]')
        assert piece.count() == 1
        assert follower.locator(f'#xq-board .xq-piece[data-square="{frm}"]').count() == 0
        assert follower.locator("#xq-moves .xq-move").count() == n
    assert follower.evaluate("window.liveMark") == "not reloaded"
    assert "Black to move" in follower.locator("#xq-status").inner_text()

    # The tablet resigns for Red: the follower reads the end of the game.
    ended = desk.post(
        f"/api/xiangqi/games/{gid}/ending", json={"ending": "resign-red"}, headers=device
    )
    assert ended.status_code == 200, ended.text
    follower.wait_for_selector("#xq-status.over", timeout=20_000)
    assert "Black wins" in follower.locator("#xq-status").inner_text()
    assert follower.evaluate("window.liveMark") == "not reloaded"

    with follower.expect_download() as download_info:
        follower.click("#live-record")
    path = tmp_path / "game.pgn"
    download_info.value.save_as(path)
    assert download_info.value.suggested_filename.endswith(".pgn")
    record = pgn.read(path.read_text(encoding="utf-8"))
    assert [m.iccs() for m in record.game().moves] == [f + t for f, t in MOVES]
    assert record.result == "0-1"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    follower.screenshot(path=str(SCREENSHOTS / "live-board-390.png"), full_page=True)
    assert errors == []


def test_a_phone_follows_a_ball_tables_match(tmp_path, serve, browser, axe):
    import httpx

    from ball.web.app import create_app

    from .conftest import FakeClock, post, seat_event4
    from .test_xiangqi_record import device_of, record

    app = create_app(str(tmp_path / "ball.sqlite"))
    app.state.clock_time = FakeClock()
    base = serve(app)
    with httpx.Client(base_url=base, timeout=30) as desk:
        event_id = seat_event4(desk)
        opened = record(desk, event_id)
        gid, device = opened.headers["location"].split("#")[0].split("=")[1], device_of(opened)
        assert post(desk, event_id, "/rounds/1/broadcast", {"publish": "1"}).status_code == 303
        phone = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=False)
        page = phone.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/public/{event_id}/live/1/1")
        page.wait_for_selector('#live-ball[data-moves="0"] .board-wrap svg')
        page.evaluate("window.liveMark = 'not reloaded'")
        for n in (1, 2, 3):
            legal = desk.get(f"/api/games/{gid}").json()["legal"]
            action = "end" if "end" in legal else legal[0]
            played = desk.post(f"/api/games/{gid}/actions", json={"action": action}, headers=device)
            assert played.status_code == 200, played.text
            page.wait_for_selector(f'#live-ball[data-moves="{n}"]', timeout=20_000)
            assert page.locator(".log-table tbody tr").count() == n
            assert action in page.locator(".log-table tbody tr").last.inner_text()
        assert page.evaluate("window.liveMark") == "not reloaded"
        assert errors == []
        checked = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        checked.goto(page.url)
        checked.wait_for_selector('#live-ball[data-moves="3"]')
        assert axe(checked) == []
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "live-ball-390.png"), full_page=True)
        checked.context.close()
        phone.close()


def test_the_desks_link_lets_the_tablets_simulator_board_write_the_match(tmp_path, serve, browser):
    """`/?game=ID#key=...` on the table's tablet: the page keeps the key (out of the address
    bar) and sends it with the game's writes; the same board opened without the link
    cannot write."""
    import httpx

    from ball.web.app import create_app

    from .conftest import FakeClock, seat_event4
    from .test_xiangqi_record import record

    app = create_app(str(tmp_path / "tablet.sqlite"))
    app.state.clock_time = FakeClock()
    base = serve(app)
    with httpx.Client(base_url=base, timeout=30) as desk:
        event_id = seat_event4(desk)
        link = record(desk, event_id).headers["location"]
        gid = link.split("#")[0].split("=")[1]
        apply = """async ([id, action]) => {
            const { api } = await import('/static/js/api.js');
            try { return (await api.apply(id, action)).version; } catch (e) { return e.message; }
        }"""
        bare = browser.new_context().new_page()
        bare.goto(f"{base}/?game={gid}")
        bare.wait_for_selector("#sim svg")
        legal = desk.get(f"/api/games/{gid}").json()["legal"]
        assert "key" in bare.evaluate(apply, [gid, legal[0]])
        tablet = browser.new_context().new_page()
        tablet.goto(f"{base}{link}")
        tablet.wait_for_selector("#sim svg")
        assert "#key=" not in tablet.url
        assert tablet.evaluate(apply, [gid, legal[0]]) == 1
        assert desk.get(f"/api/games/{gid}").json()["version"] == 1
