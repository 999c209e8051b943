"""Browser: a selected piece's targets are drawn per action kind, with a legend (issue 13).

At 1366x768 and 390x844 (the `page` fixture). The oracle is the engine, not the page: each
legal action of the selected piece is parsed by `ball.games.ball.engine.actions.parse`, a move onto
an opponent counted as a Block and onto an ally as a Protection (spec 5.4), its first target
square taken from the tuple. The page must mark exactly those squares with exactly those
kinds, tell the kinds apart by shape (not colour alone, WCAG 1.4.1), list only those kinds in
the legend, and name the kind under the keyboard cursor (tag and live region)."""

from __future__ import annotations

import httpx
import pytest

from ball.games.ball.engine import actions
from ball.games.ball.engine.board import NAMES
from ball.games.ball.web.rulebook import diagrams

from .conftest import shoot

pytestmark = pytest.mark.browser

FORM_KIND = {"move": "move", "dodge": "dodge", "tdodge": "tdodge", "handoff": "handoff"}
LABELS = {"move": "Move", "block": "Block", "protect": "Protect", "dodge": "Dodge",
          "tdodge": "Tactical dodge", "handoff": "Hand-off", "short": "Short pass",
          "long": "Long pass", "up": "Stand up", "split": "Split the stack"}  # fmt: skip

# A mark's drawing without its size or colour: element names, path commands, polygon corners.
SHAPE_OF_MARK = """ns => ns.map(n => [n.dataset.kind, [...n.children].map(c => c.tagName + ':'
  + (c.getAttribute('d') || '').replace(/[^A-Za-z]/g, '')
  + (c.getAttribute('points') || '').trim().split(/\\s+/).filter(Boolean).length).join()])"""


def expected_targets(state: dict, origin: str) -> dict[str, set[str]]:
    """square -> kinds of the legal actions from `origin`, by the engine's parser."""
    pieces = state["position"]["pieces"]
    mover = next(p for p in pieces if p["at"] == origin and p["state"] != "bottom")
    out: dict[str, set[str]] = {}
    for text in state["legal"]:
        a = actions.parse(text)
        form = actions.FORM_OF_KIND[a[0]]
        if len(a) < 3 or not isinstance(a[1], int) or NAMES[a[1]] != origin:
            continue
        square = NAMES[a[2]]
        kind = form
        if form == "move":
            there = next((p for p in pieces if p["at"] == square), None)
            if there is not None:
                kind = "protect" if there["side"] == mover["side"] else "block"
        out.setdefault(square, set()).add(kind)
    return out


def open_diagram(page, live_server, name: str) -> dict:
    with httpx.Client(base_url=live_server, timeout=30) as c:
        r = c.post("/api/games", json={"position": diagrams()[name]["position"]})
        r.raise_for_status()
        state = r.json()
    page.goto(f"{live_server}/?game={state['id']}")
    page.wait_for_selector(".board .pieces [data-piece]")
    return state


def drawn_targets(page, cls: str) -> dict[str, set[str]]:
    rows = page.eval_on_selector_all(
        f".board .target.{cls}", "ns => ns.map(n => [n.dataset.square, n.dataset.kinds || ''])"
    )
    return {sq: set(kinds.split()) for sq, kinds in rows}


def tap(page, square: str) -> None:
    page.evaluate(f"window.ballSimulator.clickSquare({square!r})")


