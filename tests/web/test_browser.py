"""Click through the simulator, rulebook and replay viewer in Debian's Chromium.

After every step the game's state is read back through the JSON API: the page must have
asked the server, never decided anything itself. Screenshots (desktop 1366x768 and phone
390x844) land in test-artifacts/web/.
"""

from __future__ import annotations

import json

import httpx
import pytest

from ball.games.ball.web.rulebook import diagrams

from .conftest import shoot

pytestmark = pytest.mark.browser


def api(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=20)


def new_game(base: str, diagram: str | None = None, mode: str = "free") -> str:
    body: dict = {"mode": mode}
    if diagram:
        body["position"] = diagrams()[diagram]["position"]
    with api(base) as c:
        r = c.post("/api/games", json=body)
        r.raise_for_status()
        return r.json()["id"]


def state(base: str, game_id: str) -> dict:
    with api(base) as c:
        return c.get(f"/api/games/{game_id}").json()


def open_game(page, base: str, game_id: str) -> None:
    page.goto(f"{base}/?game={game_id}")
    page.wait_for_selector(".board .pieces [data-piece]")
    page.wait_for_selector(".status [data-field=turn]")


def click_square(page, square: str) -> None:
    """Click the middle of a board square (whatever is drawn on it)."""
    square_rect = page.locator(f'.board .sq[data-square="{square}"]').first
    # centre it in the window: the sticky header must not sit over it
    square_rect.evaluate("n => n.scrollIntoView({block: 'center', inline: 'center'})")
    box = square_rect.bounding_box()
    assert box is not None, f"square {square} is not on screen"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def lit(page, cls: str) -> set[str]:
    squares = page.eval_on_selector_all(
        f".board .target.{cls}", "ns => ns.map(n => n.dataset.square)"
    )
    return set(squares)


def wait_plies(page, base: str, game_id: str, plies: int) -> dict:
    page.wait_for_function(
        f"() => document.querySelectorAll('.log-table tbody tr').length === {plies}"
    )
    return state(base, game_id)


def no_js_errors(page) -> None:
    real = [e for e in page.js_errors if "Failed to load resource" not in e]
    assert real == []


def test_move(page, live_server):
    gid = new_game(live_server)
    open_game(page, live_server, gid)
    shoot(page, "01-start")
    click_square(page, "F10")
    page.click("button[data-kind=move]")
    # G11 holds an ally: F10-G11 is offered as Protect, not as a move
    assert lit(page, "first") == {"E9", "E11", "G9"}
    assert "F10-G11" in state(live_server, gid)["legal"]
    click_square(page, "E9")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "F10-E9"
    assert {"side": "N", "id": "O2", "kind": "O", "at": "E9", "state": "active"} in s["position"][
        "pieces"
    ]
    assert page.locator("[data-field=pa]").inner_text().endswith("1")
    shoot(page, "02-after-move")
    no_js_errors(page)


def test_dodge_with_exit_choice(page, live_server):
    gid = new_game(live_server, "dodge")
    open_game(page, live_server, gid)
    click_square(page, "D10")
    page.click("button[data-kind=dodge]")
    assert lit(page, "first") == {"F8"}
    click_square(page, "F8")
    exits = lit(page, "followup")
    legal = state(live_server, gid)["legal"]
    expected = {a.split("/")[1] for a in legal if a.startswith("D10-F8/")}
    assert exits == expected and len(exits) > 1
    shoot(page, "03-dodge-exit-choice")
    click_square(page, "E9")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "D10-F8/E9"
    pieces = {(p["side"], p["id"]): p for p in s["position"]["pieces"]}
    assert pieces[("S", "O2")]["state"] == "down" and pieces[("N", "X1")]["at"] == "E9"
    assert page.locator('.board .piece.down[data-piece="S:O2"]').count() == 1
    no_js_errors(page)


