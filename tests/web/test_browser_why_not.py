"""Browser (1366x768 and 390x844): a tap that does nothing says why (issue 36 items 4 and 7).

Item 4: tapping an opponent's piece, a knocked-down piece, a blocked piece (hemmed in, a
stack, one that took the ball this turn) or a square that is not a target of the selected
piece writes one line under the board, in words, from the reasons the server's engine ships
with every state (`ball.games.ball.match.why_not`); the composition is kept. Item 7: a carrier's
long passes are drawn only once Long pass is chosen (the legend says how many wait), a stack's
badge stays above the last turn's arrows and the cursor names both its pieces, and the split
question names the piece that keeps the ball. axe stays at zero serious/critical findings."""

from __future__ import annotations

import copy

import httpx
import pytest

from ball.games.ball.engine import actions
from ball.games.ball.engine.board import NAMES
from ball.games.ball.web.rulebook import diagrams

from .conftest import shoot
from .test_browser import click_square, no_js_errors, open_game

pytestmark = pytest.mark.browser

WHY = "[data-field=why-not]"


def create(base: str, position: dict, then: tuple[str, ...] = ()) -> str:
    with httpx.Client(base_url=base, timeout=30) as c:
        r = c.post("/api/games", json={"mode": "free", "position": position})
        r.raise_for_status()
        gid = r.json()["id"]
        for action in then:
            c.post(f"/api/games/{gid}/actions", json={"action": action}).raise_for_status()
    return gid


def hemmed_in() -> dict:
    """The hand-off diagram (S to move) changed so that three S pieces cannot act: X1 in
    the A17 corner behind a stack on B16, O6 on top of a stack on H10, X7 holding the ball
    it took this turn."""
    d = copy.deepcopy(diagrams()["handoff"]["position"])
    p = {(x["side"], x["id"]): x for x in d["pieces"]}
    p["S", "X1"]["at"] = "A17"
    p["N", "X1"].update(at="B16", state="top")
    p["S", "X3"].update(at="B16", state="bottom")
    p["S", "O6"].update(at="H10", state="top")
    p["N", "O6"].update(at="H10", state="bottom")
    d["restricted"] = ["S:X7"]
    return d


def why(page) -> str:
    line = page.locator(WHY)
    assert line.is_visible()
    return line.inner_text()


def test_a_tap_on_a_piece_that_cannot_act_says_why(page, live_server, axe):
    gid = create(live_server, hemmed_in())
    open_game(page, live_server, gid)
    assert not page.locator(WHY).is_visible()  # nothing to say before a tap
    cases = {
        "J10": "North X7 belongs to the other side: South is to move.",
        "A17": "South X1 is blocked: there is nothing it may do from A17 now.",
        "H10": "The stack on H10 (South O6 on North O6) cannot act: it is split in a release"
        " phase.",
        "J8": "South X7 took the ball this turn and may not start another action.",
    }
    for square, words in cases.items():
        click_square(page, square)
        assert why(page) == words, square
        # nothing was selected: the pieces that can act are still lit
        assert page.locator(".board .origin").count() > 0
    shoot(page, "why-not-stack")
    assert axe(page) == []
    # a tap that acts (S's O2 on F8 is selected) clears the line
    click_square(page, "F8")
    page.wait_for_selector(".board .selected")
    assert not page.locator(WHY).is_visible()
    no_js_errors(page)


def test_a_knocked_down_piece_and_an_illegal_target_say_why(page, live_server):
    # block-steal: N dodges D10 over F8 (knocking S's O2 down), blocks G9, continues; S moves
    gid = create(
        live_server, diagrams()["block-steal"]["position"], ("D10-F8/E7", "H10-G9", "continue")
    )
    open_game(page, live_server, gid)
    click_square(page, "F8")
    assert why(page) == "South O2 is knocked down: it stands up in its side's release phase."
    # the live region of the page (keyboard.js speaks for the widget) reads it too
    page.wait_for_function(
        "() => document.querySelector('[data-field=announce]').textContent.includes('O2')"
    )

    # an illegal target: N's X5 on H10 selected (before its turn's actions)
    gid2 = create(live_server, diagrams()["block-steal"]["position"])
    open_game(page, live_server, gid2)
    click_square(page, "H10")  # N's X5 (several kinds: the menu opens)
    page.wait_for_selector(".board .selected")
    click_square(page, "F8")  # over S's carrier on G9: not a plain move
    assert why(page).startswith("South X5 on G9 is in the way")
    click_square(page, "B4")
    assert why(page) == "B4 is out of reach of N X5."
    # the composition is kept: H10 is still selected
    assert page.locator(".board .selected").count() == 1
    shoot(page, "why-not-target")
    no_js_errors(page)


def test_long_passes_are_drawn_on_demand(page, live_server):
    state_gid = create(live_server, diagrams()["long-pass"]["position"])
    with httpx.Client(base_url=live_server, timeout=30) as c:
        legal = c.get(f"/api/games/{state_gid}").json()["legal"]
    longs = {a for a in legal if actions.parse(a)[0] == actions.LONG}
    assert len(longs) > 10
    carrier = actions.parse(next(iter(longs)))[1]
    origin = NAMES[carrier]
    open_game(page, live_server, state_gid)
    click_square(page, origin)
    page.wait_for_selector("button[data-kind=long]")
    # before Long pass is chosen: no long-pass mark, the other kinds still shown
    assert page.locator(".board .target [data-kind=long]").count() == 0
    assert page.locator(".board .target").count() > 0
    note = page.locator("[data-field=long-hidden]").inner_text()
    assert note == f"Long pass: {len(longs)} squares, shown when you choose Long pass."
    shoot(page, "long-pass-hidden")
    # a tap on a long-pass square says how to see them
    far = NAMES[actions.parse(sorted(longs)[0])[2]]
    click_square(page, far)
    assert "long-pass target: choose Long pass" in why(page)
    page.click("button[data-kind=long]")
    page.wait_for_selector(".board .target.first")
    assert page.locator(".board .target.first").count() == len(longs)
    assert page.locator("[data-field=long-hidden]").count() == 0
    no_js_errors(page)


def test_the_split_question_names_its_pieces_and_stacks_stay_legible(page, live_server):
    gid = create(live_server, diagrams()["release"]["position"])
    open_game(page, live_server, gid)
    click_square(page, "G9")
    page.wait_for_selector(".board .target.first")
    click_square(page, "H10")
    page.wait_for_selector("button[data-word=top]")
    top = page.locator("button[data-word=top]").inner_text()
    bottom = page.locator("button[data-word=bottom]").inner_text()
    assert top == "N X5 (on top) keeps the ball"
    assert bottom.endswith("(underneath) keeps the ball") and bottom != top
    shoot(page, "split-named")
    # the stack's badge names both pieces, and lies above the last turns' arrows
    title = page.locator(".board .stack-count title").first.text_content()
    assert "N X5" in title and "Block" in title
    order = page.evaluate(
        "() => [...document.querySelector('.board').children].map(n => n.getAttribute('class'))"
    )
    if "arrows" in order:
        assert order.index("arrows") < order.index("pieces")
    no_js_errors(page)


def test_learn_says_why(page, live_server):
    page.goto(f"{live_server}/learn#move")
    page.wait_for_selector("#lesson-board .board .pieces [data-piece]")
    state = page.evaluate("() => window.ballLearn.sim.state")
    mover = state["actor"]
    other = next(p for p in state["position"]["pieces"] if p["side"] != mover)
    click_square(page, other["at"])
    line = page.locator("#lesson-board " + WHY)
    assert line.is_visible()
    assert "belongs to the other side" in line.inner_text()
    # Learn has the simulator's keyboard layer too: its live region speaks for the board
    # and reads the line (one live region, not two saying the same)
    page.wait_for_function(
        "() => document.querySelector('#lesson-board [data-field=announce]')"
        ".textContent.includes('belongs to the other side')"
    )
    assert line.get_attribute("aria-live") is None
    shoot(page, "why-not-learn")
    no_js_errors(page)
