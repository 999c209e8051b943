"""Table clocks, issue 36 item 16, at both sizes: a Mahjong clock's panels are labelled with
their wind and player, and on a portrait phone lying in the middle of the table they sit in
seating order round it (East at the bottom edge, South right, West top, North left), each
turned to face its player; on a player's turn the 15 s countdown that drives penalties is
the big number and the hand's time is the smaller line; the new-clock form fits a phone.
"""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import shoot

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
WINDS = ["East", "South", "West", "North"]
# the turn each seat's panel makes on a portrait phone: CSS rotate() as (cos, sin)
FACING = {"east": (1, 0), "south": (0, -1), "west": (-1, 0), "north": (0, 1)}


def create(base: str) -> int:
    body = {"table": "T3", "round": "R2", "control": "mahjong-wmc", "pin": "2468"}
    r = httpx.post(f"{base}/clock/api/clocks", json={**body, "players": PLAYERS}, timeout=20)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def turn_of(page, seat: str) -> tuple[int, int]:
    matrix = page.eval_on_selector(
        f'.side[data-seat="{seat}"] .face', "n => getComputedStyle(n).transform"
    )
    if matrix == "none":
        return (1, 0)
    a, b = (float(v) for v in re.findall(r"-?[\d.e-]+", matrix)[:2])
    return (round(a), round(b))


def test_mahjong_panels_sit_round_the_table_with_winds(page, live_server, axe) -> None:
    clock_id = create(live_server)
    page.goto(f"{live_server}/clock/{clock_id}")
    sides = page.locator(".side")
    assert [sides.nth(i).locator(".wind").inner_text().title() for i in range(4)] == WINDS
    assert [sides.nth(i).locator(".name").inner_text() for i in range(4)] == PLAYERS
    box = {s: page.locator(f'.side[data-seat="{s}"]').bounding_box() for s in FACING}
    phone = page.viewport_name == "phone"
    if phone:  # round the phone, in seating order, each facing its player
        assert box["west"]["y"] + box["west"]["height"] <= box["north"]["y"] + 1
        assert box["north"]["x"] + box["north"]["width"] <= box["south"]["x"] + 1
        assert abs(box["north"]["y"] - box["south"]["y"]) < 2
        assert box["south"]["y"] + box["south"]["height"] <= box["east"]["y"] + 1
        assert {s: turn_of(page, s) for s in FACING} == FACING
        for seat in FACING:  # the turned face stays inside its panel
            face = page.locator(f'.side[data-seat="{seat}"] .digits').bounding_box()
            panel = box[seat]
            assert (
                panel["x"] - 1 <= face["x"]
                and face["x"] + face["width"] <= panel["x"] + panel["width"] + 1
            )
        for seat in FACING:  # each panel fills its share of the table
            assert box[seat]["width"] * box[seat]["height"] > 0.12 * 390 * 844 * 0.6
    else:  # a laptop: every panel upright
        assert all(turn_of(page, s) == (1, 0) for s in FACING)
    shoot(page, "clock-mahjong-ready")
    assert axe(page) == []

    page.click("#btn-start")
    page.wait_for_function("document.querySelector('#clock-table').dataset.status === 'running'")
    east = page.locator('.side[data-seat="east"]')
    page.wait_for_function(
        "document.querySelector('.side[data-seat=east]').classList.contains('to-move')"
    )
    # East's turn: the big number is the 15 s turn countdown, captioned; the hand's 3 min
    # budget is the smaller line
    assert re.fullmatch(r"0:(1[0-5]|0\d)", east.locator(".digits").inner_text())
    assert east.locator(".caption").inner_text().lower() == "turn"
    assert re.search(r"Hand [23]:\d\d", east.locator(".detail").inner_text())
    south = page.locator('.side[data-seat="south"]')
    assert south.locator(".digits").inner_text() == "3:00"  # not on turn: the hand budget
    assert south.locator(".caption").inner_text().lower() == "hand"
    big = east.locator(".digits").bounding_box()["height"]
    small = east.locator(".detail").bounding_box()["height"]
    assert big > 2 * small
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]  # nothing (a turned Call button) sticks out sideways
    shoot(page, "clock-mahjong-turn")
    assert axe(page) == []


def test_the_new_clock_form_fits_a_phone(page, live_server) -> None:
    page.goto(f"{live_server}/clock")
    form = page.locator("#clock-create").bounding_box()
    fields = page.locator("#clock-create input, #clock-create select")
    assert fields.count() == 5
    for i in range(fields.count()):
        field = fields.nth(i)
        box = field.bounding_box()
        assert box["height"] >= 44, f"field {i} is {box['height']}px tall"
        assert abs(box["width"] - form["width"]) < 2, "fields take the form's full width"
        assert field.evaluate("n => getComputedStyle(n).fontSize") == "16px"  # no iOS zoom
    assert page.locator("#clock-create button").bounding_box()["height"] >= 44
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    shoot(page, "clock-create-form")


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes intersect (touching edges do not)."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_call_buttons_never_cover_any_digits(page, live_server) -> None:
    """Issue 36 loose end 5: West's turned Call button lay over West's digits on a phone."""
    clock_id = create(live_server)
    page.goto(f"{live_server}/clock/{clock_id}")
    page.click("#btn-start")
    page.wait_for_function("document.querySelector('#clock-table').dataset.status === 'running'")
    page.wait_for_function(
        "document.querySelector('.side[data-seat=east]').classList.contains('to-move')"
    )
    digits = {s: page.locator(f'.side[data-seat="{s}"] .digits').bounding_box() for s in FACING}
    calls = {s: page.locator(f'.seat-cell[data-seat="{s}"] .call') for s in FACING}
    # the player to move has no Call button; the other three have one each
    assert [s for s, call in calls.items() if call.is_visible()] == ["south", "west", "north"]
    for seat, call in calls.items():
        if seat == "east":
            continue
        box = call.bounding_box()
        covered = [other for other, d in digits.items() if overlap(box, d)]
        assert covered == [], f"{seat}'s Call button covers the digits of {covered}"
    shoot(page, "clock-mahjong-calls")
