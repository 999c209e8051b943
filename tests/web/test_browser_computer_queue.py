"""Browser: the computer's reply that the server answers 202 (its search was held by a server
process that died, issue 34) still reaches the page: the page asks where the answer says
until the reply is ready, then shows the computer's turn, and the page is not left busy."""

from __future__ import annotations

import httpx
import pytest

from ball.play import search_jobs, search_work

pytestmark = pytest.mark.browser
SIM = "window.ballSimulator"
IDLE = f"() => {SIM}.state && !document.getElementById('sim').hasAttribute('aria-busy')"


def test_a_reply_answered_202_is_collected_by_the_page(page, live_server, monkeypatch):
    searching = search_work.run
    held: list[int] = []

    def first_claimer_dies(sessions, job, client) -> None:
        held.append(job.id)
        if len(held) > 1:  # a live process (the page's next question) searches it
            searching(sessions, job, client)

    monkeypatch.setattr(search_work, "run", first_claimer_dies)
    monkeypatch.setattr(search_work, "QUICK_WAIT", 0.0)
    monkeypatch.setattr(search_jobs, "LEASE_SECONDS", 0.5)
    body = {"mode": "computer", "computer_side": "S", "computer_level": "greedy"}
    with httpx.Client(base_url=live_server, timeout=60) as c:
        made = c.post("/api/games", json=body).json()  # North, the player, moves first
    page.goto(f"{live_server}/?game={made['id']}")
    page.wait_for_selector(".board .pieces [data-piece]")
    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if "/actions" in r.url else None)
    for _ in range(6):
        if page.evaluate(f"{SIM}.state.actor") == "S" or held:
            break
        cheapest = "l => l.includes('end') ? 'end' : l[0]"  # end the turn when it may
        page.evaluate(f"() => {SIM}.apply(({cheapest})({SIM}.state.legal))")
        page.wait_for_function(IDLE, timeout=30_000)
    page.wait_for_function(f"() => {SIM}.state.log.some((e) => e.side === 'S')", timeout=30_000)
    page.wait_for_function(IDLE)
    assert 202 in answers and len(held) == 2  # answered 202, then searched on asking
    state = page.evaluate(f"{SIM}.state")
    assert state["actor"] == "N" and state["log"][-1]["side"] == "S"
    banner = page.locator("#sim [data-field=banner]").inner_text()
    assert banner.endswith("Your turn: you play North (N).")
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []


def test_a_game_opened_on_the_computers_lost_turn_asks_for_the_move(page, live_server, monkeypatch):
    # the player's turn ends through the API on a process that dies mid-search (202); the
    # player opens the game again: the page asks for the move until it is played
    searching = search_work.run
    held: list[int] = []

    def first_claimer_dies(sessions, job, client) -> None:
        held.append(job.id)
        if len(held) > 1:
            searching(sessions, job, client)

    monkeypatch.setattr(search_work, "run", first_claimer_dies)
    monkeypatch.setattr(search_work, "QUICK_WAIT", 0.0)
    monkeypatch.setattr(search_jobs, "LEASE_SECONDS", 0.5)
    body = {"mode": "computer", "computer_side": "S", "computer_level": "greedy"}
    with httpx.Client(base_url=live_server, timeout=60) as c:
        state = c.post("/api/games", json=body).json()
        for _ in range(6):
            action = "end" if "end" in state["legal"] else state["legal"][0]
            answer = c.post(f"/api/games/{state['id']}/actions", json={"action": action})
            if answer.status_code == 202:
                break
            state = answer.json()
    assert answer.status_code == 202 and held
    page.goto(f"{live_server}/?game={state['id']}")
    page.wait_for_function(f"() => {SIM}.state && {SIM}.state.actor === 'N'", timeout=30_000)
    page.wait_for_function(IDLE)
    shown = page.evaluate(f"{SIM}.state")
    assert shown["log"][-1]["side"] == "S" and len(held) == 2
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []
