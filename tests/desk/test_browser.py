"""A complete 4-player round robin run from the browser (Debian's Chromium via Playwright).

The server runs in this process on a free loopback port with a fake clock, so the 10-minute
gap before signal 2 is crossed by moving the clock, not by waiting. Screenshots of the desk
and of the public display (desktop, projector, phone) go to test-artifacts/desk/.
"""

from __future__ import annotations

import re
import socket
import threading
from pathlib import Path

import pytest

from ball.web.app import create_app

from .browser_steps import add_entrants, create_event, import_entrants, pair_first_round
from .conftest import FakeClock

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "desk"
EVIL = "<script>alert(1)</script>"
PLAYERS = ["Ann", "Bo", "Cy", EVIL]

# The result of each pairing, by the two names (in any order): what the arbiter writes on
# the form. pb lists (coach A PBATK, B PBATK) of half 1 and (B PBATK, A PBATK) of half 2;
# each PBDEF is the opponent's PBATK (dual entry).
PLAN = {
    frozenset({"Ann", EVIL}): {"forfeit_by": EVIL},
    frozenset({"Bo", "Cy"}): {
        "winner": "Bo",
        "td": ("Bo", None),
        "pb": {"Bo": (4, 1), "Cy": (0, 5)},
        "sanction": ("Cy", "warning", "slow play"),
    },
    frozenset({"Cy", EVIL}): {
        "td": (EVIL, "Cy"),
        "pb": {EVIL: (5, 0), "Cy": (0, 3)},
        "expect": "attack efficiency",
    },
    frozenset({"Ann", "Bo"}): {
        "td": (None, None),
        "pb": {"Ann": (2, 1), "Bo": (1, 6)},
        "expect": "defensive superiority",
    },
    frozenset({"Bo", EVIL}): {"td": ("Bo", None), "pb": {"Bo": (3, 0), EVIL: (1, 4)}},
    frozenset({"Cy", "Ann"}): {"td": ("Cy", None), "pb": {"Cy": (2, 1), "Ann": (0, 6)}},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path, serve):
    clock = FakeClock()
    app = create_app(str(tmp_path / "event.sqlite"))
    app.state.clock_time = clock
    return serve(app), clock


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def tables_of(page) -> list[tuple[int, str, str]]:
    rows = []
    for row in page.locator("#pairings tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        rows.append((int(cells[0]), cells[1].strip(), cells[2].strip()))
    return rows


def fill_sheet(page, a: str, b: str, plan: dict) -> None:
    side = {a: "A", b: "B"}
    for half, (td, atk) in enumerate(zip(plan["td"], (a, b), strict=True), start=1):
        page.check(f"input[name=h{half}_td][value='{side[td] if td else ''}']")
        dfn = b if atk == a else a
        atk_pb, dfn_pb = plan["pb"][atk][half - 1], plan["pb"][dfn][half - 1]
        # The ATK-first coach's PBATK is their own; PBDEF of each mirrors the other's PBATK.
        page.fill(f"input[name=h{half}_{side[atk]}_atk]", str(atk_pb))
        page.fill(f"input[name=h{half}_{side[dfn]}_def]", str(atk_pb))
        page.fill(f"input[name=h{half}_{side[dfn]}_atk]", str(dfn_pb))
        page.fill(f"input[name=h{half}_{side[atk]}_def]", str(dfn_pb))


def enter_result(page, base: str, number: int, table: int, a: str, b: str, shots: bool) -> str:
    page.goto(f"{base}/desk/1/rounds/{number}/tables/{table}")
    plan = PLAN[frozenset({a, b})]
    if "forfeit_by" in plan:
        page.check(f"input[name=kind][value=forfeit-{'A' if plan['forfeit_by'] == a else 'B'}]")
    else:
        fill_sheet(page, a, b, plan)
    if "sanction" in plan:
        who, step, reason = plan["sanction"]
        page.select_option("select[name=sanction0_side]", "A" if who == a else "B")
        # Choosing the coach pre-selects their next step on the ladder.
        assert page.input_value("select[name=sanction0_step]") == step
        page.fill("input[name=sanction0_reason]", reason)
    decision = page.locator("#decision")
    if "forfeit_by" in plan:
        winner = b if plan["forfeit_by"] == a else a
        page.wait_for_function(
            "w => document.getElementById('decision').textContent.includes(w)", arg=winner
        )
    else:
        page.wait_for_function("() => document.getElementById('decision').classList.contains('ok')")
    text = decision.inner_text()
    if "expect" in plan:
        assert plan["expect"] in text, text
    if shots and "sanction" in plan:
        shot(page, "desk-result-form")
    page.click("#save")
    page.wait_for_url(re.compile(rf".*/desk/1/rounds/{number}(#.*)?$"))
    return text


def run_signals(page, base: str, clock: FakeClock, number: int, playing: list[int], shots: bool):
    page.goto(f"{base}/desk/1/rounds/{number}")
    assert page.locator("#signal-2").is_disabled()
    page.click("#signal-1")
    page.wait_for_selector("#control .given")
    countdown = page.locator("#countdown")
    expected = ", ".join(map(str, playing))
    assert f"still playing: {expected}" in countdown.inner_text()
    for table in playing:
        clock.advance(60 * 17 + table)
        page.locator(f"#half-end-{table} button.half-end").click()
        page.wait_for_selector(f"#half-end-{table}:not(.playing)")
    page.wait_for_function(
        "() => /allowed in 10:00/.test(document.getElementById('countdown').textContent)"
    )
    assert page.locator("#signal-2").is_disabled()
    if shots:
        shot(page, "desk-round-control")
    clock.advance(9 * 60)
    page.reload()
    page.wait_for_function(
        "() => /allowed in 1:00/.test(document.getElementById('countdown').textContent)"
    )
    assert page.locator("#signal-2").is_disabled()
    clock.advance(60)
    page.reload()
    page.wait_for_function("() => !document.getElementById('signal-2').disabled")
    page.click("#signal-2")
    page.wait_for_selector("#control .signal:nth-child(2) .given")


def test_a_round_robin_event_from_the_browser(server, browser):
    base, clock = server
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # Create the event; the desk opens with its PIN session.
    create_event(page, base, "Spring Cup", system="round-robin", fields={"place": "Sofia"})

    # Three entrants by hand, the fourth from a pasted CSV.
    add_entrants(page, PLAYERS[:3])
    import_entrants(page, f'name,club\n"{EVIL}",Nowhere\n')
    assert page.locator("tr.entrant td.name").all_inner_texts() == PLAYERS
    shot(page, "desk-event")

    decided: dict[frozenset, str] = {}
    for number in (1, 2, 3):
        page.goto(f"{base}/desk/1")
        page.click("#pair-next")
        page.wait_for_url(f"{base}/desk/1/rounds/{number}")
        tables = tables_of(page)
        assert len(tables) == 2
        playing = [t for t, a, b in tables if "forfeit_by" not in PLAN[frozenset({a, b})]]
        # A no-show is entered before the round starts, so it does not hold up signal 2.
        for table, a, b in tables:
            if table not in playing:
                decided[frozenset({a, b})] = enter_result(page, base, number, table, a, b, False)
        run_signals(page, base, clock, number, playing, shots=number == 2)
        for table, a, b in tables:
            if table in playing:
                decided[frozenset({a, b})] = enter_result(
                    page, base, number, table, a, b, number == 1
                )
        for row in page.locator("#pairings tbody tr td.result").all_inner_texts():
            assert row.strip() not in ("", "—")
        if number == 1:
            shot(page, "desk-round")
    assert len(decided) == 6

    # The public display, as a visitor without the PIN.
    visitor = browser.new_context(viewport={"width": 1280, "height": 800})
    public = visitor.new_page()
    public.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    public.goto(f"{base}/public/1/standings")
    names = [n.strip() for n in public.locator("#standings tbody td.name").all_inner_texts()]
    assert names == ["Bo", "Ann", "Cy", EVIL]
    points = public.locator("#standings tbody td.points").all_inner_texts()
    assert points == ["2", "2", "2", "0"]
    headers = public.locator("#standings thead th.tb").evaluate_all(
        "cells => cells.map(c => c.dataset.tiebreak)"
    )
    column = {name: i for i, name in enumerate(headers)}
    rows = [
        r.locator("td.tb").all_inner_texts() for r in public.locator("#standings tbody tr").all()
    ]
    # The three leaders beat each other in a circle: direct encounter, Sonneborn-Berger, wins
    # and Koya tie; touchdown difference separates them (the forfeit counts 2-0).
    for tb in ("direct-encounter", "sonneborn-berger", "wins", "koya"):
        assert len({rows[i][column[tb]] for i in range(3)}) == 1, tb
    assert [r[column["td-difference"]] for r in rows] == ["2", "1", "0", "-3"]
    shot(public, "public-standings-desktop")
    public.goto(f"{base}/public/1/results")
    assert public.get_by_text(f"forfeit by {EVIL} (0–2)").count() == 1
    shot(public, "public-results-desktop")

    projector = browser.new_context(viewport={"width": 1920, "height": 1080})
    big = projector.new_page()
    big.goto(f"{base}/public/1/standings")
    shot(big, "public-standings-projector")

    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    small = phone.new_page()
    small.goto(f"{base}/public/1/pairings?lang=ko")
    assert small.locator("html").get_attribute("lang") == "ko"
    shot(small, "public-pairings-phone-ko")
    small.goto(f"{base}/public/1/standings?lang=bg")
    width = small.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page scrolls sideways on a phone ({width}px)"
    shot(small, "public-standings-phone-bg")
    small.locator(".scroll").evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    name_box = small.locator("#standings tbody tr:first-child td.name").bounding_box()
    assert name_box["x"] >= 0, "the name column scrolled away"
    shot(small, "public-standings-phone-bg-swiped")

    # The desk in the other languages (translations must not break the layout).
    page.goto(f"{base}/desk/1/rounds/3?lang=ko")
    assert page.locator("#control h2").inner_text() == "라운드 진행: 공통 시작 신호"
    shot(page, "desk-round-ko")
    page.goto(f"{base}/desk/1/rounds/3/tables/1?lang=bg")
    assert "Решен резултат" in page.locator(".decision h2").inner_text()
    shot(page, "desk-result-form-bg")
    tablet = browser.new_context(
        viewport={"width": 800, "height": 1100}, storage_state=context.storage_state()
    )
    pad = tablet.new_page()
    pad.goto(f"{base}/desk/1/rounds/3/tables/2?lang=en")
    shot(pad, "desk-result-form-tablet")
    tablet.close()

    assert dialogs == [], "a name ran as script"
    assert errors == []
    for ctx in (context, visitor, projector, phone):
        ctx.close()


@pytest.fixture
def evil_site():
    """Another origin on loopback (another port) serving `html`; returns its URL."""
    import http.server

    pages: dict[str, str] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the stdlib's name
            body = pages.get("html", "").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()

    def serve(html: str) -> str:
        pages["html"] = html
        return f"http://127.0.0.1:{httpd.server_address[1]}/"

    yield serve
    httpd.shutdown()
    httpd.server_close()


def test_a_cross_site_form_post_is_refused_in_the_browser(server, browser, evil_site):
    base, _clock = server
    context = browser.new_context()
    page = context.new_page()
    create_event(page, base, "Club night")
    token = page.locator("#add-entrant input[name=csrf]").input_value()
    # Even with the right CSRF token copied into it, a form from another origin (here another
    # port: same site, so the SameSite cookie is sent) is refused.
    attack = evil_site(
        f"""<form id="f" method="post" action="{base}/desk/1/entrants">
        <input name="name" value="Forged"><input name="csrf" value="{token}"></form>
        <script>document.getElementById("f").submit()</script>"""
    )
    with page.expect_response(f"{base}/desk/1/entrants") as info:
        page.goto(attack)
    assert info.value.status == 403
    assert "cross-site request refused" in page.content()
    page.goto(f"{base}/desk/1")
    assert "Forged" not in page.locator("#entrants").inner_text()
    context.close()


def test_the_round_page_stays_put_when_a_poll_finds_nothing_new(server, browser):
    """round.js polls control.json every 5 s and reloads on a change. The page's own copy of
    the state is written by Jinja's tojson (keys sorted), control.json in the server's key
    order: compared as text they always differed, so the desk reloaded itself every 5 s
    (and a reload could cut into the arbiter's next click)."""
    base, _clock = server
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    create_event(page, base, "Poll Cup", system="round-robin")
    add_entrants(page, ("Ann", "Bo", "Cy", "Di"))
    pair_first_round(page, base)
    page.clock.install()  # the page's timers run when the test says, not by the wall clock
    page.reload()
    page.evaluate("window.loadedOnce = true")
    for _ in range(2):  # two polls, each answered with the state the page already shows
        with page.expect_response(re.compile(r".*/rounds/1/control\.json$")):
            page.clock.run_for(5_000)
        page.wait_for_load_state()
    page.clock.run_for(250)  # a reload, had one been asked for, has started by now
    page.wait_for_load_state()
    assert page.evaluate("window.loadedOnce === true"), "the round page reloaded itself"