def test_tactical_dodge_with_push_choice(page, live_server):
    gid = new_game(live_server, "tactical-dodge")
    open_game(page, live_server, gid)
    click_square(page, "J8")
    page.click("button[data-kind=tdodge]")
    click_square(page, "L10")
    assert lit(page, "followup") == {"J8", "J10", "L8"}
    shoot(page, "04-tdodge-push-choice")
    click_square(page, "L8")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "J8xL10>L8"
    pieces = {(p["side"], p["id"]): p for p in s["position"]["pieces"]}
    assert pieces[("N", "X7")] == {**pieces[("N", "X7")], "at": "L8", "state": "down"}
    no_js_errors(page)


def test_short_pass_with_ball_placement(page, live_server):
    gid = new_game(live_server, "short-pass")
    open_game(page, live_server, gid)
    click_square(page, "G7")
    page.click("button[data-kind=short]")
    assert "J8" in lit(page, "first")
    click_square(page, "J8")
    assert lit(page, "followup") == {"I7", "I9", "K7", "K9"}
    shoot(page, "05-short-pass-ball-square")
    click_square(page, "K9")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "G7~J8@K9"
    assert s["position"]["ball"] == {"at": "K9"}
    assert s["log"][0]["pb"] == 1
    assert page.locator(".board .ball.free").count() == 1
    assert page.locator("[data-field=pbatk-S]").inner_text() == "1"
    no_js_errors(page)


def test_steal_decision(page, live_server):
    gid = new_game(live_server, "block-steal")
    open_game(page, live_server, gid)
    click_square(page, "H10")
    page.click("button[data-kind=block]")
    click_square(page, "G9")
    page.wait_for_selector("button[data-action=reset]")
    s = state(live_server, gid)
    assert s["position"]["phase"] == "steal" and sorted(s["legal"]) == ["continue", "reset"]
    assert page.locator(".board .badge.block").count() == 1
    shoot(page, "06-steal-decision")
    page.click("button[data-action=reset]")
    s = wait_plies(page, live_server, gid, 2)
    assert s["log"][1]["action"] == "reset"
    assert s["log"][1]["pb"] == 2
    assert s["position"]["pb"]["S"] == {"atk": 2, "def": 0}
    assert s["position"]["ball"] == {"carrier": "S:X5"}
    assert page.locator("[data-field=pbdef-N]").inner_text() == "2"
    no_js_errors(page)


def test_release_phase_split(page, live_server):
    gid = new_game(live_server, "release")
    open_game(page, live_server, gid)
    assert page.locator("button[data-task=G9]").count() == 1
    assert page.locator("button[data-task=E11]").count() == 1
    page.click("button[data-task=G9]")
    assert lit(page, "first") == {"F10", "H10"}
    click_square(page, "H10")
    page.wait_for_selector("button[data-word=top]")
    shoot(page, "07-split-ball-choice")
    page.click("button[data-word=top]")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "split G9 H10 F10:top"
    assert s["position"]["ball"] == {"carrier": "N:X5"}
    pieces = {(p["side"], p["id"]): p for p in s["position"]["pieces"]}
    assert pieces[("N", "X5")]["at"] == "H10" and pieces[("S", "X5")]["at"] == "F10"
    no_js_errors(page)


def test_escape_cancels_composition(page, live_server):
    gid = new_game(live_server, "short-pass")
    open_game(page, live_server, gid)
    before = state(live_server, gid)
    click_square(page, "G7")
    page.click("button[data-kind=short]")
    click_square(page, "J8")
    assert lit(page, "followup")
    page.keyboard.press("Escape")
    assert lit(page, "followup") == set() and lit(page, "first") == set()
    assert page.locator(".board .origin").count() > 0  # back to choosing a piece
    after = state(live_server, gid)
    assert after["version"] == before["version"] and after["position"] == before["position"]
    shoot(page, "08-after-escape")
    no_js_errors(page)


def test_undo_and_redo(page, live_server):
    gid = new_game(live_server)
    open_game(page, live_server, gid)
    click_square(page, "F10")
    page.click("button[data-kind=move]")
    click_square(page, "E9")
    wait_plies(page, live_server, gid, 1)
    page.click("button[data-control=undo]")
    s = wait_plies(page, live_server, gid, 0)
    assert s["log"] == [] and s["can_redo"]
    assert s["position"]["pa"] == 2
    page.click("button[data-control=redo]")
    s = wait_plies(page, live_server, gid, 1)
    assert s["log"][0]["action"] == "F10-E9"
    no_js_errors(page)


def test_language_switch_keeps_place(page, live_server):
    page.goto(f"{live_server}/rulebook/ball-actions")
    anchor = page.locator(".rules h2[data-anchor]").nth(1).get_attribute("id")
    page.goto(f"{live_server}/rulebook/ball-actions#{anchor}")
    shoot(page, "09-rulebook-en")
    page.click("a.lang-link[data-lang=ko]")
    page.wait_for_url(f"**/rulebook/ball-actions?lang=ko#{anchor}")
    assert page.locator("html").get_attribute("lang") == "ko"
    assert page.locator(f"#{anchor}").count() == 1
    assert page.locator(".site-nav a").first.inner_text() == "시뮬레이터"
    shoot(page, "10-rulebook-ko")
    page.click("a.lang-link[data-lang=bg]")
    page.wait_for_url(f"**/rulebook/ball-actions?lang=bg#{anchor}")
    assert page.locator(".site-nav a").first.inner_text() == "Симулатор"
    # scrolled to another heading (no anchor in the address): that heading is kept
    page.goto(f"{live_server}/rulebook/ball-actions?lang=en")
    third = page.locator(".rules h2[data-anchor]").nth(2)
    third.evaluate("n => n.scrollIntoView({block: 'start'})")
    ident = third.get_attribute("id")
    page.click("a.lang-link[data-lang=bg]")
    page.wait_for_url(f"**/rulebook/ball-actions?lang=bg#{ident}")
    # the cookie keeps the language on the next page without ?lang=
    page.goto(f"{live_server}/")
    assert page.locator("html").get_attribute("lang") == "bg"
    no_js_errors(page)


def test_rulebook_diagram_play_and_undo(page, live_server):
    page.goto(f"{live_server}/rulebook/dodge")
    figure = page.locator("figure.diagram[data-diagram=dodge]")
    figure.locator("button[data-control=play-suggested]").click()
    figure.locator(".log-table tbody tr").wait_for()
    assert figure.locator(".notation").first.inner_text() == diagrams()["dodge"]["suggest"]
    shoot(page, "11-rulebook-diagram-played")
    figure.locator("button[data-control=undo]").click()
    figure.locator("[data-control=redo]:not([disabled])").wait_for()
    assert figure.locator(".log-table tbody tr").count() == 0
    no_js_errors(page)


def test_replay_viewer(page, live_server):
    gid = new_game(live_server)
    with api(live_server) as c:
        for action in ("F10-E9", "end"):
            c.post(f"/api/games/{gid}/actions", json={"action": action}).raise_for_status()
        record = c.get(f"/api/games/{gid}/record").text
        positions = c.post("/api/records/replay", json={"bgn": record}).json()["halves"][0][
            "positions"
        ]
    page.goto(f"{live_server}/replay")
    page.click("details summary")
    page.fill("textarea[name=bgn]", record)
    page.click("#load-record button[type=submit]")
    page.wait_for_selector(".replay-controls [data-field=ply]:has-text('0')")
    assert page.locator('.board [data-piece="N:O2"]').count() == 1

    def shown_square(pid: str) -> str:
        return page.eval_on_selector(
            f'.board .pieces [data-piece="{pid}"]', "n => n.closest('[data-square]').dataset.square"
        )

    assert shown_square("N:O2") == "F10"
    page.click("button[data-control=forward]")
    assert page.evaluate("window.ballReplay.ply") == 1
    assert shown_square("N:O2") == "E9"
    assert positions[1]["pieces"] == positions[2]["pieces"]
    page.click("button[data-control=forward]")
    page.click("button[data-control=back]")
    page.click("button[data-control=back]")
    assert page.evaluate("window.ballReplay.ply") == 0
    assert shown_square("N:O2") == "F10"
    shoot(page, "12-replay")
    no_js_errors(page)