def test_a_selected_piece_shows_its_targets_per_kind_with_a_legend(page, live_server):
    state = open_diagram(page, live_server, "dodge")
    origins = {a.split("-")[0].split("/")[0] for a in state["legal"] if "-" in a}
    # the piece with the most kinds of action (the dodge diagram's dodger: move and dodge)
    origin = max(
        sorted(origins), key=lambda o: len(set().union(*expected_targets(state, o).values()))
    )
    expected = expected_targets(state, origin)
    kinds = set().union(*expected.values())
    assert len(kinds) >= 2, kinds
    page.locator(f'.board .sq[data-square="{origin}"]').scroll_into_view_if_needed()
    tap(page, origin)
    page.wait_for_selector(".board .target.preview")
    assert drawn_targets(page, "preview") == expected

    # a shape per kind: the marks of two kinds never have the same drawing
    shapes = page.eval_on_selector_all(
        ".board .target .kind-mark",
        SHAPE_OF_MARK,
    )
    by_kind = dict(shapes)
    assert set(by_kind) == kinds
    assert len(set(by_kind.values())) == len(kinds), by_kind
    # the legend names exactly the kinds shown, each with its mark
    legend = page.locator("[data-field=legend]")
    assert legend.is_visible()
    # next to the board, on screen without scrolling, nothing drawn over it
    seen = page.evaluate(
        """() => { const list = document.querySelector('[data-field=legend] ul');
        const r = list.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + 8, (r.top + r.bottom) / 2);
        return { top: r.top, bottom: r.bottom, height: innerHeight,
          mine: top !== null && top.closest('[data-field=legend]') !== null }; }"""
    )
    assert seen["top"] >= 0 and seen["bottom"] <= seen["height"] and seen["mine"], seen
    items = page.eval_on_selector_all(
        "[data-field=legend] li",
        "ns => ns.map(n => [n.dataset.kind, n.textContent.trim(),"
        " Boolean(n.querySelector('.kind-mark'))])",
    )
    assert {k for k, _, _ in items} == kinds
    assert all(text == LABELS[k] and mark for k, text, mark in items)
    shoot(page, "targets-per-kind")

    # a target reached by one kind only is played by a tap, without the menu
    single = sorted(sq for sq, ks in expected.items() if len(ks) == 1)
    assert single
    (kind,) = expected[single[0]]
    tap(page, single[0])
    # either the kind's next step is asked, or (a one-step action) it has been played
    page.wait_for_function(
        "() => { const s = window.ballSimulator; const v = s.composer.view();"
        " return v.stage === 'target' || s.state.log.length === 1; }"
    )
    view = page.evaluate("window.ballSimulator.composer.view()")
    played = page.evaluate("window.ballSimulator.state.log")
    if played:
        assert played[0]["action"].upper().startswith(origin) and single[0] in played[0]["action"]
    else:
        assert view["kind"] == kind and view["origin"] == origin and single[0] in view["picked"]


def test_cancel_hides_the_legend_and_the_cursor_names_the_kind(page, live_server):
    state = open_diagram(page, live_server, "dodge")
    origin = next(o for o in sorted({a.split("-")[0] for a in state["legal"] if "-" in a})
                  if "dodge" in set().union(*expected_targets(state, o).values()))  # fmt: skip
    tap(page, origin)
    page.click("button[data-kind=dodge]")
    page.wait_for_selector(".board .target.first")
    drawn = drawn_targets(page, "first")
    assert drawn and all(k == {"dodge"} for k in drawn.values())
    assert page.eval_on_selector_all(
        "[data-field=legend] li", "ns => ns.map(n => n.dataset.kind)"
    ) == ["dodge"]
    # the keyboard cursor starts on the first target; Up then Down comes back to it
    board = page.locator(".board")
    board.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    cursor = page.locator(".board .cursor").get_attribute("data-square")
    assert cursor in drawn
    assert "target: Dodge" in page.locator("[data-field=announce]").inner_text()
    tag = page.locator(".board .cursor-tag")
    assert tag.is_visible() and tag.locator("text").text_content() == "Dodge"
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.querySelector('[data-field=legend]').hidden")
    assert page.locator(".board .target").count() == 0


def test_every_kind_has_its_own_shape_and_a_legend_name(page, live_server):
    """All the kinds the page knows, drawn side by side: no two share a shape or a colour."""
    open_diagram(page, live_server, "dodge")
    kinds = [*LABELS, "card:x"]
    drawn = page.evaluate(
        """async (kinds) => {
          const m = await import('/static/js/legend.js');
          const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
          document.body.append(svg);
          kinds.forEach((k) => m.drawKindMark(svg, k, 8));
          return [...svg.children].map((n) => n.dataset.kind);
        }""",
        kinds,
    )
    assert drawn == kinds
    shapes = page.eval_on_selector_all("body > svg .kind-mark", SHAPE_OF_MARK)
    assert len({shape for _, shape in shapes}) == len(kinds), shapes
    colours = page.evaluate(
        "async () => Object.values((await import('/static/js/legend.js')).KIND_STYLES)"
        ".map((s) => s.colour)"
    )
    assert len(set(colours)) == len(colours)