def test_print_shows_only_the_rules(page, live_server):
    page.goto(f"{live_server}/rulebook/dodge")
    page.wait_for_selector("figure.diagram svg.board")
    page.emulate_media(media="print")
    assert page.locator(".rules h1").is_visible()
    assert page.locator("figure.diagram svg.board").first.is_visible()
    assert page.locator("aside.decision").first.is_visible()
    hidden = ["header.site-header", "nav.rulebook-toc", "nav.pager", ".diagram-actions"]
    for selector in hidden:
        assert not page.locator(selector).first.is_visible(), selector
    visible_controls = page.eval_on_selector_all(
        "button, select, input, textarea", "ns => ns.filter(n => n.offsetParent !== null).length"
    )
    assert visible_controls == 0
    shoot(page, "13-rulebook-print")
    no_js_errors(page)


def test_position_editor_places_a_piece_and_starts_a_game(page, live_server):
    gid = new_game(live_server)
    open_game(page, live_server, gid)
    page.click("button[data-control=edit]")
    page.select_option(".editor select[name=side]", "S")
    page.select_option(".editor select[name=piece]", "X5")
    click_square(page, "G15")  # the ball carrier goes forward, with the ball
    page.select_option(".editor select[name=to_move]", "S")
    shoot(page, "14-position-editor")
    page.click("button[data-control=play-from-here]")
    page.wait_for_function(f"() => !location.search.includes('{gid}')")
    s = page.evaluate("window.ballSimulator.state")
    assert s["id"] == ""  # shown now, stored with its first action (issue 30 item 8)
    pieces = {(p["side"], p["id"]): p for p in s["position"]["pieces"]}
    assert pieces[("S", "X5")]["at"] == "G15"
    assert s["position"]["ball"] == {"carrier": "S:X5"} and s["actor"] == "S"
    assert "G15-I17" in s["legal"]
    first = "end" if "end" in s["legal"] else s["legal"][0]  # G15-I17 would score: a dialog
    page.evaluate(f"window.ballSimulator.apply('{first}')")
    page.wait_for_function("() => new URLSearchParams(location.search).get('game')")
    new_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    assert [e["action"] for e in state(live_server, new_id)["log"]] == [first]
    # importing a document: a file with the release diagram's position, checked by the server
    page.click("button[data-control=edit]")
    doc = diagrams()["release"]["position"]
    upload = {"name": "p.json", "mimeType": "application/json", "buffer": json.dumps(doc).encode()}
    page.set_input_files(".editor input[name=position-file]", files=[upload])
    page.click("button[data-control=play-from-here]")
    page.wait_for_function(f"() => !location.search.includes('{new_id}')")
    imported = page.evaluate("window.ballSimulator.state")
    assert imported["position"]["phase"] == "release" and imported["position"]["attack"] == "N"
    no_js_errors(page)


def test_new_game_against_the_computer(page, live_server):
    gid = new_game(live_server)
    open_game(page, live_server, gid)
    page.select_option("#new-game select[name=mode]", "computer")
    page.select_option("#new-game select[name=computer_side]", "N")
    page.select_option("#new-game select[name=computer_level]", "easy")
    page.click("#new-game button[type=submit]")
    page.wait_for_function(f"() => !location.search.includes('{gid}')")
    page.wait_for_selector(".log-table tbody tr")
    new_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    s = state(live_server, new_id)
    assert s["mode"] == "computer" and s["actor"] == "S"  # N (the computer) has moved
    assert s["computer_level"] == "easy"  # the level chosen on the page (issue 14)
    rows = page.locator(".log-table tbody tr").count()
    assert rows == len(s["log"]) > 0
    assert page.locator("button[data-control=undo]").count() == 0  # no take-backs
    assert page.locator(".board .origin").count() > 0  # S's pieces are lit for the human
    page.click("#stored-games summary")
    page.wait_for_selector(f'#stored-games a[href="/?game={gid}"]')
    page.click(f'#stored-games a[href="/?game={gid}"]')
    page.wait_for_url(f"**/?game={gid}")
    page.wait_for_selector("button[data-control=undo]")  # the free-play game again
    no_js_errors(page)
